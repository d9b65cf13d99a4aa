// The "MCP Resources" view: workspace folders (when there are several sources), servers, their resources a page at a
// time ("Load more…") and a "Templates" group. A server's subtree refreshes alone when its list changes; a server
// that is not running keeps its last items, greyed (a file decoration), under the reason.
import vscode = require('vscode');
import type { ConfigScope } from '../../core/config/types';
import { ResourceListings, type ServerListing } from '../../core/features/resources/resourceListings';
import { fileNameFor } from '../../core/features/resources/resourceLocation';
import type { ResourceService } from '../../core/features/resources/resourceService';
import type { Resource, ResourceTemplate } from '../../core/host/types';
import { groupByScope, scopeLabel, serverIcon, serversByScope } from '../../core/presentation/serverPresentation';
import {
  downExplanation,
  mimeIcon,
  pickIcon,
  resourceDescription,
  resourceLabel,
  serverListingDescription,
  templateDescription,
} from '../../core/presentation/resourcePresentation';
import type { ResourceFileSystemProvider } from './resourceFileSystemProvider';
import { CommandIds } from '../../core/common/commandIds';
import { CoalescedRefresh } from '../coalescedRefresh';
import type { HoverTexts } from '../treeNode';

/** A burst of changes (servers starting together, list_changed storms) renders once. */

const nodeId = (...parts: string[]): string => JSON.stringify(parts);
const markdown = (text: string): vscode.MarkdownString => new vscode.MarkdownString(text);

export abstract class ResourceTreeNode {
  constructor(
    readonly id: string,
    readonly parent: ResourceTreeNode | undefined,
  ) {}

  abstract getTreeItem(): vscode.TreeItem;

  getChildren(): ResourceTreeNode[] {
    return [];
  }
}

/** A server's own URI in the Resources view: only its authority matters, for the greying decoration. */
const serverUri = (files: ResourceFileSystemProvider, serverId: string): vscode.Uri => files.uriFor({ serverId, uri: '', fileName: 'server' });

/** The document that shows a resource (also what dragging it into the editor area opens). */
const documentUri = (files: ResourceFileSystemProvider, serverId: string, r: Resource): vscode.Uri =>
  files.uriFor({ serverId, uri: r.uri, fileName: fileNameFor(r.uri, r.mimeType, r.name) });

/** What nodes need from the provider: the documents' URIs and whether the view is dark (for server icons). */
interface TreeContext {
  files: ResourceFileSystemProvider;
  dark(): boolean;
}

class FolderNode extends ResourceTreeNode {
  servers: ServerNode[] = [];

  constructor(private readonly scope: ConfigScope) {
    super(nodeId('scope', scope.key), undefined);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(scopeLabel(this.scope), vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    item.tooltip = this.scope.configPath;
    item.iconPath = new vscode.ThemeIcon(this.scope.kind === 'user' ? 'account' : 'root-folder');
    item.contextValue = 'mcpResourceScope';
    return item;
  }

  getChildren(): ResourceTreeNode[] {
    return this.servers;
  }
}

/** Kept across refreshes (VS Code refreshes a subtree by its node object): its listing is replaced in place. */
export class ServerNode extends ResourceTreeNode {
  constructor(
    public listing: ServerListing,
    parent: ResourceTreeNode | undefined,
    private readonly ctx: TreeContext,
  ) {
    super(nodeId('server', listing.server.id), parent);
  }

  get serverId(): string {
    return this.listing.server.id;
  }

  get down(): boolean {
    return this.listing.status === 'down';
  }

  get decorationUri(): vscode.Uri {
    return serverUri(this.ctx.files, this.serverId);
  }

  getTreeItem(): vscode.TreeItem {
    const { listing } = this;
    const item = new vscode.TreeItem(listing.server.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.description = serverListingDescription(listing);
    item.resourceUri = this.decorationUri;
    const icon = pickIcon(listing.server.serverInfo?.icons, this.ctx.dark() ? 'dark' : 'light');
    const state = serverIcon(listing.server);
    item.iconPath = icon ? vscode.Uri.parse(icon) : new vscode.ThemeIcon(state.id, state.color ? new vscode.ThemeColor(state.color) : undefined);
    item.tooltip = listing.status === 'down' ? downExplanation(listing) : `${listing.server.name}: ${item.description}`;
    item.contextValue = `mcpResourceServer.${listing.status}`;
    return item;
  }

  getChildren(): ResourceTreeNode[] {
    const { listing } = this;
    const children: ResourceTreeNode[] = [];
    if (listing.status === 'starting') return [new MessageNode(this, 'starting', 'Starting…', 'loading~spin')];
    if (listing.status === 'no-resources') return [new MessageNode(this, 'none', 'This server offers no resources', 'info')];
    if (listing.status === 'down') {
      const { state } = listing.server;
      const action = state.kind === 'error' ? CommandIds.showOutput : state.kind === 'blocked' && state.reason === 'restricted' ? 'workbench.trust.manage' : CommandIds.startServer;
      children.push(new MessageNode(this, 'down', downExplanation(listing), listing.server.state.kind === 'error' ? 'error' : 'debug-pause', action));
    }
    const seen = new Map<string, number>();
    for (const r of listing.resources) {
      // URIs are unique on a well-behaved server; a duplicate must not break the view (VS Code rejects repeated ids).
      const n = (seen.get(r.uri) ?? 0) + 1;
      seen.set(r.uri, n);
      children.push(new ResourceNode(this, r, n === 1 ? r.uri : `${r.uri}#${n}`, this.ctx));
    }
    if (listing.hasMore) children.push(new LoadMoreNode(this));
    if (listing.templates.length) children.push(new TemplatesNode(this));
    if (listing.status === 'running' && !children.length) children.push(new MessageNode(this, 'empty', 'No resources', 'info'));
    return children;
  }
}

class MessageNode extends ResourceTreeNode {
  constructor(
    private readonly server: ServerNode,
    kind: string,
    private readonly label: string,
    private readonly icon: string,
    private readonly command?: string,
  ) {
    super(nodeId('message', server.serverId, kind), server);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label);
    item.id = this.id;
    item.tooltip = this.label;
    item.iconPath = new vscode.ThemeIcon(this.icon);
    item.contextValue = 'mcpResourceMessage';
    if (this.command) item.command = { title: this.label, command: this.command, arguments: [this.server.serverId] };
    return item;
  }
}

export class ResourceNode extends ResourceTreeNode {
  constructor(
    readonly server: ServerNode,
    readonly resource: Resource,
    key: string,
    private readonly ctx: TreeContext,
  ) {
    super(nodeId('resource', server.serverId, key), server);
  }

  get serverId(): string {
    return this.server.serverId;
  }

  get documentUri(): vscode.Uri {
    return documentUri(this.ctx.files, this.serverId, this.resource);
  }

  getTreeItem(): vscode.TreeItem {
    const r = this.resource;
    const item = new vscode.TreeItem(resourceLabel(r));
    item.id = this.id;
    item.description = resourceDescription(r);
    item.resourceUri = this.documentUri;
    const icon = pickIcon(r.icons, this.ctx.dark() ? 'dark' : 'light');
    item.iconPath = icon ? vscode.Uri.parse(icon) : new vscode.ThemeIcon(mimeIcon(r.mimeType));
    item.contextValue = this.server.down ? 'mcpResource.down' : 'mcpResource';
    if (!this.server.down) item.command = { title: 'Open', command: CommandIds.openResource, arguments: [this] };
    return item;
  }
}

/** The next page of a server's resources, or of its templates. */
class LoadMoreNode extends ResourceTreeNode {
  constructor(
    private readonly server: ServerNode,
    private readonly what: 'resources' | 'templates' = 'resources',
    parent: ResourceTreeNode = server,
  ) {
    super(nodeId('more', server.serverId, what), parent);
  }

  getTreeItem(): vscode.TreeItem {
    const { listing } = this.server;
    const item = new vscode.TreeItem('Load more…');
    item.id = this.id;
    item.description = `${this.what === 'templates' ? listing.templates.length : listing.resources.length} loaded`;
    item.tooltip = `The server has more ${this.what === 'templates' ? 'resource templates' : 'resources'}: load its next page.`;
    item.iconPath = new vscode.ThemeIcon('more');
    item.contextValue = 'mcpResourceLoadMore';
    item.command = { title: 'Load More', command: CommandIds.loadMoreResources, arguments: [this.server.serverId, this.what] };
    return item;
  }
}

class TemplatesNode extends ResourceTreeNode {
  constructor(private readonly server: ServerNode) {
    super(nodeId('templates', server.serverId), server);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Templates', vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.description = `${this.server.listing.templates.length}${this.server.listing.hasMoreTemplates ? '+' : ''}`;
    item.tooltip = 'Resource templates: URIs with variables to fill in';
    item.iconPath = new vscode.ThemeIcon('symbol-variable');
    item.resourceUri = this.server.decorationUri;
    item.contextValue = 'mcpResourceTemplates';
    return item;
  }

  getChildren(): ResourceTreeNode[] {
    const seen = new Set<string>();
    const templates: ResourceTreeNode[] = this.server.listing.templates.map((t, i) => {
      const key = seen.has(t.uriTemplate) ? `${t.uriTemplate}#${i}` : t.uriTemplate;
      seen.add(t.uriTemplate);
      return new TemplateNode(this.server, t, key, this);
    });
    return this.server.listing.hasMoreTemplates ? [...templates, new LoadMoreNode(this.server, 'templates', this)] : templates;
  }
}

export class TemplateNode extends ResourceTreeNode {
  constructor(
    readonly server: ServerNode,
    readonly template: ResourceTemplate,
    key: string,
    parent: ResourceTreeNode,
  ) {
    super(nodeId('template', server.serverId, key), parent);
  }

  get serverId(): string {
    return this.server.serverId;
  }

  getTreeItem(): vscode.TreeItem {
    const t = this.template;
    const item = new vscode.TreeItem(resourceLabel(t));
    item.id = this.id;
    item.description = templateDescription(t);
    item.iconPath = new vscode.ThemeIcon('symbol-variable');
    item.resourceUri = this.server.decorationUri;
    item.contextValue = this.server.down ? 'mcpResourceTemplate.down' : 'mcpResourceTemplate';
    if (!this.server.down) item.command = { title: 'Open Template', command: CommandIds.openResourceTemplate, arguments: [this] };
    return item;
  }
}

export class ResourcesTreeProvider
  implements vscode.TreeDataProvider<ResourceTreeNode>, vscode.TreeDragAndDropController<ResourceTreeNode>, vscode.FileDecorationProvider, vscode.Disposable
{
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<ResourceTreeNode | undefined>();
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
  private readonly refresh = new CoalescedRefresh(() => this.applyChanges());
  private readonly ctx: TreeContext;
  /** The servers shown greyed: what they show changes decoration only when a server joins or leaves this set. */
  private down = new Set<string>();

  constructor(
    private readonly service: ResourceService,
    files: ResourceFileSystemProvider,
    private readonly hoverTexts: () => HoverTexts,
  ) {
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
      service.onDidChangeServers(() => this.refresh.schedule()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.refreshAll()),
      vscode.window.onDidChangeActiveColorTheme(() => this.refreshAll()),
    ];
  }

  private applyChanges() {
    const changes = this.listings.update(this.service.servers());
    if (changes.structure) return this.refreshAll();
    for (const id of changes.servers) {
      const node = this.nodes.get(id);
      const listing = this.listings.get(id);
      if (!node || !listing) continue;
      node.listing = listing;
      this._onDidChangeTreeData.fire(node);
      this._onDidRefresh.fire(id);
    }
    this.redecorate();
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
   * URI" makes every view and tab with file labels ask their decorations again (about 45 ms of the workbench's CPU
   * while 50 servers start), for servers whose greying did not change.
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
    const serverName = node instanceof ResourceNode || node instanceof TemplateNode ? node.server.listing.server.name : undefined;
    if (item.tooltip !== undefined || serverName === undefined) return item;
    const texts = this.hoverTexts();
    item.tooltip = markdown(node instanceof ResourceNode ? texts.resourceTooltip(node.resource, serverName) : texts.templateTooltip((node as TemplateNode).template, serverName));
    return item;
  }

  getChildren(node?: ResourceTreeNode): ResourceTreeNode[] {
    if (node) return node.getChildren();
    const listings = this.listings.all();
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
    for (const s of this.subscriptions) s.dispose();
    this._onDidChangeTreeData.dispose();
    this._onDidChangeFileDecorations.dispose();
    this._onDidRefresh.dispose();
  }
}
