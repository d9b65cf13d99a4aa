// `auth` of remote servers in mcp.json: the flows the SDK ships providers for, checked where they are written, secrets
// only as ${input:…} or ${env:…} references, resolved and masked like every other secret.
import * as assert from 'assert';
import { ClientCredentialsProvider, CrossAppAccessProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/client';
import { AuthStatusStore } from '../../src/core/auth/authStatus';
import { OAuthProvider } from '../../src/core/protocol/auth/oauthProvider.lazy';
import { oauthProviderFactory } from '../../src/core/protocol/auth/oauthProviderFactory.lazy';
import { configuredClientMetadataUrl } from '../../src/core/protocol/auth/staticClients.lazy';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import type { RemoteServerConfig, ServerDefinition } from '../../src/core/config/serverDefinition';
import { resolveServer } from '../../src/core/config/variables';
import { headlessInteraction, MemorySecretStore } from '../../src/cli/headlessPorts';
import { MemoryLog } from './hostTestKit';

const parse = (auth: unknown) =>
  parseMcpConfig(
    JSON.stringify({
      servers: { remote: { type: 'http', url: 'https://mcp.example.com/mcp', auth } },
      inputs: [{ type: 'promptString', id: 'secret', description: 'Secret', password: true }],
    }),
  );
const errors = (auth: unknown) => parse(auth).diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`);
const authOf = (auth: unknown) => (parse(auth).servers[0]?.server as RemoteServerConfig | undefined)?.auth;

describe('remote server auth in mcp.json', () => {
  it('reads each flow', () => {
    assert.deepStrictEqual(authOf({ type: 'clientCredentials', clientId: 'c1', clientSecret: '${input:secret}', scope: 'read', issuer: 'https://auth.example.com' }), {
      type: 'clientCredentials',
      clientId: 'c1',
      clientSecret: '${input:secret}',
      scope: 'read',
      issuer: 'https://auth.example.com',
    });
    assert.deepStrictEqual(authOf({ type: 'privateKeyJwt', clientId: 'c1', privateKey: '${env:MCP_KEY}', algorithm: 'ES256', dpop: true }), {
      type: 'privateKeyJwt',
      clientId: 'c1',
      privateKey: '${env:MCP_KEY}',
      algorithm: 'ES256',
      dpop: true,
    });
    assert.deepStrictEqual(authOf({ type: 'oauth', clientMetadataUrl: 'https://app.example.com/client.json' }), { type: 'oauth', clientMetadataUrl: 'https://app.example.com/client.json' });
    const xaa = authOf({ type: 'crossAppAccess', clientId: 'c1', clientSecret: '${env:S}', idp: { issuer: 'https://idp.example.com', clientId: 'idp-c', idToken: '${input:secret}' } });
    assert.deepStrictEqual(xaa?.idp, { issuer: 'https://idp.example.com', clientId: 'idp-c', idToken: '${input:secret}' });
    assert.deepStrictEqual(errors({ type: 'clientCredentials', clientId: 'c1', clientSecret: '${input:secret}' }), []);
  });

  it('refuses a secret written into the file', () => {
    assert.match(errors({ type: 'clientCredentials', clientId: 'c1', clientSecret: 'hunter2' }).join('\n'), /secret-literal: "auth.clientSecret" must be a secret reference/);
    assert.match(errors({ type: 'privateKeyJwt', clientId: 'c1', privateKey: '-----BEGIN PRIVATE KEY-----…', algorithm: 'ES256' }).join('\n'), /secret-literal: "auth.privateKey"/);
    assert.match(errors({ type: 'clientCredentials', clientId: 'c1', clientSecret: 'pre-${input:secret}' }).join('\n'), /secret-literal/);
    const xaa = { type: 'crossAppAccess', clientId: 'c1', clientSecret: '${env:S}', idp: { issuer: 'https://idp.example.com', clientId: 'i', idToken: 'eyJ...' } };
    assert.match(errors(xaa).join('\n'), /secret-literal: "auth.idp.idToken"/);
  });

  it('names what a flow is missing, and unknown types', () => {
    assert.match(errors({ type: 'clientCredentials', clientId: 'c1' }).join('\n'), /"auth" of type "clientCredentials" needs "clientSecret"/);
    assert.match(errors({ type: 'privateKeyJwt', clientId: 'c1', privateKey: '${env:K}' }).join('\n'), /needs "algorithm"/);
    assert.match(errors({ type: 'password', clientId: 'c1' }).join('\n'), /unknown-auth-type: Unknown auth type "password"/);
    assert.match(errors({ clientId: 'c1' }).join('\n'), /missing-auth-type/);
    assert.match(errors({ type: 'oauth', dpop: 'yes' }).join('\n'), /"auth.dpop" must be true or false/);
    const noIdp = { type: 'crossAppAccess', clientId: 'c1', clientSecret: '${env:S}', idp: { clientId: 'i', idToken: '${env:T}' } };
    assert.match(errors(noIdp).join('\n'), /"auth.idp" needs .* "issuer" or "tokenEndpoint"/);
  });

  it('resolves secret references and masks their values', async () => {
    const raw = parse({ type: 'clientCredentials', clientId: 'c1', clientSecret: '${input:secret}', scope: '${env:SCOPE}' }).servers[0].server;
    const { resolved, secrets } = await resolveServer(raw, [{ type: 'promptString', id: 'secret', description: 'Secret', password: false }], {
      userHome: '/home/u',
      pathSeparator: '/',
      env: { SCOPE: 'read write' },
      resolveInput: async () => 's3cr3t-value',
    });
    assert.deepStrictEqual((resolved as RemoteServerConfig).auth, { type: 'clientCredentials', clientId: 'c1', clientSecret: 's3cr3t-value', scope: 'read write' });
    assert.ok(secrets.includes('s3cr3t-value'), 'a client secret is masked even from an input not marked password');
  });

  it("gives each flow the SDK's provider", () => {
    const factory = oauthProviderFactory({ store: new MemorySecretStore(), status: new AuthStatusStore(), interaction: headlessInteraction('http://127.0.0.1:9/cb'), clientName: 'tests' });
    const definition = (auth?: RemoteServerConfig['auth']): ServerDefinition => {
      const server: RemoteServerConfig = { type: 'http', url: 'https://mcp.example.com/mcp', headers: {}, ...(auth ? { auth } : {}) };
      return { id: 'u::remote', name: 'remote', scope: { kind: 'user', key: 'u', label: 'User', configPath: '' }, raw: server, resolved: server, hash: 'h', secrets: [] };
    };
    const log = new MemoryLog();
    assert.ok(factory(definition(), log) instanceof OAuthProvider);
    assert.ok(factory(definition({ type: 'oauth', dpop: true }), log) instanceof OAuthProvider);
    assert.ok(factory(definition({ type: 'clientCredentials', clientId: 'c', clientSecret: 's' }), log) instanceof ClientCredentialsProvider);
    const jwt = factory(definition({ type: 'privateKeyJwt', clientId: 'c', privateKey: 'k', algorithm: 'ES256', dpop: true }), log);
    assert.ok(jwt instanceof PrivateKeyJwtProvider);
    assert.strictEqual(typeof (jwt as { dpop?: unknown }).dpop, 'function', 'DPoP asked for: the provider carries a session');
    const xaa = factory(definition({ type: 'crossAppAccess', clientId: 'c', clientSecret: 's', idp: { issuer: 'https://idp', clientId: 'i', idToken: 't' } }), log);
    assert.ok(xaa instanceof CrossAppAccessProvider);
  });

  it('Client ID Metadata Documents: per server in auth, or by server URL in the user settings', () => {
    const settings = { 'https://mcp.example.com/mcp': { clientMetadataUrl: 'https://app.example.com/client.json' }, 'https://other.example.com/mcp': { clientMetadataUrl: 'http://insecure/c.json' } };
    assert.strictEqual(configuredClientMetadataUrl(settings, 'https://mcp.example.com/mcp'), 'https://app.example.com/client.json');
    assert.strictEqual(configuredClientMetadataUrl(settings, 'https://other.example.com/mcp'), undefined, 'HTTPS only');
    const factory = oauthProviderFactory({
      store: new MemorySecretStore(),
      status: new AuthStatusStore(),
      interaction: headlessInteraction('http://127.0.0.1:9/cb'),
      clientName: 'tests',
      clientMetadataUrl: (d) => (d.resolved.type === 'stdio' ? undefined : configuredClientMetadataUrl(settings, d.resolved.url)),
    });
    const definition = (auth?: RemoteServerConfig['auth']): ServerDefinition => {
      const server: RemoteServerConfig = { type: 'http', url: 'https://mcp.example.com/mcp', headers: {}, ...(auth ? { auth } : {}) };
      return { id: 'u::remote', name: 'remote', scope: { kind: 'user', key: 'u', label: 'User', configPath: '' }, raw: server, resolved: server, hash: 'h', secrets: [] };
    };
    assert.strictEqual((factory(definition(), new MemoryLog()) as OAuthProvider).clientMetadataUrl, 'https://app.example.com/client.json');
    const own = factory(definition({ type: 'oauth', clientMetadataUrl: 'https://mine.example.com/c.json' }), new MemoryLog()) as OAuthProvider;
    assert.strictEqual(own.clientMetadataUrl, 'https://mine.example.com/c.json', "the server's own auth wins");
  });
});
