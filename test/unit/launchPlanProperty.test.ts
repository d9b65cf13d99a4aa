// A property of the trust question, over generated definitions: everything the launcher would pass that differs
// from the host's environment (added, changed, removed), every header and every secret reference of a sign-in with
// the endpoint it goes to, appears in the question text. Plain mocha with a seeded generator: a failure names its seed.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describeDefinition } from '../../src/core/presentation/describeDefinition';
import type { TrustFacts } from '../../src/core/config/trustFacts';
import type { InputDefinition, RawServer, RemoteAuthConfig } from '../../src/core/config/serverDefinition';
import { isValidVariableName } from '../../src/core/config/variableName';
import { InteractionQueue } from '../../src/core/host/interactionQueue';
import { MASK, type LaunchPlan } from '../../src/core/config/launchPlan';
import { planLaunch } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { readEnvFile } from '../../src/core/config/envFile.lazy';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { ServerPreparation } from '../../src/core/host/serverPreparation';
import { TrustStore } from '../../src/core/host/trustStore';
import { visibleText } from '../../src/core/presentation/serverText';
import { MemoryLog, MemoryStore, workspaceScope } from './hostTestKit';

/** mulberry32: small, seeded, good enough to spread cases. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}
type Gen = ReturnType<typeof generator>;

const NAME_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_';
const VALUE_CHARS = `abcXYZ019 ./-_:;,'"\\\`$#!?*=@%&()[]|<>~^+é€😀\u202e\n\t`;
const HOST_NAMES = ['PATH', 'HOME', 'LANG', 'NODE_OPTIONS', 'SHELL', 'TZ', 'USER', 'TERM'];
const INPUTS: InputDefinition[] = [
  { type: 'promptString', id: 'pw', description: 'password', password: true },
  { type: 'promptString', id: 'plain', description: 'plain', password: false },
];
const INPUT_VALUES: Record<string, string> = { pw: 'hunter2-secret', plain: 'typed-value' };

const text = (g: Gen, chars: string, min: number, max: number) => Array.from({ length: min + g.int(max - min + 1) }, () => chars[g.int(chars.length)]).join('');

function variableName(g: Gen): string {
  const r = g.next();
  if (r < 0.25) return g.pick(HOST_NAMES);
  if (r < 0.3) return `${g.pick(['NODE_OPTIONS', 'PATH', 'A'])}=${text(g, VALUE_CHARS, 0, 6)}`;
  if (r < 0.33) return `X${text(g, '\u0001\u202e\u200b-.', 1, 3)}`;
  return text(g, NAME_CHARS, 1, 12);
}

/** A value as written, and as the question must show it. */
function variableValue(g: Gen, host: Record<string, string>): { written: string; shown: string } {
  let written = '';
  let shown = '';
  for (let i = g.int(3) + 1; i > 0; i--) {
    const r = g.next();
    if (r < 0.15) {
      written += '${input:pw}';
      shown += MASK;
    } else if (r < 0.3) {
      written += '${input:plain}';
      shown += INPUT_VALUES.plain;
    } else if (r < 0.45) {
      const name = g.pick(Object.keys(host));
      written += `\${env:${name}}`;
      shown += `\${env:${name}}`;
    } else {
      // Literal text never holds "${": that would be a variable.
      const literal = text(g, VALUE_CHARS, 0, 12).replace(/\$\{/g, '$ {');
      written += literal;
      shown += literal;
    }
  }
  return { written, shown };
}

function hostEnvironment(g: Gen): Record<string, string> {
  const env: Record<string, string> = { PATH: '/usr/local/bin:/usr/bin:/bin' };
  for (const name of HOST_NAMES) if (g.next() < 0.6) env[name] = text(g, NAME_CHARS, 1, 8);
  return env;
}

interface Case {
  raw: RawServer;
  host: Record<string, string>;
  /** Per configured variable: how the question shows its value (null: removed). */
  shownEnv: Record<string, string | null>;
  envFile: Record<string, string>;
  invalidName: boolean;
}

function stdioCase(g: Gen, dir: string): Case {
  const host = hostEnvironment(g);
  const env: Record<string, string | null> = {};
  const shownEnv: Record<string, string | null> = {};
  for (let i = g.int(8); i > 0; i--) {
    const name = variableName(g);
    if (g.next() < 0.15) {
      env[name] = null;
      shownEnv[name] = null;
    } else {
      const value = variableValue(g, host);
      env[name] = value.written;
      shownEnv[name] = value.shown;
    }
  }
  const envFile: Record<string, string> = {};
  let envFileName: string | undefined;
  if (g.next() < 0.5) {
    for (let i = g.int(6); i > 0; i--) envFile[g.next() < 0.3 ? g.pick(HOST_NAMES) : text(g, NAME_CHARS, 1, 10)] = text(g, 'abcXYZ019./-_:@', 0, 12);
    envFileName = `${g.int(1e9)}.env`;
    fs.writeFileSync(path.join(dir, envFileName), Object.entries(envFile).map(([k, v]) => `${k}=${v}`).join('\n'));
  }
  const invalidName = Object.keys(env).some((n) => !isValidVariableName(n));
  return { raw: { type: 'stdio', command: process.execPath, args: ['server.js', '${input:pw}'], env, ...(envFileName ? { envFile: `\${workspaceFolder}/${envFileName}` } : {}) }, host, shownEnv, envFile, invalidName };
}

function remoteServer(g: Gen): RawServer {
  const headers: Record<string, string> = {};
  for (let i = g.int(4); i > 0; i--) headers[text(g, NAME_CHARS, 1, 10)] = g.pick(['Bearer ${input:pw}', '${env:TOKEN}', 'literal-key', 'k-${input:plain}']);
  const type = g.pick(['oauth', 'clientCredentials', 'privateKeyJwt', 'crossAppAccess'] as const);
  const issuer = g.next() < 0.5 ? `https://as${g.int(100)}.example` : undefined;
  const auth: RemoteAuthConfig | undefined =
    g.next() < 0.2
      ? undefined
      : {
          type,
          clientId: `client-${g.int(100)}`,
          ...(issuer ? { issuer } : {}),
          ...(type === 'clientCredentials' || type === 'crossAppAccess' ? { clientSecret: g.pick(['${env:CLIENT_SECRET}', '${input:pw}']) } : {}),
          ...(type === 'privateKeyJwt' ? { privateKey: '${env:PRIVATE_KEY}', algorithm: 'ES256' } : {}),
          ...(type === 'crossAppAccess' ? { idp: { tokenEndpoint: `https://idp${g.int(100)}.example/token`, clientId: 'idp-client', idToken: '${env:ID_TOKEN}' } } : {}),
        };
  return { type: 'http', url: `https://mcp${g.int(100)}.example/mcp`, headers, ...(auth ? { auth } : {}) };
}

/** The question for one definition, through the real preparation (inputs, env file, plan), or why it was refused. */
async function question(raw: RawServer, host: Record<string, string>, dir: string, n: number): Promise<{ text: string; plan: LaunchPlan } | { refused: string }> {
  let asked: { text: string; plan: LaunchPlan } | undefined;
  const preparation = new ServerPreparation({
    trustStore: new TrustStore(new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() })),
    trustPrompt: {
      askTrust: async (d, facts: TrustFacts) => {
        asked = { text: describeDefinition(d.raw, facts), plan: facts.plan! };
        return false;
      },
    },
    inputs: { getInput: async (_scope, input) => INPUT_VALUES[input.id] },
    dialogs: new InteractionQueue(),
    isWorkspaceTrusted: () => true,
    trustAllServers: () => false,
    environment: host,
    planLaunch,
    readEnvFile,
  });
  const scope = workspaceScope(dir, `file:///property/${n}`);
  const result = await preparation.prepare({ id: `s${n}`, scope, log: new MemoryLog(), inputs: INPUTS }, { name: 's', server: raw, nameSpan: { offset: 0, length: 0 } }, true, new AbortController().signal, () => undefined);
  if (asked) return asked;
  assert.ok(!result.ok);
  return { refused: result.message };
}

/** The environment the launcher gets, computed here on its own: the host's, then the env file's, then `env`. */
function expectedEnvironment(c: Case, resolvedEnv: Record<string, string | null>): Record<string, string> {
  const env = { ...c.host };
  for (const [k, v] of Object.entries({ ...c.envFile, ...resolvedEnv })) {
    if (v === null) delete env[k];
    else if (k === 'PATH' && env.PATH && !v.includes(env.PATH)) env.PATH = `${v}${path.delimiter}${env.PATH}`;
    else env[k] = v;
  }
  return env;
}

const resolve = (written: string, host: Record<string, string>) =>
  written.replace(/\$\{(input|env):([^{}]*)\}/g, (_all, kind: string, id: string) => (kind === 'input' ? INPUT_VALUES[id] : (host[id] ?? '')));

describe('property: the trust question shows everything the launch passes', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => (dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-property-')))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('every variable that differs from the host environment (added, changed, removed) is named with its value, secrets masked (300 stdio definitions)', async function () {
    if (process.platform === 'win32') this.skip();
    const seeds = Array.from({ length: 300 }, (_v, i) => 1000 + i);
    await Promise.all(
      seeds.map(async (seed) => {
        const g = generator(seed);
        const c = stdioCase(g, dir);
        const asked = await question(c.raw, c.host, dir, seed);
        if ('refused' in asked) {
          assert.ok(c.invalidName, `seed ${seed}: refused without an invalid name: ${asked.refused}`);
          assert.match(asked.refused, /is not a valid name/);
          return;
        }
        assert.ok(!c.invalidName, `seed ${seed}: an invalid name was not refused`);
        const resolvedEnv = Object.fromEntries(Object.entries(c.raw.type === 'stdio' ? c.raw.env : {}).map(([k, v]) => [k, v === null ? null : resolve(v, c.host)]));
        const expected = expectedEnvironment(c, resolvedEnv);
        assert.ok(asked.plan.kind === 'stdio');
        assert.deepStrictEqual(asked.plan.env, expected, `seed ${seed}: the launcher's environment`);
        for (const name of new Set([...Object.keys(expected), ...Object.keys(c.host)])) {
          if (expected[name] === c.host[name]) continue;
          const shownName = visibleText(name);
          if (expected[name] === undefined) {
            assert.ok(asked.text.includes(`${shownName} (removed)`), `seed ${seed}: ${name} removed, not in:\n${asked.text}`);
            continue;
          }
          const fromEnv = name in c.shownEnv && c.shownEnv[name] !== null;
          let shown = fromEnv ? c.shownEnv[name]! : c.envFile[name];
          if (name === 'PATH' && c.host.PATH && expected.PATH.endsWith(`${path.delimiter}${c.host.PATH}`) && !shown.endsWith(c.host.PATH)) shown = `${shown}${path.delimiter}(your PATH)`;
          assert.ok(asked.text.includes(`${shownName}=${visibleText(shown)} (${fromEnv ? 'env' : 'env file'})`), `seed ${seed}: ${JSON.stringify(name)}=${JSON.stringify(shown)} not in:\n${asked.text}`);
        }
        assert.ok(!asked.text.includes(INPUT_VALUES.pw), `seed ${seed}: a password shown`);
        assert.ok(!/[\n\r\u202e\u200b](?![^\n]*\n)/.test(asked.text.replace(/\n/g, '')), `seed ${seed}: a raw control or bidi character`);
      }),
    );
  });

  it('every header, every secret reference of a sign-in and where it goes, and every endpoint is in the question (200 remote definitions)', async () => {
    const seeds = Array.from({ length: 200 }, (_v, i) => 5000 + i);
    await Promise.all(
      seeds.map(async (seed) => {
        const g = generator(seed);
        const raw = remoteServer(g);
        const asked = await question(raw, { TOKEN: 't', CLIENT_SECRET: 'c', PRIVATE_KEY: 'k', ID_TOKEN: 'i' }, dir, seed);
        assert.ok(!('refused' in asked), `seed ${seed}: refused`);
        assert.ok(raw.type === 'http');
        for (const name of Object.keys(raw.headers)) assert.ok(asked.text.includes(`${name}: `), `seed ${seed}: header ${name}`);
        assert.ok(!asked.text.includes(INPUT_VALUES.pw) && !asked.text.includes('literal-key'), `seed ${seed}: a secret shown`);
        const auth = raw.auth;
        assert.ok(asked.text.includes(`Sign-in: ${auth?.type ?? 'oauth'}`), `seed ${seed}: the sign-in type`);
        if (auth?.clientSecret) assert.ok(asked.text.includes(`Sends the client secret ${auth.clientSecret} to the token endpoint of ${auth.issuer ? `the authorization server ${auth.issuer}` : 'the authorization server that'}`), `seed ${seed}:\n${asked.text}`);
        if (auth?.privateKey) assert.ok(asked.text.includes(`private key ${auth.privateKey}`), `seed ${seed}: the private key reference`);
        if (auth?.idp) assert.ok(asked.text.includes(`Sends the ID token ${auth.idp.idToken} to ${auth.idp.tokenEndpoint}`), `seed ${seed}: the ID token`);
        if (auth?.issuer) assert.ok(asked.text.includes(auth.issuer), `seed ${seed}: the issuer`);
        else if (auth) assert.ok(asked.text.includes('No "issuer" is set'), `seed ${seed}: the missing issuer`);
      }),
    );
  });
});
