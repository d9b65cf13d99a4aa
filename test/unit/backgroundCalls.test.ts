// Long calls don't hold the turn: the one timer of the guarded call path (holdAtMost), then the real path (ToolCaller
// with the window's ToolTasks) against the slow-tool fixture and the tasks fixture in child processes. A call that may
// go on in the background and outlasts `backgroundAfter` gives its caller a "still running" result at once, keeps
// running with a row among its server's tasks (its progress, Cancel that reaches the server, its result once done);
// a call that may not (Call Tool…), or a setting of 0, waits as before.
import * as assert from 'assert';
import type { CallToolResult, Progress } from '@modelcontextprotocol/client';
import { holdAtMost, MOVED_TO_BACKGROUND, movedToBackground, stillRunningResult, type HeldCall } from '../../src/core/features/tools/backgroundCalls';
import { ToolCaller, type GuardedCallOutcome } from '../../src/core/features/tools/toolCaller';
import { ToolConsent } from '../../src/core/features/tools/toolConsent';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { ToolTasks } from '../../src/core/features/tasks/toolTasks.lazy';
import { PermissionStore } from '../../src/core/host/permissionStore';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { fixtureServer } from './helpers';
import { createKit, entry, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';
import { experimentalTasks, useTaskServer } from './taskTestKit';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : c.type)).join('\n');
const ran = (outcome: GuardedCallOutcome) => {
  assert.ok(outcome.ran, 'the call ran');
  return outcome.result;
};

/** A call the test ends by hand, and what the timer did with it. */
function fakeCall(afterMs: number, signal?: AbortSignal) {
  let finish!: (result: CallToolResult) => void;
  let report!: (p: Progress) => void;
  const seen = { callerProgress: [] as Progress[], rowProgress: [] as Progress[], moved: 0, sentSignal: undefined as AbortSignal | undefined, cancel: undefined as (() => void) | undefined, running: undefined as Promise<CallToolResult> | undefined };
  const held: HeldCall = {
    afterMs,
    signal,
    onProgress: (p) => seen.callerProgress.push(p),
    start: (s, onProgress) => {
      seen.sentSignal = s;
      report = onProgress;
      return new Promise<CallToolResult>((resolve, reject) => {
        finish = resolve;
        s.addEventListener('abort', () => reject(s.reason));
      });
    },
    moveToBackground: async ({ running, cancel, progress }) => {
      seen.moved++;
      seen.cancel = cancel;
      seen.running = running;
      if (progress) seen.rowProgress.push(progress);
      return { key: 'row-1', progressed: (p) => seen.rowProgress.push(p) };
    },
    stillRunning: (key) => stillRunningResult('sleep', 'slow', afterMs, key),
  };
  return { held, seen, finish: (t: string) => finish({ content: [{ type: 'text', text: t }] }), report: (p: Progress) => report(p) };
}

describe('long tool calls go on in the background: the timer', () => {
  it("gives a call that ends in time its own result, and never moves it", async () => {
    const call = fakeCall(200);
    const result = holdAtMost(call.held);
    await tick(50);
    call.finish('done');
    assert.strictEqual(text(await result), 'done');
    await tick(250);
    assert.strictEqual(call.seen.moved, 0);
  });

  it('gives a call still running after the set time the still-running result, and the row its progress and end', async () => {
    const call = fakeCall(100);
    const result = holdAtMost(call.held);
    call.report({ progress: 1, total: 4, message: 'step 1' });
    const still = await result;
    assert.ok(movedToBackground(still));
    assert.strictEqual(still._meta?.[MOVED_TO_BACKGROUND], 'row-1');
    assert.match(text(still), /^The tool "sleep" of the MCP server "slow" is still running: it did not finish within 0 s, so it goes on in the background/);
    assert.match(text(still), /Its outcome will appear in the MCP Servers view/);
    assert.strictEqual(call.seen.moved, 1);
    // Progress so far went to the caller (and the last one to the row); from now on it goes to the row only.
    call.report({ progress: 2, total: 4, message: 'step 2' });
    assert.deepStrictEqual(call.seen.callerProgress.map((p) => p.message), ['step 1']);
    assert.deepStrictEqual(call.seen.rowProgress.map((p) => p.message), ['step 1', 'step 2']);
    assert.strictEqual(call.seen.sentSignal!.aborted, false, 'the call is not stopped');
    call.finish('late');
    assert.strictEqual(text(await call.seen.running!), 'late', 'the row gets the real result');
  });

  it("cancels the call when the caller stops waiting in time, and not once the call is in the background", async () => {
    const early = new AbortController();
    const first = fakeCall(1000, early.signal);
    const waited = holdAtMost(first.held);
    early.abort(new Error('turn stopped'));
    await assert.rejects(waited, /turn stopped/);
    assert.strictEqual(first.seen.sentSignal!.aborted, true);

    const late = new AbortController();
    const second = fakeCall(50, late.signal);
    assert.ok(movedToBackground(await holdAtMost(second.held)));
    late.abort(new Error('turn ended'));
    assert.strictEqual(second.seen.sentSignal!.aborted, false, 'a turn that ends leaves the call running');
    // The row's Cancel stops it.
    second.seen.cancel!();
    assert.strictEqual(second.seen.sentSignal!.aborted, true);
    await assert.rejects(second.seen.running!, /Cancelled from its row/);
  });

  it('waits until the end with a setting of 0', async () => {
    const call = fakeCall(0);
    const result = holdAtMost(call.held);
    await tick(150);
    call.finish('whenever');
    assert.strictEqual(text(await result), 'whenever');
    assert.strictEqual(call.seen.moved, 0);
  });
});

describe('long tool calls go on in the background: the guarded path, with a real server', function () {
  this.timeout(60_000);
  let kit: Kit;
  let server: ServerInfo;
  let tasks: ToolTasks;
  let caller: ToolCaller;
  let afterMs: number;

  before(async () => {
    kit = createKit();
    await kit.update(workspaceScope(), [entry('slow', stdio(process.execPath, [fixtureServer('slow-tool-server.mjs')]))], []);
    server = await waitForState(kit, 'slow', 'running');
  });
  after(() => kit.manager.disposeAsync());
  beforeEach(() => {
    afterMs = 400;
    tasks = new ToolTasks();
    const consent = new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async () => 'once', autoAllowReadOnly: () => false });
    caller = new ToolCaller(kit.manager, new ActiveToolCalls(), consent, tasks, () => afterMs);
  });
  afterEach(() => tasks.dispose());

  const tool = (name: string) => server.features.tools.find((t) => t.name === name)!;
  const sleep = (ms: number, extras: { mayBackground?: boolean; signal?: AbortSignal } = {}) =>
    caller.call({ serverId: server.id, tool: tool('sleep'), arguments: { ms }, origin: 'a test', ...extras }, { confirmedByUser: true });
  const cancellations = async () => JSON.parse(text(ran(await caller.call({ serverId: server.id, tool: tool('cancellations'), arguments: {}, origin: 'a test' }, { confirmedByUser: true })))) as { reason: string | null; wasRunning: boolean }[];

  it('answers at once that a long call is still running; the call goes on in its row, with its progress, to its result', async () => {
    const started = Date.now();
    const result = ran(await sleep(2500, { mayBackground: true }));
    assert.ok(Date.now() - started < 2000, `the caller waited ${Date.now() - started} ms`);
    assert.ok(movedToBackground(result), text(result));
    assert.match(text(result), /"sleep" of the MCP server "slow" is still running/);
    const [row] = tasks.of(server.id);
    assert.strictEqual(row.status, 'working');
    assert.strictEqual(row.movedAfterMs, 400);
    assert.strictEqual(result._meta?.[MOVED_TO_BACKGROUND], row.key);
    // The fixture reports progress every 200 ms, with the message "sleeping".
    await tick(500);
    assert.strictEqual(row.statusMessage, 'sleeping');
    assert.ok(row.progress && row.progress.total === 2500 && row.progress.progress > 400, JSON.stringify(row.progress));
    const ends: string[] = [];
    tasks.onDidChange((t) => ends.push(t.status));
    await new Promise<void>((resolve) => tasks.onDidChange((t) => t.key === row.key && t.status === 'completed' && resolve()));
    assert.strictEqual(text(row.result!), 'slept');
    assert.ok(ends.includes('completed'));
  });

  it("cancels a call in the background from its row: the server hears notifications/cancelled", async () => {
    const before = (await cancellations()).length;
    assert.ok(movedToBackground(ran(await sleep(30_000, { mayBackground: true }))));
    const [row] = tasks.of(server.id);
    await tasks.cancel(row.key);
    assert.strictEqual(row.status, 'cancelled');
    await tick(300);
    assert.strictEqual(row.status, 'cancelled', 'still cancelled once the call rejected');
    assert.strictEqual(row.failure, 'Cancelled.');
    const heard = await cancellations();
    assert.strictEqual(heard.length, before + 1, JSON.stringify(heard));
    assert.strictEqual(heard.at(-1)!.wasRunning, true);
  });

  it("waits for a call that may not go on in the background, and for every call with a setting of 0", async () => {
    const started = Date.now();
    assert.strictEqual(text(ran(await sleep(900))), 'slept');
    afterMs = 0;
    assert.strictEqual(text(ran(await sleep(900, { mayBackground: true }))), 'slept');
    assert.ok(Date.now() - started >= 1800);
    assert.deepStrictEqual(tasks.of(server.id), [], 'no row');
  });

  it('a turn that ends after the call went on in the background leaves it running', async () => {
    const turn = new AbortController();
    assert.ok(movedToBackground(ran(await sleep(1200, { mayBackground: true, signal: turn.signal }))));
    turn.abort(new Error('the turn ended'));
    const [row] = tasks.of(server.id);
    await new Promise<void>((resolve) => tasks.onDidChange((t) => t.key === row.key && t.status === 'completed' && resolve()));
    assert.strictEqual(text(row.result!), 'slept');
  });
});

describe('a long call that reports no progress is not ended by the request timeout before it moves to the background', function () {
  this.timeout(60_000);
  let kit: Kit;
  let server: ServerInfo;
  before(async () => {
    // A request timeout shorter than the time before a call moves: as mcpHost.requestTimeout (60 s) is to backgroundAfter (120 s).
    kit = createKit({}, { requestTimeoutMs: 600 });
    await kit.update(workspaceScope(), [entry('slow', stdio(process.execPath, [fixtureServer('slow-tool-server.mjs')]))], []);
    server = await waitForState(kit, 'slow', 'running');
  });
  after(() => kit.manager.disposeAsync());

  it('a silent 2.5 s tool with a 0.6 s request timeout and a 1 s wait: moves, runs on, and its row gets its result', async () => {
    const tasks = new ToolTasks();
    try {
      const consent = new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async () => 'once', autoAllowReadOnly: () => false });
      const caller = new ToolCaller(kit.manager, new ActiveToolCalls(), consent, tasks, () => 1000);
      const sleep = server.features.tools.find((t) => t.name === 'sleep')!;
      const result = ran(await caller.call({ serverId: server.id, tool: sleep, arguments: { ms: 2500, silent: true }, origin: 'a test', mayBackground: true }, { confirmedByUser: true }));
      assert.ok(movedToBackground(result), text(result));
      const [row] = tasks.of(server.id);
      await new Promise<void>((resolve) => tasks.onDidChange((t) => t.key === row.key && t.status !== 'working' && resolve()));
      assert.strictEqual(row.status, 'completed', row.failure);
      assert.strictEqual(text(row.result!), 'slept');
    } finally {
      tasks.dispose();
    }
  });
});

describe(`long tool calls that run as tasks (${experimentalTasks.title}) go on in the background in their own row`, function () {
  this.timeout(60_000);
  const suite = useTaskServer(experimentalTasks, 'tasks', { FIXTURE_TASK_POLL_MS: '50' });

  it('answers at once with the task row, and the task runs on to its result', async () => {
    const { server } = suite;
    const caller = new ToolCaller(server.kit.manager, new ActiveToolCalls(), new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async () => 'once', autoAllowReadOnly: () => true }), server.tasks, () => 300);
    const result = ran(await server.call('slow-report', { steps: 6, stepMs: 200 }, { mayBackground: true }, caller));
    assert.ok(movedToBackground(result), text(result));
    const rows = server.tasks.of(server.info.id);
    assert.strictEqual(rows.length, 1, 'the task row only, no second row');
    assert.strictEqual(result._meta?.[MOVED_TO_BACKGROUND], rows[0].key);
    assert.strictEqual(rows[0].movedAfterMs, undefined);
    await new Promise<void>((resolve) => server.tasks.onDidChange((t) => t.status === 'completed' && resolve()));
    assert.strictEqual(text(rows[0].result!), 'Report ready after 6 steps.');
  });
});
