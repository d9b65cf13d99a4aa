// The host's public model: what the VS Code layer renders and what the extension's API returns.
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, ServerCapabilities, Tool, Implementation } from '@modelcontextprotocol/client';
import type { AuthStatus } from '../auth/authStatus';
import type { ConfigScope, RawServer } from '../config/types';

/** Connection state as a discriminated union: errors are state, not exceptions. */
export type ServerState =
  | { kind: 'stopped'; reason?: string }
  | { kind: 'starting' }
  | { kind: 'running' }
  | { kind: 'error'; message: string };

export type ServerStateKind = ServerState['kind'];

/** untrusted: the user has not trusted the definition; restricted: Restricted Mode; input: an input was cancelled;
 * config: the definition cannot be resolved (e.g. an unknown variable). */
export type BlockedKind = 'untrusted' | 'restricted' | 'input' | 'config';

/**
 * What a running server offers, refreshed on list_changed. Lists are complete (every page followed), except resources:
 * the pages loaded so far (the first at start, more on demand: `ServerConnection.loadMoreResources`).
 */
export interface ServerFeatures {
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
}

export const emptyFeatures = (): ServerFeatures => ({ tools: [], prompts: [], resources: [], resourceTemplates: [] });

/** A snapshot of one configured server, as the UI and the public API see it. */
export interface ServerInfo {
  /** `${scope.key}::${name}` */
  id: string;
  name: string;
  scope: ConfigScope;
  /** The definition as written (what trust dialogs and tooltips show). */
  definition: RawServer;
  state: ServerState;
  /** Why a configured server was kept from starting, for the user. */
  blockedReason?: string;
  /** What kind of decision or fix it waits for. */
  blockedKind?: BlockedKind;
  protocolVersion?: string;
  serverInfo?: Implementation;
  capabilities?: ServerCapabilities;
  instructions?: string;
  features: ServerFeatures;
  /** How many times it crashed in the restart window. */
  crashCount: number;
  pid?: number;
  /** Sign-in state of a remote server that asked for OAuth; undefined when it never did. */
  auth?: AuthStatus;
}

export type { Prompt, Resource, ResourceTemplate, Tool, ServerCapabilities, Implementation };
