// The task requests of a 2026-07-28 session whose server declares the tasks extension (SEP-2663,
// `io.modelcontextprotocol/tasks`), behind the same TaskRequests port as 2025-11-25 tasks, so one ToolTasks, one view
// and one set of commands serve both. The SDK's 2026 decoder refuses a `tools/call` answered with `resultType: "task"`
// and knows no `tasks/*` method, so these go on the host's raw request path, framed as the SDK frames its own requests
// (its `_meta` envelope) with the extension declared in the per-request capabilities, as the spec asks of `tools/call`
// and the `tasks/*` requests (and of no other). Answers are checked with the extension's official codecs
// (`@modelcontextprotocol/ext-tasks/core/v2`, loaded with the first call).
// Lifecycle: the server decides per call whether it becomes a task; `tasks/get` carries status and, once terminal, the
// result or the error; input the task needs (`inputRequests`: elicitation, sampling, roots) goes to the session's own
// handlers (same consent and dialogs) and back with `tasks/update`, each key once; `tasks/cancel`; pushed
// `notifications/tasks`. No `tasks/result`, no `tasks/list`.
import type { CallToolResult, Task } from '@modelcontextprotocol/client';
import type { ServerLog } from '../../common/log';
import type { TaskRequests } from '../../host/serverSession';
import { MAX_INPUT_ROUNDS } from './handshake.lazy';
import type { LevelledClient } from './levelledClient.lazy';
import type { RawRequests } from './rawRequests.lazy';
import type { Send, SessionTaskRequests } from './taskRequests.lazy';

type Codecs = typeof import('@modelcontextprotocol/ext-tasks/core/v2', { with: { 'resolution-mode': 'import' } });
let codecs: Promise<Codecs> | undefined;
const loadCodecs = () => (codecs ??= import('@modelcontextprotocol/ext-tasks/core/v2'));

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Whether a server's capabilities (from `server/discover`) declare the tasks extension. */
export function declaresTasksExtension(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  const value = extensions && typeof extensions === 'object' ? (extensions as Record<string, unknown>)[TASKS_EXTENSION] : undefined;
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

export interface TaskRequestsV2Deps {
  /** The session's way of sending (timeout, caller's signal, the session's end, masked errors). */
  send: Send;
  raw: RawRequests;
  client(): LevelledClient;
  log: ServerLog;
  /** Ends with the session: input still being answered stops. */
  lifetime: AbortSignal;
  /** Progress by token (shared with the 2025-11-25 requests, which take it off the wire). */
  onProgress: SessionTaskRequests['onProgress'];
}

export type TaskRequestsV2 = TaskRequests & {
  /** Takes a `notifications/tasks` off the wire (the SDK knows no such method): true when it was one. */
  notificationReceived(message: unknown): boolean;
};

type Json = Record<string, unknown>;
type Detailed = Json & { taskId: string; status: Task['status']; statusMessage?: string; createdAt: string; lastUpdatedAt: string; ttlMs: number | null; pollIntervalMs?: number };

const isCallToolResult = (v: unknown): v is CallToolResult => !!v && typeof v === 'object' && Array.isArray((v as Json).content);
const messageOf = (e: unknown) => String((e as Error)?.message ?? e);

export function taskRequestsV2(deps: TaskRequestsV2Deps): TaskRequestsV2 {
  let loaded: Codecs | undefined;
  const statusListeners = new Set<(task: Task) => void>();
  /** What a terminal task brought: its result, or why it failed. */
  const results = new Map<string, CallToolResult>();
  const failures = new Map<string, string>();
  /** The last status seen of each task still running (what `result` need not ask the server again). */
  const running = new Map<string, Task['status']>();
  /** The `inputRequests` keys answered (or being answered), per task: each is shown to the user once. */
  const answered = new Map<string, Set<string>>();
  /** Per task with input being answered: aborted when it ends (or is cancelled), which closes its dialogs. */
  const asking = new Map<string, AbortController>();
  const stopAsking = (taskId: string) => {
    asking.get(taskId)?.abort(new Error('The task ended.'));
    asking.delete(taskId);
    answered.delete(taskId);
  };

  const ready = async () => (loaded ??= await loadCodecs());

  /** A raw request of the session, framed as the SDK frames its own, with the extension declared. */
  const request = async (method: string, params: Json, options?: { signal?: AbortSignal; progressToken?: string }): Promise<Json> => {
    const c = await ready();
    const framed = c.withTaskCapabilityV2({ ...params, _meta: { ...deps.client().requestEnvelope(), ...(params._meta as Json | undefined) } } as never) as Json;
    return deps.send(options, (_client, o) => deps.raw.request(method, framed, { signal: o.signal, timeout: o.timeout, progressToken: options?.progressToken }));
  };

  const toTask = (t: Detailed): Task => {
    const error = t.status === 'failed' ? (t.error as { message?: string } | undefined)?.message : undefined;
    const statusMessage = failures.get(t.taskId) ?? (error && t.statusMessage && t.statusMessage !== error ? `${t.statusMessage} (${error})` : (error ?? t.statusMessage));
    return {
      taskId: t.taskId,
      // A task we cancelled because its input could not be answered failed, for that reason.
      status: failures.has(t.taskId) && t.status === 'cancelled' ? 'failed' : t.status,
      ...(statusMessage !== undefined && { statusMessage }),
      createdAt: t.createdAt,
      lastUpdatedAt: t.lastUpdatedAt,
      ttl: t.ttlMs,
      ...(t.pollIntervalMs !== undefined && { pollInterval: t.pollIntervalMs }),
    };
  };

  /** Keeps what a detailed task carries: the result once completed, input to answer while input_required. */
  const remember = (t: Detailed) => {
    if (t.status === 'working' || t.status === 'input_required') running.set(t.taskId, t.status);
    else running.delete(t.taskId);
    if (t.status === 'completed' && !results.has(t.taskId)) {
      if (!isCallToolResult(t.result)) failures.set(t.taskId, "The server's result of the task is not a tool result.");
      else results.set(t.taskId, t.result);
    }
    if (t.status === 'input_required') void answerInput(t.taskId, t.inputRequests as Record<string, { method: string; params?: Json }>);
    if (t.status === 'completed' || t.status === 'failed' || t.status === 'cancelled') {
      stopAsking(t.taskId);
    }
    return t;
  };

  /** Answers each new input request of a task with the session's handlers, then sends the answers with `tasks/update`. */
  const answerInput = async (taskId: string, requests: Record<string, { method: string; params?: Json }>) => {
    const seen = answered.get(taskId) ?? new Set<string>();
    answered.set(taskId, seen);
    const fresh = Object.entries(requests).filter(([key]) => !seen.has(key));
    if (!fresh.length) return;
    for (const [key] of fresh) seen.add(key);
    const stop = asking.get(taskId) ?? new AbortController();
    asking.set(taskId, stop);
    const signal = AbortSignal.any([stop.signal, deps.lifetime]);
    try {
      const answers = await Promise.all(fresh.map(async ([key, r]) => [key, await deps.client().answerEmbedded(key, r.method, r.params, signal)] as const));
      if (signal.aborted) return;
      await request('tasks/update', { taskId, inputResponses: Object.fromEntries(answers) });
    } catch (e) {
      if (signal.aborted) return;
      // Nothing in `tasks/update` says "cannot answer": the task is cancelled, and it is shown failed, for this reason.
      failures.set(taskId, `Its request for input could not be answered: ${messageOf(e)}`);
      deps.log.warn(`Task ${taskId}: ${failures.get(taskId)}`);
      await request('tasks/cancel', { taskId }).catch((err: unknown) => deps.log.debug(`tasks/cancel: ${messageOf(err)}`));
    }
  };

  const detailed = (answer: Json, what: string): Detailed => {
    if (!loaded!.isDetailedTaskV2(answer)) throw new Error(`The server's answer to ${what} is not a task.`);
    return remember(answer as Detailed);
  };

  const get = async (taskId: string, options?: { signal?: AbortSignal }) => toTask(detailed(await request('tasks/get', { taskId }, options), 'tasks/get'));

  return {
    anyCall: true,
    onProgress: deps.onProgress,
    onStatus: (listener) => {
      statusListeners.add(listener);
      return { dispose: () => statusListeners.delete(listener) };
    },
    notificationReceived: (m) => {
      const message = m as { method?: unknown; id?: unknown; params?: unknown };
      if (message.method !== 'notifications/tasks' || 'id' in message) return false;
      if (!loaded?.isTaskStatusNotificationV2(m)) {
        deps.log.debug('A notifications/tasks that is not a task was ignored.');
        return true;
      }
      const task = toTask(remember(message.params as Detailed));
      for (const listener of [...statusListeners]) listener(task);
      return true;
    },
    async callTool(params, _task, options) {
      // The server decides whether the call becomes a task; the request says only that we handle one.
      const first: Json = { ...params, ...(options?.progressToken && { _meta: { ...params._meta, progressToken: options.progressToken } }) };
      let next = first;
      for (let round = 0; ; round++) {
        const answer = await request('tools/call', next, options);
        if (answer.resultType === 'task') {
          if (!loaded!.isCreateTaskResultV2(answer)) throw new Error("The server's answer to tools/call is not a task.");
          return { task: toTask(answer as Detailed) };
        }
        // A call that needs input before it can start (SEP-2322's input_required, outside any task).
        if (answer.resultType === 'input_required') {
          if (round >= MAX_INPUT_ROUNDS) throw new Error(`The server asked for input more than ${MAX_INPUT_ROUNDS} times.`);
          const asked = Object.entries((answer.inputRequests ?? {}) as Record<string, { method: string; params?: Json }>);
          const answers = await Promise.all(asked.map(async ([key, r]) => [key, await deps.client().answerEmbedded(key, r.method, r.params, options?.signal ?? deps.lifetime)] as const));
          next = { ...first, ...(answers.length && { inputResponses: Object.fromEntries(answers) }), ...(answer.requestState !== undefined && { requestState: answer.requestState }) };
          continue;
        }
        if ((answer.resultType === undefined || answer.resultType === 'complete') && isCallToolResult(answer)) return answer;
        throw new Error(`The server's answer to tools/call is not a tool result (resultType ${JSON.stringify(answer.resultType)}).`);
      }
    },
    get,
    // The result comes with `tasks/get`: a task known to be running has none yet (no request is sent for that).
    async result(taskId, options) {
      if (running.has(taskId)) throw new Error('The task has not completed.');
      if (!results.has(taskId) && !failures.has(taskId)) await get(taskId, options);
      const result = results.get(taskId);
      results.delete(taskId);
      if (result) return result;
      throw new Error(failures.get(taskId) ?? 'The task has not completed.');
    },
    // The server acknowledges at once; the task's status (cancelled, or what it reached first) is read after.
    async cancel(taskId, options) {
      stopAsking(taskId);
      await request('tasks/cancel', { taskId }, options);
      try {
        return await get(taskId, options);
      } catch {
        return { taskId, status: 'cancelled', createdAt: new Date().toISOString(), lastUpdatedAt: new Date().toISOString(), ttl: null };
      }
    },
    list: () => Promise.reject(new Error('The 2026-07-28 tasks extension has no tasks/list.')),
  };
}
