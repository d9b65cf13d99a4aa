// `${input:id}` values: asked once, then remembered — password inputs in SecretStorage, others in extension state.
// The user's mcp.json (scope key 'user') serves every workspace, so its values and their index live in global state;
// a workspace's in that workspace's state. Clearing goes through both indexes, so the user's values can be forgotten too.
import vscode = require('vscode');
import type { InputDefinition } from '../../core/config/serverDefinition';
import type { InputProvider } from '../../core/host/hostPorts';
import { labelText, plainText } from '../../core/presentation/serverText';
import type { HostDialogs } from '../dialogs/dialogRouter';

const INDEX_KEY = 'mcpHost.storedInputKeys';
/** The scope key of the user's own mcp.json (workspace scopes are keyed by folder URI). */
const USER_SCOPE_KEY = 'user';

export class StoredInputs implements InputProvider {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly states: { global: vscode.Memento; workspace: vscode.Memento },
    private readonly dialogs: HostDialogs,
  ) {}

  private key(scopeKey: string, id: string) {
    return `mcpHost.input:${scopeKey}:${id}`;
  }

  async getInput(scopeKey: string, input: InputDefinition, interactive: boolean): Promise<string | undefined> {
    const key = this.key(scopeKey, input.id);
    const state = scopeKey === USER_SCOPE_KEY ? this.states.global : this.states.workspace;
    const stored = input.type === 'promptString' && input.password ? await this.secrets.get(key) : state.get<string>(key);
    if (stored !== undefined || !interactive) return stored;
    const value = await this.ask(input);
    if (value === undefined) return undefined;
    if (input.type === 'promptString' && input.password) await this.secrets.store(key, value);
    else await state.update(key, value);
    const index = state.get<string[]>(INDEX_KEY) ?? [];
    if (!index.includes(key)) await state.update(INDEX_KEY, [...index, key]);
    return value;
  }

  private async ask(input: InputDefinition): Promise<string | undefined> {
    // A command input's value is the command's (the host runs it, after asking): never typed, never stored.
    if (input.type === 'command') return undefined;
    if (input.type === 'pickString') {
      // The options and description are the workspace's words: the picked value is the option, not its label.
      const items = input.options.map((o) => ({ label: labelText(o), description: o === input.default ? 'default' : undefined, value: o }));
      const picked = await vscode.window.showQuickPick(items, { title: plainText(input.description), placeHolder: plainText(input.id), ignoreFocusOut: true });
      return picked?.value;
    }
    return this.dialogs.inputText({ title: 'MCP server input', prompt: input.description, password: input.password, value: input.default });
  }

  /** Forgets every stored value, the user's and this workspace's; servers ask again at their next start. */
  async clear(): Promise<number> {
    let count = 0;
    for (const state of [this.states.global, this.states.workspace]) {
      const index = state.get<string[]>(INDEX_KEY) ?? [];
      for (const key of index) {
        await this.secrets.delete(key);
        await state.update(key, undefined);
      }
      await state.update(INDEX_KEY, undefined);
      count += index.length;
    }
    return count;
  }
}
