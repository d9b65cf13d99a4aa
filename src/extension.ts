// Wiring only: build the host, adapt VS Code to it, and return the public API.
import * as vscode from 'vscode';
import type { ClientFeature } from './core/host/clientFeature';
import { ServerRegistry } from './core/host/serverRegistry';
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

let registry: ServerRegistry | undefined;

export function activate(context: vscode.ExtensionContext): McpHostApi {
  const activateStartedAt = Date.now();
  const dialogs = new DialogRouter();
  const logs = new ServerOutputChannels();
  const permissions = new PermissionStore({ global: context.globalState, workspace: context.workspaceState });
  const trustStore = new TrustStore(permissions);
  const inputs = new StoredInputs(context.secrets, context.workspaceState, dialogs);
  // Client features every server session gets, beyond roots: each declares its capabilities and handlers.
  const features: ClientFeature[] = [];
  registry = new ServerRegistry({
    clientInfo: { name: 'mcp-host-vscode', version: context.extension.packageJSON.version },
    logs,
    trustStore,
    trustPrompt: trustPromptFrom(dialogs),
    inputs,
    settings: readSettings,
    isWorkspaceTrusted: () => vscode.workspace.isTrusted,
    features,
  });
  const startup = recordStartupTimings(registry, activateStartedAt);
  const configLoader = new ConfigLoader(registry, vscode.Uri.joinPath(context.globalStorageUri, 'mcp.json'));
  const tree = new ServersTreeProvider(registry);
  const api = createPublicApi(registry, configLoader, tree, context.extensionMode === vscode.ExtensionMode.Test ? dialogs : undefined, startup.timings);
  const host = registry;
  context.subscriptions.push(
    configLoader,
    tree,
    vscode.window.createTreeView('mcpHost.servers', { treeDataProvider: tree, showCollapseAll: true }),
    new McpStatusBar(registry),
    ...registerCommands({ registry, configLoader, logs, trustStore, inputs }),
    notifyFailures(registry, logs),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void host.startIdle()),
    api,
  );
  // Servers start after activate() returns: startup never waits for them.
  void configLoader
    .start()
    .then(() => noticeBuiltinMcp(context.globalState, host.servers().some((s) => s.scope.kind === 'workspace')));
  startup.activated();
  return api;
}

/** Stops every server (and its child processes) before the extension host goes away. */
export async function deactivate(): Promise<void> {
  await registry?.disposeAsync();
  registry = undefined;
}
