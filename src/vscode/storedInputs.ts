// `${input:id}` values: asked once, then remembered — password inputs in SecretStorage, others in workspace state.
import * as vscode from 'vscode';
import type { InputDefinition } from '../core/config/types';
import type { InputProvider } from '../core/host/ports';
import type { HostDialogs } from './dialogs';

const INDEX_KEY = 'mcpHost.storedInputKeys';

export class StoredInputs implements InputProvider {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
    private readonly dialogs: HostDialogs,
  ) {}

  private key(scopeKey: string, id: string) {
    return `mcpHost.input:${scopeKey}:${id}`;
  }

  async getInput(scopeKey: string, input: InputDefinition, interactive: boolean): Promise<string | undefined> {
    const key = this.key(scopeKey, input.id);
    const stored = input.type === 'promptString' && input.password ? await this.secrets.get(key) : this.state.get<string>(key);
    if (stored !== undefined || !interactive) return stored;
    const value = await this.ask(input);
    if (value === undefined) return undefined;
    if (input.type === 'promptString' && input.password) await this.secrets.store(key, value);
    else await this.state.update(key, value);
    const index = this.state.get<string[]>(INDEX_KEY) ?? [];
    if (!index.includes(key)) await this.state.update(INDEX_KEY, [...index, key]);
    return value;
  }

  private async ask(input: InputDefinition): Promise<string | undefined> {
    if (input.type === 'pickString') {
      const items = input.options.map((o) => ({ label: o, description: o === input.default ? 'default' : undefined }));
      const picked = await vscode.window.showQuickPick(items, { title: input.description, placeHolder: input.id, ignoreFocusOut: true });
      return picked?.label;
    }
    return this.dialogs.inputText({ title: 'MCP server input', prompt: input.description, password: input.password, value: input.default });
  }

  /** Forgets every stored value; servers ask again at their next start. */
  async clear(): Promise<number> {
    const index = this.state.get<string[]>(INDEX_KEY) ?? [];
    for (const key of index) {
      await this.secrets.delete(key);
      await this.state.update(key, undefined);
    }
    await this.state.update(INDEX_KEY, undefined);
    return index.length;
  }
}
