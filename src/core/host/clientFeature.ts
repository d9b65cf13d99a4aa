// How a client-side feature (sampling, elicitation, resource subscriptions, …) plugs into every server session
// without the connection knowing about it: it adds capabilities and installs its handlers on each new session.
import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/serverDefinition';
import type { Disposable } from '../common/events';
import type { ServerLog } from '../common/log';
import type { ServerSession } from './serverSession';

export interface SessionContext {
  definition: ServerDefinition;
  log: ServerLog;
  /** Where the feature answers the server's requests and notifications (the SDK's own registration). */
  handlers: Pick<Client, 'setRequestHandler' | 'setNotificationHandler'>;
  /** The session's requests to the server; usable once the handshake is done (`session.isOpen`). */
  session: ServerSession;
  /** Masks `value` in this session's log from now on, traced traffic included (a secret the user typed). */
  redact(value: string): void;
  /**
   * Answers the same request when a 2025-11-25 server sends it as a task (`params.task`): the session runs `answer`
   * (the feature's own handler) as the task, and answers the server's task requests about it. Absent: no task path.
   */
  answerAsTask?(method: TaskAnswerMethod, answer: TaskAnswer): void;
}

/** The server-to-client requests a 2025-11-25 server may send as tasks. */
export type TaskAnswerMethod = 'sampling/createMessage' | 'elicitation/create';

/** Answers one request's params (already checked against the spec's shape); `signal` aborts when the task is cancelled. */
export type TaskAnswer = (params: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>;

export interface ClientFeature {
  /** Capabilities this feature declares to the given server; {} declares nothing (e.g. turned off for it). */
  capabilities(definition: ServerDefinition): ClientCapabilities;
  /** Installs request/notification handlers for a new session, before it connects. Disposed when it ends. */
  install(session: SessionContext): Disposable | void;
}
