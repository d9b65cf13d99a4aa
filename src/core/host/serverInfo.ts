// The host's public model: what the VS Code layer renders and what the extension's API returns.
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, ServerCapabilities, Tool, Implementation } from '@modelcontextprotocol/client';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { AuthStatus } from '../auth/authStatus';
import type { ConfigScope, RawServer, ToolApproval } from '../config/serverDefinition';
import type { SandboxDenial } from '../config/sandboxDenial';

/**
 * Why a configured server waits instead of running: a decision or a fix only the user can give.
 * untrusted: the definition is not trusted (yet); restricted: Restricted Mode; input: an `${input:}` was cancelled;
 * signIn: the remote server needs a sign-in that did not happen; config: the definition cannot be resolved.
 */
/** `disabled`: `"disabled": true` in its file (Cline's and Windsurf's key). */
export type BlockedReason = 'untrusted' | 'restricted' | 'input' | 'signIn' | 'config' | 'disabled';

/**
 * A server's state as every surface (tree, status bar, chat, public API, CLI) reads it. Errors are state, not
 * exceptions. `stopped.reason` says why a running server was stopped (e.g. signed out); `starting.since` (ms since
 * epoch) is when its process or connection began to start; `restartAt` (ms since epoch) is when a crashed server is
 * started again, absent when it stays down until the user acts.
 */
export type ServerState =
  | { kind: 'stopped'; reason?: string }
  | { kind: 'starting'; since: number }
  | { kind: 'running' }
  /** Not running, its features known from its last run: it starts when something uses it (`startup: onDemand`). */
  | { kind: 'dormant' }
  | { kind: 'blocked'; reason: BlockedReason; message: string }
  | { kind: 'error'; message: string; restartAt?: number };

export type ServerStateKind = ServerState['kind'];

/** Whether its tools, prompts and resources are offered: it runs, or it is dormant (started by their first use). */
export const offersFeatures = (state: ServerState): boolean => state.kind === 'running' || state.kind === 'dormant';

/** Whether a start can be asked for from this state (stopped, waiting for the user, or failed). */
export const canBeStarted = (state: ServerState): boolean => state.kind === 'stopped' || state.kind === 'dormant' || (state.kind === 'blocked' && state.reason !== 'disabled') || state.kind === 'error';

/** The state in words, for messages such as "the server is not running (…)". */
export function describeServerState(state: ServerState): string {
  switch (state.kind) {
    case 'stopped':
      return state.reason ? `it is stopped: ${state.reason}` : 'it is stopped';
    case 'starting':
      return 'it is still starting';
    case 'running':
      return 'it is running';
    case 'dormant':
      return 'it is dormant (it starts when used)';
    case 'blocked':
      return `it is waiting: ${state.message}`;
    case 'error':
      return `it failed: ${state.message}`;
  }
}

/**
 * What a running server offers, refreshed on list_changed. Lists are complete (every page followed), except resources:
 * the pages loaded so far (the first at start, more on demand: `ServerSession.loadMoreResources`), and so are
 * `resourceTemplates` (`ServerSession.loadMoreResourceTemplates`).
 */
export interface ServerFeatures {
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  /**
   * The server's skills (the `io.modelcontextprotocol/skills` extension), every page: entries only, never a file
   * (files are read when a skill is opened or loaded). Absent when the server does not offer the extension.
   */
  skills?: Skill[];
  /** `skills/list` entries refused as invalid, each with why (shown, never loaded). */
  invalidSkills?: { uri?: string; reason: string }[];
  /** Skill files that failed verification when read this session, by file URI: why, in words (never loaded). */
  skillFailures?: Record<string, string>;
  /**
   * The view's groups whose lists were cut short at the host's cap on one list (listBudget.lazy.ts): why, in words
   * (resources covers resource templates too). Such a group reads "incomplete", with this as its hover.
   */
  incomplete?: Partial<Record<'tools' | 'prompts' | 'resources' | 'skills', string>>;
}

export const emptyFeatures = (): ServerFeatures => ({ tools: [], prompts: [], resources: [], resourceTemplates: [] });

/** What the user chose for one server's tools in the Servers view (see features/tools/toolSwitches). */
export interface ToolChoices {
  /** The tools the user switched off. */
  readonly off?: ReadonlySet<string>;
  /** The server's checkbox is cleared: all its tools are off, the ones it adds later too, but those in `on`. */
  readonly allOff?: boolean;
  readonly on?: ReadonlySet<string>;
  readonly approval?: ToolApproval;
  /** The server's definition `approval` was chosen for (its consentSubject): it holds for that one only. */
  readonly approvalFor?: string;
}

/** A snapshot of one configured server, as the UI and the public API see it. */
export interface ServerInfo {
  /** `${scope.key}::${name}` */
  id: string;
  name: string;
  scope: ConfigScope;
  /** The definition as written (what trust dialogs and tooltips show). */
  definition: RawServer;
  state: ServerState;
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
  /** It runs in the sandbox (`sandboxEnabled`). */
  confined?: boolean;
  /** What its sandbox refused in this run, each once. */
  sandboxDenials?: readonly SandboxDenial[];
  /** What the user chose in the Servers view: tools switched off, how calls are approved (see toolSwitches). */
  toolChoices?: ToolChoices;
  /** Dormant: its features (and instructions, capabilities) are those of its last run, which ended then (ms since epoch). */
  knownFrom?: number;
  /** Dormant, and only its tools are known from that run: its prompts and resources are listed once it starts. */
  knownToolsOnly?: true;
  /** A dormant server started by a use: which, in words (e.g. "a call of search"). */
  startedFor?: string;
}

export type { Prompt, Resource, ResourceTemplate, Tool, ServerCapabilities, Implementation, Skill };
