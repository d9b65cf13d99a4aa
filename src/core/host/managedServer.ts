// The life of one configured server across its sessions: state machine, start/stop/restart, crash restarts.
import { SerialQueue } from '../common/serialQueue';
import type { ConfigScope, RawServerEntry, ServerDefinition } from '../config/serverDefinition';
import type { Connection, ConnectionFactory, ConnectionOptions } from './connectionPort';
import { Emitter, type Disposable } from '../common/events';
import type { ServerLog } from '../common/log';
import type { SandboxDenial } from '../config/sandboxDenial';
import { redact, redactingLog } from './redactingLog';
import { RestartPolicy, type RestartPolicyOptions } from './restartPolicy';
import type { ServerSession } from './serverSession';
import type { SessionEnd } from './sessionEnd';
import type { KnownRun } from './knownRuns';
import { askingNothing } from './startAheadOfUse';
import { serverSnapshot } from './serverSnapshot';
import { emptyFeatures, type BlockedReason, type ServerInfo, type ServerState, type ToolChoices } from './serverInfo';

/** What must happen before a start: trust checks and variable resolution. Not ok = blocked, and why. */
export type Preparation = { ok: true; definition: ServerDefinition } | { ok: false; reason: BlockedReason; message: string };

export interface ManagedServerDeps {
  /** The server's log, unmasked: every line is masked once, by whoever writes it (this server or its session). */
  log: ServerLog;
  /** Values that must never reach the log or the UI (password inputs, header values): masked wherever they appear. */
  secrets(): readonly string[];
  /** Read at each start, so changed settings (timeouts) apply from the next start on. */
  connectionOptions(): ConnectionOptions;
  /** The protocol layer's connection (its code loads when the first server starts). */
  createConnection: ConnectionFactory;
  restartPolicy: RestartPolicyOptions;
  /**
   * Checks trust and resolves the definition, asking what it must (trust on first use, missing inputs).
   * `interactive`: the user asked for this start, so a remembered "do not trust" is asked again.
   */
  prepare(server: ManagedServer, interactive: boolean, signal: AbortSignal, unasked?: boolean): Promise<Preparation>;
  /** What the user chose for its tools in the Servers view. */
  toolChoices?(): ToolChoices | undefined;
  /** What it offered at its last run under its current definition (see knownRuns.ts); `remember` keeps this run's. */
  knownRun?(): KnownRun | undefined;
  remember?(run: KnownRun): void;
}

/** The last start's turn: each start the host begins on its own goes one turn of the event loop after the one before. */
let lastTurn: Promise<void> = Promise.resolve();
/** Resolves in a turn of its own (after the I/O that came meanwhile, such as a view's request): starts take turns. */
function takeTurn(): Promise<void> {
  return (lastTurn = lastTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve))));
}

export class ManagedServer implements Disposable {
  private _state: ServerState = { kind: 'stopped' };
  private connection: Connection | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Aborts the start in progress (waiting for a dialog, a sign-in or initialize) when a stop comes. */
  private startAbort: AbortController | undefined;
  /** Bumped by every stop: a start queued before it no longer runs. */
  private stopGeneration = 0;
  private readonly restartPolicy: RestartPolicy;
  /** Start, stop and restart run one after another, so they never interleave. */
  private readonly operations = new SerialQueue();
  /** The definition of the session that runs (or last ran): reconcile compares hashes against it. */
  runningHash: string | undefined;
  /** The latest session, kept after it ended: which process it spawned (diagnostics and tests). */
  private lastConnection: Connection | undefined;
  private disposed = false;
  /** Stopped on purpose: config edits do not bring it back. */
  stoppedByUser = false;
  /** What the sandbox refused in the latest run. */
  private denials: SandboxDenial[] = [];
  /** Dormant: what it offered at its last run, shown in its place. */
  private known: KnownRun | undefined;
  /** Started from dormant by a use: which (shown while it runs). */
  private startedFor: string | undefined;

  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidFail = new Emitter<string>();
  /** The server is in error and will not be restarted automatically (start failed for good, or crashed too often). */
  readonly onDidFail = this._onDidFail.event;

  constructor(
    private _entry: RawServerEntry,
    /** Replaced when its folder is renamed; the key (the folder's URI), and so the server's id, stays. */
    public scope: ConfigScope,
    private readonly deps: ManagedServerDeps,
  ) {
    this.restartPolicy = new RestartPolicy(deps.restartPolicy);
    this.log = redactingLog(deps.log, deps.secrets);
  }

  /** Masks the server's secrets in text shown in the UI and the API (state messages). */
  private redact(text: string): string {
    return redact(text, this.deps.secrets());
  }

  get entry(): RawServerEntry {
    return this._entry;
  }

  /** An edit of its file. Dormant, it shows only a run of its definition as it now is: an earlier one's tools would be offered. */
  set entry(entry: RawServerEntry) {
    this._entry = entry;
    if (this._state.kind !== 'dormant') return;
    this.known = this.deps.knownRun?.();
  }

  get id(): string {
    // Read for every ServerInfo and lookup: built again only when the name changes.
    if (this.idOf?.name !== this.entry.name) this.idOf = { name: this.entry.name, id: `${this.scope.key}::${this.entry.name}` };
    return this.idOf.id;
  }
  private idOf: { name: string; id: string } | undefined;
  /** The features of a server that does not run, for its ServerInfo (one set of empty lists, not one per look). */
  private readonly noFeatures = emptyFeatures();
  /** The last snapshot, and what it was made of (see info). */
  private lastInfo: ServerInfo | undefined;
  private infoParts: readonly unknown[] = [];
  private choices: ToolChoices | undefined;

  get state(): ServerState {
    return this._state;
  }

  /**
   * Read once until they change (forgetToolChoices): every snapshot asks, and the store is behind a lazy part. None is
   * not kept: until that part loads none are known, and tools switched off in an earlier window would stay offered.
   */
  get toolChoices(): ToolChoices | undefined {
    if (this.choices) return this.choices;
    const read = this.deps.toolChoices?.();
    if (read) this.choices = read;
    return read;
  }

  /** The user's choices for its tools changed: read again at the next snapshot. */
  forgetToolChoices(): void {
    this.choices = undefined;
  }

  /** The server's log, with its secrets masked. */
  readonly log: ServerLog;

  /** The live session, when running. */
  get session(): ServerSession | undefined {
    return this.runningConnection;
  }

  private get runningConnection(): Connection | undefined {
    return this._state.kind === 'running' ? this.connection : undefined;
  }

  /** True when the server is running, starting or waiting to be restarted after a crash. */
  get isActive(): boolean {
    return this._state.kind === 'running' || this._state.kind === 'starting' || this.restartTimer !== undefined;
  }

  private setState(state: ServerState) {
    this._state = state.kind === 'error' ? { ...state, message: this.redact(state.message) } : state;
    this._onDidChange.fire();
  }

  private fail(message: string) {
    this.setState({ kind: 'error', message });
    this._onDidFail.fire(this.redact(message));
  }

  /** `interactive`: the user asked (may show trust and input dialogs, and forgives earlier crashes). */
  /**
   * `ownTurn`: a start the host begins on its own waits for a turn of the event loop of its own (see ownTurn), so that
   * the view's fetch of the servers a saved file brought is answered between 50 starts' preparations, not after them.
   */
  start(interactive: boolean, ownTurn = false, unasked = false): Promise<void> {
    const generation = this.stopGeneration;
    return this.operations.run(async () => {
      if (ownTurn) await takeTurn();
      // A stop (or removal) meanwhile wins.
      if (generation === this.stopGeneration) await this.doStart(interactive, unasked);
    });
  }

  /** Stops the server; it stays stopped, even when its definition is edited, until started again. */
  stop(reason?: string): Promise<void> {
    this.stoppedByUser = true;
    this.stopGeneration++;
    this.startAbort?.abort();
    return this.operations.run(() => this.doStop(reason));
  }

  /** `interactive`: the user asked for it; a restart after a config edit is not (it asks only what is new). */
  restart(interactive = true): Promise<void> {
    this.startAbort?.abort();
    const generation = this.stopGeneration;
    return this.operations.run(async () => {
      if (generation !== this.stopGeneration) return;
      await this.doStop(undefined, 'restarted');
      await this.doStart(interactive);
    });
  }

  /**
   * Dormant instead of started, when its last run under this definition is known; false when it is not. `quietly`: no
   * change event, for a server just added, whose caller announces all the servers added at once (50 events, each
   * listing every server to every surface, cost the window more than the servers themselves).
   */
  makeDormant(quietly = false): boolean {
    const known = this.deps.knownRun?.();
    if (!known || this.disposed || this.isActive) return false;
    this.known = known;
    if (quietly) this._state = { kind: 'dormant' };
    else this.setState({ kind: 'dormant' });
    return true;
  }

  /**
   * A dormant server starts for a use (`use` says which, e.g. "a call of search"); resolves once started or failed.
   * `early`: ahead of a use likely to come (an agent's call VS Code is about to confirm), so that the start overlaps
   * the wait; only if it asks the user nothing (trust, inputs, commands): otherwise it stays dormant, and the use's own
   * start asks as always.
   */
  wake(use: string, early = false): Promise<void> {
    if (this._state.kind === 'dormant') {
      this.startedFor = use;
      this.log.info(`Dormant: starting for ${use}`);
    }
    return this.start(false, false, early);
  }

  /** Idle: stops, and shows what it offered until used again. */
  sleep(): Promise<void> {
    return this.operations.run(async () => {
      const connection = this.runningConnection;
      if (!connection || this.disposed) return;
      this.known = this.rememberRun(connection);
      this.log.info('Idle: dormant until used');
      await this.doStop(undefined);
      this.setState({ kind: 'dormant' });
    });
  }

  private rememberRun(c: Connection): KnownRun {
    const run = { at: Date.now(), features: c.features, instructions: c.instructions, capabilities: c.capabilities, serverInfo: c.serverVersion, protocolVersion: c.protocolVersion };
    this.deps.remember?.(run);
    return run;
  }

  /** The process the latest session spawned, even after it ended. */
  get lastSpawnedPid(): number | undefined {
    return this.lastConnection?.spawnedPid;
  }

  /** Notifies the running session that the roots changed. */
  notifyRootsChanged(): void {
    void this.runningConnection?.notifyRootsChanged();
  }

  private async doStart(interactive: boolean, unasked = false): Promise<void> {
    if (this.disposed || this._state.kind === 'running' || this._state.kind === 'starting') return;
    this.stoppedByUser = false;
    this.clearRestartTimer();
    if (interactive) this.restartPolicy.reset();
    const abort = (this.startAbort = new AbortController());
    try {
      await this.startSession(interactive, abort.signal, unasked);
    } catch (e) {
      // Nothing about a start may escape as an exception: it becomes the server's state.
      this.connection = undefined;
      this.fail(`Could not start: ${(e as Error).message}`);
    } finally {
      if (this.startAbort === abort) this.startAbort = undefined;
    }
  }

  private async startSession(interactive: boolean, signal: AbortSignal, unasked: boolean): Promise<void> {
    const prep = await this.deps.prepare(this, interactive, signal, unasked);
    if (signal.aborted || this.disposed) return;
    // Ahead of its use, a start that would ask (or fail) leaves it dormant: the use's start asks, or says why not.
    if (!prep.ok && unasked && this._state.kind === 'dormant') return this.backToDormant(prep.message);
    if (!prep.ok) {
      this.log.info(`Not started: ${prep.message}`);
      this.setState({ kind: 'blocked', reason: prep.reason, message: prep.message });
      return;
    }
    this.setState({ kind: 'starting', since: Date.now() });
    this.denials = [];
    const early = unasked ? askingNothing(this.deps.connectionOptions(), () => this._state.kind === 'starting') : undefined;
    // The first start loads the protocol layer (the SDK); until then a window runs without it.
    const connection: Connection = this.deps.createConnection(prep.definition, this.deps.log, this.deps.secrets, early?.options ?? this.deps.connectionOptions(), {
      featuresChanged: () => {
        if (this.connection === connection && this._state.kind === 'running') this.rememberRun(connection);
        this._onDidChange.fire();
      },
      // A new array: snapshots already handed out keep what they showed (the Servers view compares them).
      sandboxDenied: (denial) => {
        this.denials = [...this.denials, denial];
        this._onDidChange.fire();
      },
      exited: ({ message }) => {
        if (this.connection !== connection) return;
        this.connection = undefined;
        void this.operations.run(async () => {
          // What the crashed session leaves (children of a wrapper, listeners, a remote transport) goes first.
          await connection.stop('exited');
          this.onCrash(message);
        });
      },
    });
    this.connection = this.lastConnection = connection;
    this.runningHash = prep.definition.hash;
    const outcome = await connection.start(signal);
    if (outcome.ok) {
      if (signal.aborted || this.disposed || this.connection !== connection) return;
      this.rememberRun(connection);
      this.setState({ kind: 'running' });
      return;
    }
    if (this.connection === connection) this.connection = undefined;
    // A stop that arrived during the start decides the state; the aborted start is no failure.
    if (signal.aborted) return;
    const { message } = outcome;
    if (early?.wouldAsk) return this.backToDormant(message);
    this.log.error(`Failed to start: ${message}`);
    if (outcome.needsSignIn) this.setState({ kind: 'blocked', reason: 'signIn', message });
    else if (!outcome.retryable) this.fail(message);
    else this.onCrash(message);
  }

  /** A start ahead of its use that would ask (see startAheadOfUse.ts), or failed to prepare: dormant; its use's start asks. */
  private backToDormant(why: string) {
    this.startedFor = undefined;
    this.log.info(`Not started ahead of its use: ${why}`);
    if (this._state.kind !== 'dormant') this.setState({ kind: 'dormant' });
  }

  private onCrash(message: string) {
    if (this.disposed) return;
    const decision = this.restartPolicy.onCrash();
    if (!decision.restart) {
      const full = `${message} (crashed ${decision.crashCount} times in a few minutes: not restarted, see output)`;
      this.log.error(full);
      this.fail(full);
      return;
    }
    const seconds = Math.round(decision.delayMs / 100) / 10;
    this.log.warn(`${message.replace(/\.$/, '')}. Restarting in ${seconds} s (crash ${decision.crashCount}).`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.start(false).catch((e: Error) => this.log.error(`Restart failed: ${e.message}`));
    }, decision.delayMs);
    this.setState({ kind: 'error', message: `${message} — restarting in ${seconds} s`, restartAt: Date.now() + decision.delayMs });
  }

  private clearRestartTimer() {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  /** `end`: what requests still in flight are told (a restart says so, not "stopped"). */
  private async doStop(reason?: string, end: SessionEnd = 'stopped'): Promise<void> {
    this.clearRestartTimer();
    this.startedFor = undefined;
    const connection = this.connection;
    this.connection = undefined;
    if (connection) await connection.stop(end);
    if (this._state.kind !== 'stopped' || reason) this.setState({ kind: 'stopped', reason });
  }

  /** A snapshot of the server for every surface; `extra` adds what the server manager knows (sign-in state). */
  info(extra?: Pick<ServerInfo, 'auth'>): ServerInfo {
    const c = this.runningConnection;
    const known = this._state.kind === 'dormant' ? this.known : undefined;
    // The same snapshot while nothing it is made of changed: every surface asks for every server at each change of
    // any one (50 servers starting: thousands of snapshots, most of the start's allocation in a profile).
    const pid = c?.pid ?? (this._state.kind === 'starting' ? this.connection?.pid : undefined);
    const { crashCount } = this.restartPolicy;
    const toolChoices = this.toolChoices;
    const parts = [this._state, this.entry, this.scope, c, c?.features, pid, crashCount, this.denials, toolChoices, this.startedFor, known, extra?.auth];
    if (!this.lastInfo || parts.some((p, i) => p !== this.infoParts[i])) {
      this.infoParts = parts;
      const { id, entry, scope, _state: state, noFeatures, denials, startedFor } = this;
      this.lastInfo = serverSnapshot({ id, entry, scope, state, connection: c, noFeatures, crashCount, pid, denials, toolChoices, startedFor, known, extra });
    }
    return this.lastInfo;
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
