// The task requests of one session (2025-11-25 experimental tasks): `tools/call` with `task`, `tasks/get`,
// `tasks/result`, `tasks/cancel`, `tasks/list`. The SDK keeps the task vocabulary on the 2025 wire (its schemas parse
// it) but offers no typed method for it, so these go through `client.request` with a result check of our own: an
// answer that is not what the spec says is refused with a plain error, never half-used. On a 2026-07-28 session the
// SDK refuses the 2025 task methods before anything is sent.
import type { CallToolResult, Client, RequestOptions, StandardSchemaV1, Task } from '@modelcontextprotocol/client';
import type { SessionRequestOptions, TaskRequests } from '../../host/serverSession';

type Send = <T>(options: SessionRequestOptions | undefined, request: (client: Client, options: RequestOptions) => Promise<T>) => Promise<T>;

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

/** The session's task requests, sent the way its other requests are (timeout, signal, the session's end). */
export function taskRequests(send: Send): TaskRequests & { statusReceived(task: Task): void } {
  // Not the core's Emitter: its module stays in the activation bundle alone.
  const listeners = new Set<(task: Task) => void>();
  return {
    onStatus: (listener) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    statusReceived: (task) => listeners.forEach((l) => l(task)),
    callTool: (params, task, options) => send(options, (client, o) => client.request({ method: 'tools/call', params: { ...params, task } }, CREATED, o)),
    get: (taskId, options) => send(options, (client, o) => client.request({ method: 'tasks/get', params: { taskId } }, TASK, o)),
    // The server may hold `tasks/result` until the task ends: no timeout of ours cuts it (the caller's signal does).
    result: (taskId, options) => send(options, (client, o) => client.request({ method: 'tasks/result', params: { taskId } }, RESULT, { ...o, timeout: 2 ** 31 - 1 })),
    cancel: (taskId, options) => send(options, (client, o) => client.request({ method: 'tasks/cancel', params: { taskId } }, TASK, o)),
    list: (cursor, options) => send(options, (client, o) => client.request({ method: 'tasks/list', params: cursor === undefined ? {} : { cursor } }, LIST, o)),
  };
}

/** Follows the server's `notifications/tasks/status` (a 2025-11-25 server may push them): a status that is not a task is refused. */
export function followTaskStatus(client: Client, requests: { statusReceived(task: Task): void }): void {
  client.setNotificationHandler('notifications/tasks/status', { params: TASK }, (task) => requests.statusReceived(task));
}
