// One MCP session with one server, from launch to close: a launcher (process or remote transport), the handshake,
// the feature lists, and the session's requests. A connection is used once; the managed server creates a new one for
// every (re)start. Outside the host layer it is seen only as a ServerSession.
import type { CallToolRequest, Client, CompleteRequest, ServerCapabilities } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/types';
import { FeatureLists } from './connection/featureLists';
import { createClient, followLogLevel, TracingTransport, type ClientSetup } from './connection/handshake';
import type { ConnectionOptions, Handshake, Launcher } from './connection/launcher';
import { RemoteLauncher } from './connection/remoteLauncher';
import { describeStartFailure } from './connection/startErrors';
import { StdioLauncher } from './connection/stdioLauncher';
import { Emitter, type Disposable } from './events';
import type { ServerLog } from './ports';
import { redactingLog } from './redactingLog';
import type { ServerSession, SessionRequestOptions } from './serverSession';
import type { ServerFeatures, Tool } from './types';

export type ExitInfo = { message: string };

export class ServerConnection implements ServerSession, Disposable {
  private client: Client | undefined;
  private stopping = false;
  private exited = false;
  private readonly launcher: Launcher;
  private readonly lists: FeatureLists;
  private readonly disposables: Disposable[] = [];
  /** Handlers the client features installed on the current Client (replaced on each connection attempt). */
  private featureDisposables: Disposable[] = [];
  /** What the user typed into this session's secret-looking form fields: masked in its log like inputs. */
  private readonly typedSecrets: string[] = [];
  readonly log: ServerLog;

  private readonly _onDidExit = new Emitter<ExitInfo>();
  /** The session ended without `stop()`: the process died or the remote closed. */
  readonly onDidExit = this._onDidExit.event;
  private readonly _onDidChangeFeatures = new Emitter<void>();
  readonly onDidChangeFeatures = this._onDidChangeFeatures.event;

  /** Aborted when the session ends (or its start is cancelled): every request still in flight ends with it. */
  private readonly lifetime = new AbortController();

  constructor(
    readonly definition: ServerDefinition,
    log: ServerLog,
    secrets: () => readonly string[],
    private readonly options: ConnectionOptions,
  ) {
    // One mask for every line: the definition's secrets, what the user typed, and the sign-in's tokens.
    this.log = redactingLog(log, () => [...secrets(), ...this.typedSecrets, ...this.launcher.secrets()]);
    const def = definition.resolved;
    this.launcher =
      def.type === 'stdio'
        ? new StdioLauncher(definition, def, this.log, options)
        : new RemoteLauncher(definition, def, this.log, options, () => void this.lists.refresh());
    this.lists = new FeatureLists(() => this.client, this.log, { timeout: options.requestTimeoutMs, signal: this.lifetime.signal }, () => this._onDidChangeFeatures.fire());
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

  /** Connects and initializes; rejects with a StartError whose message is fit for the user. `signal` aborts it. */
  async start(signal: AbortSignal): Promise<void> {
    const cancel = () => this.lifetime.abort();
    signal.addEventListener('abort', cancel, { once: true });
    this.disposables.push({ dispose: () => signal.removeEventListener('abort', cancel) });
    try {
      await this.launcher.connect(this.handshake(this.lifetime.signal), this.lifetime.signal);
    } catch (e) {
      const error = describeStartFailure(e as Error, this.definition, this.options.initializeTimeoutMs, this.launcher.recentOutput);
      // A half-started server (hung, or failing the handshake) is stopped like any other: its whole tree goes.
      await this.stop();
      throw error;
    }
    const client = this.client!;
    this.log.info(`Connected: ${client.getServerVersion()?.name ?? '?'} ${client.getServerVersion()?.version ?? ''}, protocol ${this.protocolVersion}`);
    const following = followLogLevel(client, this.log, this.options.requestTimeoutMs);
    if (following) this.disposables.push(following);
    await this.lists.refresh();
  }

  private handshake(signal: AbortSignal): Handshake {
    return async (transport, onStarted) => {
      for (const d of this.featureDisposables.splice(0)) d.dispose();
      const setup: ClientSetup = {
        definition: this.definition,
        log: this.log,
        options: this.options,
        listChanged: this.lists.listChangedHandlers(),
        session: this,
        redact: (value) => this.typedSecrets.push(value),
      };
      const { client, installed } = createClient(setup);
      this.client = client;
      this.featureDisposables = installed;
      this.exited = false;
      await client.connect(new TracingTransport(transport, this.log, onStarted), { timeout: this.options.initializeTimeoutMs, signal });
      // Registered after connect: the SDK Client sets its own onclose during connect and calls ours from it.
      client.onclose = () => this.onTransportClosed();
    };
  }

  private onTransportClosed() {
    if (this.stopping || this.exited) return;
    this.exited = true;
    const tail = this.launcher.recentOutput.at(-1);
    const message = this.launcher.exitMessage;
    this.log.warn(message);
    this._onDidExit.fire({ message: tail ? `${message}: ${tail}` : message });
  }

  // ---- ServerSession ------------------------------------------------------------------------------------------------

  /** The configured timeout, restarted by progress, plus the caller's signal and progress handler. */
  private requestOptions(options: SessionRequestOptions | undefined) {
    const signal = options?.signal ? AbortSignal.any([options.signal, this.lifetime.signal]) : this.lifetime.signal;
    return { timeout: this.options.requestTimeoutMs, resetTimeoutOnProgress: true, signal, onprogress: options?.onProgress };
  }

  private get connected(): Client {
    if (!this.client || !this.isOpen) throw new Error(`The session with "${this.definition.name}" has ended.`);
    return this.client;
  }

  callTool(params: CallToolRequest['params'], options?: SessionRequestOptions & { tool?: Tool }) {
    return this.connected.callTool(params, { ...this.requestOptions(options), toolDefinition: options?.tool });
  }

  getPrompt(name: string, args: Record<string, string>, options?: SessionRequestOptions) {
    return this.connected.getPrompt({ name, arguments: args }, this.requestOptions(options));
  }

  complete(params: CompleteRequest['params'], options?: SessionRequestOptions) {
    return this.connected.complete(params, this.requestOptions(options));
  }

  readResource(uri: string, options?: SessionRequestOptions) {
    return this.connected.readResource({ uri }, { ...this.requestOptions(options), cacheMode: 'bypass' });
  }

  async subscribeResource(uri: string, options?: SessionRequestOptions): Promise<void> {
    await this.connected.subscribeResource({ uri }, this.requestOptions(options));
  }

  async unsubscribeResource(uri: string, options?: SessionRequestOptions): Promise<void> {
    await this.connected.unsubscribeResource({ uri }, this.requestOptions(options));
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

  async notifyRootsChanged(): Promise<void> {
    try {
      await this.client?.sendRootsListChanged();
    } catch (e) {
      this.log.debug(`roots/list_changed not sent: ${(e as Error).message}`);
    }
  }

  /** Ends the session; the launcher makes sure the process tree (stdio) or the remote session (DELETE) goes too. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.lifetime.abort();
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
    this._onDidExit.dispose();
    this._onDidChangeFeatures.dispose();
  }
}
