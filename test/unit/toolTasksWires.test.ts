// Tool calls as tasks, what every wire does: each scenario here runs once per wire (2025-11-25 experimental tasks and
// the 2026-07-28 tasks extension), through the guarded call path, against that wire's fixture in a real child process
// (taskTestKit.ts: the wire descriptors). A task is followed to its result; a cancel reaches the server; a caller that
// only detaches leaves the task running; a lost task, or one whose session ends, ends failed with a plain reason; a
// status the server pushes is taken at once. What only one wire does is in toolTasks.test.ts (2025-11-25) and
// toolTasksExtension.test.ts (2026-07-28).
import * as assert from 'assert';
import type { ToolTask } from '../../src/core/features/tasks/toolTask';
import { waitFor } from './helpers';
import { workspaceScope } from './hostTestKit';
import { experimentalTasks, TaskServer, tasksExtension, textOf, useTaskServer } from './taskTestKit';

for (const wire of [experimentalTasks, tasksExtension]) {
  describe(`tool calls as tasks on ${wire.title}: what every wire does`, function () {
    this.timeout(60_000);
    const suite = useTaskServer(wire, 'tasks', { FIXTURE_TASK_POLL_MS: '50' });

    it('runs a call as the task the server made: follows its status messages and fetches its result', async () => {
      const { server } = suite;
      const seen: string[] = [];
      server.tasks.onDidChange((t) => seen.push(`${t.status}:${t.statusMessage ?? ''}`));
      let started: ToolTask | undefined;
      const outcome = await server.call('slow-report', { steps: 3, stepMs: 150 }, { onTask: (t) => (started = t) });
      assert.strictEqual(textOf(outcome), 'Report ready after 3 steps.');
      assert.ok(started, 'the server made it a task, and the caller was told');
      const [task] = server.tasks.of(server.info.id);
      assert.strictEqual(task, started);
      assert.strictEqual(task.status, 'completed');
      assert.match(task.taskId, wire.taskIds, "the server's id for the task");
      assert.strictEqual(task.tool.name, 'slow-report');
      assert.deepStrictEqual(task.arguments, { steps: 3, stepMs: 150 });
      assert.strictEqual(task.result?.content[0].type, 'text', 'the result is kept for reopening');
      assert.ok(seen.some((s) => s.startsWith('working:Step 2 of 3')), `polled status messages: ${seen.join(', ')}`);
      assert.ok(!/Protocol:/.test(server.log), 'the SDK saw nothing it refused');
    });

    it('runs a tool that runs only as a task (the server refuses it otherwise)', async () => {
      const { server } = suite;
      assert.strictEqual(textOf(await server.call('quick-task')), 'Done as a task.');
      assert.strictEqual(server.tasks.of(server.info.id)[0].status, 'completed');
    });

    it('without a task runner, the same tool is called the plain way', async () => {
      const { server } = suite;
      const outcome = await server.call('slow-report', { steps: 1, stepMs: 10 }, {}, server.plainCaller());
      assert.strictEqual(textOf(outcome), 'Report ready after 1 steps.');
    });

    it('cancels from ToolTasks: tasks/cancel reaches the server, the task ends cancelled and its caller is told', async () => {
      const { server } = suite;
      let started: ToolTask | undefined;
      const running = server.call('slow-report', { steps: 100, stepMs: 100 }, { onTask: (t) => (started = t) });
      // It rejects during the cancel below, before assert.rejects looks: marked as handled now.
      running.catch(() => undefined);
      started = await waitFor(() => started, 'the task');
      await server.tasks.cancel(started.key);
      await assert.rejects(running, /Cancelled/);
      assert.strictEqual(started.status, 'cancelled');
      assert.ok((await server.cancelledOnServer()).includes(started.taskId));
    });

    it("cancels when the caller's signal aborts, unless the caller only detaches (the task runs on)", async () => {
      const { server } = suite;
      const abort = new AbortController();
      let started: ToolTask | undefined;
      const cancelled = server.call('slow-report', { steps: 100, stepMs: 100 }, { signal: abort.signal, onTask: (t) => (started = t) });
      started = await waitFor(() => started, 'the task');
      abort.abort(new Error('stopped by the user'));
      await assert.rejects(cancelled, /was cancelled: you cancelled it/);
      const first: ToolTask = started;
      await waitFor(() => first.status === 'cancelled', 'the cancel');
      assert.strictEqual(first.status, 'cancelled');

      const leave = new AbortController();
      started = undefined;
      const detached = server.call('slow-report', { steps: 3, stepMs: 100 }, { signal: leave.signal, whenAborted: 'detach', onTask: (t) => (started = t) });
      started = await waitFor(() => started, 'the task');
      leave.abort(new Error('the chat turn ended'));
      await assert.rejects(detached, /the chat turn ended/);
      const second = (started as ToolTask | undefined)!;
      await waitFor(() => second.status === 'completed', 'the detached task to complete');
      assert.strictEqual(second.status, 'completed');
      assert.ok(second.result, 'its result is there to open later');
      assert.ok(!(await server.cancelledOnServer()).includes(second.taskId));
    });

    it('a task the server loses ends failed with a plain reason, not a spinner', async () => {
      const { server } = suite;
      await assert.rejects(server.call('vanishing', { afterMs: 150 }), /The server lost track of the task: .*Unknown task/);
      const [task] = server.tasks.of(server.info.id);
      assert.strictEqual(task.status, 'failed');
      assert.match(task.failure ?? '', /lost track/);
    });

    describe('a task whose session ends fails instead of waiting forever', () => {
      // Each ends its server's session: a server of its own, not the suite's.
      let ending: TaskServer | undefined;
      afterEach(() => ending?.dispose());

      /** Starts a long task on a server of its own; resolves once the task exists. */
      async function startLongTask(name: string) {
        const server = (ending = await TaskServer.start(wire, name));
        let started: ToolTask | undefined;
        const running = server.call('slow-report', { steps: 100, stepMs: 100 }, { onTask: (t) => (started = t) });
        // It rejects while the session ends, before assert.rejects looks: marked as handled now.
        running.catch(() => undefined);
        return { server, running, task: await waitFor(() => started, 'the task') };
      }

      it('when the server is stopped', async () => {
        const { server, running, task } = await startLongTask('stopped');
        await server.kit.manager.get(server.info.id)!.stop();
        await assert.rejects(running, /The session with "stopped" ended before the task did/);
        assert.strictEqual(task.status, 'failed');
      });

      it('when the server is removed from the configuration', async () => {
        const { server, running, task } = await startLongTask('removed');
        await server.kit.update(workspaceScope(), [], []);
        await assert.rejects(running, /ended before the task did|has ended/);
        assert.strictEqual(task.status, 'failed');
      });
    });

    describe('a server that pushes every status, and asks to be polled only every minute', () => {
      // ToolTasks polls at most every 10 s: only the pushed statuses can end a task of a second sooner.
      const pushing = useTaskServer(wire, 'pushing', { FIXTURE_TASK_POLL_MS: '60000', FIXTURE_TASK_NOTIFY: '1' });

      it(`follows the statuses it pushes (${wire.statusNotification}) at once, without waiting for the next poll`, async () => {
        const { server } = pushing;
        const seen: string[] = [];
        server.tasks.onDidChange((t) => seen.push(`${t.status}:${t.statusMessage ?? ''}`));
        const started = Date.now();
        const outcome = await server.call('slow-report', { steps: 3, stepMs: 100 });
        assert.strictEqual(textOf(outcome), 'Report ready after 3 steps.');
        assert.ok(outcome.ran && !outcome.result.isError);
        assert.ok(Date.now() - started < 5000, `done in ${Date.now() - started} ms, not at the next poll (10 s)`);
        assert.ok(seen.includes('working:Step 3 of 3'), seen.join(', '));
        assert.strictEqual(server.tasks.of(server.info.id)[0].status, 'completed');
        assert.ok(!/Protocol:/.test(server.log), `the SDK never saw ${wire.statusNotification}`);
      });

      it("a cancel ends the caller's wait at once too, whatever the poll interval", async () => {
        const { server } = pushing;
        let task: ToolTask | undefined;
        const long = server.call('slow-report', { steps: 100, stepMs: 100 }, { onTask: (t) => (task = t) });
        // It rejects during the cancel below, before assert.rejects looks: marked as handled now.
        long.catch(() => undefined);
        task = await waitFor(() => task, 'the task');
        const cancelAt = Date.now();
        await server.tasks.cancel(task.key);
        await assert.rejects(long, /Cancelled/);
        assert.ok(Date.now() - cancelAt < 3000, `the caller heard of the cancel after ${Date.now() - cancelAt} ms`);
      });
    });
  });
}
