// Tool calls as tasks (2025-11-25): through the guarded call path, against the tasks fixture server in a real child
// process: a task-capable tool runs as a task (polled, its result fetched), cancel reaches the server, a lost task
// ends failed with a plain reason, a caller that stops waiting leaves the task running, and tasks/list is paged.
import * as assert from 'assert';
import { runsAsTask, ToolTasks } from '../../src/core/features/tasks/toolTasks.lazy';
import { type ToolTask } from '../../src/core/features/tasks/toolTask';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolConsent } from '../../src/core/features/tools/toolConsent';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { PermissionStore } from '../../src/core/host/permissionStore';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { taskDescription, taskKeyOf, taskRows } from '../../src/vscode/tools/taskRows.lazy';
import { fixtureServer, waitFor } from './helpers';
import { createKit, entry, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

describe('tool calls as tasks', function () {
  this.timeout(60_000);
  let kit: Kit;
  let server: ServerInfo;
  let tasks: ToolTasks;
  let caller: ToolCaller;
  let changes: number;

  before(async () => {
    kit = createKit();
    await kit.update(workspaceScope(), [entry('tasks', stdio(process.execPath, [fixtureServer('tasks-server.mjs')], { FIXTURE_TASK_POLL_MS: '50' }))], []);
    await waitForState(kit, 'tasks', 'running');
    server = kit.manager.servers().find((s) => s.name === 'tasks')!;
  });

  after(() => kit.manager.disposeAsync());

  beforeEach(() => {
    tasks = new ToolTasks({ minPollMs: 20 });
    changes = 0;
    tasks.onDidChange(() => changes++);
    const consent = new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async () => 'once' as const, autoAllowReadOnly: () => true });
    caller = new ToolCaller(kit.manager, new ActiveToolCalls(), consent, tasks);
  });

  afterEach(() => tasks.dispose());

  const tool = (name: string) => server.features.tools.find((t) => t.name === name)!;
  const call = (name: string, args: Record<string, unknown> = {}, more: object = {}) =>
    caller.call({ serverId: server.id, tool: tool(name), arguments: args, origin: 'a test', ...more }, { confirmedByUser: true });
  const text = (outcome: Awaited<ReturnType<typeof call>>) => {
    assert.ok(outcome.ran);
    return outcome.result.content.map((c) => (c.type === 'text' ? c.text : c.type)).join('\n');
  };
  /** Waits (up to 10 s) until `get` gives something, and gives it. */
  const until = <T>(get: () => T | undefined | false, what: string) => waitFor(get, what, 10_000) as Promise<T>;
  const cancelledOnServer = async () => JSON.parse(text(await call('cancelled-tasks'))) as string[];

  it('runs a task-capable tool as a task: follows its status messages and fetches its result', async () => {
    assert.ok(runsAsTask(server.capabilities, tool('slow-report')));
    assert.ok(!runsAsTask(server.capabilities, tool('cancelled-tasks')));
    const seen: string[] = [];
    tasks.onDidChange((t) => t && seen.push(`${t.status}:${t.statusMessage ?? ''}`));
    let started: ToolTask | undefined;
    const outcome = await call('slow-report', { steps: 3, stepMs: 150 }, { onTask: (t: ToolTask) => (started = t) });
    assert.strictEqual(text(outcome), 'Report ready after 3 steps.');
    assert.ok(started, 'the caller was told of the task');
    const [task] = tasks.of(server.id);
    assert.strictEqual(task, started);
    assert.strictEqual(task.status, 'completed');
    assert.strictEqual(task.tool.name, 'slow-report');
    assert.deepStrictEqual(task.arguments, { steps: 3, stepMs: 150 });
    assert.ok(task.result, 'the result is kept for reopening');
    assert.ok(seen.some((s) => s.startsWith('working:Step 2 of 3')), `polled status messages: ${seen.join(', ')}`);
  });

  it("reports the task's progress notifications for its whole life (the SDK's token ends with the answer; ours does not)", async () => {
    const progress: { progress: number; total?: number; message?: string }[] = [];
    let started: ToolTask | undefined;
    const outcome = await call('slow-report', { steps: 4, stepMs: 120 }, { onProgress: (p: { progress: number }) => progress.push(p), onTask: (t: ToolTask) => (started = t) });
    assert.strictEqual(text(outcome), 'Report ready after 4 steps.');
    // Steps 2 to 4 are reported after the server answered with the task.
    assert.ok(progress.some((p) => p.progress === 4 && p.total === 4 && p.message === 'Step 4 of 4'), JSON.stringify(progress));
    assert.deepStrictEqual(started?.progress, { progress: 4, total: 4, message: 'Step 4 of 4' });
    assert.ok(!/unknown token|progress notification/i.test(kit.logs.get('tasks')!.text), 'the SDK never saw a progress notification it could not place');
    assert.strictEqual(taskDescription({ ...started!, status: 'working', statusMessage: 'Step 2 of 4', progress: { progress: 2, total: 4 } }), 'running 50%: Step 2 of 4');
  });

  it('runs a tool that requires tasks (the server refuses it otherwise)', async () => {
    assert.strictEqual(text(await call('quick-task')), 'Done as a task.');
    assert.strictEqual(tasks.of(server.id)[0].status, 'completed');
  });

  it('a task that needs input gets it: the host waits on tasks/result, the server asks roots/list then, and completes', async () => {
    const statuses: string[] = [];
    tasks.onDidChange((t) => statuses.push(t.status));
    assert.match(text(await call('needs-input')), /^Roots: \d+$/);
    assert.strictEqual(statuses[0], 'input_required');
    assert.strictEqual(tasks.of(server.id)[0].status, 'completed');
  });

  it('without a task runner, the same tool is called the plain way', async () => {
    const consent = new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async () => 'once' as const, autoAllowReadOnly: () => true });
    const plain = new ToolCaller(kit.manager, new ActiveToolCalls(), consent);
    const outcome = await plain.call({ serverId: server.id, tool: tool('slow-report'), arguments: { steps: 1, stepMs: 10 }, origin: 'a test' }, { confirmedByUser: true });
    assert.strictEqual(text(outcome), 'Report ready after 1 steps.');
  });

  it('cancels from the registry: tasks/cancel reaches the server, the task ends cancelled and its caller is told', async () => {
    let started: ToolTask | undefined;
    const running = call('slow-report', { steps: 100, stepMs: 100 }, { onTask: (t: ToolTask) => (started = t) });
    started = await until(() => started, 'the task');
    await tasks.cancel(started.key);
    await assert.rejects(running, /Cancelled/);
    assert.strictEqual(started.status, 'cancelled');
    assert.ok((await cancelledOnServer()).includes(started.taskId));
  });

  it("cancels when the caller's signal aborts, unless the caller only detaches (the task runs on)", async () => {
    const abort = new AbortController();
    let started: ToolTask | undefined;
    const cancelled = call('slow-report', { steps: 100, stepMs: 100 }, { signal: abort.signal, onTask: (t: ToolTask) => (started = t) });
    started = await until(() => started, 'the task');
    abort.abort(new Error('stopped by the user'));
    await assert.rejects(cancelled, /stopped by the user/);
    const first: ToolTask = started;
    await until(() => first.status === 'cancelled', 'the cancel');
    assert.strictEqual(first.status, 'cancelled');

    const leave = new AbortController();
    started = undefined;
    const detached = call('slow-report', { steps: 3, stepMs: 100 }, { signal: leave.signal, whenAborted: 'detach', onTask: (t: ToolTask) => (started = t) });
    started = await until(() => started, 'the task');
    leave.abort(new Error('the chat turn ended'));
    await assert.rejects(detached, /the chat turn ended/);
    const second = (started as ToolTask | undefined)!;
    await until(() => second.status === 'completed', 'the detached task to complete');
    assert.strictEqual(second.status, 'completed');
    assert.ok(second.result, 'its result is there to open later');
    assert.ok(!(await cancelledOnServer()).includes(second.taskId));
  });

  it('a task the server loses ends failed with a plain reason, not a spinner', async () => {
    await assert.rejects(call('vanishing', { afterMs: 150 }), /The server lost track of the task: .*Unknown task/);
    const [task] = tasks.of(server.id);
    assert.strictEqual(task.status, 'failed');
    assert.match(task.failure ?? '', /lost track/);
  });

  it('a task whose status the server garbles ends failed, saying what was wrong', async () => {
    await assert.rejects(call('garbled'), /The server lost track of the task: .*not a task/);
    assert.strictEqual(tasks.of(server.id)[0].status, 'failed');
  });

  it('a task whose session ends fails instead of waiting forever', async () => {
    const kit2 = createKit();
    try {
      await kit2.update(workspaceScope(), [entry('tasks2', stdio(process.execPath, [fixtureServer('tasks-server.mjs')]))], []);
      await waitForState(kit2, 'tasks2', 'running');
      const info = kit2.manager.servers()[0];
      const consent = new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async () => 'once' as const, autoAllowReadOnly: () => true });
      let started: ToolTask | undefined;
      const running = new ToolCaller(kit2.manager, new ActiveToolCalls(), consent, tasks).call(
        { serverId: info.id, tool: info.features.tools.find((t) => t.name === 'slow-report')!, arguments: { steps: 100 }, origin: 'a test', onTask: (t) => (started = t) },
        { confirmedByUser: true },
      );
      // It rejects while the server stops, before assert.rejects below looks: marked as handled now.
      running.catch(() => undefined);
      started = await until(() => started, 'the task');
      await kit2.manager.get(info.id)!.stop();
      await assert.rejects(running, /The session with "tasks2" ended before the task did/);
      assert.strictEqual(started.status, 'failed');
    } finally {
      await kit2.manager.disposeAsync();
    }
  });

  it('follows the statuses a server pushes (notifications/tasks/status) at once, without waiting for the next poll', async () => {
    const kit2 = createKit();
    try {
      // The server asks for a poll every 10 s: only its pushed statuses can end a 0.3 s task sooner.
      const env = { FIXTURE_TASK_POLL_MS: '10000', FIXTURE_TASK_NOTIFY: '1' };
      await kit2.update(workspaceScope(), [entry('pushing', stdio(process.execPath, [fixtureServer('tasks-server.mjs')], env))], []);
      await waitForState(kit2, 'pushing', 'running');
      const info = kit2.manager.servers()[0];
      const consent = new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async () => 'once' as const, autoAllowReadOnly: () => true });
      const seen: string[] = [];
      tasks.onDidChange((t) => seen.push(`${t.status}:${t.statusMessage ?? ''}`));
      const pushingCaller = new ToolCaller(kit2.manager, new ActiveToolCalls(), consent, tasks);
      const report = info.features.tools.find((t) => t.name === 'slow-report')!;
      const started = Date.now();
      const outcome = await pushingCaller.call({ serverId: info.id, tool: report, arguments: { steps: 3, stepMs: 100 }, origin: 'a test' }, { confirmedByUser: true });
      assert.ok(outcome.ran && !outcome.result.isError);
      assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
      assert.ok(seen.includes('working:Step 3 of 3'), seen.join(', '));

      // A cancel ends the caller's wait at once too, whatever the poll interval.
      let task: ToolTask | undefined;
      const long = pushingCaller.call({ serverId: info.id, tool: report, arguments: { steps: 100, stepMs: 100 }, origin: 'a test', onTask: (t) => (task = t) }, { confirmedByUser: true });
      // It rejects during the cancel below, before assert.rejects looks: marked as handled now.
      long.catch(() => undefined);
      task = await until(() => task, 'the task');
      const cancelAt = Date.now();
      await tasks.cancel(task.key);
      await assert.rejects(long, /Cancelled/);
      assert.ok(Date.now() - cancelAt < 3000, `the caller heard of the cancel after ${Date.now() - cancelAt} ms`);
    } finally {
      await kit2.manager.disposeAsync();
    }
  });

  it('lists the server\'s tasks page by page (tasks/list with its cursor)', async () => {
    for (let i = 0; i < 3; i++) await call('quick-task');
    const listed = await tasks.list(kit.manager.session(server.id));
    // Page size 2: more than one page was needed, and every task this file started is there.
    assert.ok(listed.length >= 5, `listed ${listed.length}`);
    assert.strictEqual(new Set(listed.map((t) => t.taskId)).size, listed.length);
  });
});

describe('the Tasks group of the Servers view', () => {
  const tool = { name: 'slow-report', inputSchema: { type: 'object' as const } };
  const task = (fields: Partial<ToolTask>): ToolTask => ({
    key: '["s","t1"]',
    serverId: 's',
    serverName: 'tasks',
    taskId: 't1',
    tool,
    arguments: {},
    origin: 'a test',
    startedAt: Date.now(),
    status: 'working',
    ...fields,
  });
  /** Tasks holding the given ones, as the window's hold those it started. */
  const registryWith = (...list: ToolTask[]) => ({ of: (serverId: string) => list.filter((t) => t.serverId === serverId) }) as unknown as ToolTasks;
  const info = { id: 's' } as ServerInfo;

  it('shows nothing for a server without tasks, and a group with a row per task otherwise', () => {
    assert.deepStrictEqual(taskRows(registryWith(), info), []);
    const [group] = taskRows(registryWith(task({ statusMessage: 'Step 2 of 5' }), task({ key: 'k2', taskId: 't2', status: 'completed' })), info);
    assert.strictEqual(group.label, 'Tasks (2)');
    assert.strictEqual(group.description, '1 running');
    const [running, done] = group.children!;
    assert.deepStrictEqual([running.description, running.contextValue, running.icon?.id, running.command], ['running: Step 2 of 5', 'mcpTask.running', 'sync~spin', undefined]);
    assert.deepStrictEqual([done.description, done.contextValue, done.icon?.id], ['completed', 'mcpTask.ended', 'pass']);
    assert.deepStrictEqual(done.command?.arguments, ['k2']);
    assert.strictEqual(taskKeyOf({ row: done }), 'k2', 'the inline command gets the node, whose row names the task');
  });

  it("keeps a server's status message inert: no icons, no Markdown, no links, one line, capped", () => {
    const hostile = '$(check) [click](command:mcpHost.removeServer) **bold**\nsecond line ' + 'x'.repeat(500);
    const [group] = taskRows(registryWith(task({ statusMessage: hostile, tool: { ...tool, name: '$(zap) evil' } })), info);
    const [row] = group.children!;
    assert.ok(!/(^|[^\\])\$\(/.test(row.description!), row.description);
    assert.ok(!/(^|[^\\])\$\(/.test(row.label), row.label);
    assert.ok(!row.description!.includes('second line'), 'one line');
    assert.ok(row.description!.length < 120, 'capped');
    assert.ok(!/[^\\]\[click\]\(command:/.test(row.tooltip!), row.tooltip);
    assert.strictEqual(
      taskDescription(task({ status: 'failed', failure: 'The server lost track of the task: Unknown task: t1' })),
      'failed: The server lost track of the task: Unknown task: t1',
    );
  });
});
