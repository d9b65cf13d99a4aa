// Remote servers and authorization servers that attack the host: addresses that are not web addresses, tokens echoed
// back in error text, one server-sent event that never ends. Each test is named after the attack.
import * as assert from 'assert';
import type { RawServer } from '../../src/core/config/serverDefinition';
import { AuthStatusStore } from '../../src/core/auth/authStatus';
import { oauthProviderFactory } from '../../src/core/protocol/auth/oauthProviderFactory.lazy';
import { headlessInteraction, MemorySecretStore } from '../../src/cli/headlessPorts';
import { isAllowedUrl } from '../../src/core/config/allowedUrls';
import { waitFor } from './helpers';
import { createKit, entry, serverState, userScope, waitForState, type Kit } from './hostTestKit';
import { startOAuthFixture, type OAuthFixture } from './remoteTestKit';

const http = (url: string, headers: Record<string, string> = {}): RawServer => ({ type: 'http', url, headers });

describe('hostile remote servers', function () {
  this.timeout(60_000);
  let kit: Kit;
  let opened: URL[];
  const cleanups: (() => Promise<unknown>)[] = [];

  function startKit() {
    const follow = headlessInteraction('http://127.0.0.1:9/callback');
    opened = [];
    kit = createKit({
      authProvider: oauthProviderFactory({
        store: new MemorySecretStore(),
        status: new AuthStatusStore(),
        clientName: 'MCP Host tests',
        interaction: {
          redirectUrl: follow.redirectUrl,
          confirmSignIn: async () => true,
          authorize: (url, signal) => {
            opened.push(url);
            return follow.authorize(url, signal);
          },
        },
      }),
    });
    cleanups.push(() => kit.manager.disposeAsync());
  }

  async function fixture(env: Record<string, string> = {}): Promise<OAuthFixture> {
    const server = await startOAuthFixture(env);
    cleanups.push(() => server.stop());
    return server;
  }

  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  const errorOf = async (name: string) => {
    const info = await waitForState(kit, name, 'error');
    return info.state.kind === 'error' ? info.state.message : '';
  };

  it('a removed server leaves no sign-in state behind for a new server of the same name', async () => {
    const status = new AuthStatusStore();
    kit = createKit({ authStatus: status });
    cleanups.push(() => kit.manager.disposeAsync());
    const server = await fixture({ FIXTURE_AUTH: 'none' });
    await kit.update(userScope, [entry('remote', http(server.url))], []);
    status.set('user::remote', { kind: 'signedIn', account: 'alice@example.com', authorizationServer: 'as.example' });
    assert.strictEqual(serverState(kit, 'remote')!.auth?.kind, 'signedIn');
    await kit.update(userScope, [], []);
    assert.strictEqual(status.get('user::remote'), undefined);
    await kit.update(userScope, [entry('remote', http(server.url))], []);
    assert.strictEqual(serverState(kit, 'remote')!.auth, undefined);
  });

  it('accepts only https, or http on this machine or the server\'s own origin', () => {
    const server = 'http://intranet.example:8080/mcp';
    for (const ok of ['https://as.example/token', 'http://intranet.example:8080/.well-known/x']) assert.ok(isAllowedUrl(ok, server), ok);
    for (const ok of ['http://127.0.0.1:9/x', 'http://localhost/x', 'http://[::1]:3/x', 'https://as.example/token']) assert.ok(isAllowedUrl(ok, 'http://localhost:3000/mcp'), ok);
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'command:workbench.action.terminal.sendSequence', 'vscode://x/y', 'http://evil.example/token', 'data:text/html,x']) {
      assert.ok(!isAllowedUrl(bad, server), bad);
    }
  });

  it('a remote server naming a service on this machine (loopback http or https) in its metadata: never contacted', () => {
    for (const server of ['https://mcp.example/mcp', 'http://intranet.example:8080/mcp']) {
      for (const bad of ['http://127.0.0.1:9/x', 'http://localhost/x', 'http://[::1]:3/x', 'https://localhost:8443/admin', 'http://0.0.0.0:80/', 'http://api.localhost/x']) {
        assert.ok(!isAllowedUrl(bad, server), `${bad} from ${server}`);
      }
    }
  });

  for (const [endpoint, url] of [
    ['authorization_endpoint', 'javascript:alert(document.cookie)'],
    ['authorization_endpoint', 'command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D'],
    ['token_endpoint', 'file:///etc/passwd'],
    ['registration_endpoint', 'vscode://evil/register'],
  ] as const) {
    it(`an authorization server whose ${endpoint} is ${url.split(':')[0]}: is refused before the browser opens or anything is sent`, async () => {
      const server = await fixture({ FIXTURE_METADATA_OVERRIDE: JSON.stringify({ [endpoint]: url }) });
      startKit();
      await kit.update(userScope, [entry('evil', http(server.url))], []);
      const message = await errorOf('evil');
      assert.match(message, /refused|not an https address|only https/i, message);
      assert.ok(opened.every((u) => u.protocol === 'http:' || u.protocol === 'https:'), `opened ${opened.join(', ')}`);
      if (endpoint !== 'authorization_endpoint') assert.strictEqual(opened.length <= 1, true);
      else assert.deepStrictEqual(opened, [], 'the browser never opened');
    });
  }

  it('a 401 whose resource_metadata points at file:///etc/passwd: that address is never read', async () => {
    const server = await fixture({ FIXTURE_RESOURCE_METADATA_URL: 'file:///etc/passwd' });
    startKit();
    await kit.update(userScope, [entry('evil', http(server.url))], []);
    // The SDK may fall back to the well-known path of the server itself (allowed): whatever happens, no file is read.
    await Promise.race([waitForState(kit, 'evil', 'running'), waitForState(kit, 'evil', 'error')]);
    assert.doesNotMatch(kit.log('evil').text, /root:x:0:0/);
  });

  it('a server that echoes the Authorization header in its error text: the token never reaches the UI or the log', async () => {
    const server = await fixture({ FIXTURE_STATIC_TOKEN: 'static-token-very-secret' });
    startKit();
    await kit.update(userScope, [entry('echo', http(server.url, { Authorization: 'Bearer static-token-very-secret' }))], []);
    await waitForState(kit, 'echo', 'running');
    const error = await kit.manager
      .session('user::echo')
      .callTool({ name: 'echo-auth-error', arguments: {} })
      .then(() => undefined, (e: Error) => e);
    assert.ok(error, 'the call failed');
    assert.ok(!error.message.includes('static-token-very-secret'), error.message);
    assert.ok(!kit.log('echo').text.includes('static-token-very-secret'), 'not in the log');
  });

  it('a server that streams one endless event: the session is ended with a clear error, the host holds at most the cap', async () => {
    const server = await fixture({ FIXTURE_AUTH: 'none' });
    startKit();
    await kit.update(userScope, [entry('endless', http(server.url))], []);
    await waitForState(kit, 'endless', 'running');
    const heapBefore = process.memoryUsage().heapUsed;
    await assert.rejects(kit.manager.session('user::endless').callTool({ name: 'endless-event', arguments: {} }));
    await waitFor(() => /event over 64 MB/.test(kit.log('endless').text), 'the reason in the log', 20_000);
    const info = await waitFor(() => serverState(kit, 'endless')?.state.kind !== 'running' && serverState(kit, 'endless'), 'not running', 10_000);
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 200 * 1024 * 1024, 'the event was not kept');
    assert.match(info.state.kind === 'error' ? info.state.message : kit.log('endless').text, /event over 64 MB/);
  });
});
