#!/usr/bin/env node
// The headless MCP Host client that the MCP conformance suite drives (compiled by `npm run compile` into out/):
//   node scripts/conformance-client.mjs [--client-metadata-url URL] [--timeout SECONDS] <server-url>
// Logs go to stderr; the exit code is 0 when it connected and every tool call worked.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { main } = require('../out/src/cli/conformanceClient.js');

const code = await main(process.argv.slice(2), process.env, (line) => process.stderr.write(`${line}\n`));
process.exit(code);
