// One MCP session with one server, from launch to close: a launcher (process or remote transport), the handshake,
// the feature lists, and the session's requests. A connection is used once; the managed server creates a new one for
// every (re)start. Outside the host layer it is seen only as a ServerSession.
import { type CallToolRequest, type Client, type CompleteRequest, type PriorDiscovery, type RequestOptions, type ServerCapabilities } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/serverDefinition';
import { FeatureLists } from './connection/featureLists.lazy';
import { ResourceListener } from './connection/resourceListener.lazy';
import { createClient, followLogLevel, loadTaskReceiver, TracingTransport, type ClientSetup } from './connection/handshake.lazy';
import { IdleHealthCheck } from './connection/idleHealthCheck.lazy';
import type { Handshake, Launcher } from './connection/launcher.lazy';
import type { Connection, ConnectionEvents, ConnectionOptions, StartOutcome } from '../host/connectionPort';
import { RemoteLauncher } from './connection/remoteLauncher.lazy';
import { describeStartFailure, isProbeClosed, refusedToAsk, StartError } from './connection/startErrors.lazy';
import { StdioLauncher } from './connection/stdioLauncher.lazy';
import type { StartedProcess } from './launch/serverProcess.lazy';
import { TaskWire } from './connection/taskWire.lazy';
import type { Disposable } from '../common/events';
import type { ServerLog } from '../common/log';
import { protocolMemoryOf } from '../host/protocolMemory';
import { redact, redactingLog } from '../host/redactingLog';
import type { SessionRequestOptions } from '../host/serverSession';
import { sessionEndedError, type SessionEnd } from '../host/sessionEnd';
import type { ServerFeatures, Skill, Tool } from '../host/serverInfo';
import { explainCrash } from '../presentation/crashOutput';

/** The protocol layer's connection for one start (the host's ConnectionFactory). */
export const createConnection = (...args: ConstructorParameters<typeof ServerConnection>): Connection => new ServerConnection(...args);

export class ServerConnection implements Connection, Disposable {
  private client: Client | undefined;
  private stopping = false;
  private exited = false;
  private readonly launcher: Launcher;
  private readonly lists: FeatureLists;
  private readonly listener: ResourceListener;
  private readonly disposables: Disposable[] = [];
  /** Handlers the client features installed on the current Client (replaced on each connection attempt). */
  private featureDisposables: Disposable[] = [];
  /** What the user typed into this session's secret-looking form fields: masked in its log like inputs. */
  private readonly typedSecrets: string[] = [];
  readonly log: ServerLog;

  private readonly secrets: () => readonly string[];
  /** Aborted when the session ends (or its start is cancelled): every request still in flight ends with it. */
  private readonly lifetime = new AbortController();
  /** Rejects the requests in flight that carry their caller's signal, when the session ends (see `send`). */
  private readonly ending = new Set<(reason: unknown) => void>();
  readonly tasks = new TaskWire((options, request) => this.send(options, request), this.lifetime.signal, () => this.client, () => this.log, () => this.definition.name);

  /** A question was refused during a start ahead of its use (ConnectionOptions.refuseToAsk). */
  private askRefused = false;
  /** The options as the launcher and the client see them (refusals noted). */
  private readonly launching: ConnectionOptions;
  /** Watches the traffic; a session idle for the ping interval is asked whether it is alive. */
  private readonly health: IdleHealthCheck;

  constructor(
    readonly definition: ServerDefinition,
    log: ServerLog,
    secrets: () => readonly string[],
    private readonly options: ConnectionOptions,
    private readonly events: ConnectionEvents,
    /** This start's process, already started from the definition's plan (startPlannedProcess): the launcher takes it, or ends it. */
    startedProcess?: StartedProcess,
    /** A launcher of the caller's instead of the definition's (tests: an in-memory transport to a server in this process). */
    launcher?: (log: ServerLog) => Launcher,
  ) {
    // One mask for every line and every error: the definition's secrets, what the user typed, the sign-in's tokens.
    this.secrets = () => [...secrets(), ...this.typedSecrets, ...this.launcher.secrets()];
    this.log = redactingLog(log, this.secrets);
    this.health = new IdleHealthCheck({
      intervalMs: options.pingIntervalMs ?? 0,
      timeoutMs: options.pingTimeoutMs ?? options.requestTimeoutMs,
      client: () => (this.isOpen ? this.client : undefined),
      log: this.log,
      signal: this.lifetime.signal,
      onUnresponsive: (message) => this.onUnresponsive(message),
    });
    // The plan prepared (and, for a workspace server, trusted) is what runs; the definition is not read again.
    const def = definition.plan?.kind === 'remote' ? definition.plan.resolved : definition.resolved;
    // A question refused ahead of its use is noted: a start that got past it (a sign-in only its lists needed, a
    // question the server sent while it started) is not kept.
    const refuseToAsk = options.refuseToAsk;
    const launching = (this.launching = refuseToAsk ? { ...options, refuseToAsk: () => refuseToAsk() && (this.askRefused = true) } : options);
    this.launcher = launcher
      ? launcher(this.log)
      : def.type === 'stdio'
        ? new StdioLauncher(definition, def, this.log, launching, (denial) => events.sandboxDenied?.(denial), startedProcess)
        : new RemoteLauncher(definition, def, this.log, launching, () => void this.lists.refresh());
    this.lifetime.signal.addEventListener('abort', () => this.ending.forEach((end) => end(this.lifetime.signal.reason)), { once: true });
    this.listener = new ResourceListener(() => this.client, this.log, this.lifetime.signal);
    this.lists = new FeatureLists(() => this.client, this.log, { timeout: options.requestTimeoutMs, signal: this.lifetime.signal }, () => this.events.featuresChanged());
  }

  get serverId(): string {
    return this.definition.id;
  }

  get serverName(): string {
    return this.definition.name;
  }

  get pid(): number | undefined {
    return this.launcher.pid;
  }

  get spawnedPid(): number | undefined {
    return this.launcher.spawnedPid;
  }

  get protocolVersion(): string | undefined {
    return this.client?.getNegotiatedProtocolVersion();
  }

  get serverVersion() {
    return this.client?.getServerVersion();
  }

  get instructions(): string | undefined {
    return this.client?.getInstructions();
  }

  get confined(): boolean {
    return this.launcher instanceof StdioLauncher && this.launcher.isConfined;
  }

  get capabilities(): ServerCapabilities {
    return this.client?.getServerCapabilities() ?? {};
  }

  get isOpen(): boolean {
    return !!this.client?.transport && !this.exited && !this.stopping;
  }

  get transportSessionId(): string | undefined {
    return this.client?.transport?.sessionId;
  }

  get features(): ServerFeatures {
    return this.lists.features;
  }

  async start(signal: AbortSignal): Promise<StartOutcome> {
    try {
      await this.connectAndInitialize(signal);
      if (this.askRefused) {
        await this.stop();
        return { ok: false, message: refusedToAsk('you a question while it started').message, retryable: false, needsSignIn: false };
      }
      return { ok: true };
    } catch (e) {
      const error = e instanceof StartError ? e : new StartError((e as Error).message, true);
      return { ok: false, message: error.message, retryable: error.retryable, needsSignIn: error.needsSignIn };
    }
  }

  /** Rejects with a StartError whose message is fit for the user. */
  private async connectAndInitialize(signal: AbortSignal): Promise<void> {
    const cancel = () => this.lifetime.abort();
    signal.addEventListener('abort', cancel, { once: true });
    this.disposables.push({ dispose: () => signal.removeEventListener('abort', cancel) });
    const memory = this.options.protocolStore && protocolMemoryOf(this.options.protocolStore);
    const remembered = memory?.get(this.definition.hash);
    try {
      await this.connect(remembered?.era === 'legacy' ? { kind: 'legacy' } : undefined);
    } catch (e) {
      // The remembered era may be what failed (the server was upgraded): the next start probes afresh.
      if (remembered) await memory!.forget(this.definition.hash);
      const error = this.masked(describeStartFailure(e as Error, this.definition, this.options.initializeTimeoutMs, this.launcher.recentOutput, this.launcher.exitMessage));
      // A half-started server (hung, or failing the handshake) is stopped like any other: its whole tree goes.
      await this.stop();
      throw error;
    }
    const client = this.client!;
    const era = client.getProtocolEra();
    if (memory && era && this.protocolVersion) void memory.remember(this.definition.hash, era, this.protocolVersion).catch((e: Error) => this.log.debug(`The protocol verdict was not stored (the lists did not wait for it): ${e.message}`));
    const name = client.getServerVersion()?.name ?? '?';
    this.log.info(`Connected: ${name} ${client.getServerVersion()?.version ?? ''}, protocol version ${this.protocolVersion}${remembered?.era === 'legacy' ? ' (an older protocol version, remembered from its last start, so it was started that way at once)' : ''}`);
    const following = followLogLevel(client, this.log, this.options.requestTimeoutMs);
    if (following) this.disposables.push(following);
    await this.lists.refresh();
    this.health.schedule(this.options.pingIntervalMs ?? 0);
  }

  private onUnresponsive(message: string) {
    if (this.stopping || this.exited) return;
    this.exited = true;
    this.log.warn(message);
    this.events.exited({ message });
  }

  /**
   * Connects, probing for 2026-07-28 unless the server is known to be legacy (`prior`). A stdio server that ends its
   * process on the probe (SDKs that exit on any request before `initialize`) is a legacy server: it is spawned again
   * and initialized without a probe. That second spawn happens once per definition: the verdict is remembered.
   */
  private async connect(prior: PriorDiscovery | undefined): Promise<void> {
    const signal = this.lifetime.signal;
    try {
      await this.launcher.connect(this.handshake(signal, prior), signal);
    } catch (e) {
      if (prior || signal.aborted || this.definition.resolved.type !== 'stdio' || !isProbeClosed(e)) throw e;
      this.log.info(`${this.launcher.exitMessage} at its first request: starting it once more, the way older servers expect.`);
      await this.launcher.connect(this.handshake(signal, { kind: 'legacy' }), signal);
    }
  }

  private handshake(signal: AbortSignal, prior: PriorDiscovery | undefined): Handshake {
    return async (transport, onStarted) => {
      for (const d of this.featureDisposables.splice(0)) d.dispose();
      const setup: ClientSetup = {
        definition: this.definition,
        log: this.log,
        options: this.launching,
        listChanged: this.lists.listChangedHandlers(),
        session: this,
        redact: (value) => this.typedSecrets.push(value),
        tasks: this.tasks.v1,
      };
      const { client, installed } = createClient(setup, await loadTaskReceiver(this.log));
      this.client = client;
      this.featureDisposables = installed;
      this.exited = false;
      // The server/discover probe runs before the SDK honours `signal`: a cancelled start closes the transport, which
      // ends the probe (and the process) at once instead of after the probe's timeout.
      const cancel = () => void transport.close().catch((e: Error) => this.log.debug(`close: ${e.message}`));
      signal.addEventListener('abort', cancel, { once: true });
      try {
        await client.connect(this.tasks.wire(new TracingTransport(transport, this.log, onStarted, this.health, () => client.getProtocolEra() === 'modern', this.tasks.consume)), { timeout: this.options.initializeTimeoutMs, signal, prior });
      } finally {
        signal.removeEventListener('abort', cancel);
      }
      // Registered after connect: the SDK Client sets its own onclose during connect and calls ours from it.
      client.onclose = () => this.onTransportClosed();
    };
  }

  private onTransportClosed() {
    if (this.stopping || this.exited) return;
    this.exited = true;
    const tail = explainCrash(this.launcher.recentOutput);
    const message = this.launcher.exitMessage;
    this.log.warn(message);
    this.events.exited({ message: tail ? `${message}: ${tail}` : message });
  }

  // ---- ServerSession ------------------------------------------------------------------------------------------------

  /**
   * Sends a request with the configured timeout (restarted by progress) and the caller's progress handler and signal,
   * and ends it when the session ends. Without a caller's signal the SDK gets the session's; with one, the request
   * gets the caller's and is raced against the session's end: linking the two signals per request (AbortSignal.any,
   * or a controller and listeners) costs more CPU than a small request itself.
   */
  private send<T>(options: SessionRequestOptions | undefined, request: (client: Client, options: RequestOptions) => Promise<T>): Promise<T> {
    const client = this.connected;
    const caller = options?.signal;
    const lifetime = this.lifetime.signal;
    if (caller && lifetime.aborted) return Promise.reject(lifetime.reason);
    const sent = request(client, { timeout: options?.timeoutMs ?? this.options.requestTimeoutMs, resetTimeoutOnProgress: true, onprogress: options?.onProgress, signal: caller ?? lifetime });
    // Ended with the session: its reason (which says how the session ended), not the SDK's wrapping of it.
    if (!caller) return sent.catch((e: unknown) => this.rethrowMasked(lifetime.aborted ? lifetime.reason : e));
    // One promise per request on this path (it runs for every tool call): the answer settles it, or the session's end.
    return new Promise<T>((resolve, reject) => {
      this.ending.add(reject);
      sent.then(
        (value) => {
          this.ending.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.ending.delete(reject);
          reject(this.masked(error));
        },
      );
    });
  }

  /** Error text comes from the server (an HTTP body may repeat our headers): secrets are masked before anyone sees it. */
  private masked<E>(error: E): E {
    if (error instanceof Error) error.message = redact(error.message, this.secrets());
    return error;
  }

  private rethrowMasked = (e: unknown): never => {
    throw this.masked(e);
  };

  private get connected(): Client {
    if (!this.client || !this.isOpen) throw new Error(`The session with "${this.definition.name}" has ended.`);
    return this.client;
  }

  callTool(params: CallToolRequest['params'], options?: SessionRequestOptions & { tool?: Tool }) {
    return this.send(options, (client, o) => client.callTool(params, { ...o, toolDefinition: options?.tool }));
  }

  getPrompt(name: string, args: Record<string, string>, options?: SessionRequestOptions) {
    return this.send(options, (client, o) => client.getPrompt({ name, arguments: args }, o));
  }

  complete(params: CompleteRequest['params'], options?: SessionRequestOptions) {
    return this.send(options, (client, o) => client.complete(params, o));
  }

  readResource(uri: string, options?: SessionRequestOptions) {
    return this.send(options, (client, o) => client.readResource({ uri }, { ...o, cacheMode: 'bypass' }));
  }

  /** 2026-07-28 has no `resources/subscribe`: the watched URIs share one `subscriptions/listen` stream. */
  async subscribeResource(uri: string, options?: SessionRequestOptions): Promise<void> {
    if (this.connected.getProtocolEra() === 'modern') return this.listener.add(uri);
    await this.send(options, (client, o) => client.subscribeResource({ uri }, o));
  }

  async unsubscribeResource(uri: string, options?: SessionRequestOptions): Promise<void> {
    if (this.connected.getProtocolEra() === 'modern') return this.listener.remove(uri);
    await this.send(options, (client, o) => client.unsubscribeResource({ uri }, o));
  }

  get hasMoreResources(): boolean {
    return this.lists.hasMoreResources;
  }

  loadMoreResources(): Promise<void> {
    return this.lists.loadMoreResources();
  }

  get hasMoreResourceTemplates(): boolean {
    return this.lists.hasMoreResourceTemplates;
  }

  loadMoreResourceTemplates(): Promise<void> {
    return this.lists.loadMoreResourceTemplates();
  }

  refreshResources(): Promise<void> {
    return this.lists.refreshResources();
  }

  readSkillFile(skill: Skill, ref?: string, options?: SessionRequestOptions) {
    return this.send(options, (client, o) => this.lists.readSkillFile(client, skill, ref, o));
  }

  async notifyRootsChanged(): Promise<void> {
    try {
      await this.client?.sendRootsListChanged();
    } catch (e) {
      this.log.debug(`roots/list_changed not sent: ${(e as Error).message}`);
    }
  }

  /** Ends the session; the launcher makes sure the process tree (stdio) or the remote session (DELETE) goes too. */
  async stop(end: SessionEnd = 'stopped'): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.health.stop();
    // Requests in flight are rejected with this reason: words that say what happened to the server.
    this.lifetime.abort(sessionEndedError(this.definition.name, end));
    await this.launcher.stop(() => this.closeQuietly());
    this.log.info('Stopped');
    this.dispose();
  }

  private async closeQuietly(): Promise<void> {
    try {
      await this.client?.close();
    } catch (e) {
      this.log.debug(`close: ${(e as Error).message}`);
    }
  }

  dispose(): void {
    for (const d of [...this.disposables.splice(0), ...this.featureDisposables.splice(0)]) d.dispose();
  }
}
