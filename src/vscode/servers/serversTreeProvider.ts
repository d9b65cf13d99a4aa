// The "MCP Servers" view: scopes (when there are several), servers, and what each running server offers.
// Server and scope nodes are kept across refreshes (a change refreshes the changed servers' subtrees by their objects);
// ids are stable (server id + kind + name), so VS Code keeps expansion and selection.
import vscode = require('vscode');
import type { Event } from '../../core/common/events';
import type { ServerInfo } from '../../core/host/serverInfo';
import type { ServersChanged } from '../../core/host/serverSession';
import type { RowNotice } from '../../core/presentation/coexistenceNotice';
import { groupByScope, isSlowStart, serverChanges, serversByScope } from '../../core/presentation/serverPresentation';
import { SlowStartAlarm } from '../../core/presentation/slowStartAlarm';
import type { ConfigProblem } from '../config/configLoader';
import { CoalescedRefresh } from '../coalescedRefresh';
import { NoticeNode, ProblemNode, ScopeNode, ServerNode, type Node } from './serverNodes';
import { resolveTooltip, type HoverTexts, type ServerRows } from './treeNode';

/**
 * Up to this many servers in the view, a running server first shows expanded (its tools, prompts and resources); with
 * more, collapsed: each expanded server adds its groups' rows, and the list no longer fits beside the others (its row
 * still says how many tools it has). The workbench also draws every one of those rows at each start.
 */
const EXPAND_RUNNING_UP_TO = 5;

export interface ServerSource {
  servers(): ServerInfo[];
  onDidChangeServers: Event<ServersChanged>;
  /** A server's session for a use: a dormant one is started (see ServerManager.openSession). */
  openSession?(serverId: string, use: string): Promise<unknown>;
}

/** Files with errors, shown on their folder. */
export interface ProblemSource {
  problems(): ConfigProblem[];
  onDidChangeProblems: Event<void>;
}

/** Rows above the servers (Restricted Mode, VS Code's built-in MCP support, the gateway's clients), when there is something to say. */
export interface NoticeSource {
  notice(): RowNotice | readonly RowNotice[] | undefined;
  onDidChange: Event<void>;
}

/**
 * A burst of changes (a scope reconciling, list_changed storms) renders once, and a change of some servers refreshes
 * their subtrees only: the workbench draws every row of a refreshed subtree again, which was most of its CPU while
 * servers started. A notice that changed, problems, folders and the session's rows refresh the whole view.
 */
export class ServersTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<Node | Node[] | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly subscriptions: { dispose(): void }[];
  private readonly refresh = new CoalescedRefresh(() => this.applyChanges());
  /** A starting server's icon is still until its start becomes slow, then spins: its row is drawn again then. */
  private readonly slowStarts = new SlowStartAlarm(() => this.showSlowStarts());
  /** The snapshots the view was last given, by id, and the node objects it holds (VS Code refreshes a subtree by its object). */
  private shown = new Map<string, ServerInfo>();
  /** The servers that changed since the view was last given snapshots (the server manager's events say which). */
  private readonly changedIds = new Set<string>();
  /**
   * Every server the view was told of (refreshed or fetched with it); never emptied, so that a late event of a removed
   * server does not count as a new one.
   */
  private readonly toldIds = new Set<string>();
  private readonly serverNodes = new Map<string, ServerNode>();
  private scopeNodes = new Map<string, ScopeNode>();
  /** The notices the view was last given, as text: their sources fire on every server change, most of them do not change. */
  private shownNotices = '';
  private wholeView = true;
  /**
   * Whether the next fetch of the root follows a refresh of the whole view: VS Code draws that fetch's rows anew, and
   * later changes are compared with it. VS Code also fetches the root on its own (a view shown, a row expanded), and
   * such a fetch may update its items without drawing the rows again: taken as shown, it left rows "starting" on screen
   * for servers that ran (seen in the servers suite), since no later refresh named them.
   */
  private rootFetchFollowsRefresh = true;
  /** How many servers the root's last fetch listed: a running server shows expanded in a list of up to five. */
  private listed = 0;
  /** Whether the view is on screen: a hidden one is refreshed whole, which VS Code defers until it shows. */
  isVisible: () => boolean = () => true;

  constructor(
    private readonly source: ServerSource,
    private readonly notices: NoticeSource[],
    private readonly problems: ProblemSource,
    /** Rows computed by lazy code (a running server's skills and tasks). */
    private readonly rows: ServerRows,
    private readonly hoverTexts: HoverTexts,
  ) {
    const refreshAll = () => {
      this.wholeView = true;
      this.refresh.schedule();
    };
    this.subscriptions = [
      source.onDidChangeServers((ids) => {
        for (const id of ids) this.changedIds.add(id);
        // A server the view was never told of (a saved file added it) is listed now, before the starts' work
        // (they begin on the next turn), not after the burst of their changes.
        if (ids.some((id) => !this.toldIds.has(id))) this.refresh.now();
        else this.refresh.schedule();
      }),
      ...notices.map((n) => n.onDidChange(() => this.refresh.schedule())),
      problems.onDidChangeProblems(refreshAll),
      // The folder count decides whether scopes get their own level.
      vscode.workspace.onDidChangeWorkspaceFolders(refreshAll),
    ];
  }

  /** One server's row changed without a new snapshot (its size in a model request was counted). */
  redrawServer(id: string): void {
    this.changedIds.add(id);
    this.refresh.schedule();
  }

  /** Starts a dormant server for a use of the view (what a failed start says is the server's state, on its row). */
  startFor(serverId: string, use: string): void {
    void this.source.openSession?.(serverId, use).catch(() => undefined);
  }

  /** The lazily computed rows changed (a task's status). */
  refreshRows(): void {
    this.wholeView = true;
    this.refresh.schedule();
  }

  private applyChanges(): void {
    const servers = this.source.servers();
    const now = new Map(servers.map((s) => [s.id, s]));
    for (const id of now.keys()) this.toldIds.add(id);
    const { list, changed } = serverChanges(this.shown, now, this.changedIds);
    this.changedIds.clear();
    if (this.wholeView || list || !this.isVisible() || this.currentNotices().key !== this.shownNotices) {
      this.wholeView = false;
      this.rootFetchFollowsRefresh = true;
      this._onDidChangeTreeData.fire(undefined);
      return;
    }
    const drawn = [...this.shown.values()];
    for (const info of changed) this.shown.set(info.id, info);
    this.slowStarts.set(servers);
    const refreshed: Node[] = [];
    // A scope's row counts its running servers: when that count changed since it was drawn, its subtree is refreshed
    // with its servers. Counted from the snapshots drawn, not the node's list, which a fetch of VS Code's own updates.
    const count = (list: readonly ServerInfo[], key: string, kind: string) => list.filter((s) => s.scope.key === key && s.state.kind === kind).length;
    const running = (list: readonly ServerInfo[], key: string) => `${count(list, key, 'running')}/${count(list, key, 'dormant')}`;
    const scopesRefreshed = new Set<string>();
    for (const group of serversByScope(changed)) {
      const scope = this.scopeNodes.get(group.scope.key);
      if (!scope) continue;
      scope.servers = scope.servers.map((s) => group.servers.find((c) => c.id === s.id) ?? s);
      if (running(drawn, group.scope.key) === running(servers, group.scope.key)) continue;
      refreshed.push(scope);
      scopesRefreshed.add(group.scope.key);
    }
    for (const info of changed) {
      const node = this.serverNodes.get(info.id);
      if (!node) continue; // not shown yet: the view reads the newer snapshot when it asks for it
      node.info = info;
      if (!scopesRefreshed.has(info.scope.key)) refreshed.push(node);
    }
    if (refreshed.length) this._onDidChangeTreeData.fire(refreshed);
  }

  private showSlowStarts(): void {
    const now = Date.now();
    const servers = this.source.servers();
    this.slowStarts.set(servers, now);
    if (!this.isVisible()) {
      this.wholeView = true;
      this.refresh.schedule();
      return;
    }
    const slow = servers.flatMap((s) => (isSlowStart(s, now) ? (this.serverNodes.get(s.id) ?? []) : []));
    if (slow.length) this._onDidChangeTreeData.fire(slow);
  }

  /** The node the view holds for a server, given its newer snapshot; a new one when it moves to another parent. */
  private serverNode(info: ServerInfo, parent: ScopeNode | undefined): ServerNode {
    const node = this.serverNodes.get(info.id);
    if (node && node.parent === parent) {
      node.info = info;
      return node;
    }
    // Only a running server has a size, and its start loaded the lazy part that computes it; so has a dormant one with
    // known tools (reading its last run loaded that part), from those tools.
    const size = (s: ServerInfo) => (s.state.kind === 'running' || (s.state.kind === 'dormant' && s.features.tools.length) ? this.hoverTexts.offerSize?.(s, () => this.redrawServer(s.id)) : undefined);
    const created = new ServerNode(info, parent, this.rows, () => this.listed <= EXPAND_RUNNING_UP_TO, size);
    this.serverNodes.set(info.id, created);
    return created;
  }

  private currentNotices(): { shown: RowNotice[]; key: string } {
    const shown = this.notices.flatMap((source) => source.notice() ?? []);
    return { shown, key: JSON.stringify(shown) };
  }

  getTreeItem(node: Node): vscode.TreeItem {
    return node.getTreeItem();
  }

  resolveTreeItem(item: vscode.TreeItem, node: Node): vscode.TreeItem {
    return resolveTooltip(item, node, this.hoverTexts);
  }

  getChildren(node?: Node): Node[] {
    if (node) return node.getChildren();
    const servers = this.source.servers();
    this.listed = servers.length;
    if (this.rootFetchFollowsRefresh) {
      this.rootFetchFollowsRefresh = false;
      this.shown = new Map(servers.map((s) => [s.id, s]));
    }
    this.slowStarts.set(servers);
    const ids = new Set(servers.map((s) => s.id));
    for (const id of ids) this.toldIds.add(id);
    for (const id of this.serverNodes.keys()) if (!ids.has(id)) this.serverNodes.delete(id);
    const problems = this.problems.problems();
    const notices = this.currentNotices();
    this.shownNotices = notices.key;
    const top: Node[] = notices.shown.map((notice) => new NoticeNode(notice));
    if (!groupByScope(servers, vscode.workspace.workspaceFolders?.length ?? 0)) {
      this.scopeNodes = new Map();
      return [...top, ...problems.map((p) => new ProblemNode(p)), ...servers.map((s) => this.serverNode(s, undefined))];
    }
    const groups = serversByScope(servers);
    // A folder whose broken file defined no server yet still gets its row, with the problem on it.
    for (const p of problems) if (!groups.some((g) => g.scope.key === p.scope.key)) groups.push({ scope: p.scope, servers: [] });
    const scopes = new Map<string, ScopeNode>();
    for (const g of groups) {
      const problem = problems.find((p) => p.scope.key === g.scope.key);
      const node = this.scopeNodes.get(g.scope.key) ?? new ScopeNode(g.scope, g.servers, problem, (info, parent) => this.serverNode(info, parent));
      node.scope = g.scope;
      node.servers = g.servers;
      node.problem = problem;
      scopes.set(g.scope.key, node);
    }
    this.scopeNodes = scopes;
    return [...top, ...scopes.values()];
  }

  getParent(node: Node): Node | undefined {
    return node.parent;
  }

  dispose(): void {
    this.refresh.dispose();
    this.slowStarts.dispose();
    for (const s of this.subscriptions) s.dispose();
    this._onDidChangeTreeData.dispose();
  }
}
