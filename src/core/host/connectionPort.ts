// What the host needs of a session with a server, declared here so that the host never imports the protocol layer
// (it loads with the first server): the protocol layer's ServerConnection implements it, and the front end hands the
// host a factory for it once (createCoreHost's `createConnection`).
import type { Implementation } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/serverDefinition';
import type { SandboxDenial } from '../config/sandboxDenial';
import type { PlannedDebug } from '../config/launchPlan';
import type { ClientFeature } from './clientFeature';
import type { AuthProviderFactory } from '../auth/authPorts';
import type { KeyValueStore, RootInfo } from './hostPorts';
import type { ServerLog } from '../common/log';
import type { ServerSession } from './serverSession';
import type { ServerFeatures } from './serverInfo';
import type { SessionEnd } from './sessionEnd';

export interface ConnectionOptions {
  clientInfo: { name: string; version: string };
  initializeTimeoutMs: number;
  requestTimeoutMs: number;
  /** How long each stop stage (stdin closed, SIGTERM) may take before the next. */
  shutdownStageMs: number;
  roots: () => RootInfo[];
  /** Environment the host itself runs with (stdio servers inherit all of it). */
  environment: Record<string, string | undefined>;
  /** Client features beyond roots (sampling, elicitation, …): their capabilities and handlers. */
  features?: readonly ClientFeature[];
  authProvider?: AuthProviderFactory;
  /** A session with no traffic for this long is checked (`ping`); 0 or absent: never. */
  pingIntervalMs?: number;
  /** How long that check may take before the server is taken for dead (error, then the restart policy). */
  pingTimeoutMs?: number;
  /**
   * Where the era each definition spoke last time is kept (`protocolMemoryOf`): a known legacy server is not probed with
   * `server/discover` again. A store, not the memory: the memory's code loads with the protocol layer, not on activation.
   */
  protocolStore?: KeyValueStore;
  /**
   * Whether a confined definition may run unconfined where this machine cannot confine it (`reason`): only when the
   * user chose "Run Unconfined". Absent: never.
   */
  runUnconfined?: (definition: ServerDefinition, reason: string) => boolean | Promise<boolean>;
  /**
   * `dev.debug`: attaches the editor's debugger to a server its plan starts under one, called just before the process
   * starts; what it returns ends that debug session (when the server stops). Absent: none attaches.
   */
  attachDebugger?: (definition: ServerDefinition, debug: PlannedDebug, log: ServerLog) => Promise<DebuggerAttachment>;
  /**
   * Set for a start ahead of its use (an agent's call VS Code has not confirmed yet), which asks the user nothing: true
   * while a question (to sign in, to run unconfined) is refused, and the start fails instead; the use's own start asks.
   */
  refuseToAsk?: () => boolean;
}

/** An attached debugger: ending it ends the debug session (the server goes on to stop). */
export interface DebuggerAttachment {
  end(): Promise<void>;
}

/** What a session tells its one owner: the feature lists changed; the session ended without `stop()`. */
export interface ConnectionEvents {
  featuresChanged(): void;
  /** The process died, the remote closed, or the server stopped answering pings. */
  exited(info: { message: string }): void;
  /** A confined server's sandbox refused something (each once per run). */
  sandboxDenied?(denial: SandboxDenial): void;
}

/** How a start ended: connected, or a failure in words fit for the user, and what may fix it. */
export type StartOutcome = { ok: true } | { ok: false; message: string; retryable: boolean; needsSignIn: boolean };

/** One session with one server, from launch to close; used once (a restart makes a new one). */
export interface Connection extends ServerSession {
  /** Connects and initializes. Never rejects: a failure is its outcome. `signal` aborts the start. */
  start(signal: AbortSignal): Promise<StartOutcome>;
  /**
   * Closes the session and ends everything it started (the whole process tree). Requests still in flight are rejected
   * with an error that says how the session ended (`end`, default 'stopped'; see sessionEnd.ts).
   */
  stop(end?: SessionEnd): Promise<void>;
  notifyRootsChanged(): Promise<void>;
  readonly pid: number | undefined;
  readonly spawnedPid: number | undefined;
  readonly protocolVersion: string | undefined;
  readonly serverVersion: Implementation | undefined;
  readonly instructions: string | undefined;
  /** The process runs in the sandbox (`sandboxEnabled`). */
  readonly confined?: boolean;
  readonly features: ServerFeatures;
}

/** Makes the connection for one start: the protocol layer's, loaded when the first server starts. */
export type ConnectionFactory = (
  definition: ServerDefinition,
  log: ServerLog,
  secrets: () => readonly string[],
  options: ConnectionOptions,
  events: ConnectionEvents,
) => Connection;
