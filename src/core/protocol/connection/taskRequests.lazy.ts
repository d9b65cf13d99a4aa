// The task requests of one session (2025-11-25 experimental tasks): `tools/call` with `task`, `tasks/get`,
// `tasks/result`, `tasks/cancel`, `tasks/list`. The SDK keeps the task vocabulary on the 2025 wire (its schemas parse
// it) but offers no typed method for it, so these go through `client.request` with a result check of our own: an
// answer that is not what the spec says is refused with a plain error, never half-used. On a 2026-07-28 session the
// SDK refuses the 2025 task methods before anything is sent.
import type { CallToolResult, Client, JSONRPCMessage, Progress, RequestOptions, StandardSchemaV1, Task } from '@modelcontextprotocol/client';
import { PROGRESS_TOKEN_PREFIX } from '../../features/tasks/toolTasks.lazy';
import type { SessionRequestOptions, TaskRequests } from '../../host/serverSession';

export type Send = <T>(options: SessionRequestOptions | undefined, request: (client: Client, options: RequestOptions) => Promise<T>) => Promise<T>;

const STATUSES = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isTask(v: unknown): v is Task {
  return (
    isObject(v) &&
    typeof v.taskId === 'string' &&
    v.taskId.length > 0 &&
    v.taskId.length <= 1000 &&
    typeof v.status === 'string' &&
    STATUSES.has(v.status) &&
    (v.statusMessage === undefined || typeof v.statusMessage === 'string') &&
    (v.pollInterval === undefined || typeof v.pollInterval === 'number')
  );
}

const isCallToolResult = (v: unknown): v is CallToolResult => isObject(v) && Array.isArray(v.content);

/** A result schema (Standard Schema, as `client.request` takes) from a type guard; `what` names it in the error. */
function checked<T>(what: string, guard: (v: unknown) => v is T): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'mcp-host',
      validate: (value) => (guard(value) ? { value } : { issues: [{ message: `the server's answer is not ${what}` }] }),
    },
  };
}

const CREATED = checked('a task or a tool result', (v): v is { task: Task } | CallToolResult => (isObject(v) && isTask(v.task)) || isCallToolResult(v));
const TASK = checked('a task', isTask);
const RESULT = checked('a tool result', isCallToolResult);
const LIST = checked('a list of tasks', (v): v is { tasks: Task[]; nextCursor?: string } => isObject(v) && Array.isArray(v.tasks) && v.tasks.every(isTask) && (v.nextCursor === undefined || typeof v.nextCursor === 'string'));


/** A listener set (not the core's Emitter: its module stays in the activation bundle alone). */
function listenerSet<T>() {
  const listeners = new Set<(value: T) => void>();
  return {
    event: (listener: (value: T) => void) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    fire: (value: T) => listeners.forEach((l) => l(value)),
  };
}

export type SessionTaskRequests = TaskRequests & {
  statusReceived(task: Task): void;
  /** Takes a progress notification of a task (its token is ours): true when it was one, and the SDK must not see it. */
  progressReceived(message: JSONRPCMessage): boolean;
};

/**
 * The session's task requests, sent the way its other requests are (timeout, signal, the session's end). A task's
 * progress outlives the `tools/call` that started it, and the SDK forgets a request's progress token once it is
 * answered (it would report each later notification as an error): the token is ours, and its notifications are taken
 * off the wire before the SDK sees them.
 */
export function taskRequests(send: Send): SessionTaskRequests {
  const status = listenerSet<Task>();
  const progress = listenerSet<{ progressToken: string; progress: Progress }>();
  return {
    onStatus: status.event,
    statusReceived: status.fire,
    onProgress: progress.event,
    progressReceived: (m) => {
      if (!('method' in m) || m.method !== 'notifications/progress' || 'id' in m) return false;
      const { progressToken, ...rest } = (m.params ?? {}) as { progressToken?: unknown; progress?: unknown; total?: unknown; message?: unknown };
      if (typeof progressToken !== 'string' || !progressToken.startsWith(PROGRESS_TOKEN_PREFIX)) return false;
      if (typeof rest.progress === 'number') {
        progress.fire({
          progressToken,
          progress: {
            progress: rest.progress,
            ...(typeof rest.total === 'number' && { total: rest.total }),
            ...(typeof rest.message === 'string' && { message: rest.message }),
          },
        });
      }
      return true;
    },
    callTool: (params, task, options) =>
      send(options, (client, o) =>
        client.request({ method: 'tools/call', params: { ...params, task, ...(options?.progressToken && { _meta: { ...params._meta, progressToken: options.progressToken } }) } }, CREATED, o),
      ),
    get: (taskId, options) => send(options, (client, o) => client.request({ method: 'tasks/get', params: { taskId } }, TASK, o)),
    // The server may hold `tasks/result` until the task ends: no timeout of ours cuts it (the caller's signal does).
    result: (taskId, options) => send(options, (client, o) => client.request({ method: 'tasks/result', params: { taskId } }, RESULT, { ...o, timeout: 2 ** 31 - 1 })),
    cancel: (taskId, options) => send(options, (client, o) => client.request({ method: 'tasks/cancel', params: { taskId } }, TASK, o)),
    list: (cursor, options) => send(options, (client, o) => client.request({ method: 'tasks/list', params: cursor === undefined ? {} : { cursor } }, LIST, o)),
  };
}

/** Follows the server's `notifications/tasks/status` (a 2025-11-25 server may push them): a status that is not a task is refused. */
export function followTaskStatus(client: Client, requests: Pick<SessionTaskRequests, 'statusReceived'>): void {
  client.setNotificationHandler('notifications/tasks/status', { params: TASK }, (task) => requests.statusReceived(task));
}
