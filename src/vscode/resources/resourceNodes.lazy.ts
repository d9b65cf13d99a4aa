// The rows of the "MCP Resources" view: folders, servers, their resources and templates, "Load more…", and the
// messages in their place. Server nodes are kept across refreshes (VS Code refreshes a subtree by its object).
import vscode = require('vscode');
import type { ConfigScope } from '../../core/config/serverDefinition';
import type { ServerListing } from '../../core/features/resources/resourceListings';
import { fileNameFor } from '../../core/features/resources/resourceLocation';
import type { Resource, ResourceTemplate } from '../../core/host/serverInfo';
import { scopeLabel, serverIcon } from '../../core/presentation/serverPresentation';
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

const nodeId = (...parts: string[]): string => JSON.stringify(parts);

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
export const serverUri = (files: ResourceFileSystemProvider, serverId: string): vscode.Uri => files.uriFor({ serverId, uri: '', fileName: 'server' });

/** The document that shows a resource (also what dragging it into the editor area opens). */
export const documentUri = (files: ResourceFileSystemProvider, serverId: string, r: Resource): vscode.Uri =>
  files.uriFor({ serverId, uri: r.uri, fileName: fileNameFor(r.uri, r.mimeType, r.name) });

/** What nodes need from the provider: the documents' URIs and whether the view is dark (for server icons). */
export interface TreeContext {
  files: ResourceFileSystemProvider;
  dark(): boolean;
}

export class FolderNode extends ResourceTreeNode {
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

