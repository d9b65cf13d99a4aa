import * as assert from 'assert';
import { denialOf, withRule } from '../../src/core/protocol/launch/sandboxDenials.lazy';
import { ruleText, withSandboxRule } from '../../src/core/protocol/launch/sandboxRuleEdit.lazy';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import type { PlannedSandbox } from '../../src/core/config/launchPlan';

const sandbox: PlannedSandbox = { home: '/home/ada', hidden: ['/home/ada'], readable: ['/home/ada/proj'], writable: ['/home/ada/proj'], storage: '/home/ada/.config/Code/User/globalStorage/mcp-host.mcp-host', notWritable: [], domains: [], deniedDomains: [] };
const line = (text: string) => JSON.stringify({ line: text });

describe('sandbox denials: read from the runtime\'s channel, the exact rule that allows them written into mcp.json', () => {
  it('reads the runtime\'s write and network refusals, and nothing else', () => {
    assert.deepStrictEqual(denialOf(line('deny openat /srv/out/x.txt')), { kind: 'write', path: '/srv/out/x.txt' });
    assert.deepStrictEqual(denialOf(line('deny mkdir /srv/out/new dir')), { kind: 'write', path: '/srv/out/new dir' });
    assert.deepStrictEqual(denialOf(line('deny network-outbound api.github.com:443 (host is not on the allow list)')), { kind: 'network', host: 'api.github.com', port: 443 });
    assert.deepStrictEqual(denialOf(line('deny network-outbound evil.example:443 (resolved to a loopback address)')), { kind: 'network', host: 'evil.example', port: 443, refused: 'the sandbox refuses it whatever the rules allow (resolved to a loopback address)' });
    for (const l of [line('deny openat relative/path'), line('deny http-request GET http://x/ (no)'), line('[SandboxDebug] Connection blocked to localhost:6379'), 'not json', '{"line": 3}']) assert.strictEqual(denialOf(l), undefined, l);
  });

  it('a rule is exactly what was refused: the path, or the host (with its port when it is this machine or not a web port)', () => {
    const exists = () => true;
    assert.strictEqual(withRule({ kind: 'write', path: '/srv/out/x.txt' }, sandbox, '/usr/bin', exists).allow, '/srv/out/x.txt');
    assert.strictEqual(withRule({ kind: 'network', host: 'api.github.com', port: 443 }, sandbox, '/usr/bin').allow, 'api.github.com');
    assert.strictEqual(withRule({ kind: 'network', host: 'db.example.com', port: 5432 }, sandbox, '/usr/bin').allow, 'db.example.com:5432');
    assert.strictEqual(withRule({ kind: 'network', host: 'localhost', port: 6379 }, sandbox, '/usr/bin').allow, 'localhost:6379');
    assert.strictEqual(withRule({ kind: 'network', host: '127.0.0.1', port: 80 }, sandbox, '/usr/bin').allow, '127.0.0.1:80');
    assert.strictEqual(ruleText({ kind: 'write', path: '/srv/out/x.txt', allow: '/srv/out/x.txt' }), '"/srv/out/x.txt" in sandbox.filesystem.allowWrite');
  });

  it('a hostile line costs linear time and yields nothing', () => {
    const started = Date.now();
    for (const l of [line('deny network-outbound ' + 'a:'.repeat(100_000)), line('deny ' + 'a'.repeat(200_000)), '{"line":"' + 'deny openat /'.repeat(20_000)]) denialOf(l);
    assert.ok(Date.now() - started < 500);
  });

  it('Allow and Restart adds the exact rule where VS Code keeps it, comments and formatting kept, once', () => {
    const text = `{
  // my servers
  "servers": { "fs": { "command": "npx", "sandboxEnabled": true } }
}
`;
    const once = withSandboxRule(text, { kind: 'write', path: '/srv/out', allow: '/srv/out' });
    assert.ok(once.includes('// my servers'));
    const parsed = parseMcpConfig(once);
    assert.deepStrictEqual(parsed.diagnostics, []);
    const server = parsed.servers[0].server;
    assert.ok(server.type === 'stdio');
    assert.deepStrictEqual(server.sandbox?.filesystem.allowWrite, ['/srv/out']);
    const twice = withSandboxRule(withSandboxRule(once, { kind: 'network', host: 'api.github.com', port: 443, allow: 'api.github.com' }), { kind: 'write', path: '/srv/other', allow: '/srv/other' });
    const s2 = parseMcpConfig(twice).servers[0].server;
    assert.ok(s2.type === 'stdio');
    assert.deepStrictEqual(s2.sandbox?.filesystem.allowWrite, ['/srv/out', '/srv/other']);
    assert.deepStrictEqual(s2.sandbox?.network.allowedDomains, ['api.github.com']);
    assert.strictEqual(withSandboxRule(twice, { kind: 'write', path: '/srv/out', allow: '/srv/out' }), twice, 'an existing rule is not added again');
    assert.strictEqual(withSandboxRule(twice, { kind: 'write', path: '/', refused: 'it holds your home folder' }), twice, 'a refused denial has no rule');
    assert.strictEqual(ruleText({ kind: 'network', host: 'api.github.com', port: 443, allow: 'api.github.com' }), '"api.github.com" in sandbox.network.allowedDomains');
    assert.strictEqual(ruleText({ kind: 'write', path: '/x', refused: 'no' }), undefined);
  });
});
