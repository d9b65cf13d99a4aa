// What the host needs from its surroundings. The VS Code layer implements these; tests implement them in plain Node.
import type { TrustFacts } from '../config/trustFacts';
import type { ConfigScope, InputDefinition, ServerDefinition } from '../config/serverDefinition';

/**
 * An answer to the trust question: true = trust (run as defined), 'confined' = trust it to run confined (the plan of
 * `facts.confined`; only when it was offered), false = do not trust.
 */
export type TrustAnswer = boolean | 'confined';

/**
 * Asks the user whether to run a server definition, showing what the facts add (the env file's variables, stored
 * inputs it would receive). Answers: a TrustAnswer, undefined = dismissed.
 */
export interface TrustPrompt {
  askTrust(definition: Pick<ServerDefinition, 'name' | 'scope' | 'raw'>, facts: TrustFacts): Promise<TrustAnswer | undefined>;
  /**
   * One question for several new servers of one folder (they arrive together when a folder's mcp.json loads), each
   * with its facts: an answer per definition, in order (undefined = not decided). Without it, each is asked on its own.
   */
  askTrustMany?(questions: { definition: Pick<ServerDefinition, 'name' | 'scope' | 'raw'>; facts: TrustFacts }[]): Promise<(TrustAnswer | undefined)[]>;
  /**
   * After "Run Confined": says so where the definition is written (`"sandboxEnabled": true` in its mcp.json), so that
   * the file tells what runs. Rejects when it could not; the start runs confined all the same.
   */
  persistConfined?(definition: Pick<ServerDefinition, 'name' | 'scope'>): Promise<void>;
  /**
   * May a workspace file's server run this VS Code command for a value (`${command:…}`, a `command` input)? true =
   * allowed (kept for this command and these arguments), else not run.
   */
  askRunCommand?(question: { serverName: string; scope: ConfigScope; command: string; args: unknown }): Promise<boolean | undefined>;
}

/** Gives the value of an `${input:id}`: from storage, or by asking the user when `interactive`. Undefined = unknown or cancelled. */
export interface InputProvider {
  getInput(scopeKey: string, input: InputDefinition, interactive: boolean): Promise<string | undefined>;
}

/** A persistent key-value store (VS Code's Memento fits). */
export interface KeyValueStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Promise<void> | PromiseLike<void>;
}

/** A root the host exposes to servers (a workspace folder). */
export interface RootInfo {
  uri: string;
  name: string;
}
