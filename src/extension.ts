// Wiring only: build the host, adapt VS Code to it, and return the public API.
import * as vscode from 'vscode';
import { ChatAttachments } from './core/features/resources/chatAttachments';
import { plainText } from './core/presentation/serverText';
import { recordStartupTimings } from './core/host/startupTimings';
import { registerSignInCommands } from './vscode/auth/signInCommands';
import { registerChatFeatures } from './vscode/chat/registerChatFeatures';
import { noticeBuiltinMcp } from './vscode/coexistence';
import { registerCommands } from './vscode/commands';
import { ConfigLoader } from './vscode/configLoader';
import { createHost } from './vscode/createHost';
import { notifyFailures } from './vscode/failureNotifications';
import { registerManagePermissionsCommand } from './vscode/permissionsCommand';
import { createPublicApi, type McpHostApi } from './vscode/publicApi';
import { registerResources } from './vscode/resources/registerResources';
import { ServersTreeProvider } from './vscode/serversTreeProvider';
import { McpStatusBar } from './vscode/statusBar';

/** Stops every server (and its child processes) when the extension host goes away. */
let stopAllServers: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): McpHostApi {
  const activateStartedAt = Date.now();
  const host = createHost(context);
  const { registry, dialogs, logs, permissions, trustStore, inputs, oauth } = host;
  stopAllServers = () => registry.disposeAsync();
  const startup = recordStartupTimings(registry, activateStartedAt);
  const configLoader = new ConfigLoader(registry, vscode.Uri.joinPath(context.globalStorageUri, 'mcp.json'));
  const tree = new ServersTreeProvider(registry);
  const testMode = context.extensionMode === vscode.ExtensionMode.Test;
  // "Attach to Chat" in the Resources view queues resources for the @mcp participant.
  const attachments = new ChatAttachments();
  const resources = registerResources({ host: registry, subscriptions: host.resourceSubscriptions, attachments });
  const chat = registerChatFeatures({ sessions: registry, permissions, dialogs, activeToolCalls: host.activeToolCalls, resources: resources.chat, extensionUri: context.extensionUri, version: context.extension.packageJSON.version, testMode });
  const api = createPublicApi({ registry, configLoader, tree, testDialogs: testMode ? dialogs : undefined, startupTimings: startup.timings, chat, resources: resources.testing });
  context.subscriptions.push(
    host,
    startup,
    configLoader,
    tree,
    vscode.window.createTreeView('mcpHost.servers', { treeDataProvider: tree, showCollapseAll: true }),
    new McpStatusBar(registry),
    ...registerCommands({ registry, configLoader, logs, trustStore, inputs }),
    notifyFailures(registry, logs),
    registerManagePermissionsCommand(permissions),
    ...registerSignInCommands({ registry, status: oauth.status, secrets: context.secrets }),
    ...chat.disposables,
    attachments,
    resources,
    vscode.workspace.onDidGrantWorkspaceTrust(() => registry.startIdle()),
    api,
  );
  // Servers start after activate() returns: startup never waits for them.
  configLoader
    .start()
    .then(() => noticeBuiltinMcp(context.globalState, registry.servers().some((s) => s.scope.kind === 'workspace')))
    .catch((e: Error) => vscode.window.showErrorMessage(`MCP: could not load the server configuration: ${plainText(e.message)}`));
  startup.activated();
  return api;
}

export async function deactivate(): Promise<void> {
  await stopAllServers?.();
  stopAllServers = undefined;
}
