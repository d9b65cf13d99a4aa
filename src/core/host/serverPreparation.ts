// What happens before a server may start: Workspace Trust, its inputs, the resolution of its variables, its launch
// plan (launchPlan.ts: what exactly will run), and trust in that plan (asked once, remembered by its hash). What the
// user is asked to trust is the plan, and the plan is what the launcher runs.
import { isServerUrl } from '../config/serverUrl';
import * as os from 'os';
import * as path from 'path';
import { untilAborted } from '../common/async';
import { hashOf } from '../config/definitionHash';
import type { ConfigScope, InputDefinition, RawServerEntry, ServerDefinition } from '../config/serverDefinition';
import type { TrustFacts } from '../config/trustFacts';
import { InputCancelledError, referencedInputIds, resolveServer, type SettingValue, type VariableContext } from '../config/variables';
import type { InteractionQueue } from './interactionQueue';
import type { Preparation } from './managedServer';
import type { InputProvider, TrustAnswer, TrustPrompt } from './hostPorts';
import type { ServerLog } from '../common/log';
import { redact } from './redactingLog';
import { launchPlanHash, MASK, type LaunchPlan, type DefinedServer, type LaunchPlanSource, type PlanLaunch } from '../config/launchPlan';
import { confinedAlternative, type ConfinedAlternative } from './confinedChoice';
import { NOT_TRUSTED_EDITED } from './editedTrust';
import type { FirstStartMarks } from './firstStartMarks';
import type { SerialQueue } from '../common/serialQueue';
import { trustKey } from './trustKey';
import type { TrustStore } from './trustStore';

export const RESTRICTED_MODE_REASON = 'Restricted Mode: servers defined in the workspace start only in a trusted workspace.';
const NOT_TRUSTED_YET = 'Not trusted yet: start it to be asked again.';
const NOT_TRUSTED = 'Not trusted: start it to be asked again.';
/** `"disabled": true` in its entry (Cline's and Windsurf's key): it stays stopped until the file says otherwise. */
export const DISABLED_IN_FILE = 'Disabled in its file ("disabled": true): Enable Server removes that line and starts it.';

export interface PreparationDeps {
  trustStore: TrustStore;
  trustPrompt: TrustPrompt;
  inputs: InputProvider;
  /** The queue every question to the user goes through. */
  dialogs: InteractionQueue;
  /** VS Code's Workspace Trust: workspace-defined servers never start in Restricted Mode. */
  isWorkspaceTrusted(): boolean;
  /** User/machine-level: run workspace servers without asking. */
  trustAllServers(): boolean;
  environment: Record<string, string | undefined>;
  planLaunch: PlanLaunch;
  /** Reads a stdio server's `envFile` (../config/envFile.lazy.ts: it loads with the launch plan's code). */
  readEnvFile: ReadEnvFile;
  /** A VS Code setting's value for `${config:…}`, as it applies to the scope's folder. Absent: no settings (the CLI). */
  setting?(name: string, scope: ConfigScope): SettingValue;
  /** Every configured server but this one (a confined start may not write the files they run). */
  otherServers?(serverId: string): DefinedServer[];
  /** Runs a VS Code command for a value (`${command:…}`, a `command` input); undefined: none. Absent: no VS Code (the CLI). */
  runCommand?(command: string, args: unknown): Promise<string | undefined>;
  /** The user's entries written by Import or Install for User, which ask the trust question at their first start. */
  firstStarts?: Pick<FirstStartMarks, 'has' | 'clear'>;
  /**
   * Trust questions as VS Code asks them: a folder's together (./trustQuestions.lazy.ts, loaded with the question).
   * Absent (the command line): one at a time, in the queue.
   */
  trustQuestions?(prompt: TrustPrompt, dialogs: SerialQueue): TrustAsking;
}

/** Asks whether to trust what a server would run: a TrustAnswer, or undefined (not decided, or the start was cancelled). */
export interface TrustAsking {
  ask(definition: Pick<ServerDefinition, 'name' | 'scope' | 'raw'>, facts: TrustFacts, signal: AbortSignal): Promise<TrustAnswer | undefined>;
}

/** The server being prepared, as the preparation sees it. */
export interface PreparedServer {
  id: string;
  scope: ConfigScope;
  log: ServerLog;
  /** The scope's input declarations. */
  inputs: InputDefinition[];
}

export type ReadEnvFile = (path: string) => Promise<{ text: string; variables: Record<string, string> }>;

/** An env file read for a server: its text and variables, or why it cannot be used. */
type EnvFileRead = { path: string; text: string; variables: Record<string, string> } | { path: string; error: string };

async function readEnvFileOrError(path: string, readEnvFile: ReadEnvFile): Promise<EnvFileRead> {
  try {
    return { path, ...(await readEnvFile(path)) };
  } catch (e) {
    return { path, error: (e as Error).message };
  }
}

export class ServerPreparation {
  private readonly trustQuestions: TrustAsking;
  /** The signals of starts ahead of a use, which must ask the user nothing (see prepare's `unasked`). */
  private readonly unasked = new WeakSet<AbortSignal>();

  constructor(private readonly deps: PreparationDeps) {
    this.trustQuestions = deps.trustQuestions?.(deps.trustPrompt, deps.dialogs) ?? { ask: (d, facts, signal) => this.inDialogQueue(() => deps.trustPrompt.askTrust(d, facts), signal) };
  }

  private variableContext(scope: ConfigScope, interactive: boolean, signal?: AbortSignal, answers?: Map<string, string>, serverName = ''): VariableContext {
    const runCommand = this.deps.runCommand;
    return {
      // Never run to compare definitions (reconcile): only a start runs a command, and a workspace's only once allowed.
      ...(runCommand ? { runCommand: interactive ? (command: string, args: unknown) => this.commandValue(scope, serverName, command, args, signal) : async (command: string, args: unknown) => `\u0000command:${command}:${JSON.stringify(args ?? null)}` } : {}),
      folderPath: scope.folderPath,
      userHome: os.homedir(),
      env: this.deps.environment,
      pathSeparator: path.sep,
      dialect: scope.dialect,
      ...(this.deps.setting ? { setting: (name: string) => this.deps.setting!(name, scope) } : {}),
      resolveInput: async (input) => {
        // Ahead of a use (unasked), only a stored value.
        const value = await (interactive && !this.unasked.has(signal!)
          ? untilAborted(this.inDialogQueue(() => this.deps.inputs.getInput(scope.key, input, true), signal), signal)
          : this.deps.inputs.getInput(scope.key, input, false));
        if (value !== undefined) answers?.set(input.id, value);
        // Without asking, an unknown input still hashes deterministically (and differs from any real value).
        return value ?? (interactive ? undefined : `\u0000unset:${input.id}`);
      },
    };
  }

  /** The resolved definition's hash without asking anything: what reconcile compares. */
  async quietHash(scope: ConfigScope, entry: RawServerEntry, inputs: InputDefinition[]): Promise<string | undefined> {
    try {
      const { resolved } = await resolveServer(entry.server, inputs, this.variableContext(scope, false));
      return hashOf({ scope: scope.key, resolved });
    } catch {
      return undefined;
    }
  }

  /** The inputs this server uses whose value is stored (entered before, maybe for another server). */
  private async storedInputs(scopeKey: string, entry: RawServerEntry, inputs: InputDefinition[]): Promise<string[]> {
    const used = new Set(referencedInputIds(entry.server));
    const stored = await Promise.all(inputs.filter((i) => used.has(i.id)).map(async (i) => ((await this.deps.inputs.getInput(scopeKey, i, false)) !== undefined ? i.id : undefined)));
    return stored.filter((id): id is string => id !== undefined);
  }

  /** Shows dialogs one at a time; one whose start was cancelled while it waited is never shown. */
  private inDialogQueue<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
    // A start ahead of its use asks nothing, nor runs a command (which may show its own UI): it stops there.
    if (this.unasked.has(signal!)) return Promise.reject(new Error('it would ask'));
    return this.deps.dialogs.run(() => (signal?.aborted ? Promise.resolve(undefined) : fn()));
  }

  /**
   * Checks trust and resolves `entry`, asking what it must. `interactive`: the user asked for this start, so a
   * remembered "do not trust" is asked again. Secrets of the resolution are handed to `onSecrets` for the log's mask.
   * The order: Restricted Mode and a remembered "no" first (nothing asked, nothing read); then the inputs; then the
   * launch plan (env file read, executable found); then trust in that plan, remembered by its hash.
   */
  async prepare(
    server: PreparedServer,
    entry: RawServerEntry,
    interactive: boolean,
    signal: AbortSignal,
    onSecrets: (secrets: string[]) => void,
    /** `unasked`: a start ahead of its use (ManagedServer.wake): not ok wherever it would ask the user something. */
    options: { askTrust?: boolean; unasked?: boolean } = {},
  ): Promise<Preparation> {
    if (options.unasked) this.unasked.add(signal);
    const { scope, inputs } = server;
    if (entry.server.disabled) return { ok: false, reason: 'disabled', message: DISABLED_IN_FILE };
    // A user's entry asks too while it is one MCP Host wrote for the user and the user has not trusted yet.
    const writtenForUser = scope.kind === 'user' && !!this.deps.firstStarts?.has(scope.key, entry.name);
    const asksTrust = (writtenForUser || (scope.kind === 'workspace' && this.deps.isWorkspaceTrusted())) && !this.deps.trustAllServers();
    if (scope.kind === 'workspace') {
      if (!this.deps.isWorkspaceTrusted()) return { ok: false, reason: 'restricted', message: RESTRICTED_MODE_REASON };
      // A remembered "no" is respected on automatic starts; a start the user asks for asks again.
      if (asksTrust && !interactive && this.deps.trustStore.get(trustKey(scope, entry.name, entry.server)) === 'denied') return { ok: false, reason: 'untrusted', message: NOT_TRUSTED };
      // Added or changed by an edit: no dialog (trust or inputs) takes the keyboard while the user types; the view and a
      // notice say it waits. A definition trusted before (an edit undone) goes on.
      const edited = options.askTrust === false && !interactive;
      if (asksTrust && edited && this.deps.trustStore.get(trustKey(scope, entry.name, entry.server)) !== 'trusted') return { ok: false, reason: 'untrusted', message: NOT_TRUSTED_EDITED };
    }
    const storedInputs = asksTrust ? await this.storedInputs(scope.key, entry, inputs) : [];
    try {
      const answers = new Map<string, string>();
      const { resolved, secrets } = await resolveServer(entry.server, inputs, this.variableContext(scope, true, signal, answers, entry.name));
      onSecrets(secrets);
      if (resolved.type !== 'stdio' && !isServerUrl(resolved.url)) {
        const message = resolved.url.trim()
          ? `The URL does not resolve to an http(s), unix: or pipe: URL: ${redact(resolved.url, secrets)}`
          : 'The URL is empty once its variables are filled in: a variable it uses is not set.';
        return { ok: false, reason: 'config', message };
      }
      // The file shown is the file used: read once, after the inputs that may name it.
      const envFile = resolved.type === 'stdio' && resolved.envFile ? await readEnvFileOrError(resolved.envFile, this.deps.readEnvFile) : undefined;
      const shown = (await resolveServer(entry.server, inputs, this.displayContext(scope, answers))).resolved;
      const source: LaunchPlanSource = {
        scope,
        name: entry.name,
        raw: entry.server,
        resolved,
        shown,
        envFile: envFile && ('error' in envFile ? { path: envFile.path, error: envFile.error } : { path: envFile.path, variables: envFile.variables }),
        hostEnv: this.deps.environment,
        // A confined start (this one, or Run Confined's) may not write what the other servers run.
        ...(resolved.type === 'stdio' && this.deps.otherServers ? { otherServers: this.deps.otherServers(server.id) } : {}),
      };
      const planned = await this.deps.planLaunch(source);
      if (!planned.ok) return { ok: false, reason: 'config', message: planned.message };
      let plan = planned.plan;
      let run = resolved;
      if (asksTrust) {
        const verdict = await this.checkTrust(server, entry, plan, storedInputs, interactive, signal, () => confinedAlternative(this.deps.planLaunch, source));
        if (typeof verdict === 'object' && 'ok' in verdict) return verdict;
        // "Run Confined": this start already runs as the file now says.
        if (typeof verdict === 'object') ({ plan, resolved: run } = verdict);
      }
      const definition: ServerDefinition = {
        id: server.id,
        name: entry.name,
        scope,
        raw: entry.server,
        resolved: run,
        hash: hashOf({ scope: scope.key, resolved: run }),
        secrets,
        envFile: envFile && ('error' in envFile ? { error: envFile.error } : { variables: envFile.variables }),
        plan,
      };
      return { ok: true, definition };
    } catch (e) {
      if (e instanceof InputCancelledError) return { ok: false, reason: 'input', message: e.message };
      return { ok: false, reason: 'config', message: `Cannot resolve the configuration: ${(e as Error).message}` };
    }
  }

  /**
   * A VS Code command's value for a server's variable. A workspace file's command (or one of an entry written for the
   * user, not trusted yet) runs only once the user allowed it
   * (the question names the command and its arguments; the answer is kept for that command and those arguments).
   */
  private async commandValue(scope: ConfigScope, serverName: string, command: string, args: unknown, signal?: AbortSignal): Promise<string | undefined> {
    // An entry MCP Host wrote for the user and not yet trusted asks as a workspace's does: the user never saw it run.
    const writtenForUser = scope.kind === 'user' && !!this.deps.firstStarts?.has(scope.key, serverName);
    if ((scope.kind === 'workspace' || writtenForUser) && !this.deps.trustAllServers()) {
      const key = `command:${scope.key}:${hashOf({ command, args: args ?? null })}`;
      if (this.deps.trustStore.get(key) !== 'trusted') {
        const ask = this.deps.trustPrompt.askRunCommand;
        const allowed = ask ? await untilAborted(this.inDialogQueue(() => ask({ serverName, scope, command, args }), signal), signal) : undefined;
        if (allowed !== true) return undefined;
        await this.deps.trustStore.set(key, 'trusted', `the VS Code command ${command} for ${serverName} (${scope.label})`);
      }
    }
    return untilAborted(this.inDialogQueue(() => this.deps.runCommand!(command, args), signal), signal);
  }

  /**
   * The resolution the question shows: inputs as entered (passwords masked), `${env:X}` kept as the reference. A
   * password input left at its `default` shows it: that is the file author's text, not the user's secret (it once hid
   * `--registry=<attacker>` behind dots).
   */
  private displayContext(scope: ConfigScope, answers: Map<string, string>): VariableContext {
    return {
      ...this.variableContext(scope, false),
      showReferences: true,
      resolveInput: async (input) => {
        const answer = answers.get(input.id) ?? '';
        return input.type === 'promptString' && input.password && answer !== input.default ? MASK : answer;
      },
    };
  }

  /** 'run' when the plan is trusted (remembered by its hash, or now), the confined start when the user chose Run Confined; otherwise why not. */
  private async checkTrust(
    server: PreparedServer,
    entry: RawServerEntry,
    plan: LaunchPlan,
    storedInputs: string[],
    interactive: boolean,
    signal: AbortSignal,
    confinedStart: () => Promise<ConfinedAlternative | undefined>,
  ): Promise<Preparation | 'run' | ConfinedAlternative> {
    const { scope } = server;
    const planKey = launchPlanHash(scope.key, entry.name, plan);
    const definitionKey = trustKey(scope, entry.name, entry.server);
    if (this.deps.trustStore.get(planKey) === 'trusted') {
      await this.deps.firstStarts?.clear(scope.key, entry.name);
      return 'run';
    }
    if (!interactive && this.deps.trustStore.get(definitionKey) === 'denied') return { ok: false, reason: 'untrusted', message: NOT_TRUSTED };
    if (this.unasked.has(signal)) return { ok: false, reason: 'untrusted', message: NOT_TRUSTED_YET };
    // Asked together with the folder's other new servers, in one question, with what each would run.
    const confined = await confinedStart();
    const facts: TrustFacts = { storedInputs, plan, ...(confined ? { confined: confined.plan } : {}) };
    const answer = await untilAborted(this.trustQuestions.ask({ name: entry.name, scope, raw: entry.server }, facts, signal), signal).catch((e: Error) => {
      server.log.warn(`Could not ask for trust: ${e.message}`);
      return undefined;
    });
    if (answer === undefined) return { ok: false, reason: 'untrusted', message: NOT_TRUSTED_YET };
    const label = `${entry.name} (${scope.label})`;
    // Never taken as a plain "Trust": without a confined start to run, it stays undecided.
    if (answer === 'confined') return confined ? this.trustConfined(server, entry, confined, label) : { ok: false, reason: 'untrusted', message: NOT_TRUSTED_YET };
    // "Trust" is for this plan only; "Do Not Trust" for the definition, whatever its inputs.
    if (answer) await this.deps.trustStore.set(planKey, 'trusted', label);
    await this.deps.trustStore.set(definitionKey, answer ? 'trusted' : 'denied', label);
    if (!answer) return { ok: false, reason: 'untrusted', message: NOT_TRUSTED };
    server.log.info('Trusted by the user');
    await this.deps.firstStarts?.clear(scope.key, entry.name);
    return 'run';
  }

  /**
   * "Run Confined": the confined plan is trusted (and the definition as the file will say it), then the file is told
   * (`"sandboxEnabled": true`), so the start its edit causes runs confined without asking. Trust comes first: that start
   * may come at once.
   */
  private async trustConfined(server: PreparedServer, entry: RawServerEntry, confined: ConfinedAlternative, label: string): Promise<ConfinedAlternative> {
    const { scope } = server;
    await this.deps.trustStore.set(launchPlanHash(scope.key, entry.name, confined.plan), 'trusted', label, true);
    await this.deps.trustStore.set(trustKey(scope, entry.name, confined.raw), 'trusted', label, true);
    server.log.info('Trusted by the user to run confined');
    // An entry written for the user keeps its mark: the start after the file says "sandboxEnabled" finds its plan
    // trusted and clears it; if the file cannot say it, the unconfined plan (never accepted) is asked about.
    try {
      await this.deps.trustPrompt.persistConfined?.({ name: entry.name, scope });
    } catch (e) {
      server.log.warn(`Could not write "sandboxEnabled": true into ${scope.configPath} (${(e as Error).message}): it runs confined this time, and is asked about again next time.`);
    }
    return confined;
  }
}
