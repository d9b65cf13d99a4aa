// Stands in for `@modelcontextprotocol/server/_shims` in the host bundle (see esbuild.js): the server package's Node
// shims without ajv (150 KB). The gateway (src/core/features/gateway) serves tools it relays and never validates a
// schema itself; where the SDK would, it uses the lighter @cfworker/json-schema validator the client side uses too.
import process from 'node:process';
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
export { process };
