// `headers` of remote servers: `${input:}` and `${env:}` values are resolved, reach the server on every request, sit
// alongside the OAuth provider without triggering it, and never reach the log, even when traffic is traced.
import * as assert from 'assert';
import type { InputDefinition, RawRemoteServer } from '../../src/core/config/serverDefinition';
import { resolveServer } from '../../src/core/config/variables';
import { AuthStatusStore } from '../../src/core/auth/authStatus';
import { oauthProviderFactory } from '../../src/core/protocol/auth/oauthProviderFactory.lazy';
import { headlessInteraction, MemorySecretStore } from '../../src/cli/headlessPorts';
import type { ServerManagerDeps } from '../../src/core/host/serverManager';
import { createKit, entry, userScope, waitForState } from './hostTestKit';
import { startOAuthFixture } from './remoteTestKit';

const TOKEN = 'tok-3f9a-secret-value';
const API_KEY = 'key-from-env-7c21';
const tokenInput: InputDefinition = { type: 'promptString', id: 'token', description: 'Token', password: true };

const server = (url: string): RawRemoteServer => ({
  type: 'http',
  url,
  headers: { Authorization: 'Bearer ${input:token}', 'X-Api-Key': '${env:MCPHOST_TEST_API_KEY}', 'X-Region': 'eu-${env:MCPHOST_TEST_REGION}' },
});

/** A host with the OAuth provider in place, so a test can show that resolved headers do not set it off. */
const kitThatCouldSignIn = (overrides: Partial<ServerManagerDeps> = {}) =>
  createKit({
    authProvider: oauthProviderFactory({
      store: new MemorySecretStore(),
      status: new AuthStatusStore(),
      interaction: headlessInteraction('http://127.0.0.1:9/callback'),
      clientName: 'tests',
    }),
    ...overrides,
  });

describe('remote server headers', function () {
  this.timeout(30_000);

  it('resolves ${input:} and ${env:} in header values and marks every header value secret', async () => {
    const { resolved, secrets } = await resolveServer(server('https://example.com/mcp'), [tokenInput], {
      userHome: '/home/u',
      pathSeparator: '/',
      env: { MCPHOST_TEST_API_KEY: API_KEY, MCPHOST_TEST_REGION: 'west' },
      resolveInput: async () => TOKEN,
    });
    assert.deepStrictEqual(resolved, {
      type: 'http',
      url: 'https://example.com/mcp',
      headers: { Authorization: `Bearer ${TOKEN}`, 'X-Api-Key': API_KEY, 'X-Region': 'eu-west' },
    });
    for (const s of [TOKEN, `Bearer ${TOKEN}`, API_KEY, 'eu-west']) assert.ok(secrets.includes(s), `${s} is secret`);
  });

  it('never starts a sign-in for a server whose own Authorization header is refused: the 401 is the message', async () => {
    const fixture = await startOAuthFixture({ FIXTURE_STATIC_TOKEN: TOKEN });
    const kit = kitThatCouldSignIn();
    try {
      const raw: RawRemoteServer = { type: 'http', url: fixture.url, headers: { authorization: 'Bearer wrong-token-value' } };
      await kit.update(userScope, [entry('keyed', raw)], []);
      const info = await waitForState(kit, 'keyed', 'error');
      assert.match((info.state as { message: string }).message, /answered HTTP 401/);
      const stats = await fixture.stats();
      assert.deepStrictEqual([stats.registrations, stats.authorizations], [0, 0]);
    } finally {
      await kit.manager.disposeAsync();
      await fixture.stop();
    }
  });

  it('sends the resolved headers to the server, without signing in, and masks them in the traced log', async () => {
    const fixture = await startOAuthFixture({ FIXTURE_STATIC_TOKEN: TOKEN });
    const kit = kitThatCouldSignIn({ environment: { ...process.env, MCPHOST_TEST_API_KEY: API_KEY, MCPHOST_TEST_REGION: 'west' } });
    try {
      kit.inputAnswers.set('token', TOKEN);
      kit.log('keyed').setLevel('trace');
      await kit.update(userScope, [entry('keyed', server(fixture.url))], [tokenInput]);
      await waitForState(kit, 'keyed', 'running');
      const client = kit.manager.session('user::keyed');
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      const { headers } = JSON.parse((result.content as { text: string }[])[0].text) as { headers: Record<string, string> };
      assert.deepStrictEqual(
        { authorization: headers.authorization, 'x-api-key': headers['x-api-key'], 'x-region': headers['x-region'] },
        { authorization: `Bearer ${TOKEN}`, 'x-api-key': API_KEY, 'x-region': 'eu-west' },
      );
      assert.strictEqual((await fixture.stats()).registrations, 0, 'the static header was enough: no OAuth');

      const log = kit.log('keyed').text;
      assert.match(log, /◀ .*whoami|◀ .*x-api-key/, 'the response was traced');
      for (const secret of [TOKEN, API_KEY, 'eu-west']) assert.ok(!log.includes(secret), `${secret} is not in the log`);
      assert.ok(log.includes('••••••'));
    } finally {
      await kit.manager.disposeAsync();
      await fixture.stop();
    }
  });
});
