// Remote servers reached over a Unix socket or a Windows named pipe, as VS Code writes them: `unix:///path.sock#/mcp`
// and `pipe:///name#/mcp` (the fragment is the HTTP path). Read from the file, planned and shown as the socket, and
// run over it against a real HTTP server listening on a socket.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { isServerUrl } from '../../src/core/config/serverUrl';
import { socketAddress } from '../../src/core/config/socketAddress.lazy';
import type { RawRemoteServer } from '../../src/core/config/serverDefinition';
import { buildRemotePlan } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { describeLaunchPlan } from '../../src/core/presentation/describeLaunchPlan';
import { createKit, entry, userScope, waitForState } from './hostTestKit';
import { startOAuthFixture } from './remoteTestKit';

describe('servers over a Unix socket or a named pipe', function () {
  this.timeout(30_000);

  it('reads unix: and pipe: URLs as VS Code writes them, the fragment being the HTTP path', () => {
    assert.deepStrictEqual(socketAddress('unix:///run/user/1000/server.sock#/mcp'), { kind: 'unix', socketPath: '/run/user/1000/server.sock', httpPath: '/mcp' });
    assert.deepStrictEqual(socketAddress('unix:///tmp/my%20dir/s.sock'), { kind: 'unix', socketPath: '/tmp/my dir/s.sock', httpPath: '/' });
    assert.deepStrictEqual(socketAddress('pipe:///mcp-server#/mcp'), { kind: 'pipe', socketPath: '\\\\.\\pipe\\mcp-server', httpPath: '/mcp' });
    for (const refused of ['unix://host/x.sock', 'unix:///', 'unix:///x.sock?a=1', 'pipe:///a/b', 'pipe:///', 'https://example.com/mcp', 'file:///x.sock', 'unix:///x.sock#mcp']) {
      assert.strictEqual(socketAddress(refused), undefined, refused);
    }
    assert.ok(isServerUrl('unix:///x.sock#/mcp') && isServerUrl('https://a.example/mcp') && !isServerUrl('ftp://a.example/mcp') && !isServerUrl('unix://host/x.sock'));
  });

  it('takes them in mcp.json, and says what else a URL may be when it is none of them', () => {
    const parsed = parseMcpConfig(JSON.stringify({ servers: { local: { type: 'http', url: 'unix:///tmp/s.sock#/mcp' }, piped: { type: 'http', url: 'pipe:///mcp#/mcp' }, odd: { type: 'http', url: 'ftp://a.example/mcp' } } }));
    assert.deepStrictEqual(parsed.servers.map((s) => s.name), ['local', 'piped']);
    assert.deepStrictEqual(parsed.diagnostics.map((d) => d.message), ['"ftp://a.example/mcp" is not an http or https URL (nor a unix:///path.sock#/path or pipe:///name#/path one).']);
  });

  it('a unix: or pipe: URL that names no socket cannot be planned, and says how to write one', () => {
    const server: RawRemoteServer & { type: 'http' } = { type: 'http', url: 'pipe:///a/b#/mcp', headers: {} };
    assert.throws(() => buildRemotePlan({ raw: server, resolved: server }), /"pipe:\/\/\/a\/b#\/mcp" names no socket or named pipe: write unix:\/\/\/path\/to\/server.sock#\/mcp or pipe:\/\/\/name#\/mcp\./);
  });

  it('the question names the socket and the path asked for', () => {
    const server: RawRemoteServer & { type: 'http' } = { type: 'http', url: 'unix:///run/mcp/server.sock#/mcp', headers: { 'X-Team': 'a' } };
    const plan = buildRemotePlan({ raw: server, resolved: server });
    assert.deepStrictEqual(plan.socket, { kind: 'unix', socketPath: '/run/mcp/server.sock', httpPath: '/mcp' });
    const text = describeLaunchPlan(plan);
    assert.ok(text.startsWith('URL: unix:///run/mcp/server.sock#/mcp (Streamable HTTP)\nThrough the socket /run/mcp/server.sock on this machine, asking for /mcp'), text);
    assert.ok(!text.includes('null'), text);
  });

  it('runs a server listening on a Unix socket: lists and calls its tools over it', async function () {
    if (process.platform === 'win32') this.skip();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-sock-'));
    const socket = path.join(dir, 'server.sock');
    const fixture = await startOAuthFixture({ FIXTURE_SOCKET: socket, FIXTURE_AUTH: 'none' });
    const kit = createKit();
    try {
      await kit.update(userScope, [entry('socketed', { type: 'http', url: `unix://${socket}#/mcp`, headers: { 'X-Probe': 'through-the-socket' } }), entry('nobody', { type: 'http', url: `unix://${path.join(dir, 'none.sock')}#/mcp`, headers: {} })], []);
      const running = await waitForState(kit, 'socketed', 'running');
      assert.ok(running.features.tools.some((t) => t.name === 'whoami'), 'its tools listed');
      const result = await kit.manager.session('user::socketed').callTool({ name: 'whoami', arguments: {} });
      const { headers } = JSON.parse((result.content as { text: string }[])[0].text) as { headers: Record<string, string> };
      assert.strictEqual(headers['x-probe'], 'through-the-socket');
      assert.match(kit.log('socketed').text, new RegExp(`Connecting \\(Streamable HTTP\\): ${socket.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} /mcp`));
      const nobody = await waitForState(kit, 'nobody', 'error');
      assert.match((nobody.state as { message: string }).message, /Nothing listens on .*none\.sock \(ENOENT\)/);
    } finally {
      await kit.manager.disposeAsync();
      await fixture.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
