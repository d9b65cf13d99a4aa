// A trusted plan's process started before its connection exists (the launch bundle's startPlannedProcess), as the
// extension does so that the first server boots while the host bundle loads: the connection takes that very
// process, nothing it did meanwhile is lost, and a start that ends first leaves no process behind.
import * as assert from 'assert';
import type { ConnectionFactory } from '../../src/core/host/connectionPort';
import type { ServerDefinition } from '../../src/core/config/serverDefinition';
import { isAlive } from '../../src/core/protocol/connection/processTree.lazy';
import { planLaunch } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { ServerProcess, startPlannedProcess, type StartedProcess } from '../../src/core/protocol/launch/serverProcess.lazy';
import { createConnection } from '../../src/core/protocol/serverConnection.lazy';
import { createKit, entry, MemoryLog, stdio, userScope, waitForState, type Kit } from './hostTestKit';
import { fixtureServer, sleep, waitFor } from './helpers';

const posixOnly = process.platform === 'win32' ? describe.skip : describe;

/** Blocks this thread, as requiring the host bundle does. */
const blockFor = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** The extension's connection factory: the process first, then (after `loadMs` of a blocked thread) the connection. */
function earlyStarting(started: StartedProcess[], loadMs = 0): ConnectionFactory {
  return (definition, log, secrets, options, events) => {
    const early = startPlannedProcess(definition);
    if (early) started.push(early);
    blockFor(loadMs);
    return createConnection(definition, log, secrets, options, events, early);
  };
}

/** A definition as the host prepares it: planned, so with the plan that runs. */
async function planned(name: string, command: string, args: string[]): Promise<ServerDefinition> {
  const raw = stdio(command, args);
  const result = await planLaunch({ scope: userScope, raw, resolved: raw, shown: raw, hostEnv: process.env });
  if (!result.ok) throw new Error(result.message);
  return { id: `user:${name}`, name, scope: userScope, raw, resolved: raw, hash: name, secrets: [], plan: result.plan };
}

const connectionOptions = {
  clientInfo: { name: 'mcp-host-tests', version: '0' },
  initializeTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  shutdownStageMs: 500,
  roots: () => [],
  environment: process.env,
};
const noEvents = { featuresChanged: () => undefined, exited: () => undefined };

posixOnly('a process started before its connection', () => {
  let kit: Kit | undefined;
  const pids: number[] = [];
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    kit = undefined;
    for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  });

  it('is the process the connection runs: one process, started before the connection, with the server running on it', async () => {
    const started: StartedProcess[] = [];
    kit = createKit({ createConnection: earlyStarting(started, 300) });
    await kit.update(userScope, [entry('early', stdio(process.execPath, [fixtureServer('basic-server.mjs')]))], []);
    const info = await waitForState(kit, 'early', 'running');
    assert.strictEqual(started.length, 1);
    pids.push(started[0].process.pid!);
    assert.strictEqual(info.pid, started[0].process.pid, 'the running server is the process started first');
    assert.strictEqual(kit.manager.get(info.id)!.lastSpawnedPid, started[0].process.pid, 'no second process was started');
    assert.ok(info.features.tools.length > 0, 'its tools are listed');
  });

  it('keeps what the server wrote and how it ended while nobody listened: a crash before the connection is the start error', async () => {
    const started: StartedProcess[] = [];
    kit = createKit({ createConnection: earlyStarting(started, 500) });
    await kit.update(userScope, [entry('crashing', stdio(process.execPath, [fixtureServer('crash-server.mjs')]))], []);
    const info = await waitForState(kit, 'crashing', 'error');
    // As when the connection starts the process: the exit, and the line it printed on stderr before it exited (Node
    // drops the output of an exited process that nobody read).
    assert.strictEqual(info.state.kind === 'error' && info.state.message, 'The server process exited with exit code 1 before it finished starting. It printed: crash-server: fatal: crashing before initialize (FIXTURE_CRASH=before-init)');
    assert.match(kit.log('crashing').text, /^\[info\] \[stderr\] crash-server: fatal: crashing before initialize/m);
    assert.ok(!isAlive(started[0].process.pid!), 'the crashed process is gone');
  });

  it('holds at most 4 MB of a flood before it is taken: the server waits on its pipe, and nothing is lost', async () => {
    const flood = 'const line = "x".repeat(1023) + "\\n"; for (let i = 0; i < 10 * 1024; i++) process.stderr.write(line); process.stderr.write("DONE\\n");';
    const early = new ServerProcess({ command: process.execPath, args: ['-e', flood], env: { ...process.env } as Record<string, string> });
    await early.spawned;
    pids.push(early.pid!);
    let exited = false;
    void early.exited.then(() => (exited = true));
    await sleep(1000);
    assert.strictEqual(exited, false, 'the server waits until its output is read');
    let bytes = 0;
    let tail = '';
    const closed = new Promise<void>((resolve) =>
      early.listen({
        stdout: () => undefined,
        stderr: (chunk) => ((bytes += chunk.length), (tail = (tail + chunk.toString()).slice(-10))),
        stderrEnd: () => undefined,
        error: () => undefined,
        close: resolve,
      }),
    );
    await closed;
    assert.strictEqual(bytes, 10 * 1024 * 1024 + 'DONE\n'.length);
    assert.strictEqual(tail.slice(-5), 'DONE\n');
  });

  it('is ended by a stop that comes before the connection took it', async () => {
    const definition = await planned('stopped', process.execPath, [fixtureServer('basic-server.mjs')]);
    const early = startPlannedProcess(definition)!;
    await early.process.spawned;
    const pid = early.process.pid!;
    pids.push(pid);
    const connection = createConnection(definition, new MemoryLog(), () => [], connectionOptions, noEvents, early);
    assert.strictEqual(connection.pid, pid, 'its pid is shown while it starts');
    await connection.stop();
    assert.ok(!isAlive(pid), 'the process is gone');
  });

  it('is ended when it was started from another plan, and the connection starts its own from its plan', async () => {
    const definition = await planned('own', process.execPath, [fixtureServer('basic-server.mjs')]);
    const other = startPlannedProcess(await planned('other', process.execPath, [fixtureServer('basic-server.mjs')]))!;
    await other.process.spawned;
    pids.push(other.process.pid!);
    const connection = createConnection(definition, new MemoryLog(), () => [], connectionOptions, noEvents, other);
    const outcome = await connection.start(new AbortController().signal);
    try {
      assert.deepStrictEqual(outcome, { ok: true });
      assert.notStrictEqual(connection.pid, other.process.pid);
      pids.push(connection.pid!);
      await waitFor(() => !isAlive(other.process.pid!), 'the other plan’s process to end', 5000);
    } finally {
      await connection.stop();
    }
  });

  it('is started only for a plan nothing must precede: not confined, not under a debugger, its command found', async () => {
    const plain = await planned('plain', process.execPath, ['-e', '']);
    const plan = plain.plan!;
    assert.strictEqual(plan.kind, 'stdio');
    if (plan.kind !== 'stdio') return;
    const refused: ServerDefinition[] = [
      { ...plain, plan: { ...plan, sandbox: { writable: [], domains: [] } as never } },
      { ...plain, plan: { ...plan, debug: { type: 'node' } as never } },
      { ...plain, plan: { ...plan, executable: undefined } },
      { ...plain, plan: { ...plan, cwd: '/no/such/folder' } },
      { ...plain, plan: undefined },
    ];
    for (const definition of refused) assert.strictEqual(startPlannedProcess(definition), undefined);
    const started = startPlannedProcess(plain)!;
    await started.process.spawned;
    assert.strictEqual(started.plan, plan);
    await started.process.exited;
  });
});
