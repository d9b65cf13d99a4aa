// One MCP session with one server: the SDK Client on a transport, from spawn/connect to close.
// A connection is used once; the managed server creates a new one for every (re)start.
import * as fs from 'fs';
import * as path from 'path';
import {
  Client,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  SUPPORTED_PROTOCOL_VERSIONS,
  UnauthorizedError,
  type JSONRPCMessage,
  type LoggingLevel,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describeAuthFailure, isSameOriginIssuerMismatch } from '../auth/authErrors';
import { OAuthProvider, SignInNotPreparedError } from '../auth/oauthProvider';
import { parseEnvFile } from '../config/envFile';
import type { AuthProviderFactory, ClientFeature } from './clientFeature';
import type { ResolvedRemoteServer, ResolvedStdioServer, ServerDefinition } from '../config/types';
import { Emitter, type Disposable } from './events';
import type { LogLevelName, RootInfo, ServerLog } from './ports';
import { isAlive, killTree, listDescendants, processIdentity, waitForExit } from './processTree';
import { redactingLog } from './redactingLog';
import { RemoteSession } from './remoteSession';
import { emptyFeatures, type ServerFeatures } from './types';

/**
 * The largest single message a stdio server may send. The SDK's default (10 MB) closes the connection on a 10 MB
 * resource (its JSON, and a blob's base64, are bigger than the bytes); this still stops a server that never ends a line.
 */
export const MAX_STDIO_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Revisions we negotiate, newest first: every one the SDK speaks down to 2024-11-05. */
export const NEGOTIABLE_PROTOCOL_VERSIONS = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v >= '2024-11-05');

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
}

export type ExitInfo = { message: string };

/** Why a start failed in a way retrying cannot fix (wrong command, bad URL, timeout): no automatic restart. */
export class StartError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

const MCP_TO_LOG: Record<LoggingLevel, keyof Pick<ServerLog, 'trace' | 'debug' | 'info' | 'warn' | 'error'>> = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
};

const LOG_TO_MCP: Record<LogLevelName, LoggingLevel> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  warning: 'warning',
  error: 'error',
  off: 'emergency',
};

/** The environment a stdio server gets: the user's whole environment, then envFile, then `env` (null removes). */
export function buildStdioEnvironment(
  base: Record<string, string | undefined>,
  server: Pick<ResolvedStdioServer, 'env' | 'envFile'>,
  readFile: (p: string) => string = (p) => fs.readFileSync(p, 'utf8'),
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  const pathKey = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  const overrides: Record<string, string | null> = {};
  if (server.envFile) Object.assign(overrides, parseEnvFile(readFile(server.envFile)));
  Object.assign(overrides, server.env);
  for (const [k, v] of Object.entries(overrides)) {
    const key = k.toUpperCase() === 'PATH' ? pathKey : k;
    if (v === null) delete env[key];
    // As VS Code does: a PATH in the config extends the inherited one instead of replacing it.
    else if (key === pathKey && env[pathKey] && !v.includes(env[pathKey])) env[key] = `${v}${path.delimiter}${env[pathKey]}`;
    else env[key] = v;
  }
  return env;
}

/** Passes messages through and logs the JSON-RPC traffic at trace level. */
class TracingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(
    readonly inner: Transport,
    private readonly log: ServerLog,
    private readonly onStarted: () => void,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
    inner.onmessage = (m, extra) => {
      if (log.logLevel === 'trace') log.trace(`◀ ${JSON.stringify(m)}`);
      this.onmessage?.(m, extra);
    };
  }

  get sessionId() {
    return this.inner.sessionId;
  }

  async start() {
    await this.inner.start();
    this.onStarted();
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]) {
    if (this.log.logLevel === 'trace') this.log.trace(`▶ ${JSON.stringify(message)}`);
    return this.inner.send(message, options);
  }

  close() {
    return this.inner.close();
  }

  setProtocolVersion = (version: string) => this.inner.setProtocolVersion?.(version);
}

export class ServerConnection implements Disposable {
  private client: Client | undefined;
  private transport: TracingTransport | undefined;
  private stopping = false;
  private exited = false;
  private lastStderr: string[] = [];
  /** The process this session spawned (stdio), kept after it ended for diagnostics and tests. */
  spawnedPid: number | undefined;
  /**
   * The server's process tree as seen once it ran. If the root dies first (a crash), its children are re-parented
   * and can no longer be found from it: stopping then still reaches them through this list.
   */
  private knownTree: { pid: number; identity: string }[] = [];
  private readonly disposables: Disposable[] = [];
  /** Handlers the client features installed on the current Client (replaced on each connection attempt). */
  private featureDisposables: Disposable[] = [];
  private signal: AbortSignal | undefined;
  features: ServerFeatures = emptyFeatures();
  /**
   * Where the next page of resources starts; undefined once the last page is loaded. Resources are loaded a page at a
   * time on demand (a server may offer 10,000): `features.resources` holds the pages loaded so far.
   */
  resourcesNextCursor: string | undefined;
  /** Bumped by every reload of the resource list, so a page requested before it is not appended after it. */
  private resourcesGeneration = 0;
  private resourcePagesLoaded = 0;
  private loadingMoreResources: Promise<void> | undefined;

  private readonly _onDidExit = new Emitter<ExitInfo>();
  /** The session ended without `stop()`: the process died or the remote closed. */
  readonly onDidExit = this._onDidExit.event;
  private readonly _onDidChangeFeatures = new Emitter<void>();
  readonly onDidChangeFeatures = this._onDidChangeFeatures.event;

  /** What the user typed into this session's secret-looking form fields: masked in its log like inputs. */
  private readonly typedSecrets: string[] = [];
  private log: ServerLog;

  constructor(
    readonly definition: ServerDefinition,
    log: ServerLog,
    private readonly options: ConnectionOptions,
  ) {
    this.log = redactingLog(log, () => this.typedSecrets);
  }

  get sdkClient(): Client | undefined {
    return this.client;
  }

  get pid(): number | undefined {
    const inner = this.transport?.inner;
    return inner instanceof StdioClientTransport ? (inner.pid ?? undefined) : undefined;
  }

  get protocolVersion(): string | undefined {
    return this.client?.getNegotiatedProtocolVersion();
  }

  /** Options for a request to this server: the configured timeout, restarted by progress, plus the caller's. */
  requestOptions<T extends object>(extra?: T): { timeout: number; resetTimeoutOnProgress: boolean } & T {
    return { timeout: this.options.requestTimeoutMs, resetTimeoutOnProgress: true, ...(extra as T) };
  }

  /** Connects and initializes; rejects with a StartError whose message is fit for the user. `signal` aborts it. */
  async start(signal?: AbortSignal): Promise<void> {
    const def = this.definition.resolved;
    this.signal = signal;
    try {
      if (def.type === 'stdio') {
        await this.connect(this.createStdioTransport(def));
      } else {
        await this.connectRemote(def);
      }
    } catch (e) {
      const err = e instanceof StartError ? e : describeStartFailure(e as Error, this.definition, this.options.initializeTimeoutMs, this.lastStderr);
      // A half-started server (hung, or failing the handshake) is stopped like any other: its whole tree goes.
      await this.stop();
      throw err;
    }
    const client = this.client!;
    this.log.info(
      `Connected: ${client.getServerVersion()?.name ?? '?'} ${client.getServerVersion()?.version ?? ''}, protocol ${this.protocolVersion}`,
    );
    this.followLogLevel();
    await this.refreshFeatures();
    if (this.pid) {
      // With each process's identity, so a pid reused by an unrelated process later is never signalled.
      const descendants = await listDescendants(this.pid).catch(() => []);
      this.knownTree = descendants.flatMap((pid) => {
        const identity = processIdentity(pid);
        return identity ? [{ pid, identity }] : [];
      });
    }
  }

  private createClient(): Client {
    const refresh = (what: keyof ServerFeatures) => (error: Error | null, items: unknown[] | null) => {
      if (error) {
        this.log.warn(`Refreshing ${what} after list_changed failed: ${error.message}`);
        return;
      }
      if (items) {
        (this.features as unknown as Record<string, unknown[]>)[what] = items;
        this._onDidChangeFeatures.fire();
      }
    };
    const features = this.options.features ?? [];
    const capabilities = Object.assign({ roots: { listChanged: true } }, ...features.map((f) => f.capabilities(this.definition)));
    const client = new Client(this.options.clientInfo, {
      // Only what is really handled: roots, plus whatever the installed features declare for this server.
      capabilities,
      supportedProtocolVersions: [...NEGOTIABLE_PROTOCOL_VERSIONS],
      // The SDK stops after 64 pages; big servers (10,000 resources in pages of 100) need more, and a server whose
      // cursor never ends is still cut off.
      listMaxPages: 1000,
      listChanged: {
        tools: { onChanged: refresh('tools') },
        prompts: { onChanged: refresh('prompts') },
        // Not the SDK's refresh, which walks every page: reload only as many pages as were loaded.
        resources: { autoRefresh: false, onChanged: () => void this.refreshResources() },
      },
    });
    client.setRequestHandler('roots/list', async () => {
      const roots = this.options.roots();
      this.log.debug(`roots/list -> ${roots.map((r) => r.uri).join(', ') || '(none)'}`);
      return { roots };
    });
    client.setNotificationHandler('notifications/message', (n) => {
      const { level, logger, data } = n.params;
      const text = typeof data === 'string' ? data : JSON.stringify(data);
      this.log[MCP_TO_LOG[level] ?? 'info'](`${logger ? `[${logger}] ` : ''}${text}`);
    });
    client.onerror = (e) => this.log.warn(`Protocol: ${e.message}`);
    for (const d of this.featureDisposables.splice(0)) d.dispose();
    for (const f of features) {
      const installed = f.install({ definition: this.definition, log: this.log, client, redact: (value) => this.typedSecrets.push(value) });
      if (installed) this.featureDisposables.push(installed);
    }
    return client;
  }

  private createStdioTransport(def: ResolvedStdioServer): StdioClientTransport {
    const cwd = def.cwd ?? this.definition.scope.folderPath;
    let env: Record<string, string>;
    try {
      env = buildStdioEnvironment(this.options.environment, def);
    } catch (e) {
      throw new StartError(`Cannot read envFile ${def.envFile}: ${(e as Error).message}`, false);
    }
    if (cwd && !fs.existsSync(cwd)) throw new StartError(`The working directory ${cwd} does not exist.`, false);
    // As written, not resolved: values from ${env:} or inputs in the arguments stay out of the log.
    const raw = this.definition.raw.type === 'stdio' ? this.definition.raw : def;
    this.log.info(`Starting: ${[raw.command, ...raw.args].join(' ')}${cwd ? ` (in ${cwd})` : ''}`);
    const transport = new StdioClientTransport({ command: def.command, args: def.args, env, cwd, stderr: 'pipe', maxBufferSize: MAX_STDIO_MESSAGE_BYTES });
    let partial = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) this.onStderrLine(line);
    });
    transport.stderr?.on('end', () => partial && this.onStderrLine(partial));
    return transport;
  }

  private onStderrLine(line: string) {
    if (!line.trim()) return;
    this.lastStderr = [...this.lastStderr.slice(-4), line];
    this.log.warn(`[stderr] ${line}`);
  }

  private async connectRemote(def: ResolvedRemoteServer): Promise<void> {
    const url = new URL(def.url);
    const requestInit = { headers: def.headers };
    const authProvider = this.options.authProvider?.(this.definition, this.log);
    const auth = authProvider instanceof OAuthProvider ? authProvider : undefined;
    // Traced traffic and server messages may echo a token (a "whoami" tool): OAuth secrets are masked like inputs.
    if (auth) this.log = redactingLog(this.log, () => auth.secretValues());
    let sse = def.type === 'sse';
    let skipIssuerMetadataValidation = false;
    for (;;) {
      const options = { requestInit, authProvider, skipIssuerMetadataValidation };
      const inner = sse ? new SSEClientTransport(url, options) : new StreamableHTTPClientTransport(url, options);
      const session = new RemoteSession(inner, {
        log: this.log,
        auth,
        requestTimeoutMs: this.options.requestTimeoutMs,
        onSessionRenewed: () => void this.refreshFeatures(),
      });
      this.log.info(`Connecting (${sse ? 'SSE' : 'Streamable HTTP'}): ${url.origin}${url.pathname}`);
      try {
        await this.connect(session);
        return;
      } catch (e) {
        await this.closeQuietly();
        if (this.signal?.aborted) throw e;
        if (e instanceof SignInNotPreparedError && auth) {
          await abortable(auth.prepareSignIn(), this.signal);
          continue;
        }
        // The browser step runs here, outside initialize's timeout; the provider gives up after its maximum sign-ins.
        if (e instanceof UnauthorizedError && auth?.hasPendingSignIn) {
          await abortable(session.finishSignIn(), this.signal);
          continue;
        }
        if (!skipIssuerMetadataValidation && isSameOriginIssuerMismatch(e, url)) {
          this.log.warn(`The authorization server metadata at ${url.origin} names the issuer ${e.received}: accepted, as it is on the server's own origin`);
          skipIssuerMetadataValidation = true;
          continue;
        }
        if (!sse && isRefusedByServer(e)) {
          this.log.info(`Streamable HTTP refused (HTTP ${(e as SdkHttpError).status}); falling back to legacy SSE`);
          sse = true;
          continue;
        }
        throw e;
      }
    }
  }

  private async connect(inner: Transport): Promise<void> {
    this.exited = false;
    this.client = this.createClient();
    this.transport = new TracingTransport(inner, this.log, () => (this.spawnedPid = this.pid));
    await this.client.connect(this.transport, { timeout: this.options.initializeTimeoutMs, signal: this.signal });
    // Registered after connect: the SDK Client sets its own onclose during connect and calls ours from it.
    this.client.onclose = () => this.onTransportClosed();
  }

  private onTransportClosed() {
    if (this.stopping || this.exited) return;
    this.exited = true;
    const tail = this.lastStderr.at(-1);
    const message = this.definition.resolved.type === 'stdio' ? 'The server process exited' : 'The connection was closed';
    this.log.warn(message);
    this._onDidExit.fire({ message: tail ? `${message}: ${tail}` : message });
  }

  private followLogLevel() {
    const caps = this.client?.getServerCapabilities();
    if (!caps?.logging) return;
    const apply = (level: LogLevelName) =>
      this.client
        ?.setLoggingLevel(LOG_TO_MCP[level], { timeout: this.options.requestTimeoutMs })
        .catch((e: Error) => this.log.debug(`logging/setLevel failed: ${e.message}`));
    void apply(this.log.logLevel);
    this.disposables.push(this.log.onDidChangeLogLevel((l) => void apply(l)));
  }

  /** Loads every list the server offers, following every page (the SDK walks `nextCursor`), except resources: their first page. */
  async refreshFeatures(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const caps = client.getServerCapabilities() ?? {};
    const opts = { timeout: this.options.requestTimeoutMs, cacheMode: 'refresh' as const };
    const load = async <T>(what: string, enabled: unknown, fn: () => Promise<T[]>): Promise<T[]> => {
      if (!enabled) return [];
      try {
        return await fn();
      } catch (e) {
        this.log.warn(`Listing ${what} failed: ${(e as Error).message}`);
        return [];
      }
    };
    const [tools, prompts, resources, resourceTemplates] = await Promise.all([
      load('tools', caps.tools, async () => (await client.listTools(undefined, opts)).tools),
      load('prompts', caps.prompts, async () => (await client.listPrompts(undefined, opts)).prompts),
      load('resources', caps.resources, () => this.loadResourcePages(client, 1)),
      load('resource templates', caps.resources, async () => (await client.listResourceTemplates(undefined, opts)).resourceTemplates),
    ]);
    this.features = { tools, prompts, resources, resourceTemplates };
    this.log.info(
      `Offers ${tools.length} tools, ${prompts.length} prompts, ${resources.length}${this.resourcesNextCursor ? '+' : ''} resources, ${resourceTemplates.length} resource templates`,
    );
    this._onDidChangeFeatures.fire();
  }

  /**
   * Fetches pages of resources from the start until at least `minPages` pages (or every page) are in, and sets
   * `resourcesNextCursor`. One page per request: the SDK's aggregate walk would fetch them all.
   */
  private async loadResourcePages(client: Client, minPages: number): Promise<ServerFeatures['resources']> {
    const generation = ++this.resourcesGeneration;
    // Until the reload is in, there is no valid cursor: "load more" waits for it.
    this.resourcesNextCursor = undefined;
    const opts = { timeout: this.options.requestTimeoutMs };
    let page = await client.request({ method: 'resources/list', params: {} }, opts);
    const resources = [...page.resources];
    let pages = 1;
    for (; pages < minPages && page.nextCursor !== undefined; pages++) {
      page = await client.listResources({ cursor: page.nextCursor }, opts);
      resources.push(...page.resources);
    }
    if (generation === this.resourcesGeneration) {
      this.resourcesNextCursor = page.nextCursor;
      this.resourcePagesLoaded = pages;
    }
    return resources;
  }

  /** Appends the next page of resources, if there is one. Concurrent calls share one request. */
  loadMoreResources(): Promise<void> {
    this.loadingMoreResources ??= this.fetchNextResourcePage().finally(() => (this.loadingMoreResources = undefined));
    return this.loadingMoreResources;
  }

  private async fetchNextResourcePage(): Promise<void> {
    const client = this.client;
    const cursor = this.resourcesNextCursor;
    if (!client || cursor === undefined) return;
    const generation = this.resourcesGeneration;
    const page = await client.listResources({ cursor }, { timeout: this.options.requestTimeoutMs });
    // A reload (list_changed) in the meantime started over: this page belongs to the old list.
    if (generation !== this.resourcesGeneration) return;
    // A server whose cursor does not advance would make "load more" repeat the same page forever.
    this.resourcesNextCursor = page.nextCursor === cursor ? undefined : page.nextCursor;
    this.resourcePagesLoaded++;
    this.features = { ...this.features, resources: [...this.features.resources, ...page.resources] };
    this._onDidChangeFeatures.fire();
  }

  /** Reloads resources (as many pages as were loaded, so the view keeps its place) and their templates. */
  async refreshResources(): Promise<void> {
    const client = this.client;
    if (!client?.getServerCapabilities()?.resources) return;
    try {
      const [resources, { resourceTemplates }] = await Promise.all([
        this.loadResourcePages(client, Math.max(1, this.resourcePagesLoaded)),
        client.listResourceTemplates(undefined, { timeout: this.options.requestTimeoutMs, cacheMode: 'refresh' }),
      ]);
      this.features = { ...this.features, resources, resourceTemplates };
      this._onDidChangeFeatures.fire();
    } catch (e) {
      this.log.warn(`Refreshing resources failed: ${(e as Error).message}`);
    }
  }

  async notifyRootsChanged(): Promise<void> {
    try {
      await this.client?.sendRootsListChanged();
    } catch (e) {
      this.log.debug(`roots/list_changed not sent: ${(e as Error).message}`);
    }
  }

  /**
   * Ends the session. stdio: close stdin, wait, SIGTERM, wait, SIGKILL — for the server's whole process tree, so an
   * `npx` wrapper's child goes too. Remote: the SDK closes the session (DELETE for Streamable HTTP).
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    // The SDK may already have let go of the process (e.g. after a handshake timeout) while it still runs.
    const pid = this.pid ?? (this.spawnedPid !== undefined && isAlive(this.spawnedPid) ? this.spawnedPid : undefined);
    const current = pid ? [pid, ...(await listDescendants(pid).catch(() => []))] : [];
    const stillOurs = this.knownTree.filter((p) => isAlive(p.pid) && processIdentity(p.pid) === p.identity).map((p) => p.pid);
    const tree = [...new Set([...current, ...stillOurs])];
    const closing = this.closeQuietly();
    if (tree.length) {
      const stage = this.options.shutdownStageMs;
      if (!(await waitForExit(tree, stage))) {
        this.log.info('Server did not exit after stdin closed: sending SIGTERM');
        await this.signalTree(tree, 'SIGTERM');
        if (!(await waitForExit(tree, stage))) {
          this.log.warn('Server did not exit after SIGTERM: sending SIGKILL');
          await this.signalTree(tree, 'SIGKILL');
          await waitForExit(tree, stage);
        }
      }
    }
    await closing;
    this.log.info('Stopped');
    this.dispose();
  }

  private async signalTree(tree: number[], signal: NodeJS.Signals) {
    const [root] = tree;
    if (isAlive(root)) await killTree(root, signal).catch(() => []);
    // Children that were re-parented after the root died are no longer in its tree: signal them by pid.
    for (const p of tree.slice(1)) {
      try {
        if (isAlive(p)) process.kill(p, signal);
      } catch {
        // Already gone.
      }
    }
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

/** Waits for `work` unless the signal aborts first (the work itself goes on; its result is no longer wanted). */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new StartError('The start was cancelled.', false));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function isRefusedByServer(e: unknown): boolean {
  // A Streamable HTTP POST refused with 4xx (but not 401/403: those are authorization) means "try legacy SSE".
  if (!(e instanceof SdkHttpError)) return false;
  return e.status >= 400 && e.status < 500 && e.status !== 401 && e.status !== 403;
}

function describeStartFailure(e: Error, def: ServerDefinition, timeoutMs: number, stderr: string[]): StartError {
  const code = (e as NodeJS.ErrnoException).code;
  const tail = stderr.length ? ` Last output: ${stderr.at(-1)}` : '';
  if (def.resolved.type === 'stdio') {
    const cmd = def.resolved.command;
    if (code === 'ENOENT')
      return new StartError(
        `The command "${cmd}" was not found. Check that it is installed and on the PATH VS Code sees, or use its absolute path.`,
        false,
      );
    if (code === 'EACCES') return new StartError(`The command "${cmd}" is not executable (permission denied).`, false);
  }
  const auth = describeAuthFailure(e);
  if (auth) return new StartError(auth, false);
  if (/timed out|timeout/i.test(e.message))
    return new StartError(`The server did not answer initialize within ${Math.round(timeoutMs / 1000)} s.${tail}`, false);
  if (def.resolved.type !== 'stdio') {
    const remote = describeRemoteFailure(e, def.resolved.url);
    if (remote) return remote;
  }
  const status = (e as { code?: unknown; status?: unknown }).status;
  const httpStatus = typeof status === 'number' ? ` (HTTP ${status})` : '';
  const closed = /closed/i.test(e.message);
  if (closed && def.resolved.type === 'stdio')
    return new StartError(`The server process exited before it finished initializing.${tail}`, true);
  return new StartError(`${e.message}${httpStatus}${tail}`, true);
}

/** HTTP answers and network errors of a remote server, in a sentence; 4xx (but 408/429) will not fix itself. */
function describeRemoteFailure(e: Error, url: string): StartError | undefined {
  const host = new URL(url).host;
  if (e instanceof SdkHttpError) {
    const body = String(e.data.text ?? '').trim().split(/\r?\n/, 1)[0].slice(0, 200);
    const retryable = e.status >= 500 || e.status === 408 || e.status === 429;
    return new StartError(`${host} answered HTTP ${e.status}${e.statusText ? ` ${e.statusText}` : ''}${body ? `: ${body}` : ''}`, retryable);
  }
  const code = (e.cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ECONNREFUSED') return new StartError(`Cannot connect to ${host}: connection refused. Is the server running?`, true);
  if (code === 'ENOTFOUND') return new StartError(`Cannot resolve ${host}: check the URL and your network.`, true);
  if (code) return new StartError(`Cannot reach ${host}: ${code}`, true);
  return undefined;
}
