import * as assert from 'assert';
import { denialIn, ruleReady } from '../../src/core/protocol/launch/sandboxDenials.lazy';
import { ruleText, withSandboxRule } from '../../src/core/protocol/launch/sandboxRuleEdit.lazy';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';

describe('sandbox denials: read from the output, the rule that allows them written into mcp.json', () => {
  it('reads what the runtime\'s proxy blocked and the errors servers print for refused files and names', () => {
    assert.deepStrictEqual(denialIn('[SandboxDebug] Connection blocked to api.github.com:443'), { kind: 'network', host: 'api.github.com' });
    assert.deepStrictEqual(denialIn('[SandboxDebug] HTTP request blocked to example.org:80'), { kind: 'network', host: 'example.org' });
    assert.deepStrictEqual(denialIn("write failed: EROFS: read-only file system, open '/srv/out/x.txt'"), { kind: 'write', path: '/srv/out/x.txt' });
    assert.deepStrictEqual(denialIn("Error: EACCES: permission denied, open '/home/ada/proj/.env'"), { kind: 'read', path: '/home/ada/proj/.env' });
    assert.deepStrictEqual(denialIn("Error: EACCES: permission denied, mkdir '/opt/cache'"), { kind: 'write', path: '/opt/cache' });
    assert.deepStrictEqual(denialIn("OSError: [Errno 30] Read-only file system: '/data/x'"), { kind: 'write', path: '/data/x' });
    assert.deepStrictEqual(denialIn('fetch failed: getaddrinfo EAI_AGAIN registry.example.com'), { kind: 'network', host: 'registry.example.com' });
    for (const line of ['[SandboxDebug] Initializing sandbox...', 'all good', "EROFS: read-only file system, open 'relative/path'", 'getaddrinfo ENOTFOUND localhost']) assert.strictEqual(denialIn(line), undefined, line);
  });

  it('a file not made yet is allowed through the nearest folder that exists (the sandbox allows only what exists)', () => {
    const exists = (p: string): boolean => p === '/srv' || p === '/srv/out/x.txt' || p === '/';
    assert.deepStrictEqual(ruleReady({ kind: 'write', path: '/srv/out/new/y.txt' }, exists), { kind: 'write', path: '/srv/out/new/y.txt', allow: '/srv' });
    assert.deepStrictEqual(ruleReady({ kind: 'write', path: '/srv/out/x.txt' }, exists), { kind: 'write', path: '/srv/out/x.txt' });
    assert.strictEqual(ruleText({ kind: 'write', path: '/srv/out/new/y.txt', allow: '/srv' }), '"/srv" in sandbox.filesystem.allowWrite');
  });

  it('a hostile line costs linear time and yields nothing', () => {
    const started = Date.now();
    for (const line of ['EROFS: ' + 'a, '.repeat(200_000), '[Errno 30] ' + ' '.repeat(200_000), 'getaddrinfo EAI_AGAIN ' + 'a.'.repeat(200_000)]) denialIn(line);
    assert.ok(Date.now() - started < 500);
  });

  it('Allow and Restart adds the exact rule where VS Code keeps it, comments and formatting kept, once', () => {
    const text = `{
  // my servers
  "servers": { "fs": { "command": "npx", "sandboxEnabled": true } }
}
`;
    const once = withSandboxRule(text, { kind: 'write', path: '/srv/out' });
    assert.ok(once.includes('// my servers'));
    const parsed = parseMcpConfig(once);
    assert.deepStrictEqual(parsed.diagnostics, []);
    const server = parsed.servers[0].server;
    assert.ok(server.type === 'stdio');
    assert.deepStrictEqual(server.sandbox?.filesystem.allowWrite, ['/srv/out']);
    const twice = withSandboxRule(withSandboxRule(once, { kind: 'network', host: 'api.github.com' }), { kind: 'write', path: '/srv/other' });
    const s2 = parseMcpConfig(twice).servers[0].server;
    assert.ok(s2.type === 'stdio');
    assert.deepStrictEqual(s2.sandbox?.filesystem.allowWrite, ['/srv/out', '/srv/other']);
    assert.deepStrictEqual(s2.sandbox?.network.allowedDomains, ['api.github.com']);
    assert.strictEqual(withSandboxRule(twice, { kind: 'write', path: '/srv/out' }), twice, 'an existing rule is not added again');
    assert.strictEqual(withSandboxRule(twice, { kind: 'read', path: '/home/ada/.ssh/id_rsa' }), twice, 'a read has no rule in this format');
    assert.strictEqual(ruleText({ kind: 'network', host: 'api.github.com' }), '"api.github.com" in sandbox.network.allowedDomains');
    assert.strictEqual(ruleText({ kind: 'read', path: '/x' }), undefined);
  });
});
