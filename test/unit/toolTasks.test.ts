// Tool calls as tasks, what only 2025-11-25 (experimental tasks) does, against the tasks fixture server in a real
// child process: whether a call runs as a task is the tool's `execution.taskSupport`; the task's progress
// notifications go on after the answer; input goes through tasks/result; a garbled status fails the task; tasks/list
// is paged. What every wire does is in toolTasksWires.test.ts. Then the Tasks group of the Servers view.
import * as assert from 'assert';
import { runsAsTask, type ToolTasks } from '../../src/core/features/tasks/toolTasks.lazy';
import { type ToolTask } from '../../src/core/features/tasks/toolTask';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { TASK_ROW_MAX, taskDescription, taskKeyOf, taskRows } from '../../src/vscode/tools/taskRows.lazy';
import { experimentalTasks, textOf, useTaskServer } from './taskTestKit';

describe(`tool calls as tasks on ${experimentalTasks.title}: what only it does`, function () {
  this.timeout(60_000);
  const suite = useTaskServer(experimentalTasks, 'tasks', { FIXTURE_TASK_POLL_MS: '50' });

  it("runs a call as a task when the tool's execution.taskSupport allows it and the server runs tool calls as tasks", () => {
    const { info } = suite.server;
    assert.ok(runsAsTask(info.capabilities, suite.server.tool('slow-report')));
    assert.ok(!runsAsTask(info.capabilities, suite.server.tool('cancelled-tasks')));
  });

  it("reports the task's progress notifications for its whole life (the SDK's token ends with the answer; ours does not)", async () => {
    const { server } = suite;
    const progress: { progress: number; total?: number; message?: string }[] = [];
    let started: ToolTask | undefined;
    const outcome = await server.call('slow-report', { steps: 4, stepMs: 120 }, { onProgress: (p) => progress.push(p), onTask: (t) => (started = t) });
    assert.strictEqual(textOf(outcome), 'Report ready after 4 steps.');
    // Steps 2 to 4 are reported after the server answered with the task.
    assert.ok(progress.some((p) => p.progress === 4 && p.total === 4 && p.message === 'Step 4 of 4'), JSON.stringify(progress));
    assert.deepStrictEqual(started?.progress, { progress: 4, total: 4, message: 'Step 4 of 4' });
    assert.ok(!/unknown token|progress notification/i.test(server.log), 'the SDK never saw a progress notification it could not place');
    assert.strictEqual(taskDescription({ ...started!, status: 'working', statusMessage: 'Step 2 of 4', progress: { progress: 2, total: 4 } }), 'running 50%: Step 2 of 4');
  });

  it('a task that needs input gets it: the host waits on tasks/result, the server asks roots/list then, and completes', async () => {
    const { server } = suite;
    const statuses: string[] = [];
    server.tasks.onDidChange((t) => statuses.push(t.status));
    assert.match(textOf(await server.call('needs-input')), /^Roots: \d+$/);
    assert.strictEqual(statuses[0], 'input_required');
    assert.strictEqual(server.tasks.of(server.info.id)[0].status, 'completed');
  });

  it('a task whose status the server garbles ends failed, saying what was wrong', async () => {
    const { server } = suite;
    await assert.rejects(server.call('garbled'), /The server lost track of the task: .*not a task/);
    assert.strictEqual(server.tasks.of(server.info.id)[0].status, 'failed');
  });

  it('a task that stays working and asks for pollInterval 0 is not polled ten times a second: the polls back off while nothing changes', async () => {
    const { server } = suite;
    server.newTasks({});
    const stop = new AbortController();
    let started: ToolTask | undefined;
    const call = server.call('endless', {}, { signal: stop.signal, onTask: (t) => (started = t) });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    stop.abort();
    await call.catch(() => undefined);
    const polls = Number(textOf(await server.call('polls-of', { taskId: started!.taskId })));
    // 100, 200, 400, 800, 1600 ms: four polls in 3 s, where a poll every 100 ms made thirty.
    assert.ok(polls >= 3 && polls <= 6, `polled ${polls} times in 3 s`);
  });

  it('a task whose status message changes at every poll (a counter) still backs off: only a new status polls at its interval again', async () => {
    const { server } = suite;
    server.newTasks({});
    const stop = new AbortController();
    let started: ToolTask | undefined;
    const call = server.call('endless', { counting: true }, { signal: stop.signal, onTask: (t) => (started = t) });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    stop.abort();
    await call.catch(() => undefined);
    const polls = Number(textOf(await server.call('polls-of', { taskId: started!.taskId })));
    assert.ok(polls >= 3 && polls <= 6, `polled ${polls} times in 3 s`);
  });

  it('a task whose server keeps it for ever (ttl null) is followed only for the time to live asked: then its row says it ended and why', async () => {
    const { server } = suite;
    server.newTasks({ ttlMs: 2000 });
    const gaveUp = new Promise((resolve) => setTimeout(() => resolve('still followed after 6 s'), 6000));
    const outcome = await Promise.race([server.call('endless').then(
      () => 'completed',
      (e: Error) => e.message,
    ), gaveUp]);
    assert.strictEqual(outcome, 'Not finished within its time to live (2 s): no longer followed; the server need not keep its result.');
    const task = server.tasks.of(server.info.id)[0];
    assert.strictEqual(task.status, 'failed');
    assert.strictEqual(taskDescription(task), 'failed: Not finished within its time to…', 'the row is cut to fit; its tooltip has the whole reason');
  });

  it("lists the server's tasks page by page (tasks/list with its cursor)", async () => {
    const { server } = suite;
    await Promise.all([1, 2, 3, 4, 5].map(() => server.call('quick-task')));
    const listed = await server.tasks.list(server.kit.manager.session(server.info.id));
    // Page size 2: more than one page was needed, and every task started here is there.
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
    // The row shows the start, short enough not to be cut by the view; the tooltip all of it.
    const lost = task({ status: 'failed', failure: 'The server lost track of the task: Unknown task: t1' });
    assert.strictEqual(taskDescription(lost), 'failed: The server lost track of the ta…');
    assert.ok(taskDescription(lost).length <= TASK_ROW_MAX);
    assert.match(taskRows(registryWith(lost), info)[0].children![0].tooltip!, /The server lost track of the task\\: Unknown task\\: t1/);
  });
});
