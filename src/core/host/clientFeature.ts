// How a client-side feature (sampling, elicitation, resource subscriptions, …) plugs into every server session
// without the connection knowing about it: it adds capabilities and installs its handlers on each new SDK Client.
import type { AuthProvider, Client, ClientCapabilities, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/types';
import type { Disposable } from './events';
import type { ServerLog } from './ports';

export interface SessionContext {
  definition: ServerDefinition;
  log: ServerLog;
  client: Client;
  /** Masks `value` in this session's log from now on, traced traffic included (a secret the user typed). */
  redact(value: string): void;
}

export interface ClientFeature {
  /** Capabilities this feature declares to the given server; {} declares nothing (e.g. turned off for it). */
  capabilities(definition: ServerDefinition): ClientCapabilities;
  /** Installs request/notification handlers on a new session's Client, before it connects. Disposed when it ends. */
  install(session: SessionContext): Disposable | void;
}

/** Gives the auth provider for a remote server (OAuth, or static credentials), if any. */
export type AuthProviderFactory = (definition: ServerDefinition, log: ServerLog) => AuthProvider | OAuthClientProvider | undefined;
