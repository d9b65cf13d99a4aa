// Tool calls that run as tasks (2025-11-25 experimental tasks), per server: when the server declares task support
// for tools/call and the tool says `execution.taskSupport` "optional" or "required", the guarded call path hands the
// call here. The call is sent with `task`; the server answers at once with a task, which is followed by polling
// `tasks/get` (at the server's `pollInterval`, within bounds, backing off while nothing changes) until it is terminal
// or its time to live is over (the shorter of the one asked for and the server's), then its result is fetched with
// `tasks/result` (a status the server pushes is taken at once). The task is kept, with its result, for the view (the
// result can be reopened), and outlives the caller: one that stops waiting (a chat turn that ends) leaves it running;
// one that cancels sends `tasks/cancel`.
// A task the server no longer knows, or a session that ends, ends the task as failed with a plain reason: nothing
// waits forever. Plain TypeScript, loaded on demand: the window's one instance is made with the first task call
// (src/vscode/tools/taskRows.lazy.ts), the view and the commands read it.
import type { CallToolResult, Progress, Task } from '@modelcontextprotocol/client';
import type { Event } from '../../common/events';
import type { ServerSession, TaskRequests } from '../../host/serverSession';
import type { Tool } from '../../host/serverInfo';
import { isTerminal, type AdoptedCall, type AdoptedTask, type TaskCall, type ToolTask } from './toolTask';

export interface ToolTasksOptions {
  /** The task's lifetime asked of the server (ms). */
  ttlMs?: number;
  /**
   * Bounds of the poll interval; the server's `pollInterval` is used within them (default 1 s without one), and each
   * answer that changes nothing doubles the wait, up to `maxPollMs` (a server asking for 0 ms is not polled 10 times a
   * second for the task's whole life).
   */
  minPollMs?: number;
  maxPollMs?: number;
  defaultPollMs?: number;
  /** Finished tasks kept per server (the oldest go first). */
  keepFinished?: number;
  /**
   * Checks a result against the tool's output schema as a plain call's is checked (the protocol layer's
   * `checkToolOutput`); throws the error a plain call gets. A result that fails it fails the task with that error.
   */
  checkResult?(tool: Tool, result: CallToolResult): void;
}

/** The progress tokens of task calls (strings, unlike the SDK's numbers: the protocol's task requests take them off the wire). */
export const PROGRESS_TOKEN_PREFIX = 'mcp-host-task-';
let lastToken = 0;
/** The host's own ids of adopted calls (plain calls have no task id). */
let lastAdopted = 0;

/** Whether a call of `tool` on a server with these capabilities runs as a task. */
export function runsAsTask(capabilities: { tasks?: { requests?: { tools?: { call?: object } } } } | undefined, tool: Tool): boolean {
  const support = tool.execution?.taskSupport;
  return (support === 'optional' || support === 'required') && !!capabilities?.tasks?.requests?.tools?.call;
}

const MAX_MESSAGE = 500;
const clip = (text: string | undefined) => (text === undefined ? undefined : text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text);
const messageOf = (e: unknown) => String((e as Error)?.message ?? e);
/** `90 s`, `5 min`, `1 h`: a lifetime in words. */
const duration = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} s` : ms < 7_200_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 3_600_000)} h`);

export class ToolTasks {
  private readonly tasks = new Map<string, ToolTask>();
  // Not the core's Emitter: this class loads on demand, and the Emitter's module must stay in one bundle.
  private readonly listeners = new Set<(task: ToolTask) => void>();
  /** Fires when a task starts, changes status or message, or ends. */
  readonly onDidChange: Event<ToolTask> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  /** The sessions the tasks were started on (cancel and "follow" use them; a restart makes a new one). */
  private readonly sessions = new Map<string, TaskRequests>();
  private readonly reporters = new Map<string, (progress: Progress) => void>();
  private readonly fetching = new Map<string, Promise<void>>();
  /** Ends the wait of a task's poll (it ended, or the server pushed a status). */
  private readonly wakers = new Map<string, () => void>();
  /** What stops an adopted call (a plain call has no tasks/cancel: its signal aborts). */
  private readonly stoppers = new Map<string, () => void>();
  private readonly options: Required<Omit<ToolTasksOptions, 'checkResult'>> & Pick<ToolTasksOptions, 'checkResult'>;

  constructor(options: ToolTasksOptions = {}) {
    this.options = { ttlMs: 60 * 60 * 1000, minPollMs: 100, maxPollMs: 10_000, defaultPollMs: 1000, keepFinished: 20, ...options };
  }

  /** The tasks of a server, newest first. */
  of(serverId: string): ToolTask[] {
    return [...this.tasks.values()].filter((t) => t.serverId === serverId).reverse();
  }

  get(key: string): ToolTask | undefined {
    return this.tasks.get(key);
  }

  /**
   * Runs the call as a task on `session` and resolves with the tool's result once the task completed; rejects with
   * the reason when it failed, was cancelled or was lost, or with the signal's reason when the caller stopped waiting.
   */
  async run(session: ServerSession, call: TaskCall): Promise<CallToolResult> {
    const requests = session.tasks;
    // Not a task after all (the server does not run tool calls as tasks, the tool forbids it): the ordinary call. With
    // the 2026-07-28 extension every call may become a task: the server decides.
    if (!requests || !(requests.anyCall || runsAsTask(session.capabilities, call.tool))) {
      return session.callTool({ name: call.tool.name, arguments: call.arguments }, { signal: call.signal, onProgress: call.onProgress, tool: call.tool });
    }
    // The task's progress comes by a token of ours, for as long as the task runs (the SDK's ends with the answer).
    const progressToken = `${PROGRESS_TOKEN_PREFIX}${++lastToken}`;
    const current: { task?: ToolTask } = {};
    const progressed = requests.onProgress?.((p) => {
      const { task } = current;
      if (p.progressToken !== progressToken) return;
      if (!task) return call.onProgress?.(p.progress);
      if (isTerminal(task.status)) return;
      task.progress = { ...p.progress, ...(p.progress.message !== undefined && { message: clip(p.progress.message) }) };
      this.report(task, true);
      this.fire(task);
    });
    let created: Awaited<ReturnType<TaskRequests['callTool']>>;
    try {
      created = await requests.callTool({ name: call.tool.name, arguments: call.arguments }, { ttl: this.options.ttlMs }, { signal: call.signal, progressToken });
    } catch (e) {
      progressed?.dispose();
      throw e;
    }
    // A server may run the call at once and answer with its result: then there is no task to follow.
    if (!('task' in created)) {
      progressed?.dispose();
      this.options.checkResult?.(call.tool, created);
      return created;
    }
    const made = (created as { task: Task }).task;
    const task: ToolTask = (current.task = {
      key: JSON.stringify([session.serverId, made.taskId]),
      serverId: session.serverId,
      serverName: session.serverName,
      taskId: made.taskId,
      tool: call.tool,
      arguments: call.arguments,
      origin: call.origin,
      startedAt: Date.now(),
      // A task created completed is polled once more: "completed" is set with the result in hand.
      status: made.status === 'completed' ? 'working' : made.status,
      statusMessage: clip(made.statusMessage),
    });
    this.sessions.set(task.key, requests);
    // The caller hears of the task's status messages as progress without a total (a message only).
    if (call.onProgress) this.reporters.set(task.key, call.onProgress);
    this.add(task);
    call.onTask?.(task);
    this.report(task);
    const done = this.follow(task, requests, made, () => session.isOpen).finally(() => progressed?.dispose());
    const signal = call.signal;
    if (!signal) return done;
    const started = task;
    return new Promise<CallToolResult>((resolve, reject) => {
      const onAbort = () => {
        this.reporters.delete(started.key);
        if (call.whenAborted !== 'detach' && !isTerminal(started.status)) void this.cancel(started.key).catch(() => undefined);
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      done.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /**
   * A plain call (not an MCP task) that its caller stopped waiting for: it gets a row like a task's, with its progress,
   * Cancel (its signal aborts) and, once it ends, its result or why it failed.
   */
  adopt(call: AdoptedCall): AdoptedTask {
    const taskId = `call-${++lastAdopted}`;
    const task: ToolTask = {
      key: JSON.stringify([call.serverId, taskId]),
      serverId: call.serverId,
      serverName: call.serverName,
      taskId,
      tool: call.tool,
      arguments: call.arguments,
      origin: call.origin,
      startedAt: call.startedAt,
      status: 'working',
      movedAfterMs: call.movedAfterMs,
    };
    const progressed = (p: Progress) => {
      if (isTerminal(task.status)) return;
      task.progress = { ...p, ...(p.message !== undefined && { message: clip(p.message) }) };
      // The server's progress message is all it says of where the call is: the row shows it as the status message.
      if (p.message !== undefined) task.statusMessage = clip(p.message);
      this.fire(task);
    };
    if (call.progress) progressed(call.progress);
    this.stoppers.set(task.key, call.cancel);
    this.add(task);
    // A call cancelled from its row ended there: its rejection that follows changes nothing.
    call.running.then(
      (result) => isTerminal(task.status) || this.update(task, { status: 'completed', statusMessage: undefined, result }),
      (e: unknown) => isTerminal(task.status) || this.update(task, { status: 'failed', failure: clip(messageOf(e)) }),
    );
    return { task, progressed };
  }

  /** Sends `tasks/cancel`; the task ends as cancelled (or as the server says it is, when it had already ended). */
  async cancel(key: string): Promise<void> {
    const task = this.tasks.get(key);
    const stop = this.stoppers.get(key);
    if (task && stop) {
      if (isTerminal(task.status)) return;
      // Ended here at once: the call's rejection that follows finds it ended.
      this.update(task, { status: 'cancelled', failure: 'Cancelled.' });
      return stop();
    }
    const requests = this.sessions.get(key);
    if (!task || !requests || isTerminal(task.status)) return;
    try {
      const answer = await requests.cancel(task.taskId);
      if (!isTerminal(task.status)) this.update(task, { status: answer.status, statusMessage: clip(answer.statusMessage), failure: answer.status === 'cancelled' ? 'Cancelled.' : undefined });
    } catch (e) {
      if (isTerminal(task.status)) return;
      throw new Error(`The task of "${task.tool.name}" could not be cancelled: ${messageOf(e)}`);
    }
  }

  /**
   * Every task the server lists (`tasks/list`, page after page up to `maxPages`): the server's view, which may hold
   * tasks this host did not start.
   */
  async list(session: ServerSession, maxPages = 20): Promise<Task[]> {
    if (!session.tasks) return [];
    const all: Task[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const answer = await session.tasks.list(cursor);
      all.push(...answer.tasks);
      if (answer.nextCursor === undefined || answer.nextCursor === cursor) break;
      cursor = answer.nextCursor;
    }
    return all;
  }

  /**
   * Polls until the task is terminal, then fetches its result; any failure ends the task as failed. A status the
   * server pushes (`notifications/tasks/status`) is taken at once; a pushed "completed" wakes the poll (not sooner than
   * the minimum interval after the last one) to fetch its result.
   */
  private async follow(task: ToolTask, requests: TaskRequests, made: Task, isOpen: () => boolean): Promise<CallToolResult> {
    let interval = made.pollInterval;
    /** Answers in a row with the same status: each doubles the wait. */
    let unchanged = 0;
    /** When the server was last asked (the call that made the task, then each `tasks/get`). */
    let lastPoll = Date.now();
    const lifetime = this.lifetimeMs(made.ttl);
    const deadline = task.startedAt + lifetime;
    let wake: (() => void) | undefined;
    if (task.status === 'input_required') void this.fetchResult(task, requests, true);
    const pushed = requests.onStatus?.((now) => {
      if (now.taskId !== task.taskId || isTerminal(task.status)) return;
      if (now.status !== task.status) unchanged = 0;
      if (now.status !== 'completed') this.update(task, { status: now.status, statusMessage: clip(now.statusMessage) });
      if (now.status === 'input_required') void this.fetchResult(task, requests, true);
      // Only "completed" needs the poll (its result is fetched there); any other status was taken right here.
      if (now.status === 'completed') wake?.();
    });
    try {
      while (!isTerminal(task.status)) {
        const left = deadline - Date.now();
        if (left <= 0) {
          const failure = `Not finished within its time to live (${duration(lifetime)}): no longer followed; the server need not keep its result.`;
          this.update(task, { status: 'failed', failure });
          break;
        }
        await new Promise<void>((resolve) => {
          let timer = setTimeout(resolve, Math.min(left, this.pollMs(interval, unchanged)));
          // A push wakes the poll, but never sooner than the minimum interval after the last one: a server pushing
          // statuses in a loop would otherwise make the host poll it in a loop. An end (cancelled) wakes it at once.
          wake = () => {
            clearTimeout(timer);
            const early = lastPoll + this.options.minPollMs - Date.now();
            if (early > 0 && !isTerminal(task.status)) timer = setTimeout(resolve, Math.min(left, early));
            else resolve();
          };
          this.wakers.set(task.key, wake);
        });
        if (isTerminal(task.status)) break; // cancelled meanwhile, or failed as the server pushed
        try {
          lastPoll = Date.now();
          const now = await requests.get(task.taskId);
          interval = now.pollInterval ?? interval;
          // Only a new status polls at the server's interval again: a message that changes each time (a counter)
          // would keep the poll at its fastest. Messages the server pushes are shown at once anyway.
          unchanged = now.status !== task.status ? 0 : unchanged + 1;
          // Completed only with its result in hand: a row that says "completed" opens the result.
          if (now.status === 'completed') await this.fetchResult(task, requests);
          else if (!isTerminal(task.status)) this.update(task, { status: now.status, statusMessage: clip(now.statusMessage) });
          if (now.status === 'input_required') void this.fetchResult(task, requests, true);
        } catch (e) {
          const failure = isOpen() ? `The server lost track of the task: ${messageOf(e)}` : `The session with "${task.serverName}" ended before the task did.`;
          if (!isTerminal(task.status)) this.update(task, { status: 'failed', failure });
        }
      }
    } finally {
      pushed?.dispose();
      this.wakers.delete(task.key);
    }
    if (task.result) return task.result;
    if (!task.failure) this.update(task, { failure: task.status === 'cancelled' ? 'Cancelled.' : task.statusMessage ? `The task failed: ${task.statusMessage}` : 'The task failed.' });
    throw new Error(task.failure);
  }

  /**
   * `tasks/result`, one at a time per task; it completes the task with the result in hand. `early`: asked while the
   * task waits for input (2025-11-25: the server delivers its requests, answered by the session's handlers, while the
   * client waits on `tasks/result`); its failure is then not the task's, which polling goes on following.
   */
  private fetchResult(task: ToolTask, requests: TaskRequests, early = false): Promise<void> {
    const pending = this.fetching.get(task.key);
    if (pending) return pending;
    const fetched = requests
      .result(task.taskId)
      .then(
        (result) => {
          if (isTerminal(task.status)) return;
          try {
            this.options.checkResult?.(task.tool, result);
          } catch (e) {
            // Not the task's "could not be fetched": the result came, and is refused as a plain call's would be.
            return this.update(task, { status: 'failed', failure: messageOf(e) });
          }
          this.update(task, { status: 'completed', statusMessage: undefined, result });
        },
        (e: unknown) => {
          if (!early && !isTerminal(task.status)) this.update(task, { status: 'failed', failure: `The task completed, but its result could not be fetched: ${messageOf(e)}` });
        },
      )
      .finally(() => this.fetching.delete(task.key));
    this.fetching.set(task.key, fetched);
    return fetched;
  }

  /** The wait before the next poll: the server's interval within the bounds, doubled for each answer with the same status. */
  private pollMs(interval: number | undefined, unchanged: number): number {
    const { minPollMs, maxPollMs, defaultPollMs } = this.options;
    const asked = Math.max(minPollMs, typeof interval === 'number' && Number.isFinite(interval) ? interval : defaultPollMs);
    return Math.min(maxPollMs, asked * 2 ** Math.min(unchanged, 20));
  }

  /** How long a task is followed: the lifetime asked for, or the server's when it granted less (`ttl`; null: unlimited). */
  private lifetimeMs(granted: number | null | undefined): number {
    return typeof granted === 'number' && Number.isFinite(granted) && granted >= 0 ? Math.min(granted, this.options.ttlMs) : this.options.ttlMs;
  }

  private add(task: ToolTask) {
    this.tasks.set(task.key, task);
    this.prune(task.serverId);
    this.fire(task);
  }

  private update(task: ToolTask, fields: Partial<Pick<ToolTask, 'status' | 'statusMessage' | 'result' | 'failure'>>) {
    const before = JSON.stringify([task.status, task.statusMessage, task.failure, !!task.result]);
    Object.assign(task, fields);
    if (isTerminal(task.status) && task.endedAt === undefined) {
      task.endedAt = Date.now();
      this.sessions.delete(task.key);
      this.stoppers.delete(task.key);
      this.wakers.get(task.key)?.();
    }
    if (JSON.stringify([task.status, task.statusMessage, task.failure, !!task.result]) === before) return;
    this.report(task);
    if (isTerminal(task.status)) this.reporters.delete(task.key);
    this.fire(task);
  }

  /** `fromProgress`: a progress notification, whose message is newer than the status message the last poll saw. */
  private report(task: ToolTask, fromProgress = false) {
    const reporter = this.reporters.get(task.key);
    if (!reporter || isTerminal(task.status)) return;
    try {
      const newest = fromProgress ? (task.progress?.message ?? task.statusMessage) : (task.statusMessage ?? task.progress?.message);
      const message = newest ?? (task.status === 'input_required' ? 'waiting for input' : 'running as a task');
      reporter({ ...(task.progress ?? { progress: 0 }), message });
    } catch {
      // The caller's display is not the task's concern.
    }
  }

  private prune(serverId: string) {
    const finished = [...this.tasks.values()].filter((t) => t.serverId === serverId && isTerminal(t.status));
    for (const old of finished.slice(0, Math.max(0, finished.length - this.options.keepFinished))) this.tasks.delete(old.key);
  }

  private fire(task: ToolTask) {
    for (const listener of [...this.listeners]) {
      try {
        listener(task);
      } catch (e) {
        console.error('MCP Host: a task listener failed:', e);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}

