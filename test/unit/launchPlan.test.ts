import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describeDefinition } from '../../src/core/presentation/describeDefinition';
import type { InputDefinition, RawServer } from '../../src/core/config/serverDefinition';
import { launchPlanHash, MASK } from '../../src/core/config/launchPlan';
import { buildStdioPlan } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { localRunnerCopies, runnerPackage } from '../../src/core/protocol/launch/localRunnerCopies.lazy';
import { summarizeLaunchPlan } from '../../src/core/presentation/describeLaunchPlan';
import { fixtureServer } from './helpers';
import { createKit, entry, serverState, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

/** The workspace folder of each test, and the trust questions as their text (what the dialog and the CLI show). */
describe('the launch plan: the trust question shows the launch that will run', function () {
  this.timeout(30_000);
  let kit: Kit;
  let dir: string;
  let asked: string[];
  let answers: (boolean | undefined)[];
  const node = process.execPath;
  const basic = () => fixtureServer('basic-server.mjs');

  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-plan-')));
    asked = [];
    answers = [];
    kit = createKit({ trustPrompt: { askTrust: async (d, facts) => (asked.push(describeDefinition(d.raw, facts)), answers.shift()) } }, { trustAllServers: false });
  });
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const withEnvFile = (server: RawServer, envFile: string): RawServer => (server.type === 'stdio' ? { ...server, envFile } : server);
  const start = async (server: RawServer, inputs: InputDefinition[] = []) => kit.update(workspaceScope(dir), [entry('s', server)], inputs);
  const messageOf = (name: string) => {
    const state = serverState(kit, name)?.state;
    return state && 'message' in state ? String(state.message) : '';
  };

  it('an env key holding "=" that the child would see as NODE_OPTIONS: refused as a configuration problem, nothing asked, nothing run', async () => {
    await start(stdio(node, [basic()], { 'NODE_OPTIONS=--require ./evil.js #': '1', LANG: 'C' }));
    await waitForState(kit, 's', 'blocked');
    assert.match(messageOf('s'), /"NODE_OPTIONS=--require \.\/evil\.js #" is not a valid name/);
    assert.deepStrictEqual(asked, []);
  });

  it('three hundred harmless-looking variables before NODE_OPTIONS: every name and value is in the question, nothing clipped', async () => {
    const env: Record<string, string> = {};
    for (let i = 0; i < 300; i++) env[`SETTING_${i}`] = `value-${i}`;
    fs.writeFileSync(path.join(dir, '.env'), 'NODE_OPTIONS=--require ./evil.js\n');
    await start(withEnvFile(stdio(node, [basic()], env), '${workspaceFolder}/.env'));
    await waitForState(kit, 's', 'blocked');
    const text = asked[0];
    for (let i = 0; i < 300; i++) assert.ok(text.includes(`SETTING_${i}=value-${i} (env)`), `SETTING_${i}`);
    assert.match(text, /⚠ NODE_OPTIONS=--require \.\/evil\.js \(env file\)/);
    assert.ok(!text.includes('…'), 'nothing clipped');
  });

  it('PYTHONWARNINGS importing a module plus BROWSER naming a workspace script: both listed with their values (an allow-list, not a deny-list)', async () => {
    await start(stdio(node, [basic()], { PYTHONWARNINGS: 'ignore::evilpkg.Warning', BROWSER: './tools/open.sh', TZ: 'Antarctica/Troll' }));
    await waitForState(kit, 's', 'blocked');
    assert.match(asked[0], /⚠ PYTHONWARNINGS=ignore::evilpkg\.Warning \(env\) — not known to be harmless/);
    assert.match(asked[0], /⚠ BROWSER=\.\/tools\/open\.sh \(env\) — not known to be harmless/);
    assert.match(asked[0], /Harmless: TZ=Antarctica\/Troll \(env\)/);
  });

  it('a variable removed from the environment is named in the question', async () => {
    process.env.MCPHOST_PLAN_TEST_VAR = 'present';
    try {
      await start(stdio(node, [basic()], { MCPHOST_PLAN_TEST_VAR: null }));
      await waitForState(kit, 's', 'blocked');
      assert.match(asked[0], /⚠ MCPHOST_PLAN_TEST_VAR \(removed\) \(env\)/);
    } finally {
      delete process.env.MCPHOST_PLAN_TEST_VAR;
    }
  });

  it("a remote server's auth block: the question names the sign-in, each endpoint and where each secret reference goes", async () => {
    await start({
      type: 'http',
      url: 'https://mcp.example/mcp',
      headers: { 'X-Team': 'literal-team-key' },
      auth: { type: 'crossAppAccess', clientId: 'cid', clientSecret: '${env:CORP_CLIENT_SECRET}', issuer: 'https://as.example', idp: { tokenEndpoint: 'https://idp.example/token', clientId: 'idp-cid', idToken: '${env:CORP_ID_TOKEN}' } },
    });
    await waitForState(kit, 's', 'blocked');
    const text = asked[0];
    assert.match(text, /^URL: https:\/\/mcp\.example\/mcp/m);
    assert.match(text, /X-Team: ••••••/);
    assert.match(text, /^Sign-in: crossAppAccess, client id cid/m);
    assert.match(text, /Sends the client secret \$\{env:CORP_CLIENT_SECRET\} to the token endpoint of the authorization server https:\/\/as\.example/);
    assert.match(text, /Sends the ID token \$\{env:CORP_ID_TOKEN\} to https:\/\/idp\.example\/token/);
    assert.match(text, /Contacts the enterprise identity provider's token endpoint: https:\/\/idp\.example\/token/);
  });

  it('a jwtBearer auth: the question names the assertion reference or the file it is read from, and where it goes', async () => {
    await start({ type: 'http', url: 'https://mcp.example/mcp', headers: {}, auth: { type: 'jwtBearer', clientId: 'workload', assertionFile: '/var/run/secrets/tokens/mcp', issuer: 'https://as.example' } });
    await waitForState(kit, 's', 'blocked');
    assert.match(asked[0], /^Sign-in: jwtBearer, client id workload/m);
    assert.match(asked[0], /Sends the JWT-bearer assertion \(read at each token request\) in the file \/var\/run\/secrets\/tokens\/mcp to the token endpoint of the authorization server https:\/\/as\.example/);
  });

  it('a jwtBearer auth with a command: the question warns that it runs, and names where its output goes', async () => {
    await start({ type: 'http', url: 'https://mcp.example/mcp', headers: {}, auth: { type: 'jwtBearer', clientId: 'workload', assertionCommand: ['gcloud', 'auth', 'print-identity-token'], issuer: 'https://as.example' } });
    await waitForState(kit, 's', 'blocked');
    assert.match(asked[0], /Runs \["gcloud","auth","print-identity-token"\] on this machine at each token request/);
    assert.match(asked[0], /Sends the JWT-bearer assertion printed by the command gcloud auth print-identity-token to the token endpoint of the authorization server https:\/\/as\.example/);
  });

  it('a client secret with no issuer: the question warns that it goes to whichever authorization server the server names', async () => {
    await start({ type: 'http', url: 'https://mcp.example/mcp', headers: {}, auth: { type: 'clientCredentials', clientId: 'cid', clientSecret: '${env:SECRET}' } });
    await waitForState(kit, 's', 'blocked');
    assert.match(asked[0], /Sends the client secret \$\{env:SECRET\} to the token endpoint of the authorization server that https:\/\/mcp\.example's metadata names/);
    assert.match(asked[0], /⚠ No "issuer" is set/);
  });

  it('an auth endpoint over plain http (from an input, past the file check): refused as a configuration problem before any question', async () => {
    kit.inputAnswers.set('idp', 'http://idp.example/token');
    const inputs: InputDefinition[] = [{ type: 'promptString', id: 'idp', description: 'IdP', password: false }];
    await start({ type: 'http', url: 'https://mcp.example/mcp', headers: {}, auth: { type: 'crossAppAccess', clientId: 'c', idp: { tokenEndpoint: '${input:idp}', clientId: 'i', idToken: '${env:T}' } } }, inputs);
    await waitForState(kit, 's', 'blocked');
    assert.match(messageOf('s'), /"auth\.idp\.tokenEndpoint" \(http:\/\/idp\.example\/token\) must be an https URL/);
    assert.deepStrictEqual(asked, []);
  });

  it("npx -y <package> with a copy committed under node_modules: the question names the local copy that would run", async () => {
    fs.mkdirSync(path.join(dir, 'node_modules', '@acme', 'mcp-server'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules', '@acme', 'mcp-server', 'package.json'), '{"name":"@acme/mcp-server","bin":"evil.js"}');
    await start(stdio('npx', ['-y', '@acme/mcp-server@1.2.3']));
    await waitForState(kit, 's', 'blocked');
    assert.ok(asked[0].includes(`⚠ Runs or configures from a local copy, not the registry's: ${path.join(dir, 'node_modules', '@acme', 'mcp-server')}`), asked[0]);
  });

  it('an envFile named through ${input:}: its NODE_OPTIONS is shown in the question', async () => {
    fs.writeFileSync(path.join(dir, 'chosen.env'), 'NODE_OPTIONS=--require ./evil.js\n');
    kit.inputAnswers.set('envf', path.join(dir, 'chosen.env'));
    const inputs: InputDefinition[] = [{ type: 'promptString', id: 'envf', description: 'Env file', password: false }];
    await start(withEnvFile(stdio(node, [basic()]), '${input:envf}'), inputs);
    await waitForState(kit, 's', 'blocked');
    assert.match(asked[0], /⚠ NODE_OPTIONS=--require \.\/evil\.js \(env file\)/);
    assert.match(asked[0], /Environment file: .*chosen\.env/);
  });

  it('a program placed on a relative PATH entry after trust: asked again, and the question names the file that will run', async function () {
    if (process.platform === 'win32') this.skip();
    const server = stdio('node', [basic()], { PATH: 'bin' });
    answers.push(true, false);
    await start(server);
    await waitForState(kit, 's', 'running');
    assert.strictEqual(asked.length, 1);
    assert.match(asked[0], new RegExp(`Runs the file: ${node.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.writeFileSync(path.join(dir, 'bin', 'node'), `#!/bin/sh\nexec ${JSON.stringify(node)} "$@"\n`, { mode: 0o755 });
    await kit.manager.get(serverState(kit, 's')!.id)!.restart();
    assert.strictEqual(asked.length, 2, 'asked again: another file would run');
    assert.ok(asked[1].includes(`Runs the file: ${path.join(dir, 'bin', 'node')}`), asked[1]);
    assert.strictEqual(serverState(kit, 's')?.state.kind, 'blocked');
  });

  it('a value holding a line break and bidi controls cannot forge or hide a line of the question', async () => {
    await start(stdio(node, [basic()], { NOTE: 'x\nEnvironment: yours, unchanged.\u202e', TZ: 'UTC\r' }));
    await waitForState(kit, 's', 'blocked');
    assert.ok(asked[0].includes('⚠ NOTE=x\\u{a}Environment: yours, unchanged.\\u{202e} (env)'), asked[0]);
    assert.ok(asked[0].includes('TZ=UTC\\u{d} (env)'), asked[0]);
    assert.strictEqual(asked[0].split('\n').filter((l) => l.startsWith('Environment:')).length, 1);
  });

  it('a trusted plan is remembered by its hash: the same start is not asked again', async () => {
    answers.push(true);
    await start(stdio(node, [basic()], { LANG: 'C' }));
    await waitForState(kit, 's', 'running');
    await kit.manager.get(serverState(kit, 's')!.id)!.restart();
    await waitForState(kit, 's', 'running');
    assert.strictEqual(asked.length, 1);
  });
});

describe('the launch plan, in parts', () => {
  const plan = (env: Record<string, string>, shown: Record<string, string>, args: string[] = []) =>
    buildStdioPlan({ scope: { folderPath: '/ws' }, resolved: { type: 'stdio', command: '/bin/sh', args, env }, shown: { type: 'stdio', command: '/bin/sh', args, env: shown }, hostEnv: { PATH: '/bin' }, isExecutable: () => true });

  it('trust is keyed by what the question showed: a new password (masked) is the same plan, a new visible value another, and no secret goes into the key', () => {
    const key = (p: ReturnType<typeof plan>) => launchPlanHash('file:///ws', 's', p);
    const first = plan({ TOKEN: 'hunter2', MODE: 'a' }, { TOKEN: MASK, MODE: 'a' });
    assert.strictEqual(key(first), key(plan({ TOKEN: 'other-password', MODE: 'a' }, { TOKEN: MASK, MODE: 'a' })));
    assert.notStrictEqual(key(first), key(plan({ TOKEN: 'hunter2', MODE: 'b' }, { TOKEN: MASK, MODE: 'b' })));
    assert.notStrictEqual(key(first), key(plan({ TOKEN: 'hunter2', MODE: 'a' }, { TOKEN: MASK, MODE: 'a' }, ['--x'])));
  });

  it("a pick's one-line summary counts the differences and those not known to be harmless", () => {
    assert.strictEqual(summarizeLaunchPlan(plan({ TZ: 'UTC', NODE_OPTIONS: '-r x' }, { TZ: 'UTC', NODE_OPTIONS: '-r x' }, ['a b'])), '/bin/sh "a b" · 2 environment differences (⚠ 1 not known to be harmless)');
  });

  it('finds the package each runner would run, version and options aside', () => {
    const cases: [string, string[], string | undefined][] = [
      ['npx', ['-y', '@acme/srv@1.2.3', '--port', '1'], '@acme/srv'],
      ['npx', ['--package=@acme/srv', 'srv-bin'], '@acme/srv'],
      ['/usr/local/bin/pnpm', ['dlx', 'mcp-thing@latest'], 'mcp-thing'],
      ['pnpm', ['install'], undefined],
      ['yarn', ['dlx', 'tool'], 'tool'],
      ['bunx', ['tool@2'], 'tool'],
      ['npm', ['exec', '--', 'tool'], 'tool'],
      ['uvx', ['--from', 'mcp-server-git==1.0', 'mcp-server-git'], 'mcp-server-git'],
      ['pipx', ['run', 'mcp-fetch'], 'mcp-fetch'],
      ['node', ['server.js'], undefined],
    ];
    for (const [command, args, name] of cases) assert.strictEqual(runnerPackage(command, args)?.name, name, `${command} ${args.join(' ')}`);
  });

  it('names the local copies from the working directory up: node_modules/<pkg> and its .bin, a .venv/bin/<pkg> (uv.toml is a settings file: runnerProjectFiles.test)', () => {
    const present = new Set(['/ws/node_modules/tool', '/node_modules/.bin/tool', '/ws/sub/.venv/bin/tool', '/ws/sub/uv.toml']);
    assert.deepStrictEqual(localRunnerCopies('npx', ['-y', 'tool'], '/ws/sub', (f) => present.has(f)), ['/ws/node_modules/tool', '/node_modules/.bin/tool']);
    assert.deepStrictEqual(localRunnerCopies('uvx', ['tool'], '/ws/sub', (f) => present.has(f)), ['/ws/sub/.venv/bin/tool']);
    assert.deepStrictEqual(localRunnerCopies('node', ['tool'], '/ws/sub', () => true), []);
  });
});
