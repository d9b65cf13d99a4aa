// Wiring only: build the host, adapt VS Code to it, and return the public API.
import vscode = require('vscode');
import { CommandIds } from './core/common/commandIds';
import { ChatAttachments } from './core/features/resources/chatAttachments';
import { plainText } from './core/presentation/serverText';
import { guardToolResultPreviews } from './core/presentation/markdownPreviewGuard';
import { registerSignInCommands } from './vscode/auth/signInCommands';
import { ModelAvailability, showNoModelMessage } from './vscode/chat/modelAvailability';
import { registerChatFeatures } from './vscode/chat/registerChatFeatures';
import { Coexistence } from './vscode/coexistence/coexistence';
import { registerCommands } from './vscode/servers/serverCommands';
import { registerRegistryCommands } from './vscode/mcpRegistry/registerRegistryCommands';
import { followDevMode } from './vscode/devMode/devMode';
import { ConfigLoader } from './vscode/config/configLoader';
import { createHost } from './vscode/createHost';
import { notifyFailures } from './vscode/servers/failureNotifications';
import { notifyServersWaitingForTrust } from './vscode/trust/trustNotice';
import { registerMcpJsonCompletion } from './vscode/config/mcpJsonCompletion';
import { createPublicApi, type McpHostApi } from './vscode/publicApi';
import { registerResources } from './vscode/resources/registerResources';
import { RestrictedModeNotice } from './vscode/trust/restrictedMode';
import { ServersTreeProvider } from './vscode/servers/serversTreeProvider';
import { registerSkillCommands } from './vscode/skills/skillCommands';
import { McpStatusBar } from './vscode/servers/statusBar';
import { followWalkthrough } from './vscode/walkthrough/walkthroughProgress';
import { ToolNode } from './vscode/servers/serverNodes';
import { GatewayClientRows, registerGateway } from './vscode/gateway/registerGateway';

/** Stops every server (and its child processes) when the extension host goes away. */
let stopAllServers: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): McpHostApi & { extendMarkdownIt: typeof guardToolResultPreviews } {
  const host = createHost(context);
  const { manager, dialogs, logs, permissions, trustStore, inputs, parts } = host;
  stopAllServers = () => manager.disposeAsync();
  // VS Code keeps a profile's settings.json and mcp.json two folders above an extension's global storage.
  const configLoader = new ConfigLoader(manager, vscode.Uri.joinPath(context.globalStorageUri, 'mcp.json'), vscode.Uri.joinPath(context.globalStorageUri, '..', '..'));
  const coexistence = new Coexistence(context.workspaceState, manager, parts);
  const restricted = new RestrictedModeNotice(manager);
  const gatewayRows = new GatewayClientRows();
  const tree: ServersTreeProvider = new ServersTreeProvider(manager, [restricted, coexistence, gatewayRows], configLoader, (info) => parts.serverRows(info, tree), parts.hoverTexts);
  const testMode = context.extensionMode === vscode.ExtensionMode.Test;
  // "Attach to Chat" in the Resources view queues resources for the @mcp participant.
  const attachments = new ChatAttachments();
  const resources = registerResources({ host: manager, subscriptions: host.resourceSubscriptions, attachments, resourceCommands: parts.resourceCommands, resourceDocuments: parts.resourceDocuments, resourcesTree: parts.resourcesTree, resourceOpener: parts.resourceOpener, hoverTexts: parts.hoverTexts });
  const chat = registerChatFeatures({ sessions: manager, parts, permissions, dialogs, activeToolCalls: host.activeToolCalls, resources: resources.chat, extensionUri: context.extensionUri, version: context.extension.packageJSON.version, testMode });
  const serversView = vscode.window.createTreeView('mcpHost.servers', { treeDataProvider: tree, showCollapseAll: true, manageCheckboxStateManually: true });
  tree.isVisible = () => serversView.visible;
  const models = new ModelAvailability();
  const statusBar = new McpStatusBar(manager);
  const addFromRegistry = registerRegistryCommands({ configLoader, inputs, dialogs, state: context.globalState, firstStarts: host.firstStarts, registryBrowser: parts.registryBrowser });
  const gateway = registerGateway((definitionsChanged) => parts.gatewayController(manager, chat.caller, context, gatewayRows, definitionsChanged));
  const api = createPublicApi({ manager, configLoader, tree, serversView, coexistence, statusBar, testDialogs: testMode ? dialogs : undefined, chat, resources: resources.testing, registryPick: addFromRegistry.registryPick, argumentPick: parts.activeArgumentPick, gateway: gateway.running, flushKnownRuns: host.flushKnownRuns });
  context.subscriptions.push(
    host,
    configLoader,
    coexistence,
    restricted,
    tree,
    serversView,
    models,
    showNoModelMessage(serversView, models, manager),
    statusBar,
    ...registerCommands({ manager, configLoader, logs, trustStore, inputs, dialogs, permissions, configTemplate: parts.configTemplate, enableServerInFile: parts.enableServerInFile, toolChoices: host.toolChoices }, parts.serverCommandHandlers),
    ...addFromRegistry.disposables,
    followDevMode(manager, parts.devModeWatcher),
    ...followWalkthrough(manager, host.activeToolCalls),
    notifyFailures(manager, logs),
    notifyServersWaitingForTrust(manager, parts.showTrustNotice),
    registerMcpJsonCompletion(parts.mcpJsonCompletionItems),
    vscode.commands.registerCommand(CommandIds.managePermissions, () => parts.managePermissions(permissions)),
    ...registerSkillCommands(manager, parts, attachments),
    ...registerSignInCommands({ manager, status: host.authStatus, secrets: context.secrets }, parts),
    ...chat.disposables,
    ...gateway.disposables,
    gatewayRows,
    // A tool's checkbox, or a server's for all its tools: as plain data (the rows' classes belong to this bundle).
    serversView.onDidChangeCheckboxState((e) =>
      parts.switchTools(host.toolChoices(), manager, e.items.map(([node, state]) => ({ serverId: node.serverId, tool: node instanceof ToolNode ? node.tool.name : undefined, state }))),
    ),
    attachments,
    resources,
    vscode.workspace.onDidGrantWorkspaceTrust(() => manager.startIdle()),
    api,
  );
  // Servers start after activate() returns: startup never waits for them.
  configLoader
    .start()
    .then(() => coexistence.offerOnce())
    .catch((e: Error) => vscode.window.showErrorMessage(`MCP Host: could not load the server configuration: ${plainText(e.message)}`));
  // VS Code's Markdown preview takes this plugin (`markdown.markdownItPlugins`): tool results shown there load nothing.
  return Object.assign(api, { extendMarkdownIt: guardToolResultPreviews });
}

export async function deactivate(): Promise<void> {
  await stopAllServers?.();
  stopAllServers = undefined;
}
