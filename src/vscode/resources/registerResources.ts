// The resources feature in VS Code: the Resources view, resource documents (a read-only file system with its own
// scheme), live updates of open documents, the resource commands, and what chat uses of it.
import vscode = require('vscode');
import type { ChatAttachment, ChatAttachments } from '../../core/features/resources/chatAttachments';
import type { ResourceContents } from '../../core/features/resources/resourceContents';
import { RESOURCE_SCHEME } from '../../core/features/resources/resourceLocation';
import { ResourceService } from '../../core/features/resources/resourceService';
import type { SessionPort } from '../../core/host/serverSession';
import type { ResourceSubscriptions, ResourceUpdate } from '../../core/features/resources/resourceSubscriptions';
import { trackOpenResources } from './openResourceTracker';
import { ResourceFileSystemProvider, type ResourceDocumentStore, type ResourceDocumentsDeps } from './resourceFileSystemProvider';
import type { ResourceOpening, ResourceTarget } from './resourceOpening';
import { DeferredResourcesTree, treeKit, type ResourcesTree, type ResourceTreeNode, type TreeKit } from './deferredResourcesTree';
import { CommandIds } from '../../core/common/commandIds';
import { builtPart } from '../../core/common/lazy';
import type { HoverTexts } from '../servers/treeNode';

export const RESOURCES_VIEW_ID = 'mcpHost.resources';

/** The resource commands: registered here, their work (./resourceCommands.lazy.ts) loaded on use. */
const RESOURCE_COMMANDS = [
  CommandIds.openResource,
  CommandIds.openResourceTemplate,
  CommandIds.findResource,
  CommandIds.copyResourceUri,
  CommandIds.copyResourceContents,
  CommandIds.saveResourceAs,
  CommandIds.attachResourceToChat,
  CommandIds.refreshResources,
  CommandIds.loadMoreResources,
  CommandIds.openResourceLink,
];

export interface ResourceCommandDeps {
  service: ResourceService;
  opener: ResourceOpening;
  files: ResourceFileSystemProvider;
  attachments: ChatAttachments;
  /** The Resources view, where "Load more…" shows its progress. */
  viewId: string;
}

/** The resource commands' work (./resourceCommands.lazy.ts), by command id, and the template pick it shows. */
export interface ResourceCommands {
  handlers: Record<string, (...args: never[]) => unknown>;
  /** The template pick on screen, if any. */
  templatePick(): TemplatePickState | undefined;
}

/** What the open pick shows (for tests, which cannot read the workbench). */
export interface TemplatePickState {
  title: string;
  variable: string;
  items: string[];
  /** The highlighted item, as the workbench reports it. */
  active: string | undefined;
  busy: boolean;
}

export interface ResourcesDeps {
  host: SessionPort;
  subscriptions: ResourceSubscriptions;
  attachments: ChatAttachments;
  /** The commands' work, and the rows' hover texts, built on first use. */
  resourceCommands(deps: ResourceCommandDeps): ResourceCommands;
  /** What resource documents hold, built at the first one. */
  resourceDocuments(deps: ResourceDocumentsDeps): ResourceDocumentStore;
  /** The view's rows, built when VS Code first asks for them. */
  resourcesTree(service: ResourceService, files: ResourceFileSystemProvider, hoverTexts: HoverTexts, kit: TreeKit): ResourcesTree;
  /** Opens resources in editors, built at the first use (a server runs by then). */
  resourceOpener(service: ResourceService, files: ResourceFileSystemProvider): ResourceOpening;
  hoverTexts: HoverTexts;
}

/** What the chat participant uses: reading, the document of a resource link, and the attachments queue. */
export interface ResourcesForChat {
  read(serverId: string, uri: string): Promise<ResourceContents[]>;
  documentUri(serverId: string, link: Pick<ResourceTarget, 'uri' | 'name' | 'mimeType'>): vscode.Uri;
  takeAttachments(): ChatAttachment[];
  readonly attachCommand: string;
}

/** Extension tests only: what the view shows and what is going on, as tests cannot read the workbench. */
export interface ResourcesTestingApi {
  /** The Resources view as rendered, every node expanded: `label — description`, indented by level; greyed items end with ` (greyed)`. */
  renderTree(): string[];
  /** Server ids whose subtree was refreshed since the last call, in order; `*` for the whole view. */
  takeRefreshes(): string[];
  /** The template quick pick on screen, if any. */
  templatePick(): TemplatePickState | undefined;
  /** Resources subscribed right now. */
  subscriptions(): ResourceUpdate[];
  /** Attachments waiting for the chat participant. */
  attachments(): readonly ChatAttachment[];
  /** Expands a server in the real view; resolves once VS Code has fetched and shown its children. */
  expandServer(serverId: string): Promise<void>;
  /** The view's own provider: tests run the menu commands on the very nodes it returns. */
  readonly provider: vscode.TreeDataProvider<ResourceTreeNode>;
}

export interface ResourcesFeature extends vscode.Disposable {
  readonly opener: ResourceOpening;
  readonly chat: ResourcesForChat;
  readonly testing: ResourcesTestingApi;
}

export function registerResources(deps: ResourcesDeps): ResourcesFeature {
  const service = new ResourceService(deps.host);
  const files = new ResourceFileSystemProvider(service, deps.resourceDocuments);
  const opener = deps.resourceOpener(service, files);
  const tree = new DeferredResourcesTree(() => deps.resourcesTree(service, files, deps.hoverTexts, treeKit), (uri) => files.serverIdOf(uri) !== undefined);
  const commands = deps.resourceCommands({ service, opener, files, attachments: deps.attachments, viewId: RESOURCES_VIEW_ID });
  const refreshes: string[] = [];
  const view = vscode.window.createTreeView(RESOURCES_VIEW_ID, { treeDataProvider: tree, dragAndDropController: tree, showCollapseAll: true });
  const disposables: vscode.Disposable[] = [
    files,
    ResourceFileSystemProvider.register(files, RESOURCE_SCHEME),
    tree,
    view,
    vscode.window.registerFileDecorationProvider(tree),
    tree.onDidRefresh((id) => {
      refreshes.push(id ?? '*');
      // Only tests read them: keep the latest few.
      if (refreshes.length > 200) refreshes.shift();
    }),
    trackOpenResources(files, deps.subscriptions),
    ...RESOURCE_COMMANDS.map((id) => vscode.commands.registerCommand(id, (...args: unknown[]) => (commands.handlers[id] as (...a: unknown[]) => unknown)(...args))),
  ];

  const render = (nodes: ResourceTreeNode[], depth: number): string[] =>
    nodes.flatMap((n) => {
      const item = tree.getTreeItem(n);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      const greyed = item.resourceUri && tree.provideFileDecoration(item.resourceUri) ? ' (greyed)' : '';
      return [`${'  '.repeat(depth)}${label}${item.description ? ` — ${item.description}` : ''}${greyed}`, ...render(tree.getChildren(n), depth + 1)];
    });

  return {
    opener,
    chat: {
      read: (serverId, uri) => service.read(serverId, uri),
      documentUri: (serverId, link) => opener.documentUri(serverId, link),
      takeAttachments: () => deps.attachments.take(),
      attachCommand: CommandIds.attachResourceToChat,
    },
    testing: {
      renderTree: () => render(tree.getChildren(), 0),
      takeRefreshes: () => refreshes.splice(0),
      templatePick: () => builtPart(commands)?.templatePick(),
      subscriptions: () => deps.subscriptions.subscriptions(),
      attachments: () => deps.attachments.peek(),
      provider: tree,
      expandServer: async (serverId) => {
        tree.getChildren();
        const node = tree.built.serverNode(serverId);
        if (!node) throw new Error(`no server ${serverId} in the Resources view`);
        await view.reveal(node, { expand: true, focus: false, select: false });
      },
    },
    dispose: () => {
      for (const d of disposables.reverse()) d.dispose();
    },
  };
}
