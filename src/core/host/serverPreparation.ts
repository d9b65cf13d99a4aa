// What happens before a server may start: Workspace Trust, trust in the exact definition (asked once, remembered by
// its hash), its inputs, and the resolution of its variables. One definition throughout: what the user is asked to
// trust is exactly what is resolved and run.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { untilAborted } from '../async';
import { hashOf } from '../config/definitionHash';
import type { ConfigScope, InputDefinition, RawServerEntry, ServerDefinition } from '../config/types';
import { InputCancelledError, resolveServer, type VariableContext } from '../config/variables';
import type { InteractionQueue } from './interactionQueue';
import type { Preparation } from './managedServer';
import type { InputProvider, ServerLog, TrustPrompt } from './ports';
import { redact } from './redactingLog';
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
    return this.deps.dialogs.run(() => (signal?.aborted ? Promise.resolve(undefined) : fn()));
  }

  /**
   * Checks trust and resolves `entry`, asking what it must. `interactive`: the user asked for this start, so a
   * remembered "do not trust" is asked again. Secrets of the resolution are handed to `onSecrets` for the log's mask.
   */
  async prepare(server: PreparedServer, entry: RawServerEntry, interactive: boolean, signal: AbortSignal, onSecrets: (secrets: string[]) => void): Promise<Preparation> {
    const { scope, inputs } = server;
    if (scope.kind === 'workspace') {
      const trust = await this.checkTrust(server, entry, interactive, signal);
      if (trust) return trust;
    }
    try {
      const { resolved, secrets } = await resolveServer(entry.server, inputs, this.variableContext(scope, true, signal));
      onSecrets(secrets);
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
      };
      return { ok: true, definition };
    } catch (e) {
      if (e instanceof InputCancelledError) return { ok: false, reason: 'input', message: e.message };
      return { ok: false, reason: 'config', message: `Cannot resolve the configuration: ${(e as Error).message}` };
    }
  }

  /** Undefined when the workspace server may run; otherwise why not. */
  private async checkTrust(server: PreparedServer, entry: RawServerEntry, interactive: boolean, signal: AbortSignal): Promise<Preparation | undefined> {
    const { scope } = server;
    if (!this.deps.isWorkspaceTrusted()) return { ok: false, reason: 'restricted', message: RESTRICTED_MODE_REASON };
    if (this.deps.trustAllServers()) return undefined;
    const key = trustKey(scope, entry.name, entry.server, await this.envFileDigest(scope, entry, server.inputs));
    const decision = this.deps.trustStore.get(key);
    if (decision === 'trusted') return undefined;
    // A remembered "no" is respected on automatic starts; a start the user asks for asks again.
    if (decision === 'denied' && !interactive) return { ok: false, reason: 'untrusted', message: NOT_TRUSTED };
    // Asked together with the folder's other new servers, in one question.
    const answer = await untilAborted(this.trustQuestions.ask({ name: entry.name, scope, raw: entry.server }, signal), signal).catch((e: Error) => {
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
