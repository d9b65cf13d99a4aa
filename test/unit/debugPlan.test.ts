// `dev.debug` in the launch plan: the debugger's arguments are in what runs and in the trust question, the plan's
// identity changes with them (not with the port of each start), and a command the debugger cannot start is refused.
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { launchPlanHash, type DebuggerSupport, type StdioPlanSource } from '../../src/core/config/launchPlan';
import type { DevDebugConfig, ResolvedServer } from '../../src/core/config/serverDefinition';
import { describeLaunchPlan, summarizeLaunchPlan } from '../../src/core/presentation/describeLaunchPlan';
import { buildStdioPlan, planLaunch } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { LaunchPlanError } from '../../src/core/protocol/launch/launchPlanError.lazy';
import { fixtureServer } from './helpers';
import { createKit, entry, serverState, waitForState, workspaceScope, type Kit } from './hostTestKit';
import { createConnection } from '../../src/core/protocol/serverConnection.lazy';
import type { ConnectionFactory } from '../../src/core/host/connectionPort';
import { describeDefinition } from '../../src/core/presentation/describeDefinition';

describe('dev.debug in the launch plan', () => {
  const folder = path.join(os.tmpdir(), 'project');
  const server = (command: string, args: string[], debug?: DevDebugConfig): ResolvedServer & { type: 'stdio' } => ({ type: 'stdio', command, args, env: {}, ...(debug ? { dev: { watch: [], debug } } : {}) });
  const source = (s: ResolvedServer & { type: 'stdio' }, debuggers?: DebuggerSupport): StdioPlanSource => ({ scope: { folderPath: folder }, resolved: s, shown: s, hostEnv: { PATH: '/usr/bin' }, isExecutable: () => true, debuggers });
  const both: DebuggerSupport = { port: 41234, types: ['node', 'debugpy'] };

  it('node: --inspect-brk on 127.0.0.1 at the port before the server\'s arguments, in what runs and in the question', () => {
    const plan = buildStdioPlan(source(server('node', ['dist/server.js', '--stdio'], { type: 'node' }), both));
    assert.deepStrictEqual(plan.args, ['--inspect-brk=127.0.0.1:41234', 'dist/server.js', '--stdio']);
    assert.deepStrictEqual(plan.argsShown, plan.args);
    assert.deepStrictEqual({ ...plan.debug, identity: undefined }, { type: 'node', host: '127.0.0.1', port: 41234, addedArgs: 1, identity: undefined });
    const text = describeLaunchPlan(plan);
    assert.match(text, /^Command: node --inspect-brk=127\.0\.0\.1:41234 dist\/server\.js --stdio$/m);
    assert.match(text, /^Under a debugger \("dev\.debug": node\): its inspector listens on 127\.0\.0\.1:41234, it waits at its first line until VS Code's debugger attaches/m);
    assert.match(summarizeLaunchPlan(plan), /under the node debugger/);
    // node20, a full path: node still.
    assert.strictEqual(buildStdioPlan(source(server('/opt/node/bin/node20', ['s.js'], { type: 'node' }), both)).args[0], '--inspect-brk=127.0.0.1:41234');
  });

  it('debugpy: python -m debugpy --connect … --wait-for-client, the extension\'s bundled debugpy, or debugpyPath as the command', () => {
    assert.deepStrictEqual(buildStdioPlan(source(server('python3', ['server.py'], { type: 'debugpy' }), both)).args, ['-m', 'debugpy', '--connect', '127.0.0.1:41234', '--wait-for-client', 'server.py']);
    const bundled = buildStdioPlan(source(server('python3.12', ['-m', 'my_server'], { type: 'debugpy' }), { ...both, debugpyPackage: '/ext/bundled/libs/debugpy' }));
    assert.deepStrictEqual(bundled.args, ['/ext/bundled/libs/debugpy', '--connect', '127.0.0.1:41234', '--wait-for-client', '-m', 'my_server']);
    assert.strictEqual(bundled.debug?.addedArgs, 4);
    const own = buildStdioPlan(source(server('python', ['server.py'], { type: 'debugpy', debugpyPath: '/venv/bin/debugpy' }), both));
    assert.strictEqual(own.command, '/venv/bin/debugpy');
    assert.strictEqual(own.executable, '/venv/bin/debugpy');
    assert.deepStrictEqual(own.args, ['--connect', '127.0.0.1:41234', '--wait-for-client', 'server.py']);
    assert.match(describeLaunchPlan(own), /^Command: \/venv\/bin\/debugpy --connect 127\.0\.0\.1:41234 --wait-for-client server\.py$/m);
    assert.match(describeLaunchPlan(own), /debugpy connects to VS Code's debugger on 127\.0\.0\.1:41234 and waits for it/);
  });

  it('the identity changes with the debugger, not with the port picked at each start', () => {
    const hash = (debug: DevDebugConfig | undefined, support: DebuggerSupport | undefined = both) => launchPlanHash('ws', 's', buildStdioPlan(source(server('node', ['s.js'], debug), support)));
    const plain = hash(undefined);
    const debugged = hash({ type: 'node' });
    assert.notStrictEqual(debugged, plain);
    assert.strictEqual(hash({ type: 'node' }, { ...both, port: 50000 }), debugged);
    // Without a debugger here: nothing added, but not the plain plan's identity either (the question said so).
    const without = hash({ type: 'node' }, { port: 41234, types: [] });
    assert.notStrictEqual(without, plain);
    assert.notStrictEqual(without, debugged);
    const py = (debug: DevDebugConfig) => launchPlanHash('ws', 's', buildStdioPlan(source(server('python3', ['s.py'], debug), both)));
    assert.notStrictEqual(py({ type: 'debugpy' }), py({ type: 'debugpy', debugpyPath: '/venv/bin/debugpy' }));
  });

  it('no debugger of that type here, or a confined server: it starts without one, nothing added, and the question says why', () => {
    const noPython = buildStdioPlan(source(server('python3', ['server.py'], { type: 'debugpy' }), { port: 41234, types: ['node'] }));
    assert.deepStrictEqual(noPython.args, ['server.py']);
    assert.strictEqual(noPython.command, 'python3');
    assert.match(describeLaunchPlan(noPython), /^⚠ "dev\.debug" \(debugpy\) is set, but it starts without a debugger: VS Code has no Python debugger here \(install the Python Debugger extension, ms-python\.debugpy\)\.$/m);
    assert.doesNotMatch(summarizeLaunchPlan(noPython), /debugger/);
    const cli = buildStdioPlan(source(server('node', ['s.js'], { type: 'node' })));
    assert.deepStrictEqual(cli.args, ['s.js']);
    assert.match(cli.debug?.unavailable ?? '', /no debugger can attach here/);
    const confined = buildStdioPlan({ ...source({ ...server('node', ['s.js'], { type: 'node' }), sandboxEnabled: true }, both), home: os.homedir() });
    assert.deepStrictEqual(confined.args, ['s.js']);
    assert.match(confined.debug?.unavailable ?? '', /runs confined/);
  });

  it('a command the debugger cannot start (npx for node, uv for debugpy) is a configuration problem', async () => {
    assert.throws(() => buildStdioPlan(source(server('npx', ['-y', 'pkg'], { type: 'node' }), both)), (e: Error) => e instanceof LaunchPlanError && e.message === '"dev.debug" of type "node" needs "command": "node" (the debugger\'s arguments are node\'s own), not "npx".');
    const planned = await planLaunch({ scope: { folderPath: folder }, raw: server('uv', ['run', 's.py'], { type: 'debugpy' }), resolved: server('uv', ['run', 's.py'], { type: 'debugpy' }), shown: server('uv', ['run', 's.py'], { type: 'debugpy' }), hostEnv: {}, debuggers: both });
    assert.deepStrictEqual(planned, { ok: false, message: '"dev.debug" of type "debugpy" needs "command": "python" (the debugger\'s arguments are python\'s own), not "uv".' });
  });
});

describe('dev.debug where no debugger can attach (the host without VS Code)', function () {
  this.timeout(30_000);
  let kit: Kit;
  let dir: string;
  const asked: string[] = [];
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-debug-')));
    kit = createKit({ trustPrompt: { askTrust: async (d, facts) => (asked.push(describeDefinition(d.raw, facts)), true) } }, { trustAllServers: false });
  });
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the server starts and runs without a debugger; the question and the log say so', async () => {
    await kit.update(workspaceScope(dir), [entry('s', { type: 'stdio', command: 'node', args: [fixtureServer('basic-server.mjs')], env: {}, dev: { watch: [], debug: { type: 'node' } } })], []);
    await waitForState(kit, 's', 'running');
    assert.match(asked[0], /⚠ "dev\.debug" \(node\) is set, but it starts without a debugger: no debugger can attach here/);
    assert.doesNotMatch(asked[0], /--inspect/);
    assert.strictEqual(serverState(kit, 's')?.state.kind, 'running');
    assert.match(kit.logs.get("s")!.text, /starts without a debugger: no debugger can attach here/);
  });
});

describe('dev.debug where the editor\'s debugger cannot start', function () {
  this.timeout(30_000);
  let kit: Kit;
  let dir: string;
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the start fails before any process starts, saying why; the server is in error, not hanging', async () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-debug-')));
    const attached: string[] = [];
    let spawned: number | undefined = -1;
    const withFailingDebugger: ConnectionFactory = (definition, log, secrets, options, events) => {
      const connection = createConnection(definition, log, secrets, {
        ...options,
        attachDebugger: async (_d, debug) => {
          attached.push(`${debug.type} ${debug.host}:${debug.port}`);
          throw new Error('VS Code did not start the node debug session.');
        },
      }, events);
      const stop = connection.stop.bind(connection);
      connection.stop = async () => ((spawned = connection.spawnedPid), stop());
      return connection;
    };
    kit = createKit({ createConnection: withFailingDebugger, planLaunch: (source) => planLaunch({ ...source, debuggers: { port: 45678, types: ['node'] } }) });
    await kit.update(workspaceScope(dir), [entry('s', { type: 'stdio', command: 'node', args: [fixtureServer('basic-server.mjs')], env: {}, dev: { watch: [], debug: { type: 'node' } } })], []);
    await waitForState(kit, 's', 'error');
    assert.deepStrictEqual(attached, ['node 127.0.0.1:45678']);
    const state = serverState(kit, 's')?.state;
    assert.match(state && 'message' in state ? state.message : '', /The debugger \(node\) could not start: VS Code did not start the node debug session\./);
    assert.strictEqual(spawned, undefined, 'no process was started');
  });
});

describe('dev.debug node: the debugger attached before the process starts, ended first when it stops', function () {
  this.timeout(40_000);
  let kit: Kit;
  let dir: string;
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the server waits under --inspect-brk until a debugger attaches, then runs; stopping it ends the debugger first', async () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-debug-')));
    const events: string[] = [];
    let attachedTo: number | undefined;
    // A stand-in for VS Code's debugger: a process that attaches to node's inspector over the DevTools protocol.
    const withDebugger: ConnectionFactory = (definition, log, secrets, options, events_) =>
      createConnection(definition, log, secrets, {
        ...options,
        attachDebugger: async (_d, debug) => {
          events.push(`attach ${debug.type} ${debug.host}:${debug.port}`);
          const client = spawn(process.execPath, [...(typeof WebSocket === 'undefined' ? ['--experimental-websocket'] : []), path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'debugger', 'inspector-client.mjs'), String(debug.port)], { stdio: ['ignore', 'pipe', 'inherit'] });
          client.stdout.on('data', (chunk: Buffer) => {
            const pid = /attached (\d+)/.exec(chunk.toString())?.[1];
            if (!pid) return;
            attachedTo = Number(pid);
            events.push('attached');
          });
          return { end: async () => void (events.push('end'), client.kill()) };
        },
      }, events_);
    const port = 40_000 + Math.floor(Math.random() * 20_000);
    kit = createKit({ createConnection: withDebugger, planLaunch: (source) => planLaunch({ ...source, debuggers: { port, types: ['node'] } }) });
    await kit.update(workspaceScope(dir), [entry('s', { type: 'stdio', command: 'node', args: [fixtureServer('basic-server.mjs')], env: {}, dev: { watch: [], debug: { type: 'node' } } })], []);
    await waitForState(kit, 's', 'running');
    const info = serverState(kit, 's')!;
    // Its first answer came after the debugger let it run, which it said (on a pipe read a moment later).
    for (let i = 0; i < 40 && !attachedTo; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepStrictEqual(events, [`attach node 127.0.0.1:${port}`, 'attached']);
    assert.strictEqual(attachedTo, info.pid, 'the debugger is attached to the server process');
    assert.match(kit.logs.get('s')!.text, new RegExp(`Starting: node --inspect-brk=127\\.0\\.0\\.1:${port} \\S*basic-server\\.mjs`));
    const echoed = (await kit.manager.session(info.id).callTool({ name: 'echo', arguments: { text: 'running' } })) as { content: { text: string }[] };
    assert.strictEqual(echoed.content[0].text, 'running');
    await kit.manager.get(info.id)!.stop();
    assert.deepStrictEqual(events, [`attach node 127.0.0.1:${port}`, 'attached', 'end']);
  });
});
