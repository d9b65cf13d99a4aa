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
  connectionOptions: ConnectionOptions;
  restartPolicy: RestartPolicyOptions;
  /** Resolves the definition (asking for trust and inputs when `interactive`). */
  prepare(server: ManagedServer, interactive: boolean): Promise<Preparation>;
}

export class ManagedServer implements Disposable {
  private _state: ServerState = { kind: 'stopped' };
  private blocked: { reason: string; kind: BlockedKind } | undefined;
  private connection: ServerConnection | undefined;
  private lastConnection: ServerConnection | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
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

  private setState(state: ServerState) {
    this._state = state;
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
    return this.enqueue(() => this.doStart(interactive));
  }

  /** Stops the server; it stays stopped, even when its definition is edited, until started again. */
  stop(reason?: string): Promise<void> {
    this.stoppedByUser = true;
    return this.enqueue(() => this.doStop(reason));
  }

  restart(): Promise<void> {
    return this.enqueue(async () => {
      await this.doStop();
      await this.doStart(true);
    });
  }

  private async doStart(interactive: boolean): Promise<void> {
    if (this.disposed || this._state.kind === 'running' || this._state.kind === 'starting') return;
    this.stoppedByUser = false;
    this.clearRestartTimer();
    if (interactive) this.restartPolicy.reset();
    const prep = await this.deps.prepare(this, interactive);
    if (!prep.ok) {
      this.blocked = { reason: prep.reason, kind: prep.kind };
      this._state = { kind: 'stopped', reason: prep.reason };
      this.log.info(`Not started: ${prep.reason}`);
      this._onDidChange.fire();
      return;
    }
    this.setState({ kind: 'starting' });
    const connection = new ServerConnection(prep.definition, this.log, this.deps.connectionOptions);
    this.connection = this.lastConnection = connection;
    this.runningHash = prep.definition.hash;
    connection.onDidChangeFeatures(() => this._onDidChange.fire());
    connection.onDidExit(({ message }) => {
      if (this.connection !== connection) return;
      this.connection = undefined;
      void this.enqueue(async () => this.onCrash(message));
    });
    try {
      await connection.start();
      if (this.disposed || this.connection !== connection) return;
      this.setState({ kind: 'running' });
    } catch (e) {
      if (this.connection === connection) this.connection = undefined;
      const message = (e as Error).message;
      this.log.error(`Failed to start: ${message}`);
      if (e instanceof StartError && !e.retryable) {
        this.setState({ kind: 'error', message });
        this._onDidFail.fire(message);
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
      this._onDidFail.fire(full);
      return;
    }
    const seconds = Math.round(decision.delayMs / 100) / 10;
    this.log.warn(`${message}. Restarting in ${seconds} s (crash ${decision.crashCount}).`);
    this.setState({ kind: 'error', message: `${message} — restarting in ${seconds} s` });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      void this.start(false);
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
