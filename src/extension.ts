// Wiring only: build the host, adapt VS Code to it, and return the public API.
import * as vscode from 'vscode';
import type { ClientFeature } from './core/host/clientFeature';
import { ServerRegistry } from './core/host/serverRegistry';
import { ActiveToolCalls } from './core/host/activeToolCalls';
import { InteractionQueue } from './core/host/interactionQueue';
import { recordStartupTimings } from './core/host/startupTimings';
import { PermissionStore } from './core/host/permissionStore';
import { TrustStore } from './core/host/trustStore';
import { registerCommands } from './vscode/commands';
import { ConfigLoader } from './vscode/configLoader';
import { noticeBuiltinMcp } from './vscode/coexistence';
import { DialogRouter } from './vscode/dialogs';
import { notifyFailures } from './vscode/failureNotifications';
import { createPublicApi, type McpHostApi } from './vscode/publicApi';
import { ServerOutputChannels } from './vscode/serverLogs';
import { ServersTreeProvider } from './vscode/serversTreeProvider';
import { readSettings } from './vscode/settings';
import { McpStatusBar } from './vscode/statusBar';
import { StoredInputs } from './vscode/storedInputs';
import { trustPromptFrom } from './vscode/trustPrompt';
import { createSamplingFeature } from './vscode/sampling/createSamplingFeature';
import { createElicitationFeature } from './vscode/elicitation/createElicitationFeature';
import { registerManagePermissionsCommand } from './vscode/permissionsCommand';
import { registerChatFeatures } from './vscode/chat/registerChatFeatures';
import { createOAuthSupport, serversWithAuth } from './vscode/auth/oauthSupport';
import { registerSignInCommands } from './vscode/auth/signInCommands';
import { ChatAttachments } from './core/features/resources/chatAttachments';
import { ResourceSubscriptions } from './core/features/resources/resourceSubscriptions';
import { registerResources } from './vscode/resources/registerResources';

let registry: ServerRegistry | undefined;

export function activate(context: vscode.ExtensionContext): McpHostApi {
  const activateStartedAt = Date.now();
  const dialogs = new DialogRouter();
  const logs = new ServerOutputChannels();
  const permissions = new PermissionStore({ global: context.globalState, workspace: context.workspaceState });
  const trustStore = new TrustStore(permissions);
  const inputs = new StoredInputs(context.secrets, { global: context.globalState, workspace: context.workspaceState }, dialogs);
  // Client features every server session gets, beyond roots: each declares its capabilities and handlers.
  const features: ClientFeature[] = [];
  // Tool calls running in chat (the chat layer marks them): sampling and elicitation dialogs name the chat they serve.
  const activeToolCalls = new ActiveToolCalls();
  // Every question to the user (trust, inputs, sampling, elicitation) is shown one at a time.
  const interactions = new InteractionQueue();
  features.push(
    createSamplingFeature({ dialogs, permissions, activeToolCalls, queue: interactions, logs, servers: () => registry?.servers() ?? [] }),
    createElicitationFeature({ dialogs, permissions, activeToolCalls, queue: interactions }),
  );
  // Open resource documents stay subscribed; their updates reload them.
  const resourceSubscriptions = new ResourceSubscriptions(() => readSettings().requestTimeoutMs);
  features.push(resourceSubscriptions);
  // Remote servers that answer 401 are signed in to through the browser; tokens live in SecretStorage.
  const oauth = createOAuthSupport(context, dialogs);
  registry = new ServerRegistry({
    clientInfo: { name: 'mcp-host-vscode', version: context.extension.packageJSON.version },
    logs,
    trustStore,
    trustPrompt: trustPromptFrom(dialogs),
    inputs,
    settings: readSettings,
    isWorkspaceTrusted: () => vscode.workspace.isTrusted,
    features,
    interactions,
    authProvider: oauth.authProvider,
  });
  const startup = recordStartupTimings(registry, activateStartedAt);
  const configLoader = new ConfigLoader(registry, vscode.Uri.joinPath(context.globalStorageUri, 'mcp.json'));
  const tree = new ServersTreeProvider(serversWithAuth(registry, oauth.status));
  const testMode = context.extensionMode === vscode.ExtensionMode.Test;
  // The Resources view and resource documents; "Attach to Chat" queues resources for the @mcp participant.
  const chatAttachments = new ChatAttachments();
  const resources = registerResources({ host: registry, subscriptions: resourceSubscriptions, attachments: chatAttachments });
  // The @mcp participant, Run Prompt, Call Tool: tool calls ask consent through the shared dialogs and permissions.
  const chat = registerChatFeatures({ sessions: registry, permissions, dialogs, activeToolCalls, resources: resources.chat, extensionUri: context.extensionUri, testMode });
  const api = createPublicApi({
    registry,
    configLoader,
    tree,
    testDialogs: testMode ? dialogs : undefined,
    startupTimings: startup.timings,
    chat,
    resources: resources.testing,
  });
  const host = registry;
  context.subscriptions.push(
    startup,
    configLoader,
    tree,
    vscode.window.createTreeView('mcpHost.servers', { treeDataProvider: tree, showCollapseAll: true }),
    new McpStatusBar(registry),
    ...registerCommands({ registry, configLoader, logs, trustStore, inputs }),
    notifyFailures(registry, logs),
    registerManagePermissionsCommand(permissions),
    oauth,
    ...registerSignInCommands({ registry, status: oauth.status, secrets: context.secrets }),
    ...chat.disposables,
    resourceSubscriptions.follow(registry.onDidChangeServers),
    resourceSubscriptions,
    chatAttachments,
    resources,
    vscode.workspace.onDidGrantWorkspaceTrust(() => host.startIdle()),
    api,
  );
  // Servers start after activate() returns: startup never waits for them.
  configLoader
    .start()
    .then(() => noticeBuiltinMcp(context.globalState, host.servers().some((s) => s.scope.kind === 'workspace')))
    .catch((e: Error) => vscode.window.showErrorMessage(`MCP: could not load the server configuration: ${e.message}`));
  startup.activated();
  return api;
}

/** Stops every server (and its child processes) before the extension host goes away. */
export async function deactivate(): Promise<void> {
  await registry?.disposeAsync();
  registry = undefined;
}
