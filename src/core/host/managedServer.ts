// The life of one configured server across its sessions: state machine, start/stop/restart, crash restarts.
import type { ConfigScope, RawServerEntry, ServerDefinition } from '../config/types';
import { Emitter, type Disposable } from './events';
import type { ServerLog } from './ports';
import { RestartPolicy, type RestartPolicyOptions } from './restartPolicy';
import { ServerConnection, StartError, type ConnectionOptions } from './serverConnection';
import { emptyFeatures, type BlockedKind, type ServerInfo, type ServerState } from './types';

/** What must happen before a start: trust checks and variable resolution. Blocked = not started, and why. */
export type Preparation = { ok: true; definition: ServerDefinition } | { ok: false; reason: string; kind: BlockedKind };

export interface ManagedServerDeps {
  log: ServerLog;
  /** Read at each start, so changed settings (timeouts) apply from the next start on. */
  connectionOptions(): ConnectionOptions;
  restartPolicy: RestartPolicyOptions;
  /**
   * Checks trust and resolves the definition, asking what it must (trust on first use, missing inputs).
   * `interactive`: the user asked for this start, so a remembered "do not trust" is asked again.
   */
  prepare(server: ManagedServer, interactive: boolean, signal: AbortSignal): Promise<Preparation>;
  /** Masks the server's secrets in text that leaves the log (state messages shown in the UI and the API). */
  redact(text: string): string;
}

export class ManagedServer implements Disposable {
  private _state: ServerState = { kind: 'stopped' };
  private blocked: { reason: string; kind: BlockedKind } | undefined;
  private connection: ServerConnection | undefined;
  private lastConnection: ServerConnection | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Aborts the start in progress (waiting for a dialog, a sign-in or initialize) when a stop comes. */
  private startAbort: AbortController | undefined;
  /** Bumped by every stop: a start queued before it no longer runs. */
  private stopGeneration = 0;
  private readonly restartPolicy: RestartPolicy;
  /** Operations run one after another, so start/stop/restart never interleave. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The definition of the session that runs (or last ran): reconcile compares hashes against it. */
  runningHash: string | undefined;
  private disposed = false;
  /** Stopped on purpose: config edits do not bring it back. */
  stoppedByUser = false;

  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidFail = new Emitter<string>();
  /** The server is in error and will not be restarted automatically (start failed for good, or crashed too often). */
  readonly onDidFail = this._onDidFail.event;

  constructor(
    public entry: RawServerEntry,
    public readonly scope: ConfigScope,
    private readonly deps: ManagedServerDeps,
  ) {
    this.restartPolicy = new RestartPolicy(deps.restartPolicy);
  }

  get id(): string {
    return `${this.scope.key}::${this.entry.name}`;
  }

  get state(): ServerState {
    return this._state;
  }

  get log(): ServerLog {
    return this.deps.log;
  }

  /** The live session, when running. */
  get activeConnection(): ServerConnection | undefined {
    return this._state.kind === 'running' ? this.connection : undefined;
  }

  /** True when the server is running, starting or waiting to be restarted after a crash. */
  get isActive(): boolean {
    return this._state.kind === 'running' || this._state.kind === 'starting' || this.restartTimer !== undefined;
  }

  /** The current error, as shown (masked). */
  private get errorMessage(): string {
    return this._state.kind === 'error' ? this._state.message : '';
  }

  private setState(state: ServerState) {
    this._state = state.kind === 'error' ? { kind: 'error', message: this.deps.redact(state.message) } : state;
    if (state.kind !== 'stopped') this.blocked = undefined;
    this._onDidChange.fire();
  }

  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op, op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** `interactive`: the user asked (may show trust and input dialogs, and forgives earlier crashes). */
  start(interactive: boolean): Promise<void> {
    const generation = this.stopGeneration;
    return this.enqueue(() => (generation === this.stopGeneration ? this.doStart(interactive) : Promise.resolve()));
  }

  /** Stops the server; it stays stopped, even when its definition is edited, until started again. */
  stop(reason?: string): Promise<void> {
    this.stoppedByUser = true;
    this.stopGeneration++;
    this.startAbort?.abort();
    return this.enqueue(() => this.doStop(reason));
  }

  /** `interactive`: the user asked for it; a restart after a config edit is not (it asks only what is new). */
  restart(interactive = true): Promise<void> {
    this.startAbort?.abort();
    const generation = this.stopGeneration;
    return this.enqueue(async () => {
      if (generation !== this.stopGeneration) return;
      await this.doStop();
      await this.doStart(interactive);
    });
  }

  private async doStart(interactive: boolean): Promise<void> {
    if (this.disposed || this._state.kind === 'running' || this._state.kind === 'starting') return;
    this.stoppedByUser = false;
    this.clearRestartTimer();
    if (interactive) this.restartPolicy.reset();
    const abort = (this.startAbort = new AbortController());
    try {
      await this.startSession(interactive, abort.signal);
    } catch (e) {
      // Nothing about a start may escape as an exception: it becomes the server's state.
      this.connection = undefined;
      this.setState({ kind: 'error', message: `Could not start: ${(e as Error).message}` });
      this._onDidFail.fire(this.errorMessage);
    } finally {
      if (this.startAbort === abort) this.startAbort = undefined;
    }
  }

  private async startSession(interactive: boolean, signal: AbortSignal): Promise<void> {
    const prep = await this.deps.prepare(this, interactive, signal);
    if (signal.aborted || this.disposed) return;
    if (!prep.ok) {
      this.blocked = { reason: prep.reason, kind: prep.kind };
      this._state = { kind: 'stopped', reason: prep.reason };
      this.log.info(`Not started: ${prep.reason}`);
      this._onDidChange.fire();
      return;
    }
    this.setState({ kind: 'starting' });
    const connection = new ServerConnection(prep.definition, this.log, this.deps.connectionOptions());
    this.connection = this.lastConnection = connection;
    this.runningHash = prep.definition.hash;
    connection.onDidChangeFeatures(() => this._onDidChange.fire());
    connection.onDidExit(({ message }) => {
      if (this.connection !== connection) return;
      this.connection = undefined;
      void this.enqueue(async () => {
        // What the crashed session leaves (children of a wrapper, listeners, a remote transport) goes first.
        await connection.stop();
        this.onCrash(message);
      });
    });
    try {
      await connection.start(signal);
      if (this.disposed || this.connection !== connection) return;
      this.setState({ kind: 'running' });
    } catch (e) {
      if (this.connection === connection) this.connection = undefined;
      // A stop that arrived during the start decides the state; the aborted start is no failure.
      if (signal.aborted) return;
      const message = (e as Error).message;
      this.log.error(`Failed to start: ${message}`);
      if (e instanceof StartError && !e.retryable) {
        this.setState({ kind: 'error', message });
        this._onDidFail.fire(this.errorMessage);
      } else {
        this.onCrash(message);
      }
    }
  }

  private onCrash(message: string) {
    if (this.disposed) return;
    const decision = this.restartPolicy.onCrash();
    if (!decision.restart) {
      const full = `${message} (crashed ${decision.crashCount} times in a few minutes: not restarted, see output)`;
      this.log.error(full);
      this.setState({ kind: 'error', message: full });
      this._onDidFail.fire(this.errorMessage);
      return;
    }
    const seconds = Math.round(decision.delayMs / 100) / 10;
    this.log.warn(`${message}. Restarting in ${seconds} s (crash ${decision.crashCount}).`);
    this.setState({ kind: 'error', message: `${message} — restarting in ${seconds} s` });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.start(false).catch((e: Error) => this.log.error(`Restart failed: ${e.message}`));
    }, decision.delayMs);
  }

  private clearRestartTimer() {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private async doStop(reason?: string): Promise<void> {
    this.clearRestartTimer();
    const connection = this.connection;
    this.connection = undefined;
    if (connection) await connection.stop();
    if (this._state.kind !== 'stopped' || reason) {
      this._state = { kind: 'stopped', reason };
      this.blocked = undefined;
      this._onDidChange.fire();
    }
  }

  info(): ServerInfo {
    const c = this.activeConnection;
    const client = c?.sdkClient;
    return {
      id: this.id,
      name: this.entry.name,
      scope: this.scope,
      definition: this.entry.server,
      state: this._state,
      blockedReason: this.blocked?.reason,
      blockedKind: this.blocked?.kind,
      protocolVersion: c?.protocolVersion,
      serverInfo: client?.getServerVersion(),
      capabilities: client?.getServerCapabilities(),
      instructions: client?.getInstructions(),
      features: c ? c.features : emptyFeatures(),
      crashCount: this.restartPolicy.crashCount,
      pid: c?.pid ?? (this._state.kind === 'starting' ? this.connection?.pid : undefined),
    };
  }

  /** The last session's connection, even after it ended (tests and diagnostics). */
  get lastSession(): ServerConnection | undefined {
    return this.lastConnection;
  }

  async disposeAsync(): Promise<void> {
    await this.stop();
    this.dispose();
  }

  dispose(): void {
    this.disposed = true;
    this.clearRestartTimer();
    this._onDidChange.dispose();
    this._onDidFail.dispose();
  }
}
