// What happens before a server may start: Workspace Trust, trust in the exact definition (asked once, remembered by
// its hash), its inputs, and the resolution of its variables. One definition throughout: what the user is asked to
// trust is exactly what is resolved and run.
import * as os from 'os';
import * as path from 'path';
import { untilAborted } from '../async';
import { hashOf } from '../config/definitionHash';
import type { ConfigScope, InputDefinition, RawServerEntry, ServerDefinition } from '../config/types';
import type { TrustFacts } from '../config/describeDefinition';
import { readEnvFile } from '../config/envFile';
import { InputCancelledError, referencedInputIds, resolveServer, type VariableContext } from '../config/variables';
import type { InteractionQueue } from './interactionQueue';
import type { Preparation } from './managedServer';
import type { InputProvider, ServerLog, TrustPrompt } from './ports';
import { redact } from './redactingLog';
import { NOT_TRUSTED_EDITED } from './editedTrust';
import { TrustQuestions } from './trustQuestions';
import { trustKey, type TrustStore } from './trustStore';

export const RESTRICTED_MODE_REASON = 'Restricted Mode: servers defined in the workspace start only in a trusted workspace.';
const NOT_TRUSTED_YET = 'Not trusted yet: start it to be asked again.';
const NOT_TRUSTED = 'Not trusted: start it to be asked again.';

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
}

/** The server being prepared, as the preparation sees it. */
export interface PreparedServer {
  id: string;
  scope: ConfigScope;
  log: ServerLog;
  /** The scope's input declarations. */
  inputs: InputDefinition[];
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** An env file read for a server: its text and variables, or why it cannot be used. */
type EnvFileRead = { path: string; text: string; variables: Record<string, string> } | { path: string; error: string };

async function readEnvFileOrError(path: string): Promise<EnvFileRead> {
  try {
    return { path, ...(await readEnvFile(path)) };
  } catch (e) {
    return { path, error: (e as Error).message };
  }
}

export class ServerPreparation {
  private readonly trustQuestions: TrustQuestions;

  constructor(private readonly deps: PreparationDeps) {
    this.trustQuestions = new TrustQuestions(deps.trustPrompt, deps.dialogs);
  }

  private variableContext(scope: ConfigScope, interactive: boolean, signal?: AbortSignal): VariableContext {
    return {
      folderPath: scope.folderPath,
      userHome: os.homedir(),
      env: this.deps.environment,
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
  async quietHash(scope: ConfigScope, entry: RawServerEntry, inputs: InputDefinition[]): Promise<string | undefined> {
    try {
      const { resolved } = await resolveServer(entry.server, inputs, this.variableContext(scope, false));
      return hashOf({ scope: scope.key, resolved });
    } catch {
      return undefined;
    }
  }

  /** The env file as the quiet resolution names it: read (capped) or why not; undefined without one. */
  private async envFileOf(scope: ConfigScope, entry: RawServerEntry, inputs: InputDefinition[]): Promise<EnvFileRead | undefined> {
    if (entry.server.type !== 'stdio' || !entry.server.envFile) return undefined;
    const { resolved } = await resolveServer(entry.server, inputs, this.variableContext(scope, false)).catch(() => ({ resolved: undefined }));
    const file = resolved?.type === 'stdio' ? resolved.envFile : undefined;
    // An env file named through an input not entered yet is read once the input is known.
    return file === undefined ? undefined : readEnvFileOrError(file);
  }

  /** The inputs this server uses whose value is stored (entered before, maybe for another server). */
  private async storedInputs(scopeKey: string, entry: RawServerEntry, inputs: InputDefinition[]): Promise<string[]> {
    const used = new Set(referencedInputIds(entry.server));
    const stored = await Promise.all(inputs.filter((i) => used.has(i.id)).map(async (i) => ((await this.deps.inputs.getInput(scopeKey, i, false)) !== undefined ? i.id : undefined)));
    return stored.filter((id): id is string => id !== undefined);
  }

  /** Shows dialogs one at a time; one whose start was cancelled while it waited is never shown. */
  private inDialogQueue<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
    return this.deps.dialogs.run(() => (signal?.aborted ? Promise.resolve(undefined) : fn()));
  }

  /**
   * Checks trust and resolves `entry`, asking what it must. `interactive`: the user asked for this start, so a
   * remembered "do not trust" is asked again. Secrets of the resolution are handed to `onSecrets` for the log's mask.
   */
  async prepare(
    server: PreparedServer,
    entry: RawServerEntry,
    interactive: boolean,
    signal: AbortSignal,
    onSecrets: (secrets: string[]) => void,
    options: { askTrust?: boolean } = {},
  ): Promise<Preparation> {
    const { scope, inputs } = server;
    // Never read in Restricted Mode: checkTrust returns first.
    let envFile: EnvFileRead | undefined;
    if (scope.kind === 'workspace') {
      const trust = await this.checkTrust(server, entry, interactive, signal, async () => (envFile = await this.envFileOf(scope, entry, inputs)), options.askTrust ?? true);
      if (trust) return trust;
    }
    try {
      const { resolved, secrets } = await resolveServer(entry.server, inputs, this.variableContext(scope, true, signal));
      onSecrets(secrets);
      // The file trusted is the file used: read once, unless resolving with the inputs named another one.
      if (resolved.type === 'stdio' && resolved.envFile && envFile?.path !== resolved.envFile) envFile = await readEnvFileOrError(resolved.envFile);
      if (resolved.type !== 'stdio' && !isHttpUrl(resolved.url)) {
        return { ok: false, reason: 'config', message: `The URL does not resolve to an http(s) URL: ${redact(resolved.url, secrets)}` };
      }
      const definition: ServerDefinition = {
        id: server.id,
        name: entry.name,
        scope,
        raw: entry.server,
        resolved,
        hash: hashOf({ scope: scope.key, resolved }),
        secrets,
        envFile: envFile && ('error' in envFile ? { error: envFile.error } : { variables: envFile.variables }),
      };
      return { ok: true, definition };
    } catch (e) {
      if (e instanceof InputCancelledError) return { ok: false, reason: 'input', message: e.message };
      return { ok: false, reason: 'config', message: `Cannot resolve the configuration: ${(e as Error).message}` };
    }
  }

  /** Undefined when the workspace server may run; otherwise why not. */
  private async checkTrust(
    server: PreparedServer,
    entry: RawServerEntry,
    interactive: boolean,
    signal: AbortSignal,
    readEnvFile: () => Promise<EnvFileRead | undefined>,
    askTrust: boolean,
  ): Promise<Preparation | undefined> {
    const { scope } = server;
    if (!this.deps.isWorkspaceTrusted()) return { ok: false, reason: 'restricted', message: RESTRICTED_MODE_REASON };
    const envFile = await readEnvFile();
    if (this.deps.trustAllServers()) return undefined;
    // Trust covers the env file's contents: editing the file asks again, like editing the definition.
    const key = trustKey(scope, entry.name, entry.server, envFile && 'text' in envFile ? hashOf(envFile.text) : '');
    const decision = this.deps.trustStore.get(key);
    if (decision === 'trusted') return undefined;
    // A remembered "no" is respected on automatic starts; a start the user asks for asks again.
    if (decision === 'denied' && !interactive) return { ok: false, reason: 'untrusted', message: NOT_TRUSTED };
    // Added or changed by an edit: no dialog takes the keyboard while the user types; the view and a notice say it waits.
    if (!askTrust && !interactive) return { ok: false, reason: 'untrusted', message: NOT_TRUSTED_EDITED };
    // Asked together with the folder's other new servers, in one question, with what each would receive.
    const facts: TrustFacts = {
      envFile: envFile && ('error' in envFile ? { error: envFile.error } : { variables: envFile.variables }),
      storedInputs: await this.storedInputs(scope.key, entry, server.inputs),
      folderPath: scope.folderPath,
    };
    const answer = await untilAborted(this.trustQuestions.ask({ name: entry.name, scope, raw: entry.server }, facts, signal), signal).catch((e: Error) => {
      server.log.warn(`Could not ask for trust: ${e.message}`);
      return undefined;
    });
    if (answer === undefined) return { ok: false, reason: 'untrusted', message: NOT_TRUSTED_YET };
    await this.deps.trustStore.set(key, answer ? 'trusted' : 'denied', `${entry.name} (${scope.label})`);
    if (!answer) return { ok: false, reason: 'untrusted', message: NOT_TRUSTED };
    server.log.info('Trusted by the user');
    return undefined;
  }
}
