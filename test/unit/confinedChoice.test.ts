// "Run Confined" in the trust question: the question as the user reads it (rendered from the plan), the edit of
// mcp.json that records the choice, and the host's flow with real processes in the real sandbox: the server runs
// confined at once, its trust is the confined plan's, the reload the edit causes leaves it running, and the next
// start runs confined without asking.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import type { StdioLaunchPlan } from '../../src/core/config/launchPlan';
import type { TrustFacts } from '../../src/core/config/trustFacts';
import type { RawServer } from '../../src/core/config/serverDefinition';
import type { TrustAnswer, TrustPrompt } from '../../src/core/host/hostPorts';
import { describeSandbox } from '../../src/core/presentation/describeLaunchPlan';
import { permissionRows } from '../../src/core/presentation/permissionRows';
import { trustManyQuestionText, trustQuestionText, type TrustQuestion } from '../../src/core/presentation/trustQuestionText';
import { buildStdioPlan } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { withSandboxEnabled } from '../../src/core/protocol/launch/sandboxRuleEdit.lazy';
import { sandboxSupport } from '../../src/core/protocol/launch/sandboxRuntime.lazy';
import { fixtureServer, waitFor } from './helpers';
import { createKit, entry, MemoryStore, serverState, waitForState, workspaceScope, type Kit } from './hostTestKit';
import { PermissionStore } from '../../src/core/host/permissionStore';

const home = '/home/ada';
const folder = '/home/ada/proj';

/** The plan "Run Confined" would run for `npx -y some-server` in the folder: the defaults, as sandboxPolicy computes them. */
const confinedPlan = (): StdioLaunchPlan =>
  buildStdioPlan({
    scope: { folderPath: folder },
    resolved: { type: 'stdio', command: 'npx', args: ['-y', 'some-server'], env: {}, sandboxEnabled: true },
    shown: { type: 'stdio', command: 'npx', args: ['-y', 'some-server'], env: {}, sandboxEnabled: true },
    hostEnv: { PATH: '/usr/bin', HOME: home },
    platform: 'linux',
    isExecutable: (f) => f === '/usr/bin/npx',
    home,
  });

const question = (confined: TrustQuestion['confined'], serverName = 'docs'): TrustQuestion => ({ serverName, source: 'proj/.vscode/mcp.json', detail: 'Command: npx -y some-server', what: 'Command: npx -y some-server\nWorking directory: /home/ada/proj', ...(confined ? { confined } : {}) });

describe('Run Confined: the trust question as the user reads it', () => {
  it('offers Run Confined first, then Trust, then Do Not Trust, and says what confined allows this exact server', () => {
    const allows = describeSandbox(confinedPlan().sandbox);
    const q = trustQuestionText(question({ allows }));
    assert.deepStrictEqual(
      q.buttons.map((b) => [b.label, b.answer]),
      [
        ['Run Confined', 'confined'],
        ['Trust', true],
        ['Do Not Trust', false],
      ],
    );
    assert.strictEqual(q.message, 'Trust and run the MCP server "docs"?');
    // The defaults for this plan: its folder readable and writable, its own package cache, npm's registry only.
    assert.ok(q.detail.includes('Run Confined: it runs in a sandbox, where it\n• reads the system and ~/proj, not the rest of your home folder'), q.detail);
    assert.ok(q.detail.includes('• writes only ~/proj (never git, editor or shell settings there), its own package cache and a temporary folder'), q.detail);
    assert.ok(q.detail.includes('• network only to registry.npmjs.org; no port of this machine'), q.detail);
    assert.ok(q.detail.includes('"sandboxEnabled": true is written into its entry in mcp.json'), q.detail);
    assert.ok(q.detail.includes('Trust: it runs as defined, with your permissions.'), q.detail);
    assert.ok(q.detail.startsWith('Defined in proj/.vscode/mcp.json.\n\nCommand: npx -y some-server\nWorking directory: /home/ada/proj\n\nRun Confined'), q.detail);
    assert.ok(q.detail.includes('In full, as defined:\nCommand: npx -y some-server'), q.detail);
  });

  it('where this machine cannot confine, Run Confined is not offered and the question says why', () => {
    const q = trustQuestionText(question({ unavailable: 'Windows cannot confine an MCP server (the sandbox runs on Linux and macOS).' }));
    assert.deepStrictEqual(
      q.buttons.map((b) => b.label),
      ['Trust', 'Do Not Trust'],
    );
    assert.ok(q.detail.includes('Run Confined is not offered: Windows cannot confine an MCP server'), q.detail);
    assert.ok(q.detail.includes('It will run with your permissions'), q.detail);
  });

  it('a server without the offer (remote, already confined) keeps the question as it was', () => {
    const q = trustQuestionText(question(undefined));
    assert.deepStrictEqual(
      q.buttons.map((b) => b.label),
      ['Trust', 'Do Not Trust'],
    );
    assert.strictEqual(q.detail, 'Defined in proj/.vscode/mcp.json. It will run with your permissions:\n\nCommand: npx -y some-server\n\nOnly trust servers from sources you trust.');
  });

  it('several servers: Run All Confined first, each confinable one with what it would allow, the others named as running as defined', () => {
    const allows = describeSandbox(confinedPlan().sandbox);
    const q = trustManyQuestionText({ folder: 'proj', source: 'proj/.vscode/mcp.json', servers: [question({ allows }, 'docs'), { serverName: 'remote', source: 'proj/.vscode/mcp.json', detail: 'URL: https://mcp.example.com' }] });
    assert.deepStrictEqual(
      q.buttons.map((b) => [b.label, b.answer]),
      [
        ['Run All 2 Confined', 'confined'],
        ['Trust and Run All 2', 'all'],
        ['Choose Which to Run…', 'choose'],
        ['Run None', 'none'],
      ],
    );
    assert.ok(q.detail.includes('• docs: Command: npx -y some-server\n  If confined: reads the system and ~/proj, not the rest of your home folder; writes only ~/proj (never git, editor or shell settings there), its own package cache and a temporary folder; network only to registry.npmjs.org'), q.detail);
    assert.ok(q.detail.includes('Run All 2 Confined: "docs" runs in a sandbox'), q.detail);
    assert.ok(q.detail.includes('the other runs as defined (a remote server, or one already set to run confined)'), q.detail);
    const none = trustManyQuestionText({ folder: 'proj', source: 's', servers: [question({ unavailable: 'no bubblewrap' }, 'a'), question({ unavailable: 'no bubblewrap' }, 'b')] });
    assert.deepStrictEqual(
      none.buttons.map((b) => b.answer),
      ['all', 'choose', 'none'],
    );
    assert.ok(none.detail.includes('Run Confined is not offered: no bubblewrap'), none.detail);
  });
});

describe('Run Confined: "sandboxEnabled" written into the entry', () => {
  it('adds the key to the server\'s entry, comments and formatting kept; once', () => {
    const text = '{\n  // mine\n  "servers": {\n    "docs": { "command": "npx", "args": ["-y", "x"] }, // the docs\n    "other": { "command": "node" }\n  }\n}\n';
    const next = withSandboxEnabled(text, 'docs');
    assert.ok(next.includes('// mine') && next.includes('// the docs'), next);
    const parsed = parseMcpConfig(next);
    assert.deepStrictEqual(parsed.diagnostics, []);
    assert.deepStrictEqual(
      parsed.servers.map((s) => [s.name, s.server.type === 'stdio' && s.server.sandboxEnabled === true]),
      [
        ['docs', true],
        ['other', false],
      ],
    );
    assert.strictEqual(withSandboxEnabled(next, 'docs'), next);
  });

  it('in a .mcp.json, under "mcpServers"; a server no longer in the file is an error, not a new entry', () => {
    const next = withSandboxEnabled('{ "mcpServers": { "docs": { "command": "npx" } } }', 'docs');
    assert.deepStrictEqual(JSON.parse(next), { mcpServers: { docs: { command: 'npx', sandboxEnabled: true } } });
    assert.throws(() => withSandboxEnabled('{ "servers": {} }', 'docs'), /the server "docs" is not in the file/);
  });
});

const probe = fixtureServer('sandbox-probe-server.mjs');
const text = (r: { content?: unknown }) => ((r.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');

describe('Run Confined: the host runs the server confined and remembers it (real processes, real sandbox)', function () {
  this.timeout(60_000);
  let kit: Kit;
  let ws: string;
  let secretDir: string;
  let configPath: string;
  let asked: { name: string; facts: TrustFacts }[];
  let answer: TrustAnswer | undefined;
  /** Where the kit keeps trust (the user's store): Manage Permissions reads it. */
  let trustKept: MemoryStore;

  before(function () {
    const support = sandboxSupport();
    assert.ok(support.ok, `this machine cannot confine: ${support.ok ? '' : support.reason} (run scripts/ensure-sandbox-tools.sh)`);
  });

  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.homedir(), '.mcphost-confined-ws-')));
    secretDir = fs.realpathSync(fs.mkdtempSync(path.join(os.homedir(), '.mcphost-confined-secret-')));
    fs.writeFileSync(path.join(secretDir, 'id_rsa'), 'PRIVATE KEY');
    fs.mkdirSync(path.join(ws, '.vscode'));
    configPath = path.join(ws, '.vscode', 'mcp.json');
    fs.writeFileSync(configPath, `{\n  // the probe\n  "servers": { "probe": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(probe)}] } }\n}\n`);
    asked = [];
    answer = 'confined';
    const trustPrompt: TrustPrompt = {
      askTrust: async (d, facts) => (asked.push({ name: d.name, facts }), answer),
      persistConfined: async ({ scope, name }) => fs.writeFileSync(scope.configPath, withSandboxEnabled(fs.readFileSync(scope.configPath, 'utf8'), name)),
    };
    trustKept = new MemoryStore();
    kit = createKit({ trustPrompt }, { trustAllServers: false }, trustKept);
  });
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    for (const d of [ws, secretDir]) fs.rmSync(d, { recursive: true, force: true });
  });

  /** The scope's servers as the file says now (what the file watcher hands the server manager). */
  const entries = () => parseMcpConfig(fs.readFileSync(configPath, 'utf8')).servers;

  it('runs it confined at once, writes sandboxEnabled into mcp.json, keeps it running through the reload, and starts it confined again without asking', async () => {
    const scope = workspaceScope(ws);
    await kit.update(scope, entries(), []);
    const running = await waitForState(kit, 'probe', 'running', 30_000);
    assert.strictEqual(asked.length, 1);
    // The question was given the confined plan of this very start: the defaults for its folder.
    const offered = asked[0].facts.confined;
    assert.ok(offered?.sandbox, 'the confined plan was offered');
    assert.deepStrictEqual(offered.sandbox.writable, [ws]);
    assert.strictEqual(asked[0].facts.plan?.kind === 'stdio' && asked[0].facts.plan.sandbox, undefined, 'the plan as defined is unconfined');
    assert.strictEqual(running.confined, true);
    const call = (name: string, args: Record<string, unknown>) => kit.manager.session(running.id).callTool({ name, arguments: args });
    const secret = await call('read', { path: path.join(secretDir, 'id_rsa') });
    assert.ok(secret.isError && !text(secret).includes('PRIVATE KEY'), text(secret));
    // The file says what runs, its comment kept.
    const written = fs.readFileSync(configPath, 'utf8');
    assert.ok(written.includes('// the probe') && written.includes('"sandboxEnabled": true'), written);
    assert.match(kit.log('probe').text, /Trusted by the user to run confined/);
    // Manage Permissions… lists the decision once, and says it was to run confined.
    assert.deepStrictEqual(
      permissionRows(new PermissionStore({ global: trustKept, workspace: new MemoryStore() }).list()).map((r) => [r.label, r.description]),
      [[`Run server "probe (${scope.label})"`, 'trusted to run confined · everywhere']],
    );

    // The reload the edit causes: the same definition as what runs, so it goes on (the same process).
    await kit.update(scope, entries(), []);
    assert.strictEqual(serverState(kit, 'probe')?.state.kind, 'running');
    assert.strictEqual(serverState(kit, 'probe')?.pid, running.pid);

    // The next start: trusted (the confined plan), confined, no question.
    await kit.manager.get(running.id)!.stop();
    await kit.manager.get(running.id)!.start(false);
    const again = await waitFor(() => serverState(kit, 'probe')?.state.kind === 'running' && serverState(kit, 'probe'), 'running again', 30_000);
    assert.notStrictEqual(again.pid, running.pid);
    assert.strictEqual(again.confined, true);
    assert.strictEqual(asked.length, 1, 'not asked again');
  });

  it('the reload arriving while it still starts does not start it twice', async () => {
    const scope = workspaceScope(ws);
    let reloaded: Promise<void> | undefined;
    // The watcher's reload as soon as the file is written, while the start goes on to the handshake.
    const watcher = fs.watch(configPath, () => void (reloaded ??= kit.manager.updateScope(scope, entries(), [])));
    try {
      await kit.update(scope, entries(), []);
      const running = await waitForState(kit, 'probe', 'running', 30_000);
      await waitFor(() => reloaded !== undefined, 'the reload', 5000);
      await reloaded;
      await kit.manager.idle();
      assert.strictEqual(serverState(kit, 'probe')?.pid, running.pid);
      assert.ok(!kit.log('probe').text.includes('Configuration changed: restarting'), kit.log('probe').text);
      assert.strictEqual(asked.length, 1);
    } finally {
      watcher.close();
    }
  });

  it('Trust runs it as defined, unconfined; a server already set to run confined is not offered Run Confined', async () => {
    answer = true;
    const confinedRaw: RawServer = { type: 'stdio', command: process.execPath, args: [probe], env: {}, sandboxEnabled: true };
    await kit.update(workspaceScope(ws), [...entries(), entry('already', confinedRaw)], []);
    const plain = await waitForState(kit, 'probe', 'running', 30_000);
    await waitForState(kit, 'already', 'running', 30_000);
    assert.ok(!plain.confined);
    assert.ok(!fs.readFileSync(configPath, 'utf8').includes('sandboxEnabled'));
    assert.ok(asked.find((a) => a.name === 'probe')?.facts.confined, 'offered to the unconfined one');
    assert.strictEqual(asked.find((a) => a.name === 'already')?.facts.confined, undefined, 'not offered to the confined one');
  });

  it('"confined" for a server that was not offered Run Confined is never taken as Trust: it stays not trusted', async () => {
    const remote: RawServer = { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: {} };
    await kit.update(workspaceScope(ws), [entry('remote', remote)], []);
    const blocked = await waitForState(kit, 'remote', 'blocked');
    assert.strictEqual(blocked.state.kind === 'blocked' && blocked.state.reason, 'untrusted');
    assert.strictEqual(asked.find((a) => a.name === 'remote')?.facts.confined, undefined);
    assert.ok(!kit.log('remote').text.includes('Trusted by the user'), kit.log('remote').text);
  });
});
