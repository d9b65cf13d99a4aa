// `dev: { watch, debug }` in mcp.json (VS Code's dev mode), as the parser reads it.
import * as assert from 'assert';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';

describe('dev mode in mcp.json', () => {
  const server = (dev: string) => parseMcpConfig(`{ "servers": { "s": { "command": "node", "args": ["a.js"], "dev": ${dev} } } }`);

  it('reads "watch" as one glob or a list of them', () => {
    assert.deepStrictEqual(server('{ "watch": "src/**/*.ts" }').servers[0].server, { type: 'stdio', command: 'node', args: ['a.js'], env: {}, dev: { watch: ['src/**/*.ts'] } });
    const both = server('{ "watch": ["src/**", "lib/*.js"] }');
    assert.deepStrictEqual(both.diagnostics, []);
    assert.deepStrictEqual((both.servers[0].server as { dev?: unknown }).dev, { watch: ['src/**', 'lib/*.js'] });
  });

  it('says that "debug" is not supported, and rejects a wrong shape', () => {
    const debug = server('{ "watch": "src/**", "debug": { "type": "node" } }');
    assert.deepStrictEqual(debug.diagnostics.map((d) => [d.severity, d.message]), [['warning', '"dev.debug" is not supported by MCP Host: the server starts without a debugger.']]);
    assert.strictEqual(debug.servers.length, 1);
    assert.deepStrictEqual(server('"src"').diagnostics.map((d) => d.message), ['"dev" must be an object with "watch", not a string.']);
    assert.deepStrictEqual(server('{ "watch": 3 }').diagnostics.map((d) => d.message), ['"dev.watch" must be an array of strings, not a number.']);
  });
});
