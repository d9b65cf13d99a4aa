// Stands in for `@modelcontextprotocol/client/_shims` in the host bundle (see esbuild.js): the SDK's Node shims
// without ajv. The connection always passes CfWorkerJsonSchemaValidator, so this default is the same validator.
export const CORS_IS_POSSIBLE = false;
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
