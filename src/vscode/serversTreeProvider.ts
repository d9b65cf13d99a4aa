// The "MCP Servers" view: scopes (when there are several), servers, and what each running server offers.
// Nodes are rebuilt from registry snapshots on every refresh; their ids are stable (server id + kind + name), so VS Code
// keeps expansion and selection across refreshes.
import vscode = require('vscode');
import type { Event } from '../core/common/events';
import type { ServerInfo } from '../core/host/types';
import type { RowNotice } from '../core/presentation/coexistenceNotice';
import { groupByScope, serversByScope } from '../core/presentation/serverPresentation';
import type { ConfigProblem } from './configLoader';
import { CoalescedRefresh } from './coalescedRefresh';
import { NoticeNode, ProblemNode, ScopeNode, ServerNode, type Node } from './serverNodes';
import { resolveTooltip, type ServerRows } from './treeNode';

export interface ServerSource {
  servers(): ServerInfo[];
  onDidChangeServers: Event<void>;
}

/** Files with errors, shown on their folder. */
export interface ProblemSource {
  problems(): ConfigProblem[];
  onDidChangeProblems: Event<void>;
}

/** A row above the servers (Restricted Mode, VS Code's built-in MCP support), when there is something to say. */
export interface NoticeSource {
  notice(): RowNotice | undefined;
  onDidChange: Event<void>;
}

/** A burst of changes (a scope reconciling, list_changed storms) renders once. */

export class ServersTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly subscriptions: { dispose(): void }[];
  private readonly refresh = new CoalescedRefresh(() => this._onDidChangeTreeData.fire(undefined));

  constructor(
    private readonly source: ServerSource,
    private readonly notices: NoticeSource[] = [],
    private readonly problems?: ProblemSource,
    /** Rows computed by the session layer (a running server's skills and tasks). */
    private readonly rows?: ServerRows,
  ) {
    this.subscriptions = [
      source.onDidChangeServers(() => this.refresh.schedule()),
      ...notices.map((n) => n.onDidChange(() => this.refresh.schedule())),
      ...(problems ? [problems.onDidChangeProblems(() => this.refresh.schedule())] : []),
      // The folder count decides whether scopes get their own level.
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.refresh.schedule()),
    ];
  }

  /** The session layer's rows changed (a task's status). */
  refreshRows(): void {
    this.refresh.schedule();
  }

  getTreeItem(node: Node): vscode.TreeItem {
    return node.getTreeItem();
  }

  resolveTreeItem(item: vscode.TreeItem, node: Node): vscode.TreeItem {
    return resolveTooltip(item, node);
  }

  getChildren(node?: Node): Node[] {
    if (node) return node.getChildren();
    const servers = this.source.servers();
    const problems = this.problems?.problems() ?? [];
    const top: Node[] = this.notices.flatMap((source) => {
      const notice = source.notice();
      return notice ? [new NoticeNode(notice)] : [];
    });
    if (!groupByScope(servers, vscode.workspace.workspaceFolders?.length ?? 0)) {
      return [...top, ...problems.map((p) => new ProblemNode(p)), ...servers.map((s) => new ServerNode(s, undefined, this.rows))];
    }
    const groups = serversByScope(servers);
    // A folder whose broken file defined no server yet still gets its row, with the problem on it.
    for (const p of problems) if (!groups.some((g) => g.scope.key === p.scope.key)) groups.push({ scope: p.scope, servers: [] });
    return [...top, ...groups.map((g) => new ScopeNode(g.scope, g.servers, problems.find((p) => p.scope.key === g.scope.key), this.rows))];
  }

  getParent(node: Node): Node | undefined {
    return node.parent;
  }

  dispose(): void {
    this.refresh.dispose();
    for (const s of this.subscriptions) s.dispose();
    this._onDidChangeTreeData.dispose();
  }
}
