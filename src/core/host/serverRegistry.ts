// All configured servers of the window: reconciles config scopes into managed servers, one per definition,
// and gates every start on trust and inputs.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { hashOf } from '../config/definitionHash';
import type { ConfigScope, InputDefinition, RawServerEntry, ServerDefinition } from '../config/types';
import { InputCancelledError, resolveServer, type VariableContext } from '../config/variables';
import type { AuthProviderFactory, ClientFeature } from './clientFeature';
import { Emitter, type Disposable } from './events';
import { InteractionQueue } from './interactionQueue';
import { ManagedServer, type Preparation } from './managedServer';
import type { InputProvider, RootInfo, ServerLog, ServerLogFactory, TrustPrompt } from './ports';
import { redact, redactingLog } from './redactingLog';
import { defaultRestartPolicy, type RestartPolicyOptions } from './restartPolicy';
import type { ConnectionOptions } from './serverConnection';
import { trustKey, type TrustStore } from './trustStore';
import type { ServerInfo } from './types';

export interface HostSettings {
  autoStart: boolean;
  /** User/machine-level: run workspace servers without asking (dev containers, CI). Never set by a workspace. */
  trustAllServers: boolean;
  initializeTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface RegistryDeps {
  clientInfo: { name: string; version: string };
  logs: ServerLogFactory;
  trustStore: TrustStore;
  trustPrompt: TrustPrompt;
  inputs: InputProvider;
  settings: () => HostSettings;
  /** VS Code's Workspace Trust: workspace-defined servers never start in Restricted Mode. */
  isWorkspaceTrusted: () => boolean;
  environment?: Record<string, string | undefined>;
  restartPolicy?: RestartPolicyOptions;
  shutdownStageMs?: number;
  /** The queue all questions to the user go through (shared with sampling and elicitation). */
  interactions?: InteractionQueue;
  /** Client features every session gets (sampling, elicitation, resource subscriptions, …). */
  features?: readonly ClientFeature[];
  authProvider?: AuthProviderFactory;
}

interface ScopeState {
  scope: ConfigScope;
  inputs: InputDefinition[];
  servers: Map<string, ManagedServer>;
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Waits for `work`, or gives undefined as soon as the start it belongs to is cancelled (the dialog may stay open). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.resolve(undefined);
  }
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export const RESTRICTED_MODE_REASON = 'Restricted Mode: servers defined in the workspace start only in a trusted workspace.';

export class ServerRegistry implements Disposable {
  private readonly scopes = new Map<string, ScopeState>();
  private readonly logs = new Map<string, ServerLog & Disposable>();
  private readonly secrets = new Map<string, string[]>();
  private roots: RootInfo[] = [];
  /** Trust and input dialogs share the queue of every other question to the user, so they never stack. */
  private readonly dialogs: InteractionQueue;
  private disposed = false;

  private readonly _onDidChangeServers = new Emitter<void>();
  readonly onDidChangeServers = this._onDidChangeServers.event;
  private readonly _onDidFail = new Emitter<{ server: ServerInfo; message: string }>();
  /** A server is in error for good (start failed, or crashed too often): the UI offers Show Output and Restart. */
  readonly onDidFail = this._onDidFail.event;

  constructor(private readonly deps: RegistryDeps) {
    this.dialogs = deps.interactions ?? new InteractionQueue();
  }

  private get environment() {
    return this.deps.environment ?? process.env;
  }

  servers(): ServerInfo[] {
    return [...this.scopes.values()].flatMap((s) => [...s.servers.values()].map((m) => m.info()));
  }

  get(id: string): ManagedServer | undefined {
    for (const s of this.scopes.values()) for (const m of s.servers.values()) if (m.id === id) return m;
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
      if (previousState?.servers.has(entry.name)) newHashes.set(entry.name, await this.quietHash(scope, entry, inputs));
    }
    // The folder went away (or the host closed) meanwhile: nothing may start for a scope nobody tracks any more.
    if (this.disposed || this.scopes.get(scope.key) !== previousState) return;
    const state = previousState ?? { scope, inputs, servers: new Map<string, ManagedServer>() };
    this.scopes.set(scope.key, state);
    state.scope = scope;
    state.inputs = inputs;
    const wanted = new Map(entries.map((e) => [e.name, e]));
    const removals: Promise<unknown>[] = [];
    for (const [name, server] of state.servers) {
      if (!wanted.has(name)) {
        state.servers.delete(name);
        removals.push(this.removeServer(server));
      }
    }
    const { autoStart } = this.deps.settings();
    for (const entry of entries) {
      const existing = state.servers.get(entry.name);
      if (!existing) {
        const server = this.createServer(entry, scope);
        state.servers.set(entry.name, server);
        if (autoStart) this.track(server.start(false));
        continue;
      }
      const edited = hashOf(existing.entry.server) !== hashOf(entry.server);
      existing.entry = entry;
      const changed = existing.runningHash !== undefined && newHashes.has(entry.name) && existing.runningHash !== newHashes.get(entry.name);
      if ((existing.isActive && changed) || (edited && existing.state.kind === 'starting')) {
        // A start in progress may already be asking about the old definition: it is cancelled and begins again.
        existing.log.info('Configuration changed: restarting');
        this.track(existing.restart(false));
      } else if (!existing.isActive && edited && autoStart && !existing.stoppedByUser) {
        // A server kept from starting (untrusted, missing input, a wrong command) gets a new chance once edited.
        this.track(existing.start(false));
      }
    }
    this._onDidChangeServers.fire();
    await Promise.all(removals);
  }

  private readonly pending = new Set<Promise<unknown>>();

  private track(work: Promise<unknown>) {
    const tracked = work.catch(() => undefined).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Resolves when every start, restart and stop the registry began on its own has finished. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** Stops and forgets every server of a scope (its folder was removed, or its mcp.json deleted). */
  async removeScope(scopeKey: string): Promise<void> {
    const state = this.scopes.get(scopeKey);
    if (!state) return;
    this.scopes.delete(scopeKey);
    await Promise.all([...state.servers.values()].map((s) => this.removeServer(s)));
    this._onDidChangeServers.fire();
  }

  private async removeServer(server: ManagedServer) {
    server.log.info('Removed from the configuration: stopping');
    await server.disposeAsync();
    this.logs.get(server.id)?.dispose();
    this.logs.delete(server.id);
    this.secrets.delete(server.id);
  }

  private createServer(entry: RawServerEntry, scope: ConfigScope): ManagedServer {
    const id = `${scope.key}::${entry.name}`;
    let log = this.logs.get(id);
    if (!log) {
      log = this.deps.logs.create(id, entry.name);
      this.logs.set(id, log);
    }
    const connectionOptions = (): ConnectionOptions => {
      const settings = this.deps.settings();
      return {
        clientInfo: this.deps.clientInfo,
        initializeTimeoutMs: settings.initializeTimeoutMs,
        requestTimeoutMs: settings.requestTimeoutMs,
        shutdownStageMs: this.deps.shutdownStageMs ?? 2000,
        roots: () => this.roots,
        environment: this.environment,
        features: this.deps.features,
        authProvider: this.deps.authProvider,
      };
    };
    const secrets = () => this.secrets.get(id) ?? [];
    const server = new ManagedServer(entry, scope, {
      log: redactingLog(log, secrets),
      connectionOptions,
      restartPolicy: this.deps.restartPolicy ?? defaultRestartPolicy,
      prepare: (s, interactive, signal) => this.prepare(s, interactive, signal),
      redact: (text) => redact(text, secrets()),
    });
    server.onDidChange(() => this._onDidChangeServers.fire());
    server.onDidFail((message) => this._onDidFail.fire({ server: server.info(), message }));
    return server;
  }

  private variableContext(scope: ConfigScope, interactive: boolean, signal?: AbortSignal): VariableContext {
    return {
      folderPath: scope.folderPath,
      userHome: os.homedir(),
      env: this.environment,
      pathSeparator: path.sep,
      resolveInput: async (input) => {
        const value = await (interactive
          ? untilAborted(this.inDialogQueue(() => this.deps.inputs.getInput(scope.key, input, true), signal), signal)
          : this.deps.inputs.getInput(scope.key, input, false));
        // Without asking, an unknown input still hashes deterministically (and differs from any real value).
        return value ?? (interactive ? undefined : `\u0000unset:${input.id}`);
      },
    };
  }

  /** The resolved definition's hash without asking anything: what reconcile compares. */
  private async quietHash(scope: ConfigScope, entry: RawServerEntry, inputs: InputDefinition[]): Promise<string | undefined> {
    try {
      const { resolved } = await resolveServer(entry.server, inputs, this.variableContext(scope, false));
      return hashOf({ scope: scope.key, resolved });
    } catch {
      return undefined;
    }
  }

  /** A hash of the env file's contents ('' without one, or when it cannot be read yet). */
  private async envFileDigest(scope: ConfigScope, entry: RawServerEntry, inputs: InputDefinition[]): Promise<string> {
    if (entry.server.type !== 'stdio' || !entry.server.envFile) return '';
    try {
      const { resolved } = await resolveServer(entry.server, inputs, this.variableContext(scope, false));
      const file = resolved.type === 'stdio' ? resolved.envFile : undefined;
      return file ? hashOf(await fs.promises.readFile(file, 'utf8')) : '';
    } catch {
      return '';
    }
  }

  /** Shows dialogs one at a time; one whose start was cancelled while it waited is never shown. */
  private inDialogQueue<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
    return this.dialogs.run(() => (signal?.aborted ? Promise.resolve(undefined) : fn()));
  }

  private async prepare(server: ManagedServer, interactive: boolean, signal: AbortSignal): Promise<Preparation> {
    // One definition throughout: what the user is asked to trust is exactly what is resolved and run.
    const entry = server.entry;
    const prepared = await this.prepareEntry(server, entry, interactive, signal);
    if (prepared.ok && server.entry !== entry) {
      return { ok: false, reason: 'The definition changed while it was being started.', kind: 'config' };
    }
    return prepared;
  }

  private async prepareEntry(server: ManagedServer, entry: RawServerEntry, interactive: boolean, signal: AbortSignal): Promise<Preparation> {
    const scope = server.scope;
    const state = this.scopes.get(scope.key);
    const inputs = state?.inputs ?? [];
    if (scope.kind === 'workspace') {
      if (!this.deps.isWorkspaceTrusted()) return { ok: false, reason: RESTRICTED_MODE_REASON, kind: 'restricted' };
      if (!this.deps.settings().trustAllServers) {
        const key = trustKey(scope, entry.name, entry.server, await this.envFileDigest(scope, entry, inputs));
        const decision = this.deps.trustStore.get(key);
        // A remembered "no" is respected on automatic starts; a start the user asks for asks again.
        if (decision !== 'trusted' && (decision === undefined || interactive)) {
          const answer = await untilAborted(
            this.inDialogQueue(() => this.deps.trustPrompt.askTrust({ name: entry.name, scope, raw: entry.server }), signal),
            signal,
          ).catch((e: Error) => {
            server.log.warn(`Could not ask for trust: ${e.message}`);
            return undefined;
          });
          if (answer === undefined) return { ok: false, reason: 'Not trusted yet: start it to be asked again.', kind: 'untrusted' };
          await this.deps.trustStore.set(key, answer ? 'trusted' : 'denied', `${entry.name}` + (scope.kind === 'workspace' ? ` (${scope.label})` : ''));
          if (!answer) return { ok: false, reason: 'Not trusted: start it to be asked again.', kind: 'untrusted' };
          server.log.info('Trusted by the user');
        } else if (decision === 'denied') {
          return { ok: false, reason: 'Not trusted: start it to be asked again.', kind: 'untrusted' };
        }
      }
    }
    try {
      const { resolved, secrets } = await resolveServer(entry.server, inputs, this.variableContext(scope, true, signal));
      this.secrets.set(server.id, secrets);
      if (resolved.type !== 'stdio' && !isHttpUrl(resolved.url)) {
        return { ok: false, reason: `The URL does not resolve to an http(s) URL: ${redact(resolved.url, secrets)}`, kind: 'config' };
      }
      const definition: ServerDefinition = {
        id: server.id,
        name: entry.name,
        scope,
        raw: entry.server,
        resolved,
        hash: hashOf({ scope: scope.key, resolved }),
        secrets,
      };
      return { ok: true, definition };
    } catch (e) {
      if (e instanceof InputCancelledError) return { ok: false, reason: e.message, kind: 'input' };
      return { ok: false, reason: `Cannot resolve the configuration: ${(e as Error).message}`, kind: 'config' };
    }
  }

  /**
   * Starts the servers that were only waiting for Workspace Trust (or never started): not the ones the user stopped,
   * nor those waiting for another decision (trust refused, input cancelled).
   */
  async startIdle(): Promise<void> {
    if (!this.deps.settings().autoStart) return;
    const waiting = (m: ManagedServer) => {
      const info = m.info();
      return info.state.kind === 'stopped' && !m.stoppedByUser && (info.blockedKind === undefined || info.blockedKind === 'restricted');
    };
    for (const s of this.scopes.values()) for (const m of s.servers.values()) if (waiting(m)) this.track(m.start(false));
    await this.idle();
  }

  setRoots(roots: RootInfo[]): void {
    const changed = hashOf(roots) !== hashOf(this.roots);
    this.roots = roots;
    if (!changed) return;
    for (const s of this.scopes.values()) for (const m of s.servers.values()) void m.activeConnection?.notifyRootsChanged();
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
    this._onDidChangeServers.dispose();
    this._onDidFail.dispose();
  }
}
