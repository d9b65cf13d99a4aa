// Whether any chat model is installed. Without one, VS Code answers every chat request itself ("Language model
// unavailable") before a participant is called, so the MCP view says where everything that needs no model is: the
// `mcpHost.noChatModel` context key picks the view's welcome text, and the Servers view shows a message.
import vscode = require('vscode');
import { CoalescedRefresh } from '../coalescedRefresh';

export const NO_MODEL_MESSAGE =
  'No chat model is installed, so chat cannot run here — nothing else needs one: click a tool to call it, a prompt to run it (its messages open as a document to copy), a resource to open it.';

export class ModelAvailability implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange = this._onDidChange.event;
  private readonly subscription: vscode.Disposable;
  private available: boolean | undefined;
  private checks = 0;

  constructor() {
    const check = () => void this.check();
    this.subscription = vscode.Disposable.from(
      vscode.lm.onDidChangeChatModels(check),
      // A model extension that trust enables, or that the user installs, can register its provider after VS Code last
      // asked the providers for their models, and VS Code asks none again unless the provider says it changed: no
      // change event comes. Asking then (selectChatModels asks every provider) finds its models, and makes the chat's
      // model picker list them too.
      vscode.workspace.onDidGrantWorkspaceTrust(check),
      vscode.extensions.onDidChange(check),
    );
    check();
  }

  /** Undefined until the first answer. */
  get hasModel(): boolean | undefined {
    return this.available;
  }

  private async check(): Promise<void> {
    const check = ++this.checks;
    await activateModelProviders();
    const models = await vscode.lm.selectChatModels();
    // A later check (the models changed again meanwhile) has the newer answer.
    if (check !== this.checks) return;
    const available = models.length > 0;
    if (available === this.available) return;
    this.available = available;
    await vscode.commands.executeCommand('setContext', 'mcpHost.noChatModel', !available);
    this._onDidChange.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this._onDidChange.dispose();
  }
}

/**
 * Activates the extensions that declare a chat model provider and are not active yet: one that trust enabled, or that
 * the user installed, registers its provider when it activates, which may come after VS Code has asked the providers
 * it knew. selectChatModels would activate them too, by the vendor, but only those VS Code had already been told of.
 * Its provider is then registered before the question that follows.
 */
function activateModelProviders(): Promise<unknown> {
  const pending = vscode.extensions.all.filter((e) => !e.isActive && (e.packageJSON as { contributes?: { languageModelChatProviders?: unknown } }).contributes?.languageModelChatProviders);
  // A provider that fails to start is that extension's problem: the question after it still answers for the rest.
  return Promise.all(pending.map((e) => Promise.resolve(e.activate()).catch(() => undefined)));
}

/** Shows NO_MODEL_MESSAGE at the top of a view that lists servers, while there is no model (an empty view has its welcome). */
export function showNoModelMessage(view: vscode.TreeView<unknown>, models: ModelAvailability, servers: { servers(): unknown[]; onDidChangeServers: (l: () => void) => vscode.Disposable }): vscode.Disposable {
  const update = () => {
    const message = models.hasModel === false && servers.servers().length ? NO_MODEL_MESSAGE : undefined;
    if (view.message !== message) view.message = message;
  };
  // With the view's rows, once a burst of changes settles: 50 servers starting fire hundreds of changes, each look
  // lists every server, and a new message is laid out by the workbench while the servers boot.
  const refresh = new CoalescedRefresh(update);
  update();
  return vscode.Disposable.from(models.onDidChange(() => refresh.schedule()), servers.onDidChangeServers(() => refresh.schedule()), refresh);
}
