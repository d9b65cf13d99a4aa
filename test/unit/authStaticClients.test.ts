// Clients registered beforehand (mcpHost.oauthClients): found by server URL only, and a confidential client's secret
// given only to the client and authorization server it was entered for.
import * as assert from 'assert';
import type { ServerDefinition } from '../../src/core/config/serverDefinition';
import { AuthStatusStore } from '../../src/core/auth/authStatus';
import { OAuthProvider } from '../../src/core/protocol/auth/oauthProvider.lazy';
import { clientSecretKey } from '../../src/core/auth/authRecords';
import { configuredClient, staticClients, type ClientSecretRequest, type OAuthClientSetting } from '../../src/core/protocol/auth/staticClients.lazy';
import { headlessInteraction, MemorySecretStore } from '../../src/cli/headlessPorts';
import { MemoryLog } from './hostTestKit';

const remote = (name: string, url: string, id = `user::${name}`): ServerDefinition => ({
  id,
  name,
  scope: { kind: 'user', key: 'user', label: 'User', configPath: '/u/mcp.json' },
  raw: { type: 'http', url, headers: {} },
  resolved: { type: 'http', url, headers: {} },
  hash: url,
  secrets: [],
});

const ISSUER = 'https://auth.example.com/';
const OTHER_ISSUER = 'https://login.elsewhere.example/';

describe('OAuth clients registered beforehand', () => {
  it('finds a client by the server URL only, never by a server name', () => {
    const settings: Record<string, OAuthClientSetting> = {
      github: { clientId: 'by-name' },
      'https://api.example.com/mcp': { clientId: 'by-url', confidential: true },
      'https://origin.example.com': { clientId: 'origin' },
      'https://bad.example.com/mcp': { clientId: 42 },
    };
    assert.deepStrictEqual(configuredClient(settings, 'https://api.example.com/mcp'), { clientId: 'by-url', confidential: true });
    assert.deepStrictEqual(configuredClient(settings, 'https://origin.example.com/'), { clientId: 'origin', confidential: false });
    assert.strictEqual(configuredClient(settings, 'https://evil.example/mcp'), undefined);
    assert.strictEqual(configuredClient(settings, 'https://bad.example.com/mcp'), undefined);
    assert.strictEqual(configuredClient(undefined, 'https://api.example.com/mcp'), undefined);
  });

  it('does not give a workspace server named like the user\'s the user\'s client', async () => {
    const resolve = staticClients({
      settings: () => ({ 'https://api.github.example/mcp': { clientId: 'users-client' } }),
      secrets: new MemorySecretStore(),
      askSecret: async () => assert.fail('no secret is asked'),
    });
    assert.deepStrictEqual(await resolve(remote('github', 'https://api.github.example/mcp'), ISSUER), { clientId: 'users-client' });
    assert.strictEqual(await resolve(remote('github', 'https://evil.example/mcp', 'file:///ws::github'), ISSUER), undefined);
  });

  it('asks a confidential client\'s secret once per authorization server, naming its host, and keeps it bound to both', async () => {
    const secrets = new MemorySecretStore();
    const asked: ClientSecretRequest[] = [];
    const answers = ['first-secret', 'second-secret', 'third-secret'];
    let settings: Record<string, OAuthClientSetting> = { 'https://api.example.com/mcp': { clientId: 'abc', confidential: true } };
    const resolve = staticClients({
      settings: () => settings,
      secrets,
      askSecret: async (request) => {
        asked.push(request);
        return answers.shift();
      },
    });
    const server = remote('api', 'https://api.example.com/mcp');

    const [a, b] = await Promise.all([resolve(server, ISSUER), resolve(server, ISSUER)]);
    assert.deepStrictEqual(a, { clientId: 'abc', clientSecret: 'first-secret' });
    assert.deepStrictEqual(b, a, 'both waited for the one question');
    assert.deepStrictEqual(asked, [{ serverName: 'api', clientId: 'abc', authorizationServer: 'auth.example.com' }]);
    assert.deepStrictEqual(await resolve(server, ISSUER), a, 'kept');
    assert.strictEqual(asked.length, 1);
    assert.doesNotMatch(secrets.data.get(clientSecretKey(server.id))!, /^first-secret$/, 'stored with what it is for');

    // The entry now signs in at another authorization server: it does not get the first one's secret.
    assert.deepStrictEqual(await resolve(server, OTHER_ISSUER), { clientId: 'abc', clientSecret: 'second-secret' });
    assert.strictEqual(asked[1].authorizationServer, 'login.elsewhere.example');

    // Another client id for the same authorization server: asked again too.
    settings = { 'https://api.example.com/mcp': { clientId: 'xyz', confidential: true } };
    assert.deepStrictEqual(await resolve(server, OTHER_ISSUER), { clientId: 'xyz', clientSecret: 'third-secret' });
    assert.strictEqual(asked.length, 3);
  });

  it('asks again for a secret stored before secrets were bound, and a dismissed question declines the sign-in', async () => {
    const secrets = new MemorySecretStore();
    const server = remote('api', 'https://api.example.com/mcp');
    await secrets.store(clientSecretKey(server.id), 'unbound-secret');
    const resolve = staticClients({
      settings: () => ({ 'https://api.example.com/mcp': { clientId: 'abc', confidential: true } }),
      secrets,
      askSecret: async () => undefined,
    });
    await assert.rejects(resolve(server, ISSUER), /Sign-in was declined/);
  });

  it('asks for the configured client with the authorization server the SDK names, and keeps it out of the record', async () => {
    const issuers: string[] = [];
    const store = new MemorySecretStore();
    const provider = new OAuthProvider({
      serverId: 'user::api',
      serverName: 'api',
      serverUrl: 'https://api.example.com/mcp',
      store,
      interaction: headlessInteraction('http://127.0.0.1:9/callback'),
      status: new AuthStatusStore(),
      log: new MemoryLog(),
      clientName: 'tests',
      staticClient: async (issuer) => {
        issuers.push(issuer);
        return { clientId: 'abc', clientSecret: `secret-for-${issuer}` };
      },
    });
    assert.deepStrictEqual(await provider.clientInformation({ issuer: ISSUER }), { client_id: 'abc', client_secret: `secret-for-${ISSUER}` });
    await provider.saveClientInformation({ client_id: 'abc', issuer: ISSUER }, { issuer: ISSUER });
    assert.deepStrictEqual(issuers, [ISSUER, ISSUER]);
    assert.strictEqual(store.data.size, 0, 'a configured client is not stored with the tokens');
    assert.ok(provider.secretValues().includes(`secret-for-${ISSUER}`), 'its secret never reaches a log');
  });
});
