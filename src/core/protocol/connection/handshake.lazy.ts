// The client side of `initialize`: one SDK Client per attempt, declaring only what is handled (roots, plus what each
// client feature declares for this server), with the server's log messages routed to its log, JSON-RPC traffic traced
// at trace level, and `logging/setLevel` following the log's level.
import { LevelledClient } from './levelledClient.lazy';
import { Client, ProtocolError, ProtocolErrorCode, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type ListChangedHandlers, type LoggingLevel, type Transport } from '@modelcontextprotocol/client';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import type { ServerDefinition } from '../../config/serverDefinition';
import type { Disposable } from '../../common/events';
import type { LogLevelName, ServerLog } from '../../common/log';
import { followTaskStatus } from './taskRequests.lazy';
import { ServerTaskRequests, type TaskReceiverModule } from './serverTaskRequests.lazy';
export { loadTaskReceiver } from './serverTaskRequests.lazy';
import type { ServerSession } from '../../host/serverSession';
import type { TaskAnswer, TaskAnswerMethod } from '../../host/clientFeature';
import { isResultResponse } from './messageKinds.lazy';
import type { ConnectionOptions } from './launcher.lazy';

/** The 2026-07-28 revision: reached through a `server/discover` probe rather than `initialize`. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/**
 * Revisions we negotiate, newest first: 2026-07-28 (probed with `server/discover`, the SDK's auto mode), then every
 * 2025-era revision the SDK speaks down to 2024-11-05 (the `initialize` handshake it falls back to).
 */
export const NEGOTIABLE_PROTOCOL_VERSIONS = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v >= '2024-11-05')];

/**
 * The most rounds of `input_required` one request may go through (each round answers the server's questions and sends
 * the request again): a server that never stops asking gets an error rather than endless dialogs.
 */
export const MAX_INPUT_ROUNDS = 8;

/**
 * How long the `server/discover` probe may wait. On stdio, silence means a legacy server (which then gets `initialize`
 * on the same process): 10 s at most. Over HTTP silence is an outage, so the probe has the whole initialize timeout.
 */
export function probeTimeoutMs(definition: ServerDefinition, initializeTimeoutMs: number): number {
  return definition.resolved.type === 'stdio' ? Math.min(10_000, initializeTimeoutMs) : initializeTimeoutMs;
}

const MCP_TO_LOG: Record<LoggingLevel, keyof Pick<ServerLog, 'trace' | 'debug' | 'info' | 'warn' | 'error'>> = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
};

const LOG_TO_MCP: Record<LogLevelName, LoggingLevel> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  warning: 'warning',
  error: 'error',
  off: 'emergency',
};

/** Sees every message of a session go by (the idle health check). */
export interface TrafficObserver {
  sent(message: JSONRPCMessage): void;
  received(message: JSONRPCMessage): void;
}

/** Passes messages through and logs the JSON-RPC traffic at trace level. */
export class TracingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** Told when the transport closes, before the SDK is (the host's raw requests end with it). */
  whenClosed?: () => void;

  constructor(
    readonly inner: Transport,
    private readonly log: ServerLog,
    private readonly onStarted?: () => void,
    private readonly traffic?: TrafficObserver,
    /** Whether the session negotiated 2026-07-28 (answers without `resultType` are then read as complete). */
    isModern?: () => boolean,
    /** Takes a message off the wire before the SDK sees it (a task's progress): true when it did. */
    consume?: (message: JSONRPCMessage) => boolean,
  ) {
    // The SDK tells a stdio transport by its shape (`pid` and `stderr`): on stdio a probe nobody answers means a legacy
    // server, on HTTP an outage. The wrapper keeps the shape of what it wraps.
    if ('pid' in inner && 'stderr' in inner) {
      Object.defineProperty(this, 'pid', { get: () => (inner as { pid?: number }).pid, enumerable: true });
      Object.defineProperty(this, 'stderr', { get: () => (inner as { stderr?: unknown }).stderr, enumerable: true });
    }
    inner.onclose = () => {
      this.whenClosed?.();
      this.onclose?.();
    };
    inner.onerror = (e) => this.onerror?.(e);
    inner.onmessage = (m, extra) => {
      traffic?.received(m);
      // SEP-2322: a result that names no `resultType` is complete. The SDK refuses such a result from a 2026-07-28
      // server outright, failing the request; the spec's reading (and the conformance suite's) is "complete".
      if (isModern?.() && isResultResponse(m) && m.result && typeof m.result === 'object' && !('resultType' in m.result)) {
        m = { ...m, result: { ...m.result, resultType: 'complete' } };
      }
      if (log.logLevel === 'trace') log.trace(`◀ ${JSON.stringify(m)}`);
      if (!consume?.(m)) this.onmessage?.(m, extra);
    };
  }

  get sessionId() {
    return this.inner.sessionId;
  }

  async start() {
    await this.inner.start();
    this.onStarted?.();
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]) {
    this.traffic?.sent(message);
    if (this.log.logLevel === 'trace') this.log.trace(`▶ ${JSON.stringify(message)}`);
    return this.inner.send(message, options);
  }

  close() {
    return this.inner.close();
  }

  setProtocolVersion = (version: string) => this.inner.setProtocolVersion?.(version);
}

export interface ClientSetup {
  definition: ServerDefinition;
  log: ServerLog;
  options: Pick<ConnectionOptions, 'clientInfo' | 'roots' | 'features' | 'initializeTimeoutMs' | 'refuseToAsk'>;
  listChanged: ListChangedHandlers;
  /** The session the client features may send requests through. */
  session: ServerSession;
  /** Masks a value the user typed into a secret-looking field in this session's log. */
  redact(value: string): void;
  /** The session's task requests: the statuses the server pushes go to them. */
  tasks?: Parameters<typeof followTaskStatus>[1];
}

/**
 * A new Client with its handlers and the client features installed; dispose the result when the session ends. With
 * the task receiver (`loadTaskReceiver`), what a 2025-11-25 server sends as a task reaches the same handlers.
 */
export function createClient(setup: ClientSetup, taskReceiver?: TaskReceiverModule): { client: Client; installed: Disposable[] } {
  const { definition, log, options } = setup;
  const features = options.features ?? [];
  const capabilities = Object.assign({ roots: { listChanged: true } }, ...features.map((f) => f.capabilities(definition)));
  const client = new LevelledClient(options.clientInfo, {
    capabilities,
    supportedProtocolVersions: [...NEGOTIABLE_PROTOCOL_VERSIONS],
    // 2026-07-28 where the server speaks it (probed with server/discover), else the 2025 initialize handshake.
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: probeTimeoutMs(definition, options.initializeTimeoutMs) } },
    // 2026-07-28 servers ask through `input_required` results: the SDK answers them with the handlers installed below
    // (the same ones 2025 servers' requests reach), then retries, at most this many rounds.
    inputRequired: { autoFulfill: true, maxRounds: MAX_INPUT_ROUNDS },
    // The SDK stops after 64 pages; big servers (10,000 resources in pages of 100) need more, and a server whose
    // cursor never ends is still cut off.
    listMaxPages: 1000,
    listChanged: setup.listChanged,
    // Tool output schemas are checked with the SDK's lighter validator: ajv is many times its size (npm run test:bundles).
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
  });
  client.setRequestHandler('roots/list', async () => {
    const roots = options.roots();
    log.debug(`roots/list -> ${roots.map((r) => r.uri).join(', ') || '(none)'}`);
    return { roots };
  });
  client.setNotificationHandler('notifications/message', (n) => {
    const { level, logger, data } = n.params;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    log[MCP_TO_LOG[level] ?? 'info'](`${logger ? `[${logger}] ` : ''}${text}`);
  });
  if (setup.tasks) followTaskStatus(client, setup.tasks);
  client.onerror = (e) => log.warn(`Protocol: ${e.message}`);
  // A start ahead of its use asks the user nothing: a question the server sends meanwhile is refused (and that start not
  // kept, see ServerConnection.start); the confirmed use's own start lets it ask.
  const refuse = options.refuseToAsk;
  const setRequestHandler = refuse ? refusingQuestions(client, refuse) : client.setRequestHandler.bind(client);
  const handlers = { setRequestHandler, setNotificationHandler: client.setNotificationHandler.bind(client) };
  const asTasks = new ServerTaskRequests(log, taskReceiver);
  const answerAsTask = (method: TaskAnswerMethod, answer: TaskAnswer) => asTasks.add(method, refuse ? (params, signal) => (refuse() ? Promise.reject(notAsked()) : answer(params, signal)) : answer);
  const installed = features.flatMap((f) => f.install({ definition, log, handlers, session: setup.session, redact: setup.redact, answerAsTask }) ?? []);
  const receiver = asTasks.bind(client);
  if (receiver) installed.push(receiver);
  return { client, installed };
}

/**
 * Sets the server's log level to the log's, now and whenever the user changes it (servers that log): on 2026-07-28 in
 * every request's `_meta`, on 2025 sessions with `logging/setLevel`.
 */
export function followLogLevel(client: Client, log: ServerLog, requestTimeoutMs: number): Disposable | undefined {
  if (!client.getServerCapabilities()?.logging) return undefined;
  if (client instanceof LevelledClient && client.getProtocolEra() === 'modern') {
    client.logLevel = LOG_TO_MCP[log.logLevel];
    return log.onDidChangeLogLevel((l) => (client.logLevel = LOG_TO_MCP[l]));
  }
  const apply = (level: LogLevelName) =>
    client.setLoggingLevel(LOG_TO_MCP[level], { timeout: requestTimeoutMs }).catch((e: Error) => log.debug(`logging/setLevel failed: ${e.message}`));
  void apply(log.logLevel);
  return log.onDidChangeLogLevel((l) => void apply(l));
}

/** The questions a server may send the user (through the client features). */
const QUESTIONS = new Set(['elicitation/create', 'sampling/createMessage']);
const notAsked = () => new ProtocolError(ProtocolErrorCode.InvalidRequest, 'Not asked: the client started this server ahead of a use the user has not confirmed yet.');

/** The client's setRequestHandler, with the questions' handlers refusing while `refuse()` says so. */
function refusingQuestions(client: Client, refuse: () => boolean): Client['setRequestHandler'] {
  const set = client.setRequestHandler.bind(client) as (method: string, ...rest: unknown[]) => void;
  return ((method: string, ...rest: unknown[]) => {
    const handler = rest.pop() as (...args: unknown[]) => unknown;
    const guarded = QUESTIONS.has(method) ? (...args: unknown[]) => (refuse() ? Promise.reject(notAsked()) : handler(...args)) : handler;
    set(method, ...rest, guarded);
  }) as Client['setRequestHandler'];
}
