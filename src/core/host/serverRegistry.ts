// All configured servers of the window: reconciles config scopes into managed servers, one per definition,
// and gates every start on trust and inputs.
import * as os from 'os';
import * as path from 'path';
import { hashOf } from '../config/definitionHash';
import type { ConfigScope, InputDefinition, RawServerEntry, ServerDefinition } from '../config/types';
import { InputCancelledError, resolveServer, type VariableContext } from '../config/variables';
import type { AuthProviderFactory, ClientFeature } from './clientFeature';
import { Emitter, type Disposable } from './events';
import { ManagedServer, type Preparation } from './managedServer';
import type { InputProvider, RootInfo, ServerLog, ServerLogFactory, TrustPrompt } from './ports';
import { redactingLog } from './redactingLog';
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
  /** Client features every session gets (sampling, elicitation, resource subscriptions, …). */
  features?: readonly ClientFeature[];
  authProvider?: AuthProviderFactory;
}

interface ScopeState {
  scope: ConfigScope;
  inputs: InputDefinition[];
  servers: Map<string, ManagedServer>;
}

export const RESTRICTED_MODE_REASON = 'Restricted Mode: servers defined in the workspace start only in a trusted workspace.';

export class ServerRegistry implements Disposable {
  private readonly scopes = new Map<string, ScopeState>();
  private readonly logs = new Map<string, ServerLog & Disposable>();
  private readonly secrets = new Map<string, string[]>();
  private roots: RootInfo[] = [];
  /** Dialogs (trust, inputs) are shown one at a time, never stacked. */
  private dialogQueue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  private readonly _onDidChangeServers = new Emitter<void>();
  readonly onDidChangeServers = this._onDidChangeServers.event;
  private readonly _onDidFail = new Emitter<{ server: ServerInfo; message: string }>();
  /** A server is in error for good (start failed, or crashed too often): the UI offers Show Output and Restart. */
  readonly onDidFail = this._onDidFail.event;

  constructor(private readonly deps: RegistryDeps) {}

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

  /** Applies a scope's latest valid configuration: starts added, stops removed, restarts changed servers. */
  async updateScope(scope: ConfigScope, entries: RawServerEntry[], inputs: InputDefinition[]): Promise<void> {
    if (this.disposed) return;
    let state = this.scopes.get(scope.key);
    if (!state) {
      state = { scope, inputs, servers: new Map() };
      this.scopes.set(scope.key, state);
    }
    state.scope = scope;
    state.inputs = inputs;
    const wanted = new Map(entries.map((e) => [e.name, e]));
    const work: Promise<unknown>[] = [];
    for (const [name, server] of state.servers) {
      if (!wanted.has(name)) {
        state.servers.delete(name);
        work.push(this.removeServer(server));
      }
    }
    const { autoStart } = this.deps.settings();
    for (const entry of entries) {
      const existing = state.servers.get(entry.name);
      if (!existing) {
        const server = this.createServer(entry, scope);
        state.servers.set(entry.name, server);
        if (autoStart) work.push(server.start(false));
        continue;
      }
      const previous = existing.entry;
      existing.entry = entry;
      const changed = existing.runningHash !== undefined && existing.runningHash !== (await this.quietHash(existing, inputs));
      const edited = hashOf(previous.server) !== hashOf(entry.server);
      if (existing.isActive && changed) {
        existing.log.info('Configuration changed: restarting');
        work.push(existing.restart());
      } else if (!existing.isActive && edited && autoStart && !existing.stoppedByUser) {
        // A server kept from starting (untrusted, missing input, a wrong command) gets a new chance once edited.
        work.push(existing.start(false));
      }
    }
    this._onDidChangeServers.fire();
    await Promise.all(work);
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
    const settings = this.deps.settings();
    const connectionOptions: ConnectionOptions = {
      clientInfo: this.deps.clientInfo,
      initializeTimeoutMs: settings.initializeTimeoutMs,
      requestTimeoutMs: settings.requestTimeoutMs,
      shutdownStageMs: this.deps.shutdownStageMs ?? 2000,
      roots: () => this.roots,
      environment: this.environment,
      features: this.deps.features,
      authProvider: this.deps.authProvider,
    };
    const server = new ManagedServer(entry, scope, {
      log: redactingLog(log, () => this.secrets.get(id) ?? []),
      connectionOptions,
      restartPolicy: this.deps.restartPolicy ?? defaultRestartPolicy,
      prepare: (s, interactive) => this.prepare(s, interactive),
    });
    server.onDidChange(() => this._onDidChangeServers.fire());
    server.onDidFail((message) => this._onDidFail.fire({ server: server.info(), message }));
    return server;
  }

  private variableContext(scope: ConfigScope, interactive: boolean): VariableContext {
    return {
      folderPath: scope.folderPath,
      userHome: os.homedir(),
      env: this.environment,
      pathSeparator: path.sep,
      resolveInput: async (input) => {
        const value = await (interactive
          ? this.inDialogQueue(() => this.deps.inputs.getInput(scope.key, input, true))
          : this.deps.inputs.getInput(scope.key, input, false));
        // Without asking, an unknown input still hashes deterministically (and differs from any real value).
        return value ?? (interactive ? undefined : `\u0000unset:${input.id}`);
      },
    };
  }

  /** The resolved definition's hash without asking anything: what reconcile compares. */
  private async quietHash(server: ManagedServer, inputs: InputDefinition[]): Promise<string | undefined> {
    try {
      const { resolved } = await resolveServer(server.entry.server, inputs, this.variableContext(server.scope, false));
      return hashOf({ scope: server.scope.key, resolved });
    } catch {
      return undefined;
    }
  }

  private inDialogQueue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.dialogQueue.then(fn, fn);
    this.dialogQueue = run.catch(() => undefined);
    return run;
  }

  private async prepare(server: ManagedServer, interactive: boolean): Promise<Preparation> {
    const scope = server.scope;
    const state = this.scopes.get(scope.key);
    const inputs = state?.inputs ?? [];
    if (scope.kind === 'workspace') {
      if (!this.deps.isWorkspaceTrusted()) return { ok: false, reason: RESTRICTED_MODE_REASON, kind: 'restricted' };
      if (!this.deps.settings().trustAllServers) {
        const key = trustKey(scope, server.entry.name, server.entry.server);
        const decision = this.deps.trustStore.get(key);
        // A remembered "no" is respected on automatic starts; a start the user asks for asks again.
        if (decision !== 'trusted' && (decision === undefined || interactive)) {
          const answer = await this.inDialogQueue(() =>
            this.deps.trustPrompt.askTrust({ name: server.entry.name, scope, raw: server.entry.server }),
          ).catch((e: Error) => {
            server.log.warn(`Could not ask for trust: ${e.message}`);
            return undefined;
          });
          if (answer === undefined) return { ok: false, reason: 'Not trusted yet: start it to be asked again.', kind: 'untrusted' };
          await this.deps.trustStore.set(key, answer ? 'trusted' : 'denied', `${server.entry.name}` + (scope.kind === 'workspace' ? ` (${scope.label})` : ''));
          if (!answer) return { ok: false, reason: 'Not trusted: start it to be asked again.', kind: 'untrusted' };
          server.log.info('Trusted by the user');
        } else if (decision === 'denied') {
          return { ok: false, reason: 'Not trusted: start it to be asked again.', kind: 'untrusted' };
        }
      }
    }
    try {
      const { resolved, secrets } = await resolveServer(server.entry.server, inputs, this.variableContext(scope, true));
      this.secrets.set(server.id, secrets);
      const definition: ServerDefinition = {
        id: server.id,
        name: server.entry.name,
        scope,
        raw: server.entry.server,
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

  /** Starts every server that is allowed to auto-start and is not running (after Workspace Trust was granted). */
  async startIdle(): Promise<void> {
    if (!this.deps.settings().autoStart) return;
    await Promise.all(
      [...this.scopes.values()].flatMap((s) => [...s.servers.values()].filter((m) => m.state.kind === 'stopped').map((m) => m.start(false))),
    );
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

  async stopAll(): Promise<void> {
    await Promise.all([...this.scopes.values()].flatMap((s) => [...s.servers.values()].map((m) => m.stop())));
  }

  /** Stops every server; resolves when every process is gone. */
  async disposeAsync(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.scopes.keys()].map((k) => this.removeScope(k)));
    this.dispose();
  }

  dispose(): void {
    this.disposed = true;
    this._onDidChangeServers.dispose();
    this._onDidFail.dispose();
  }
}
