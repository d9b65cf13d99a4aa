// `auth` of type jwtBearer (RFC 7523 JWT-bearer grant, workload identity federation): written with exactly one
// assertion source, the assertion a secret reference; its provider sends the grant with the assertion read afresh for
// every token request (a rotated token file is read again), from an absolute path only.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import type { RemoteServerConfig, ServerDefinition } from '../../src/core/config/serverDefinition';
import { resolveServer } from '../../src/core/config/variables';
import { AuthStatusStore } from '../../src/core/auth/authStatus';
import { oauthProviderFactory } from '../../src/core/protocol/auth/oauthProviderFactory.lazy';
import { JWT_BEARER_GRANT, JwtBearerProvider } from '../../src/core/protocol/auth/jwtBearerProvider.lazy';
import { headlessInteraction, MemorySecretStore } from '../../src/cli/headlessPorts';
import { MemoryLog } from './hostTestKit';

const parse = (auth: unknown) => parseMcpConfig(JSON.stringify({ servers: { remote: { type: 'http', url: 'https://mcp.example.com/mcp', auth } }, inputs: [{ type: 'promptString', id: 'jwt', description: 'JWT', password: true }] }));
const errors = (auth: unknown) => parse(auth).diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`);

function providerFor(auth: RemoteServerConfig['auth']): JwtBearerProvider {
  const factory = oauthProviderFactory({ store: new MemorySecretStore(), status: new AuthStatusStore(), interaction: headlessInteraction('http://127.0.0.1:9/cb'), clientName: 'tests' });
  const server: RemoteServerConfig = { type: 'http', url: 'https://mcp.example.com/mcp', headers: {}, auth };
  const definition: ServerDefinition = { id: 'u::remote', name: 'remote', scope: { kind: 'user', key: 'u', label: 'User', configPath: '' }, raw: server, resolved: server, hash: 'h', secrets: [] };
  const provider = factory(definition, new MemoryLog());
  assert.ok(provider instanceof JwtBearerProvider);
  return provider;
}

describe('auth jwtBearer (workload identity federation)', () => {
  it('reads the flow with an assertion reference or a file, and refuses neither, both, or a literal JWT', () => {
    assert.deepStrictEqual((parse({ type: 'jwtBearer', clientId: 'w', assertion: '${input:jwt}', scope: 'read' }).servers[0].server as RemoteServerConfig).auth, {
      type: 'jwtBearer',
      clientId: 'w',
      assertion: '${input:jwt}',
      scope: 'read',
    });
    assert.deepStrictEqual(errors({ type: 'jwtBearer', clientId: 'w', assertionFile: '${userHome}/.tokens/mcp' }), []);
    assert.deepStrictEqual(errors({ type: 'jwtBearer', clientId: 'w', assertionCommand: ['gcloud', 'auth', 'print-identity-token'] }), []);
    assert.match(errors({ type: 'jwtBearer', clientId: 'w' }).join('\n'), /"jwtBearer" needs one of "assertion", "assertionFile", "assertionCommand"/);
    assert.match(errors({ type: 'jwtBearer', clientId: 'w', assertionCommand: [] }).join('\n'), /"auth.assertionCommand" is empty/);
    assert.match(errors({ type: 'jwtBearer', clientId: 'w', assertion: '${env:T}', assertionFile: '/t' }).join('\n'), /needs one of/);
    assert.match(errors({ type: 'jwtBearer', clientId: 'w', assertion: 'eyJhbGciOi.x.y' }).join('\n'), /secret-literal: "auth.assertion"/);
    assert.match(errors({ type: 'jwtBearer', assertion: '${env:T}' }).join('\n'), /needs "clientId"/);
  });

  it('masks a resolved assertion like every secret', async () => {
    const raw = parse({ type: 'jwtBearer', clientId: 'w', assertion: '${input:jwt}' }).servers[0].server;
    const { resolved, secrets } = await resolveServer(raw, [{ type: 'promptString', id: 'jwt', description: 'JWT', password: false }], { userHome: '/home/u', pathSeparator: '/', env: {}, resolveInput: async () => 'eyJ.the.jwt' });
    assert.strictEqual((resolved as RemoteServerConfig).auth?.assertion, 'eyJ.the.jwt');
    assert.ok(secrets.includes('eyJ.the.jwt'));
  });

  it('sends the JWT-bearer grant with the assertion, no client secret, and the scope asked', async () => {
    const provider = providerFor({ type: 'jwtBearer', clientId: 'w', assertion: ' eyJ.the.jwt\n', issuer: 'https://as.example' });
    const params = await provider.prepareTokenRequest('read');
    assert.deepStrictEqual(Object.fromEntries(params), { grant_type: JWT_BEARER_GRANT, assertion: 'eyJ.the.jwt', scope: 'read' });
    assert.strictEqual(provider.clientMetadata.token_endpoint_auth_method, 'none');
    assert.deepStrictEqual(provider.clientInformation(), { client_id: 'w', issuer: 'https://as.example' });
    assert.strictEqual(provider.redirectUrl, undefined);
  });

  it('runs the assertion command at each token request, without a shell, and says why it failed without its error output', async () => {
    const print = (code: string) => [process.execPath, '-e', code];
    const provider = providerFor({ type: 'jwtBearer', clientId: 'w', assertionCommand: print('process.stdout.write("eyJ.from.command\\n")') });
    assert.strictEqual((await provider.prepareTokenRequest()).get('assertion'), 'eyJ.from.command');
    const failing = providerFor({ type: 'jwtBearer', clientId: 'w', assertionCommand: print('process.stderr.write("secret-ish"); process.exit(3)') });
    await assert.rejects(failing.prepareTokenRequest(), (e: Error) => /failed: it exited with code 3/.test(e.message) && !e.message.includes('secret-ish'));
    const shell = providerFor({ type: 'jwtBearer', clientId: 'w', assertionCommand: ['echo eyJ && true'] });
    await assert.rejects(shell.prepareTokenRequest(), /failed: ENOENT/, 'no shell interprets the command');
  });

  it('reads the assertion file at each token request, so a rotated token is used; refuses a relative path and a huge file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-jwt-'));
    try {
      const file = path.join(dir, 'token');
      fs.writeFileSync(file, 'eyJ.first\n');
      const provider = providerFor({ type: 'jwtBearer', clientId: 'w', assertionFile: file });
      assert.strictEqual((await provider.prepareTokenRequest()).get('assertion'), 'eyJ.first');
      fs.writeFileSync(file, 'eyJ.rotated');
      assert.strictEqual((await provider.prepareTokenRequest()).get('assertion'), 'eyJ.rotated');
      fs.writeFileSync(file, 'x'.repeat(100_000));
      await assert.rejects(provider.prepareTokenRequest(), /too large for a JWT/);
      await assert.rejects(providerFor({ type: 'jwtBearer', clientId: 'w', assertionFile: 'token' }).prepareTokenRequest(), /must be an absolute path/);
      await assert.rejects(providerFor({ type: 'jwtBearer', clientId: 'w', assertionFile: path.join(dir, 'missing') }).prepareTokenRequest(), /Could not read the JWT-bearer assertion file .*ENOENT/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
