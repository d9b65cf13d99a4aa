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

  it('reads "debug" in VS Code\'s format: { type: "node" } or { type: "debugpy", debugpyPath? }', () => {
    const node = server('{ "watch": "src/**", "debug": { "type": "node" } }');
    assert.deepStrictEqual(node.diagnostics, []);
    assert.deepStrictEqual((node.servers[0].server as { dev?: unknown }).dev, { watch: ['src/**'], debug: { type: 'node' } });
    // `debug` alone is dev mode too (no files watched).
    const python = server('{ "debug": { "type": "debugpy", "debugpyPath": "${workspaceFolder}/.venv/bin/debugpy" } }');
    assert.deepStrictEqual(python.diagnostics, []);
    assert.deepStrictEqual((python.servers[0].server as { dev?: unknown }).dev, { watch: [], debug: { type: 'debugpy', debugpyPath: '${workspaceFolder}/.venv/bin/debugpy' } });
    assert.deepStrictEqual((server('{ "debug": { "type": "debugpy" } }').servers[0].server as { dev?: unknown }).dev, { watch: [], debug: { type: 'debugpy' } });
  });

  it('says what is wrong with a "debug" it cannot use, and starts the server without a debugger', () => {
    const messages = (dev: string) => server(dev).diagnostics.map((d) => [d.severity, d.message]);
    const unknownType = server('{ "watch": "src/**", "debug": { "type": "go" } }');
    assert.deepStrictEqual(unknownType.diagnostics.map((d) => [d.severity, d.message]), [['warning', '"dev.debug.type" must be "node" or "debugpy": the server starts without a debugger.']]);
    assert.deepStrictEqual((unknownType.servers[0].server as { dev?: unknown }).dev, { watch: ['src/**'] });
    assert.deepStrictEqual(messages('{ "debug": {} }'), [['warning', '"dev.debug.type" must be "node" or "debugpy": the server starts without a debugger.']]);
    assert.deepStrictEqual(messages('{ "debug": "node" }'), [['error', '"dev.debug" must be an object with "type", not a string.']]);
    assert.deepStrictEqual(messages('{ "debug": { "type": "debugpy", "debugpyPath": 3 } }'), [['error', '"dev.debug.debugpyPath" must be a string, not a number.']]);
  });

  it('rejects a "dev" of the wrong shape', () => {
    assert.deepStrictEqual(server('"src"').diagnostics.map((d) => d.message), ['"dev" must be an object with "watch" or "debug", not a string.']);
    assert.deepStrictEqual(server('{ "watch": 3 }').diagnostics.map((d) => d.message), ['"dev.watch" must be an array of strings, not a number.']);
  });
});
