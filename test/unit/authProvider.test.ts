// The OAuth provider through the host, against the OAuth fixture server on loopback (its own authorization server):
// sign-in, what is stored and where, reuse, refresh before expiry, recovery when tokens are revoked, consent, refusals,
// and that a server's tokens never reach another URL.
import * as assert from 'assert';
import type { RawServer } from '../../src/core/config/serverDefinition';
import { AuthStatusStore } from '../../src/core/auth/authStatus';
import { authStorageKey, signOut } from '../../src/core/auth/authRecords';
import { OAuthProvider } from '../../src/core/protocol/auth/oauthProvider.lazy';
import { oauthProviderFactory } from '../../src/core/protocol/auth/oauthProviderFactory.lazy';
import type { AuthInteraction, SignInRequest } from '../../src/core/auth/authPorts';
import { headlessInteraction, MemorySecretStore } from '../../src/cli/headlessPorts';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { createKit, entry, MemoryLog, serverState, userScope, waitForState, type Kit } from './hostTestKit';
import { sleep } from './helpers';
import { startOAuthFixture, type OAuthFixture } from './remoteTestKit';

const http = (url: string, headers: Record<string, string> = {}): RawServer => ({ type: 'http', url, headers });
const REDIRECT = 'http://127.0.0.1:9/callback';

describe('OAuth sign-in to remote servers', function () {
  this.timeout(30_000);
  let kit: Kit;
  let store: MemorySecretStore;
  let status: AuthStatusStore;
  let consent: (boolean | undefined)[];
  let asked: SignInRequest[];
  let authorizeUrls: URL[];
  const cleanups: (() => Promise<unknown>)[] = [];

  function startKit(tuning: { refreshMarginMs?: number } = {}, interaction?: Partial<AuthInteraction>) {
    const follow = headlessInteraction(REDIRECT);
    kit = createKit({
      authProvider: oauthProviderFactory({
        store,
        status,
        clientName: 'MCP Host tests',
        tuning,
        interaction: {
          redirectUrl: follow.redirectUrl,
          confirmSignIn: async (q) => {
            asked.push(q);
            return consent.length ? consent.shift() : true;
          },
          authorize: (url, signal) => {
            authorizeUrls.push(url);
            return follow.authorize(url, signal);
          },
          ...interaction,
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

  beforeEach(() => {
    store = new MemorySecretStore();
    status = new AuthStatusStore();
    consent = [];
    asked = [];
    authorizeUrls = [];
  });

  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  const whoami = async (name = 'secured') => {
    const client = kit.manager.session(`user::${name}`);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    return JSON.parse((result.content as { text: string }[])[0].text) as { account: string; headers: Record<string, string> };
  };

  it('signs in through the browser step once, with PKCE and the resource, and keeps everything in one secret per server', async () => {
    const server = await fixture();
    startKit();
    await kit.update(userScope, [entry('secured', http(server.url))], []);
    await waitForState(kit, 'secured', 'running');
    assert.deepStrictEqual(asked, [{ serverName: 'secured', authorizationServer: `127.0.0.1:${server.port}` }]);
    const authorize = authorizeUrls[0].searchParams;
    assert.strictEqual(authorize.get('code_challenge_method'), 'S256');
    assert.strictEqual(authorize.get('resource'), server.url);
    assert.strictEqual(authorize.get('redirect_uri'), REDIRECT);
    assert.strictEqual((await whoami()).account, 'alice@example.com');
    assert.deepStrictEqual(status.get('user::secured'), { kind: 'signedIn', account: 'alice@example.com', authorizationServer: `127.0.0.1:${server.port}` });

    assert.deepStrictEqual([...store.data.keys()], [authStorageKey('user::secured')]);
    const record = JSON.parse(store.data.get(authStorageKey('user::secured'))!);
    assert.strictEqual(record.resource, server.url);
    assert.ok(record.tokens.tokens.access_token && record.tokens.tokens.refresh_token);
    assert.ok(record.tokens.expiresAt > Date.now());
    assert.strictEqual(Object.values<{ redirectUrl: string }>(record.clients)[0].redirectUrl, REDIRECT);
    assert.ok(record.codeVerifier);
    const stats = await server.stats();
    assert.deepStrictEqual([stats.registrations, stats.authorizations, stats.tokenRequests.authorization_code], [1, 1, 1]);
  });

  it('signs in with the client the file names ("oauth": { "clientId" }, as VS Code and Claude Code write it), registering none', async () => {
    const server = await fixture({ FIXTURE_PRESET_CLIENT: 'preset-client-7' });
    startKit();
    const parsed = parseMcpConfig(JSON.stringify({ servers: { secured: { type: 'http', url: server.url, oauth: { clientId: 'preset-client-7' } } } }));
    assert.deepStrictEqual(parsed.diagnostics, []);
    await kit.update(userScope, parsed.servers, []);
    await waitForState(kit, 'secured', 'running');
    assert.strictEqual(authorizeUrls[0].searchParams.get('client_id'), 'preset-client-7');
    assert.strictEqual((await whoami()).account, 'alice@example.com');
    const stats = await server.stats();
    assert.deepStrictEqual([stats.registrations, stats.authorizations, stats.tokenRequests.authorization_code], [0, 1, 1]);
  });

  it('reuses stored tokens on the next start without asking', async () => {
    const server = await fixture();
    startKit();
    await kit.update(userScope, [entry('secured', http(server.url))], []);
    await waitForState(kit, 'secured', 'running');
    await kit.manager.get('user::secured')!.restart();
    await waitForState(kit, 'secured', 'running');
    assert.strictEqual((await whoami()).account, 'alice@example.com');
    assert.strictEqual(asked.length, 1, 'asked once');
    const stats = await server.stats();
    assert.deepStrictEqual([stats.registrations, stats.authorizations], [1, 1]);
  });

  it('refreshes the access token before it expires', async () => {
    const server = await fixture({ FIXTURE_TOKEN_TTL: '4' });
    startKit({ refreshMarginMs: 3000 });
    await kit.update(userScope, [entry('secured', http(server.url))], []);
    await waitForState(kit, 'secured', 'running');
    const first = JSON.parse(store.data.get(authStorageKey('user::secured'))!).tokens.tokens.access_token;
    assert.strictEqual((await server.stats()).tokenRequests.refresh_token, 0);
    await sleep(1200);
    assert.strictEqual((await whoami()).account, 'alice@example.com');
    const stats = await server.stats();
    assert.strictEqual(stats.tokenRequests.refresh_token, 1);
    assert.strictEqual(stats.authorizations, 1, 'no new browser sign-in');
    const second = JSON.parse(store.data.get(authStorageKey('user::secured'))!).tokens.tokens.access_token;
    assert.notStrictEqual(second, first);
    assert.match(kit.log('secured').text, /Refreshed the access token before it expired/);
  });

  it('signs in again mid-session when the server revoked every token, and the request then succeeds', async () => {
    const server = await fixture();
    startKit();
    await kit.update(userScope, [entry('secured', http(server.url))], []);
    await waitForState(kit, 'secured', 'running');
    await server.post('/_revoke-tokens');
    assert.strictEqual((await whoami()).account, 'alice@example.com');
    assert.strictEqual(asked.length, 2, 'asked again');
    const stats = await server.stats();
    assert.strictEqual(stats.authorizations, 2);
    assert.strictEqual(stats.tokenRequests.refresh_token, 1, 'the revoked refresh token was tried first');
    assert.strictEqual(serverState(kit, 'secured')!.state.kind, 'running');
  });

  it('stops with a clear message when the user declines, and opens no browser', async () => {
    const server = await fixture();
    consent = [false];
    startKit();
    await kit.update(userScope, [entry('secured', http(server.url))], []);
    const info = await waitForState(kit, 'secured', 'blocked');
    assert.strictEqual(info.state.kind === 'blocked' && info.state.reason, 'signIn');
    assert.match((info.state as { message: string }).message, /^Sign-in was declined\. Use "MCP Host: Sign In to Server"/);
    assert.strictEqual(authorizeUrls.length, 0);
    assert.strictEqual((await server.stats()).authorizations, 0);
    assert.strictEqual(status.get('user::secured')?.kind, 'needsSignIn');
  });

  it('refuses a redirect that does not carry the state it sent', async () => {
    const server = await fixture();
    startKit({}, { authorize: async () => new URLSearchParams({ code: 'stolen', state: 'forged' }) });
    await kit.update(userScope, [entry('secured', http(server.url))], []);
    const info = await waitForState(kit, 'secured', 'error');
    assert.match((info.state as { message: string }).message, /redirect mismatch/);
    assert.strictEqual((await server.stats()).tokenRequests.authorization_code, 0, 'the code was never redeemed');
    assert.strictEqual(status.get('user::secured')?.kind, 'failed');
  });

  it('refuses protected resource metadata naming another resource, before any authorization', async () => {
    const server = await fixture({ FIXTURE_RESOURCE: 'https://elsewhere.example/mcp' });
    startKit();
    await kit.update(userScope, [entry('secured', http(server.url))], []);
    const info = await waitForState(kit, 'secured', 'error');
    assert.match((info.state as { message: string }).message, /names another resource \(https:\/\/elsewhere\.example\/mcp\): refused/);
    assert.deepStrictEqual(asked, []);
    assert.strictEqual((await server.stats()).registrations, 0);
  });

  it('never sends a server\'s token to another URL, even when its entry now points there', async () => {
    const secured = await fixture();
    const other = await fixture({ FIXTURE_AUTH: 'none' });
    startKit();
    await kit.update(userScope, [entry('secured', http(secured.url)), entry('plain', http(other.url))], []);
    await waitForState(kit, 'secured', 'running');
    await waitForState(kit, 'plain', 'running');
    await whoami('plain');
    await kit.update(userScope, [entry('secured', http(other.url)), entry('plain', http(other.url))], []);
    await waitForState(kit, 'secured', 'running');
    await whoami('secured');
    assert.deepStrictEqual((await other.stats()).authorizationHeaders.filter(Boolean), [], 'no Authorization header ever reached the other server');
    assert.ok((await secured.stats()).authorizationHeaders.some((h) => h?.startsWith('Bearer ')));
  });

  it('forgets tokens and registrations on sign-out', async () => {
    const server = await fixture();
    startKit();
    await kit.update(userScope, [entry('secured', http(server.url))], []);
    await waitForState(kit, 'secured', 'running');
    await signOut(store, 'user::secured');
    assert.strictEqual(store.data.size, 0);
    await kit.manager.get('user::secured')!.restart();
    await waitForState(kit, 'secured', 'running');
    assert.strictEqual(asked.length, 2, 'signed in afresh');
    assert.strictEqual((await server.stats()).registrations, 2, 'registered afresh');
  });

  it('prepares nothing for sign-in (no redirect listener) for a server that never asks for it', async () => {
    const server = await fixture({ FIXTURE_AUTH: 'none' });
    let redirectResolved = 0;
    startKit({}, { redirectUrl: async () => (redirectResolved++, REDIRECT) });
    await kit.update(userScope, [entry('open', http(server.url))], []);
    await waitForState(kit, 'open', 'running');
    await whoami('open');
    assert.strictEqual(redirectResolved, 0);
    assert.strictEqual(status.get('user::open'), undefined);
    assert.deepStrictEqual(store.data.size, 0);
  });

  it('gives up after three browser sign-ins in one start', async () => {
    const log = new MemoryLog();
    const provider: OAuthProvider = new OAuthProvider({
      serverId: 's',
      serverName: 's',
      serverUrl: 'http://127.0.0.1:9/mcp',
      store: new MemorySecretStore(),
      status: new AuthStatusStore(),
      log,
      clientName: 'tests',
      interaction: {
        redirectUrl: async () => REDIRECT,
        confirmSignIn: async () => true,
        authorize: async (): Promise<URLSearchParams> => new URLSearchParams({ state: provider.state(), code: 'c' }),
      },
    });
    for (let i = 1; i <= 3; i++) {
      provider.redirectToAuthorization(new URL('http://127.0.0.1:9/authorize'));
      await provider.completeSignIn();
    }
    provider.redirectToAuthorization(new URL('http://127.0.0.1:9/authorize'));
    await assert.rejects(provider.completeSignIn(), /did not succeed after 3 attempts/);
  });
});
