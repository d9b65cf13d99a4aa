// Restricted Mode, said where servers are: workspace servers do not start until the workspace is trusted, and the
// Servers view's first row says so with the way out (Manage Workspace Trust), instead of every server just being off.
import vscode = require('vscode');
import type { ServerInfo } from '../../core/host/serverInfo';
import type { RowNotice } from '../../core/presentation/coexistenceNotice';

interface ServerSource {
  servers(): ServerInfo[];
  onDidChangeServers(listener: () => void): vscode.Disposable;
}

export class RestrictedModeNotice implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange = this._onDidChange.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly source: ServerSource) {
    this.subscriptions = [
      vscode.workspace.onDidGrantWorkspaceTrust(() => this._onDidChange.fire()),
      source.onDidChangeServers(() => this._onDidChange.fire()),
    ];
  }

  notice(): RowNotice | undefined {
    if (vscode.workspace.isTrusted) return undefined;
    const waiting = this.source.servers().filter((s) => s.scope.kind === 'workspace');
    if (!waiting.length) return undefined;
    return {
      id: 'restrictedMode',
      label: `Restricted Mode: ${waiting.length === 1 ? "this workspace's server does" : `this workspace's ${waiting.length} servers do`} not start`,
      description: 'Manage Workspace Trust',
      tooltip:
        "Servers defined in this workspace's .vscode/mcp.json run commands with your permissions, so they start only once you trust the workspace. Your user-level servers run anyway. Click to manage Workspace Trust.",
      icon: 'workspace-untrusted',
      command: 'workbench.trust.manage',
    };
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this._onDidChange.dispose();
  }
}
