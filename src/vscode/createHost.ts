// The core host with VS Code behind its ports: output channels for logs, Memento and SecretStorage for trust,
// permissions and inputs, dialogs for every question, vscode.lm for sampling, the browser for sign-ins.
import * as vscode from 'vscode';
import { createAppsFeature } from '../core/features/apps/appsFeature';
import { ResourceSubscriptions } from '../core/features/resources/resourceSubscriptions';
import { ActiveToolCalls } from '../core/host/activeToolCalls';
import { onListenerError } from '../core/host/events';
import { InteractionQueue } from '../core/host/interactionQueue';
import { PermissionStore } from '../core/host/permissionStore';
import { ProtocolMemory } from '../core/host/protocolMemory';
import { ServerRegistry } from '../core/host/serverRegistry';
import { TrustStore } from '../core/host/trustStore';
import { createOAuthSupport, type OAuthSupport } from './auth/oauthSupport';
import { DialogRouter } from './dialogs';
import { createElicitationFeature } from './elicitation/createElicitationFeature';
import { createSamplingFeature } from './sampling/createSamplingFeature';
import { ServerOutputChannels } from './serverLogs';
import { readSettings, reportSettingProblems } from './settings';
import { StoredInputs } from './storedInputs';
import { trustPromptFrom } from './trustPrompt';

export interface Host extends vscode.Disposable {
  registry: ServerRegistry;
  dialogs: DialogRouter;
  logs: ServerOutputChannels;
  permissions: PermissionStore;
  trustStore: TrustStore;
  inputs: StoredInputs;
  /** Tool calls running in chat (the chat layer marks them): sampling and elicitation dialogs name the chat they serve. */
  activeToolCalls: ActiveToolCalls;
  /** Open resource documents stay subscribed; their updates reload them. */
  resourceSubscriptions: ResourceSubscriptions;
  oauth: OAuthSupport;
}

export function createHost(context: vscode.ExtensionContext): Host {
  const hostLog = vscode.window.createOutputChannel('MCP Host', { log: true });
  reportSettingProblems((message) => hostLog.warn(`Setting ignored: ${message}`));
  const listenerErrors = onListenerError((e) => hostLog.error('An event listener failed:', e instanceof Error ? (e.stack ?? e.message) : String(e)));
  const dialogs = new DialogRouter();
  const logs = new ServerOutputChannels();
  const permissions = new PermissionStore({ global: context.globalState, workspace: context.workspaceState });
  const trustStore = new TrustStore(permissions);
  const inputs = new StoredInputs(context.secrets, { global: context.globalState, workspace: context.workspaceState }, dialogs);
  const activeToolCalls = new ActiveToolCalls();
  // Every question to the user (trust, inputs, sampling, elicitation) is shown one at a time.
  const interactions = new InteractionQueue();
  const resourceSubscriptions = new ResourceSubscriptions();
  // Remote servers that answer 401 are signed in to through the browser; tokens live in SecretStorage.
  const oauth = createOAuthSupport(context, dialogs);
  const registry: ServerRegistry = new ServerRegistry({
    clientInfo: { name: 'mcp-host-vscode', version: context.extension.packageJSON.version },
    logs,
    trustStore,
    trustPrompt: trustPromptFrom(dialogs),
    inputs,
    settings: readSettings,
    isWorkspaceTrusted: () => vscode.workspace.isTrusted,
    // mcp.json open in an editor: servers its edits add wait, with a notice (./trustNotice), instead of a modal mid-edit.
    isConfigBeingEdited: (configPath) => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'file' && e.document.uri.fsPath === configPath),
    // Client features every server session gets, beyond roots: each declares its capabilities and handlers.
    features: [
      createSamplingFeature({ dialogs, permissions, activeToolCalls, queue: interactions, logs, servers: () => registry.servers() }),
      createElicitationFeature({ dialogs, permissions, activeToolCalls, queue: interactions }),
      resourceSubscriptions,
      // Views of tools (MCP Apps) can be shown here, in webviews: servers are told so.
      createAppsFeature(),
    ],
    interactions,
    authProvider: oauth.authProvider,
    authStatus: oauth.status,
    // Which protocol era each definition speaks, for every window: a known legacy server is not probed again.
    protocolMemory: new ProtocolMemory(context.globalState),
  });
  const subscription = resourceSubscriptions.follow(registry.onDidChangeServers);
  return {
    registry,
    dialogs,
    logs,
    permissions,
    trustStore,
    inputs,
    activeToolCalls,
    resourceSubscriptions,
    oauth,
    dispose: () => {
      for (const d of [subscription, resourceSubscriptions, oauth, registry, listenerErrors, hostLog]) d.dispose();
    },
  };
}
