// Requests a 2025-11-25 server sends as tasks: `sampling/createMessage` or `elicitation/create` with a `task` param.
// The client answers at once with a task (CreateTaskResult) and runs the request with the feature's own handler, the
// one plain requests reach (same consent, dialogs, model, caps); the server follows the task with `tasks/get`,
// `tasks/result`, `tasks/cancel` and `tasks/list`, and hears `notifications/tasks/status` on every change. The task
// state, retention, cancellation and notifications are the official receiver's (`@modelcontextprotocol/ext-tasks`);
// this file only routes into the features and declares `tasks.requests.*` for the features that answer. The tasks go
// with the session: its end closes the receiver, which aborts what still runs.
import { ProtocolError, ProtocolErrorCode, specTypeSchemas, type Client, type ClientCapabilities, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { TaskReceiverCallback } from '@modelcontextprotocol/ext-tasks/receiver' with { 'resolution-mode': 'import' };
import type { Disposable } from '../../common/events';
import type { ServerLog } from '../../common/log';
import type { TaskAnswer, TaskAnswerMethod } from '../../host/clientFeature';

/** The one revision whose server-to-client requests may be tasks (the 2026-07-28 wire asks through `input_required`). */
export const TASK_REQUESTS_PROTOCOL_VERSION = '2025-11-25';

export interface ServerTaskRequestOptions {
  /** How long a task (and its result) is kept for the server, from its creation (ms). */
  ttlMs?: number;
  /** The poll interval suggested to the server (ms). */
  pollIntervalMs?: number;
  /** The most tasks kept per session, finished ones included (the oldest finished go first). */
  maxTasks?: number;
}

const PARAMS: Record<TaskAnswerMethod, { schema: StandardSchemaV1<unknown, unknown>; asSent: boolean }> = {
  'sampling/createMessage': { schema: specTypeSchemas.CreateMessageRequestParams, asSent: false },
  // As the plain handler: the shape is checked, but the form sees the schema as sent (the SDK's schemas drop keywords).
  'elicitation/create': { schema: specTypeSchemas.ElicitRequestParams, asSent: true },
};

/** The receiver's module (ext-tasks' `./receiver`). */
export type TaskReceiverModule = typeof import('@modelcontextprotocol/ext-tasks/receiver', { with: { 'resolution-mode': 'import' } });
let loading: Promise<TaskReceiverModule | undefined> | undefined;

/**
 * Loads the receiver, an ES module (imported once; the bundle inlines it). A session's Client needs it before it
 * connects, when its capabilities are declared. A failure is logged and leaves the session without the task path.
 */
export function loadTaskReceiver(log: ServerLog): Promise<TaskReceiverModule | undefined> {
  return (loading ??= import('@modelcontextprotocol/ext-tasks/receiver').catch((e: Error) => {
    loading = undefined;
    log.warn(`Requests as tasks are not available: ${e.message}`);
    return undefined;
  }));
}

type RequestHandler = (request: { params?: unknown }, ctx: unknown) => Promise<unknown>;

/** As the receiver tells them: a `task` param, whatever its value (the receiver refuses a malformed one). */
const isTaskAugmented = (request: { params?: unknown }) => typeof request.params === 'object' && request.params !== null && 'task' in request.params;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The params a task answer gets: checked against the spec's shape (the plain path's check, which the task path
 * bypasses), without the task augmentation.
 */
export async function taskRequestParams(method: TaskAnswerMethod, raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  const params = { ...raw };
  delete params.task;
  const { schema, asSent } = PARAMS[method];
  const checked = await schema['~standard'].validate(params);
  if (checked.issues) {
    const what = method === 'sampling/createMessage' ? 'sampling request' : 'elicitation request';
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid ${what}: ${checked.issues.map((i) => i.message).join('; ').slice(0, 500)}`);
  }
  return asSent || !isObject(checked.value) ? params : checked.value;
}

/** Collects the features' task answers for one session, then binds them to its Client. */
export class ServerTaskRequests {
  private readonly answers = new Map<TaskAnswerMethod, TaskAnswer>();

  constructor(
    private readonly log: ServerLog,
    /** Without it (not loaded), nothing is declared and no request is taken as a task. */
    private readonly receiverModule?: TaskReceiverModule,
    private readonly options: ServerTaskRequestOptions = {},
  ) {}

  /** A feature answers `method` as a task too (called from its install). */
  readonly add = (method: TaskAnswerMethod, answer: TaskAnswer): void => {
    this.answers.set(method, answer);
  };

  /**
   * Binds the receiver to `client` (before it connects: its capabilities are declared then) when a feature answers
   * as a task; nothing is declared otherwise. Dispose the result when the session ends.
   */
  bind(client: Client): Disposable | undefined {
    const { log, receiverModule } = this;
    if (!this.answers.size || !receiverModule) return undefined;
    const callback =
      (method: TaskAnswerMethod, answer: TaskAnswer): TaskReceiverCallback =>
      async (request, { taskId, signal }) => {
        log.info(`The server sent ${method} as a task (${taskId})`);
        return (await answer(await taskRequestParams(method, request.params as Record<string, unknown>), signal)) as Awaited<ReturnType<TaskReceiverCallback>>;
      };
    // The receiver registers the methods again through the SDK, whose registration hands the *parsed* request on to
    // the handler it replaces: plain requests go on reaching the handlers as they were (a form must see the schema as
    // sent, keywords the SDK's schemas drop included). The receiver relies on the same table.
    const table = (client as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
    const plain = new Map([...this.answers.keys()].map((m) => [m, table?.get(m)] as const));
    const sampling = this.answers.get('sampling/createMessage');
    const elicitation = this.answers.get('elicitation/create');
    // The receiver's SDK types are the ESM build's; the Client is the same class at runtime.
    const bind = (options: Parameters<TaskReceiverModule['bindTaskReceiver']>[1]) => {
      try {
        return receiverModule.bindTaskReceiver(client as unknown as Parameters<TaskReceiverModule['bindTaskReceiver']>[0], options);
      } catch (e) {
        // The server still starts, asking the ordinary way: nothing is declared.
        log.warn(`Requests as tasks are not available for this server: ${(e as Error).message}`);
        return undefined;
      }
    };
    const receiver = bind({
      methods: { 'sampling/createMessage': !!sampling, 'elicitation/create': !!elicitation },
      ...(sampling && { sampling: callback('sampling/createMessage', sampling) }),
      ...(elicitation && { elicitation: callback('elicitation/create', elicitation) }),
      ttlMs: this.options.ttlMs ?? 60 * 60 * 1000,
      pollIntervalMs: this.options.pollIntervalMs ?? 1000,
      maxTasks: this.options.maxTasks ?? 100,
      // Called before a task exists: a session of another revision gets a plain error, and no task is created.
      createTaskId: () => {
        const version = client.getNegotiatedProtocolVersion();
        if (version !== TASK_REQUESTS_PROTOCOL_VERSION)
          throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Requests as tasks need protocol ${TASK_REQUESTS_PROTOCOL_VERSION}; this session speaks ${version ?? 'none yet'}.`);
        return globalThis.crypto.randomUUID();
      },
      onError: (error, context) => {
        const message = error instanceof Error ? error.message : String(error);
        if (context.lateAfter) log.debug(`Task ${context.taskId} of ${context.method} ended after its ${context.lateAfter}: ${message}`);
        else log.info(`${context.method}${context.taskId ? ` (task ${context.taskId})` : ''}: ${message}`);
      },
    });
    if (!receiver) return undefined;
    for (const [method, handler] of plain) {
      const routed = table?.get(method);
      if (table && handler && routed) table.set(method, (request, ctx) => (isTaskAugmented(request) ? routed(request, ctx) : handler(request, ctx)));
    }
    const capabilities: ClientCapabilities = { tasks: { ...receiver.capabilities } };
    client.registerCapabilities(capabilities);
    return {
      dispose: () => {
        receiver.close();
        for (const [method, handler] of plain) if (table && handler) table.set(method, handler);
      },
    };
  }
}
