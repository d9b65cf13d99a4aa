import * as assert from 'assert';
import { MAX_UPDATE_CHECKS, registryOrigins } from '../../src/core/features/mcpRegistry/registryOrigins';

describe('servers installed from a registry (for updates)', () => {
  const registry = 'https://registry.example/';
  const file = (servers: Record<string, unknown>) => `{\n  // comments are fine\n  "servers": ${JSON.stringify(servers)},\n}`;

  it('finds the entries with a gallery of the configured registry and their version', () => {
    const text = file({
      'io.github.a/one': { type: 'stdio', command: 'npx', args: ['one'], gallery: 'https://registry.example', version: '1.0.0' },
      'io.github.b/two': { type: 'http', url: 'https://b.example/mcp', gallery: 'https://registry.example/', version: '2.0.0' },
      'by-hand': { type: 'stdio', command: 'node', args: ['x.js'] },
    });
    assert.deepStrictEqual(registryOrigins(text, registry), [
      { name: 'io.github.a/one', version: '1.0.0' },
      { name: 'io.github.b/two', version: '2.0.0' },
    ]);
  });

  it('never names another registry: a workspace file cannot make MCP Host contact the address it writes', () => {
    const text = file({ evil: { type: 'stdio', command: 'npx', args: [], gallery: 'http://127.0.0.1:9/', version: '0.0.1' }, odd: { gallery: 'file:///etc/passwd', version: '1' } });
    assert.deepStrictEqual(registryOrigins(text, registry), []);
  });

  it('reads nothing from a broken file or a wrong shape, and checks at most MAX_UPDATE_CHECKS', () => {
    assert.deepStrictEqual(registryOrigins('{ "servers": {', registry), []);
    assert.deepStrictEqual(registryOrigins('{ "servers": [] }', registry), []);
    assert.deepStrictEqual(registryOrigins(file({ a: { gallery: registry, version: 3 } }), registry), []);
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`s${i}`, { gallery: registry, version: '1' }]));
    assert.strictEqual(registryOrigins(file(many), registry).length, MAX_UPDATE_CHECKS);
  });
});
