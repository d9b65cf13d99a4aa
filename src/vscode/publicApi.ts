// The API `activate()` returns to other extensions (and tests): servers, their state and what they offer.
import vscode = require('vscode');
import type { GatewayState } from './gateway/registerGateway';
import type { ServerManager } from '../core/host/serverManager';
import type { ServerInfo } from '../core/host/serverInfo';
import type { AppViewInfo } from './apps/appViewTypes';
import type { ChatFeatures } from './chat/registerChatFeatures';
import type { ChatTranscript } from './chat/chatTranscripts';
import type { Coexistence } from './coexistence/coexistence';
import type { ConfigLoader } from './config/configLoader';
import type { RegistryPickState } from './mcpRegistry/registerRegistryCommands';
import type { ResourcesTestingApi } from './resources/registerResources';
import type { DialogRouter, HostDialogs } from './dialogs/dialogRouter';
import type { ServersTreeProvider } from './servers/serversTreeProvider';
import type { Node } from './servers/serverNodes';
import type { McpStatusBar } from './servers/statusBar';
import type { PreparedAgentCall } from './tools/registerAgentTools';

/** The argument pick on screen, as tests see it (they cannot type into a quick pick, so they set its value). */
export interface ArgumentPickState {
  argument: string;
  value: string;
  items: string[];
  /** The highlighted item's label. */
  active: string | undefined;
  busy: boolean;
  /** What the empty pick says: the argument, required or optional, and why an empty Enter did nothing. */
  placeholder: string | undefined;
  setValue(value: string): void;
}

export interface McpHostApi {
  /** Every configured server: folder (scope), name, state, negotiated protocol version, capabilities, features. */
  getServers(): ServerInfo[];
  getServer(id: string): ServerInfo | undefined;
  /** Fires when servers' state, definition or features change, with the ids of those servers (added and removed ones too). */
  readonly onDidChangeServers: vscode.Event<readonly string[]>;
  /** Only in extension tests (ExtensionMode.Test): hooks that let tests answer dialogs and reach servers. */
  readonly testing?: McpHostTestingApi;
}

export interface McpHostTestingApi {
  /** Answers trust and text-input dialogs instead of the native (modal) ones. */
  useDialogs(dialogs: Partial<HostDialogs>): vscode.Disposable;
  /**
   * Re-reads every mcp.json now instead of waiting for the file watcher; with `folder`, only that folder's
   * .vscode/mcp.json and its .mcp.json, as the watcher does when that file changes.
   */
  reloadConfiguration(folder?: vscode.Uri): Promise<void>;
  /** Writes what servers offered at their last run now (it is written a few seconds after they run). */
  flushKnownRuns(): Promise<void>;
  /** Every configuration file read (whether or not it exists), with its group's label. */
  configFiles(): { label: string; path: string }[];
  callTool(serverId: string, name: string, args?: Record<string, unknown>): Promise<unknown>;
  startServer(serverId: string): Promise<void>;
  stopServer(serverId: string): Promise<void>;
  /** The level of a server's log (VS Code's default until its channel is opened, then the channel's). */
  serverLogLevel(serverId: string): string | undefined;
  readonly roots: () => { uri: string; name: string }[];
  /** The Servers view as rendered: every node's label and description, depth-first, indented by level. */
  renderServersTree(): string[];
  /** The Servers view's own provider: tests run the menu commands on the very nodes it returns. */
  readonly serversTree: vscode.TreeDataProvider<Node>;
  /** VS Code's built-in MCP support next to MCP Host: the choice, the notices shown, and a way to start over. */
  readonly coexistence: Pick<Coexistence, 'notice' | 'shownNotices' | 'reset' | 'offerOnce' | 'builtinOn'>;
  /** What the status bar item shows. */
  statusBar(): McpStatusBar['shown'];
  /** The message at the top of the Servers view, if any. */
  serversViewMessage(): string | undefined;
  /** What @mcp wrote into each chat response so far, oldest first (tests cannot read the Chat view). */
  chatTranscripts(): readonly ChatTranscript[];
  /** How each agent call of `mcpHost_callTool` was prepared, oldest first (tests cannot read VS Code's confirmation). */
  agentToolCalls(): readonly PreparedAgentCall[];
  /** The prompt-argument quick pick on screen, if any: tests cannot type, so they set its value. */
  argumentPick(): ArgumentPickState | undefined;
  /** The Resources view, template picks, subscriptions and chat attachments. */
  readonly resources: ResourcesTestingApi;
  /** Every open MCP App view: its server, tool and state (what it shows is read through the page). */
  appViews(): AppViewInfo[];
  /** The pick of "MCP: Add Server from Registry…" on screen, if any. */
  registryPick(): RegistryPickState | undefined;
  /** The gateway while it runs: its address, token and clients' names (tests connect a client to it). */
  gateway(): GatewayState | undefined;
}

export interface PublicApiParts {
  manager: ServerManager;
  configLoader: ConfigLoader;
  tree: ServersTreeProvider;
  serversView: vscode.TreeView<Node>;
  coexistence: Coexistence;
  statusBar: McpStatusBar;
  /** Only in test mode: the dialog router tests answer through. */
  testDialogs: DialogRouter | undefined;
  chat: ChatFeatures;
  resources: ResourcesTestingApi;
  registryPick(): RegistryPickState | undefined;
  argumentPick(): ArgumentPickState | undefined;
  gateway(): GatewayState | undefined;
  flushKnownRuns(): Promise<void>;
}

export function createPublicApi({
  manager,
  configLoader,
  tree,
  serversView,
  coexistence,
  statusBar,
  testDialogs,
  chat,
  resources,
  registryPick,
  argumentPick,
  gateway,
  flushKnownRuns,
}: PublicApiParts): McpHostApi & vscode.Disposable {
  const render = (nodes: Node[], depth: number): string[] =>
    nodes.flatMap((n) => {
      const item = tree.getTreeItem(n);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      return [`${'  '.repeat(depth)}${label}${item.description ? ` — ${item.description}` : ''}`, ...render(tree.getChildren(n), depth + 1)];
    });
  const changed = new vscode.EventEmitter<readonly string[]>();
  const sub = manager.onDidChangeServers((ids) => changed.fire(ids));
  return {
    getServers: () => manager.servers(),
    getServer: (id) => manager.servers().find((s) => s.id === id),
    onDidChangeServers: changed.event,
    testing: testDialogs && {
      useDialogs: (d) => testDialogs.use(d),
      reloadConfiguration: (folder) => configLoader.reload(folder?.toString()),
      flushKnownRuns,
      configFiles: () => configLoader.watchedFiles(),
      callTool: async (serverId, name, args) => (await manager.openSession(serverId, `a call of ${name}`)).callTool({ name, arguments: args ?? {} }),
      startServer: async (id) => manager.get(id)?.start(true),
      stopServer: async (id) => manager.get(id)?.stop(),
      serverLogLevel: (id) => manager.get(id)?.log.logLevel,
      roots: () => manager.getRoots(),
      renderServersTree: () => render(tree.getChildren(), 0),
      serversTree: tree,
      serversViewMessage: () => serversView.message,
      coexistence,
      statusBar: () => statusBar.shown,
      chatTranscripts: () => chat.transcripts?.all ?? [],
      agentToolCalls: () => chat.agentCalls ?? [],
      argumentPick,
      resources,
      appViews: () => chat.views.views(),
      registryPick,
      gateway,
    },
    dispose: () => {
      sub.dispose();
      changed.dispose();
    },
  };
}
