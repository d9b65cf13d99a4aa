// The "MCP Resources" view: workspace folders (when there are several sources), servers, their resources a page at a
// time ("Load more…") and a "Templates" group. A server's subtree refreshes alone when its list changes; a server
// that is not running keeps its last items, greyed (a file decoration), under the reason.
import vscode = require('vscode');
import { ResourceListings, type ServerListing } from '../../core/features/resources/resourceListings';
import type { ResourceService } from '../../core/features/resources/resourceService';
import { groupByScope, isSlowStart, serversByScope } from '../../core/presentation/serverPresentation';
import type { SlowStartAlarm } from '../../core/presentation/slowStartAlarm';
import { downExplanation } from '../../core/presentation/resourcePresentation';
import type { ResourceFileSystemProvider } from './resourceFileSystemProvider';
import type { CoalescedRefresh } from '../coalescedRefresh';
import type { HoverTexts } from '../servers/treeNode';
import { markdown } from '../untrustedMarkdown';
import type { ResourcesTree, TreeKit } from './deferredResourcesTree';
import { documentUri, FolderNode, ResourceNode, ServerNode, serverUri, TemplateNode, type ResourceTreeNode, type TreeContext } from './resourceNodes.lazy';

export type { ResourceTreeNode } from './resourceNodes.lazy';

/** A burst of changes (servers starting together, list_changed storms) renders once. */
export class ResourcesTreeProvider
  implements vscode.TreeDataProvider<ResourceTreeNode>, vscode.TreeDragAndDropController<ResourceTreeNode>, vscode.FileDecorationProvider, ResourcesTree
{
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<ResourceTreeNode | ResourceTreeNode[] | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly _onDidChangeFileDecorations = new vscode.EventEmitter<vscode.Uri[] | undefined>();
  readonly onDidChangeFileDecorations = this._onDidChangeFileDecorations.event;
  private readonly _onDidRefresh = new vscode.EventEmitter<string | undefined>();
  /** Fires the server id of each subtree refreshed, or undefined when the whole view is. */
  readonly onDidRefresh = this._onDidRefresh.event;
  readonly dragMimeTypes = ['text/uri-list'];
  readonly dropMimeTypes: string[] = [];

  private readonly listings: ResourceListings;
  /** Node objects are kept (VS Code refreshes a subtree by its object): servers by id, folders by scope key. */
  private readonly nodes = new Map<string, ServerNode>();
  private readonly folders = new Map<string, FolderNode>();
  private readonly subscriptions: vscode.Disposable[];
  private readonly refresh: CoalescedRefresh;
  /** A starting server's icon is still until its start becomes slow, then spins: its row is drawn again then. */
  private readonly slowStarts: SlowStartAlarm;
  private readonly ctx: TreeContext;
  /** The servers that changed since the listings were last updated (the server manager's events say which). */
  private readonly changedIds = new Set<string>();
  /** The servers shown greyed: what they show changes decoration only when a server joins or leaves this set. */
  private down = new Set<string>();

  constructor(
    private readonly service: ResourceService,
    files: ResourceFileSystemProvider,
    private readonly hoverTexts: HoverTexts,
    kit: TreeKit,
  ) {
    this.refresh = kit.coalescedRefresh(() => this.applyChanges());
    this.slowStarts = kit.slowStartAlarm(() => this.showSlowStarts());
    this.listings = new ResourceListings(
      (id) => service.hasMore(id),
      (id) => service.hasMoreTemplates(id),
    );
    this.listings.update(service.servers());
    this.ctx = {
      files,
      dark: () => [vscode.ColorThemeKind.Dark, vscode.ColorThemeKind.HighContrast].includes(vscode.window.activeColorTheme.kind),
    };
    this.subscriptions = [
      service.onDidChangeServers((ids) => {
        for (const id of ids) this.changedIds.add(id);
        this.refresh.schedule();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.refreshAll()),
      vscode.window.onDidChangeActiveColorTheme(() => this.refreshAll()),
    ];
  }

  private applyChanges() {
    const servers = this.service.servers();
    const changes = this.listings.update(servers, this.changedIds);
    this.changedIds.clear();
    this.slowStarts.set(servers);
    if (changes.structure) return this.refreshAll();
    const refreshed: ServerNode[] = [];
    for (const id of changes.servers) {
      const node = this.nodes.get(id);
      const listing = this.listings.get(id);
      if (!node || !listing) continue;
      node.listing = listing;
      refreshed.push(node);
    }
    // One event for them all: VS Code sends the first change of a burst to the workbench at once and the rest 200 ms
    // later, so one event per server drew the view twice (and kept the others' spinners turning meanwhile).
    if (refreshed.length) this._onDidChangeTreeData.fire(refreshed);
    for (const node of refreshed) this._onDidRefresh.fire(node.listing.server.id);
    this.redecorate();
  }

  private showSlowStarts() {
    const now = Date.now();
    const listed = this.listings.all();
    this.slowStarts.set(listed.map((l) => l.server), now);
    const slow = listed.flatMap((l) => (isSlowStart(l.server, now) ? (this.nodes.get(l.server.id) ?? []) : []));
    if (!slow.length) return;
    this._onDidChangeTreeData.fire(slow);
    for (const node of slow) this._onDidRefresh.fire(node.listing.server.id);
  }

  private refreshAll() {
    this.nodes.clear();
    this.folders.clear();
    this._onDidChangeTreeData.fire(undefined);
    this.redecorate();
    this._onDidRefresh.fire(undefined);
  }

  /**
   * Tells VS Code which URIs' greying changed: those of the servers that went down or came back. A change of "every
   * URI" makes every view and tab with file labels ask their decorations again (a large share of the workbench's CPU
   * while servers start), for servers whose greying did not change.
   */
  private redecorate(): void {
    const down = new Set(this.listings.all().flatMap((l) => (l.status === 'down' ? [l.server.id] : [])));
    const changed = [...new Set([...down, ...this.down])].filter((id) => down.has(id) !== this.down.has(id));
    this.down = down;
    const uris = changed.flatMap((id) => this.decoratedUris(id));
    if (uris.length) this._onDidChangeFileDecorations.fire(uris);
  }

  /** The URIs a server's greying shows on: its row, its listed resources and its documents open in editors. */
  private decoratedUris(serverId: string): vscode.Uri[] {
    const { files } = this.ctx;
    const listed = this.listings.get(serverId)?.resources ?? [];
    const open = [
      ...vscode.workspace.textDocuments.map((d) => d.uri),
      ...vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => (t.input instanceof vscode.TabInputText || t.input instanceof vscode.TabInputCustom ? t.input.uri : undefined))),
    ];
    return [
      serverUri(files, serverId),
      ...listed.map((r) => documentUri(files, serverId, r)),
      ...open.filter((uri): uri is vscode.Uri => !!uri && files.serverIdOf(uri) === serverId),
    ];
  }

  getTreeItem(node: ResourceTreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  /** A resource's or template's Markdown tooltip, made when its row is hovered (untrusted: links inert, no HTML). */
  resolveTreeItem(item: vscode.TreeItem, node: ResourceTreeNode): vscode.TreeItem {
    if (item.tooltip !== undefined) return item;
    if (node instanceof ResourceNode) item.tooltip = markdown(this.hoverTexts.resourceTooltip(node.resource, node.server.listing.server.name));
    else if (node instanceof TemplateNode) item.tooltip = markdown(this.hoverTexts.templateTooltip(node.template, node.server.listing.server.name));
    return item;
  }

  getChildren(node?: ResourceTreeNode): ResourceTreeNode[] {
    if (node) return node.getChildren();
    const listings = this.listings.all();
    this.slowStarts.set(listings.map((l) => l.server));
    const serverNode = (listing: ServerListing, parent: ResourceTreeNode | undefined) => {
      let n = this.nodes.get(listing.server.id);
      if (!n || n.parent !== parent) {
        n = new ServerNode(listing, parent, this.ctx);
        this.nodes.set(listing.server.id, n);
      }
      n.listing = listing;
      return n;
    };
    const servers = listings.map((l) => l.server);
    if (!groupByScope(servers, vscode.workspace.workspaceFolders?.length ?? 0)) return listings.map((l) => serverNode(l, undefined));
    return serversByScope(servers).map((group) => {
      let folder = this.folders.get(group.scope.key);
      if (!folder) {
        folder = new FolderNode(group.scope);
        this.folders.set(group.scope.key, folder);
      }
      const parent = folder;
      folder.servers = group.servers.map((s) => serverNode(this.listings.get(s.id)!, parent));
      return folder;
    });
  }

  getParent(node: ResourceTreeNode): ResourceTreeNode | undefined {
    return node.parent;
  }

  /** The server node of a server, as the view shows it (after getChildren). */
  serverNode(serverId: string): ServerNode | undefined {
    return this.nodes.get(serverId);
  }

  /** Greys whatever belongs to a server that is not running: its items and the documents of its resources. */
  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const serverId = this.ctx.files.serverIdOf(uri);
    const listing = serverId === undefined ? undefined : this.listings.get(serverId);
    if (listing?.status !== 'down') return undefined;
    return { color: new vscode.ThemeColor('disabledForeground'), tooltip: downExplanation(listing) };
  }

  handleDrag(source: readonly ResourceTreeNode[], data: vscode.DataTransfer): void {
    const uris = source.filter((n): n is ResourceNode => n instanceof ResourceNode).map((n) => n.documentUri.toString());
    if (uris.length) data.set('text/uri-list', new vscode.DataTransferItem(uris.join('\r\n')));
  }

  dispose(): void {
    this.refresh.dispose();
    this.slowStarts.dispose();
    for (const s of this.subscriptions) s.dispose();
    this._onDidChangeTreeData.dispose();
    this._onDidChangeFileDecorations.dispose();
    this._onDidRefresh.dispose();
  }
}
