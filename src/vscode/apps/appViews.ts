// Where MCP App views open: from a tool's result, by hand ("MCP: Call Tool…"), in chat (a button under the result
// that runs `mcpHost.openToolView`) or for an agent's call through `mcpHost_callTool` (at once, one tab per tool).
// This module is on the activation path and holds no SDK values: the panel, the bridge and ext-apps are in the session
// layer, loaded with the first server (a result comes from a running one).
import vscode = require('vscode');
import { plainText } from '../../core/presentation/serverText';
import type { AppView, AppViewInfo, AppViewsDeps, OpenAppView, ToolCallRecord } from './appViewTypes';
import { CommandIds } from '../../core/common/commandIds';


/** Results chat can reopen a view for, newest last; older ones are forgotten. */
const REMEMBERED_CALLS = 100;

export class AppViews implements vscode.Disposable {
  private readonly calls = new Map<string, ToolCallRecord>();
  private readonly panels = new Map<string, AppView>();
  private nextId = 1;
  private readonly command: vscode.Disposable;

  constructor(
    private readonly deps: AppViewsDeps,
    /** The view's panel, loaded on demand (the bridge and ext-apps load with it). */
    private readonly openView: OpenAppView,
  ) {
    this.command = vscode.commands.registerCommand(CommandIds.openToolView, (id: unknown) => this.open(id));
  }

  /** Keeps a result so a chat button can open its view later; the id goes into the button's command. */
  remember(call: ToolCallRecord): string {
    const id = `view-${this.nextId++}`;
    this.calls.set(id, call);
    for (const old of this.calls.keys()) {
      if (this.calls.size <= REMEMBERED_CALLS) break;
      this.calls.delete(old);
    }
    return id;
  }

  /** Opens the view of a result (beside the active editor); one panel per result, revealed when opened again. */
  async show(call: ToolCallRecord, id = this.remember(call)): Promise<void> {
    await this.showIn(id, call, false);
  }

  /**
   * Opens the view of an agent's call (which has no button to click): one tab per tool of a server, the latest result
   * replacing the one before, so an agent that calls a tool twenty times opens one tab, not twenty.
   */
  async showLatest(call: ToolCallRecord): Promise<void> {
    await this.showIn(`latest:${call.serverId}\n${call.tool.name}`, call, true);
  }

  /** The panel `id` shows `call`: revealed when it is open already, or replaced by a new one when `replace`. */
  private async showIn(id: string, call: ToolCallRecord, replace: boolean): Promise<void> {
    const current = () => {
      const open = this.panels.get(id);
      return open && !open.disposed ? open : undefined;
    };
    const reused = () => {
      const open = replace ? undefined : current();
      open?.reveal();
      return open !== undefined;
    };
    if (reused()) return;
    // A replaced view's successor opens where the user left it (they may have moved it), not beside the active editor.
    const replaced = current();
    const column = replaced?.viewColumn;
    replaced?.dispose();
    const panel = this.openView(call, this.deps, column);
    this.panels.set(id, panel);
    panel.onDidDispose(() => {
      if (this.panels.get(id) === panel) this.panels.delete(id);
    });
    await panel.start();
  }

  private async open(id: unknown): Promise<void> {
    const call = typeof id === 'string' ? this.calls.get(id) : undefined;
    if (!call) {
      void vscode.window.showInformationMessage('That view is no longer available: run the tool again to see it.');
      return;
    }
    try {
      await this.show(call, id as string);
    } catch (e) {
      void vscode.window.showErrorMessage(`The view of "${plainText(call.tool.name)}" could not open: ${plainText(String((e as Error)?.message ?? e))}`);
    }
  }

  /** Every open view (extension tests). */
  views(): AppViewInfo[] {
    return [...this.panels.values()].filter((p) => !p.disposed).map((p) => p.info());
  }

  dispose(): void {
    this.command.dispose();
    for (const p of this.panels.values()) p.dispose();
    this.panels.clear();
  }
}
