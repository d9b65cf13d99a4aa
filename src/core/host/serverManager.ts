// All configured servers of the window: reconciles config scopes into managed servers, one per definition, gates
// every start on its preparation (trust, inputs), and is the session port through which features reach servers.
import type { AuthStatus } from '../auth/authStatus';
import { hashOf } from '../config/definitionHash';
import type { SettingValue } from '../config/variables';
import type { ConfigScope, InputDefinition, RawServerEntry } from '../config/serverDefinition';
import type { ClientFeature } from './clientFeature';
import type { AuthProviderFactory } from '../auth/authPorts';
import type { ConnectionFactory, ConnectionOptions } from './connectionPort';
import { Emitter, type Disposable, type Event } from '../common/events';
import { InteractionQueue } from './interactionQueue';
import { ManagedServer, type Preparation } from './managedServer';
import type { InputProvider, KeyValueStore, RootInfo, TrustPrompt } from './hostPorts';
import type { ServerLog, ServerLogFactory } from '../common/log';
import { defaultRestartPolicy, type RestartPolicyOptions } from './restartPolicy';
import type { PlanLaunch } from '../config/launchPlan';
import { ServerPreparation, type PreparationDeps, type ReadEnvFile } from './serverPreparation';
import { ServerNotRunningError, type ServerSession, type ServersChanged, type SessionPort } from './serverSession';
import type { TrustStore } from './trustStore';
import type { FirstStartMarks } from './firstStartMarks';
import type { ServerInfo, ToolChoices } from './serverInfo';
import { IdleStops } from './idleStops';
import { EarlyStarts } from './startAheadOfUse';
import type { KnownRuns } from './knownRuns';
import { definitionTrustKey } from './trustKey';
import { untilAborted } from '../common/async';
import type { HostSettings } from './hostSettings';
export { RESTRICTED_MODE_REASON } from './serverPreparation';

export type { HostSettings } from './hostSettings';

export interface ServerManagerDeps {
  clientInfo: { name: string; version: string };
  /** The protocol layer's connection: handed in by the front end, which decides when that layer loads. */
  createConnection: ConnectionFactory;
  /** Builds a start's launch plan (in the protocol layer too: it is needed only when a server starts). */
  planLaunch: PlanLaunch;
  readEnvFile: ReadEnvFile;
  logs: ServerLogFactory;
  trustStore: TrustStore;
  trustPrompt: TrustPrompt;
  inputs: InputProvider;
  settings: () => HostSettings;
  /** VS Code's Workspace Trust: workspace-defined servers never start in Restricted Mode. */
  isWorkspaceTrusted: () => boolean;
  /**
   * Whether the user is editing this configuration file (it is open in an editor): servers its edits add or change then
   * wait for the user's own start to ask for trust, so that no dialog takes the keyboard mid-edit. Absent: never.
   */
  isConfigBeingEdited?: (configPath: string) => boolean;
  environment?: Record<string, string | undefined>;
  /** A VS Code setting's value for `${config:…}` in a scope (absent: no settings, as on the command line). */
  setting?(name: string, scope: ConfigScope): SettingValue;
  /** Runs a VS Code command for a value (`${command:…}`, a `command` input); absent: no VS Code, as on the command line. */
  runCommand?(command: string, args: unknown): Promise<string | undefined>;
  /** The user's entries written by Import or Install for User: they ask the trust question at their first start. */
  firstStarts?: FirstStartMarks;
  /** Trust questions a folder's servers share (VS Code's, loaded with the question); absent: one at a time. */
  trustQuestions?: PreparationDeps['trustQuestions'];
  restartPolicy?: RestartPolicyOptions;
  shutdownStageMs?: number;
  /** The queue all questions to the user go through (shared with sampling and elicitation). */
  interactions?: InteractionQueue;
  /** Client features every session gets (sampling, elicitation, resource subscriptions, …). */
  features?: readonly ClientFeature[];
  authProvider?: AuthProviderFactory;
  /** Where the protocol era each definition speaks is remembered (persistent): a restart needs no second probe. */
  protocolStore?: KeyValueStore;
  /** Sign-in state of remote servers, shown with their state on every surface. */
  authStatus?: { get(serverId: string): AuthStatus | undefined; set(serverId: string, status: undefined): void; readonly onDidChange: Event<string> };
  /** What the user chose for each server's tools in the Servers view (tools switched off, approval); fires a server's id. */
  toolChoices?: { of(serverId: string, scope: ConfigScope): ToolChoices | undefined; readonly onDidChange: Event<string> };
  /** What servers offered at their last run, kept per definition: an on-demand server known there starts dormant. */
  knownRuns?: KnownRuns;
  /** Whether a server holds something that keeps it from going dormant (an open call, a subscription, a task). */
  isBusy?(serverId: string): boolean;
}

interface ScopeState {
  scope: ConfigScope;
  inputs: InputDefinition[];
  servers: Map<string, ManagedServer>;
}

export class ServerManager implements SessionPort, Disposable {
  private readonly scopes = new Map<string, ScopeState>();
  private readonly logs = new Map<string, ServerLog & Disposable>();
  private readonly secrets = new Map<string, string[]>();
  private roots: RootInfo[] = [];
  private readonly preparation: ServerPreparation;
  private readonly subscriptions: Disposable[] = [];
  private disposed = false;
  private readonly idleStops = new IdleStops(
    () => this.deps.settings().idleStopMs ?? 0,
    (s) => this.startsOnDemand(s.entry) && !this.deps.isBusy?.(s.id),
  );

  private readonly _onDidChangeServers = new Emitter<ServersChanged>();
  readonly onDidChangeServers = this._onDidChangeServers.event;
  private readonly _onDidFail = new Emitter<{ server: ServerInfo; message: string }>();
  /** A server is in error for good (start failed, or crashed too often): the UI offers Show Output and Restart. */
  readonly onDidFail = this._onDidFail.event;

  constructor(private readonly deps: ServerManagerDeps) {
    this.preparation = new ServerPreparation({
      trustStore: deps.trustStore,
      trustPrompt: deps.trustPrompt,
      inputs: deps.inputs,
      // Trust and input dialogs share the queue of every other question to the user, so they never stack.
      dialogs: deps.interactions ?? new InteractionQueue(),
      isWorkspaceTrusted: deps.isWorkspaceTrusted,
      trustAllServers: () => deps.settings().trustAllServers,
      environment: this.environment,
      planLaunch: deps.planLaunch,
      readEnvFile: deps.readEnvFile,
      setting: deps.setting,
      runCommand: deps.runCommand,
      firstStarts: deps.firstStarts,
      trustQuestions: deps.trustQuestions,
      otherServers: (serverId) =>
        [...this.scopes.values()].flatMap(({ scope, servers }) => [...servers.values()].filter((s) => s.id !== serverId).map((s) => ({ scope, raw: s.entry.server }))),
    });
    for (const source of [deps.authStatus, deps.toolChoices]) if (source) this.subscriptions.push(source.onDidChange((serverId) => (this.get(serverId)?.forgetToolChoices(), this._onDidChangeServers.fire([serverId]))));
  }

  private get environment() {
    return this.deps.environment ?? process.env;
  }

  servers(): ServerInfo[] {
    return this.all().map((m) => this.infoOf(m));
  }

  private all(): ManagedServer[] {
    return [...this.scopes.values()].flatMap((s) => [...s.servers.values()]);
  }

  private infoOf(server: ManagedServer): ServerInfo {
    return server.info({ auth: this.deps.authStatus?.get(server.id) });
  }

  /** The running server's session; a ServerNotRunningError (saying its state) otherwise. */
  session(serverId: string): ServerSession {
    const server = this.get(serverId);
    const session = server?.session;
    if (session) return session;
    throw new ServerNotRunningError(server?.entry.name ?? serverId.split('::').pop()!, server?.state);
  }

  get(id: string): ManagedServer | undefined {
    // Every request looks its server up here: no arrays built for it.
    for (const scope of this.scopes.values()) {
      for (const m of scope.servers.values()) if (m.id === id) return m;
    }
    return undefined;
  }

  /**
   * Applies a scope's latest valid configuration: starts added, stops removed, restarts changed servers, leaves the
   * rest alone. Resolves once applied; starts go on in the background (`idle()` waits for them), so a server waiting
   * for a dialog or a slow handshake never holds up the next edit of the file.
   */
  async updateScope(scope: ConfigScope, entries: RawServerEntry[], inputs: InputDefinition[]): Promise<void> {
    if (this.disposed) return;
    const previousState = this.scopes.get(scope.key);
    // Everything that must be awaited comes first, so the changes below apply at once, in one consistent step.
    const newHashes = new Map<string, string | undefined>();
    for (const entry of entries) {
      if (previousState?.servers.has(entry.name)) newHashes.set(entry.name, await this.preparation.quietHash(scope, entry, inputs));
    }
    // The folder went away (or the host closed) meanwhile: nothing may start for a scope nobody tracks any more.
    if (this.disposed || this.scopes.get(scope.key) !== previousState) return;
    const state = previousState ?? { scope, inputs, servers: new Map<string, ManagedServer>() };
    this.scopes.set(scope.key, state);
    state.scope = scope;
    state.inputs = inputs;
    const wanted = new Map(entries.map((e) => [e.name, e]));
    const removals: Promise<unknown>[] = [];
    // Who changed in this step: added, removed, edited or moved to the new scope.
    const changedIds: string[] = [];
    for (const [name, server] of state.servers) {
      if (!wanted.has(name)) {
        state.servers.delete(name);
        changedIds.push(server.id);
        removals.push(this.removeServer(server));
      }
    }
    const { autoStart } = this.deps.settings();
    for (const entry of entries) {
      const existing = state.servers.get(entry.name);
      if (!existing) {
        const server = this.createServer(entry, scope);
        state.servers.set(entry.name, server);
        changedIds.push(server.id);
        // Added to a file already loaded: an edit, maybe half typed.
        if (previousState) this.startedByEdit.add(server);
        if (autoStart) this.startOrSleep(server, true);
        continue;
      }
      const edited = hashOf(existing.entry.server) !== hashOf(entry.server);
      if (edited || existing.scope !== scope) changedIds.push(existing.id);
      existing.entry = entry;
      // The scope as the file was applied with (renamed folders are followed by renameScope).
      existing.scope = scope;
      if (edited) this.startedByEdit.add(existing);
      const changed = existing.runningHash !== undefined && newHashes.has(entry.name) && existing.runningHash !== newHashes.get(entry.name);
      // Starting, its definition is past the question (runningHash is the one it starts): an edit that resolves the same (such as "Run Confined" writing the sandboxEnabled it already starts with) leaves it alone.
      const startingChanged = existing.state.kind === 'starting' && (existing.runningHash === undefined || !newHashes.has(entry.name) || changed);
      if ((existing.isActive && changed) || (edited && startingChanged)) {
        // A start in progress may already be asking about the old definition: it is cancelled and begins again.
        existing.log.info('Configuration changed: restarting');
        this.track(existing.restart(false));
      } else if (!existing.isActive && edited && autoStart && !existing.stoppedByUser) {
        // A server kept from starting (untrusted, missing input, a wrong command) gets a new chance once edited.
        this.track(existing.start(false));
      }
    }
    const order = entries.map((e) => e.name).filter((n) => state.servers.has(n)); // The file's order: the view and the tools offered to a model follow it.
    if (order.some((n, i) => [...state.servers.keys()][i] !== n)) (state.servers = new Map(order.map((n) => [n, state.servers.get(n)!]))).forEach((m) => changedIds.push(m.id));
    if (changedIds.length) this._onDidChangeServers.fire([...new Set(changedIds)]);
    await Promise.all(removals);
  }

  private readonly pending = new Set<Promise<unknown>>();
  private readonly earlyStarts = new EarlyStarts<ManagedServer>();
  /** Servers added or changed by an edit of their file: their automatic starts do not ask for trust. */
  private readonly startedByEdit = new WeakSet<ManagedServer>();

  private track(work: Promise<unknown>) {
    const tracked = work.catch(() => undefined).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Resolves when every start, restart and stop the manager began on its own has finished. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** Its folder was renamed: its servers take the scope with the new label (the key, and so their ids, stay); nothing restarts. */
  renameScope(scope: ConfigScope): void {
    const state = this.scopes.get(scope.key);
    if (!state || state.scope === scope) return;
    state.scope = scope;
    for (const server of state.servers.values()) server.scope = scope;
    this._onDidChangeServers.fire([...state.servers.values()].map((s) => s.id));
  }

  /** Stops and forgets every server of a scope (its folder was removed, or its mcp.json deleted). */
  async removeScope(scopeKey: string): Promise<void> {
    const state = this.scopes.get(scopeKey);
    if (!state) return;
    this.scopes.delete(scopeKey);
    await Promise.all([...state.servers.values()].map((s) => this.removeServer(s)));
    this._onDidChangeServers.fire([...state.servers.values()].map((s) => s.id));
  }

  private async removeServer(server: ManagedServer) {
    server.log.info('Removed from the configuration: stopping');
    await server.disposeAsync();
    this.logs.get(server.id)?.dispose();
    this.logs.delete(server.id);
    this.secrets.delete(server.id);
    // A server added later under the same name is another server: it must not show this one's sign-in.
    this.deps.authStatus?.set(server.id, undefined);
  }

  private createServer(entry: RawServerEntry, scope: ConfigScope): ManagedServer {
    const id = `${scope.key}::${entry.name}`;
    const log = this.logs.get(id) ?? this.deps.logs.create(id, entry.name);
    this.logs.set(id, log);
    const connectionOptions = (): ConnectionOptions => {
      const settings = this.deps.settings();
      return {
        clientInfo: this.deps.clientInfo,
        initializeTimeoutMs: settings.initializeTimeoutMs,
        requestTimeoutMs: settings.requestTimeoutMs,
        pingIntervalMs: settings.pingIntervalMs,
        pingTimeoutMs: settings.pingTimeoutMs,
        shutdownStageMs: this.deps.shutdownStageMs ?? 2000,
        roots: () => this.roots,
        environment: this.environment,
        features: this.deps.features,
        authProvider: this.deps.authProvider,
        protocolStore: this.deps.protocolStore,
      };
    };
    const definitionKey = () => definitionTrustKey(server.scope, server.entry.name, server.entry.server);
    const server: ManagedServer = new ManagedServer(entry, scope, {
      log,
      secrets: () => this.secrets.get(id) ?? [],
      connectionOptions,
      createConnection: this.deps.createConnection,
      restartPolicy: this.deps.restartPolicy ?? defaultRestartPolicy,
      prepare: (s, interactive, signal, unasked) => this.prepare(s, interactive, signal, unasked),
      toolChoices: () => this.deps.toolChoices?.of(id, scope),
      // Kept under the definition as written, where and by which name (as trust is): an edit forgets it.
      knownRun: () => this.deps.knownRuns?.get(id, definitionKey()),
      remember: (run) => this.deps.knownRuns?.remember(id, definitionKey(), run),
    });
    server.onDidChange(() => {
      if (server.state.kind === 'running' && this.startsOnDemand(server.entry)) this.idleStops.watch(server);
      else if (server.state.kind !== 'running') this.idleStops.forget(server);
      this._onDidChangeServers.fire([server.id]);
    });
    server.onDidFail((message) => this._onDidFail.fire({ server: this.infoOf(server), message }));
    return server;
  }

  private async prepare(server: ManagedServer, interactive: boolean, signal: AbortSignal, unasked?: boolean): Promise<Preparation> {
    const entry = server.entry;
    const inputs = this.scopes.get(server.scope.key)?.inputs ?? [];
    // A start after an edit of a file open in an editor does not ask for trust (the user is typing); the user's own does.
    const askTrust = interactive || !this.startedByEdit.has(server) || !this.deps.isConfigBeingEdited?.(server.scope.configPath);
    if (interactive) this.startedByEdit.delete(server);
    const prepared = await this.preparation.prepare(
      { id: server.id, scope: server.scope, log: server.log, inputs },
      entry,
      interactive,
      signal,
      (secrets) => this.secrets.set(server.id, secrets),
      { askTrust, unasked },
    );
    // A reload that kept the definition as it was (a file watcher firing after a save) leaves the start alone.
    // One that resolves the same as what was prepared (such as "Run Confined" writing what this start already runs) goes on.
    if (prepared.ok && server.entry.server !== entry.server && hashOf(server.entry.server) !== hashOf(entry.server) && (await this.preparation.quietHash(server.scope, server.entry, this.scopes.get(server.scope.key)?.inputs ?? inputs)) !== prepared.definition.hash) {
      return { ok: false, reason: 'config', message: 'The definition changed while it was being started.' };
    }
    return prepared;
  }

  /**
   * Starts the servers that were only waiting for Workspace Trust (or never started): not the ones the user stopped,
   * nor those waiting for another decision (trust refused, input cancelled).
   */
  async startIdle(): Promise<void> {
    if (!this.deps.settings().autoStart) return;
    const waiting = ({ state, stoppedByUser }: ManagedServer) =>
      !stoppedByUser && (state.kind === 'stopped' || (state.kind === 'blocked' && state.reason === 'restricted'));
    for (const m of this.all()) if (waiting(m)) this.startOrSleep(m);
    await this.idle();
  }

  /** An on-demand server known from its last run goes dormant; any other starts (one never run starts to be known). */
  private startOrSleep(server: ManagedServer, added = false) {
    if (!this.startsOnDemand(server.entry) || !server.makeDormant(added)) this.track(server.start(false, true));
  }

  private startsOnDemand({ server, name }: RawServerEntry): boolean {
    const { startEagerly, startup } = this.deps.settings();
    return (server.startup ?? (startEagerly?.includes(name) ? 'eager' : startup)) === 'onDemand';
  }

  /** The session of a server about to be used (`use`: for what, e.g. "a call of search"): a dormant (or starting) one is
   * started (trust and all) and waited for; a ServerNotRunningError if it does not run. Every use goes through here. */
  async openSession(serverId: string, use: string, signal?: AbortSignal): Promise<ServerSession> {
    const server = this.get(serverId);
    if (server && (server.state.kind === 'dormant' || server.state.kind === 'starting')) await untilAborted(server.wake(use), signal);
    if (signal?.aborted) throw signal.reason;
    const session = this.session(serverId);
    if (server && this.startsOnDemand(server.entry)) this.idleStops.touch(server);
    return session;
  }

  /** A dormant server starts ahead of a likely use, if that asks nothing (see ManagedServer.wake); idle, it sleeps again. */
  startEarly(serverId: string, use: string): void {
    const server = this.get(serverId);
    if (server?.state.kind === 'dormant') this.track(this.earlyStarts.start(server, () => server.wake(use, true)));
  }

  setRoots(roots: RootInfo[]): void {
    const changed = hashOf(roots) !== hashOf(this.roots);
    this.roots = roots;
    if (!changed) return;
    for (const m of this.all()) m.notifyRootsChanged();
  }

  getRoots(): RootInfo[] {
    return this.roots;
  }

  /** Stops every server; resolves when every process is gone. */
  async disposeAsync(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.scopes.keys()].map((k) => this.removeScope(k)));
    await this.idle();
    this.dispose();
  }

  dispose(): void {
    this.disposed = true;
    this.idleStops.dispose();
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this._onDidChangeServers.dispose();
    this._onDidFail.dispose();
  }
}
