// The core host with VS Code behind its ports: output channels for logs, Memento and SecretStorage for trust,
// permissions and inputs, dialogs for every question, vscode.lm for sampling, the browser for sign-ins. The one place
// that loads the lazy layers (dist/launch.js, dist/host.js): everything else is handed the session layer's loader.
import * as fs from 'fs';
import * as path from 'path';
import vscode = require('vscode');
import { requireWithCodeCache } from './codeCachedBundle';
import { onListenerError } from '../core/common/events';
import { createAppsFeature } from '../core/features/apps/appsFeature';
import { ResourceSubscriptions } from '../core/features/resources/resourceSubscriptions';
import { createCoreHost, type CoreHost } from '../core/createCoreHost';
import { createOAuthSupport, type OAuthSupport } from './auth/oauthSupport';
import { DialogRouter } from './dialogs/dialogRouter';
import { createElicitationFeature } from './elicitation/createElicitationFeature';
import { createSamplingFeature } from './sampling/createSamplingFeature';
import { ServerOutputChannels } from './servers/serverLogs';
import type { LaunchLayer, LoadSessionLayer, SessionLayer } from './sessionLayer';
import { readSettings, reportSettingProblems } from './settings';
import { StoredInputs } from './config/storedInputs';

export interface Host extends CoreHost, vscode.Disposable {
  /** Loads the session layer on first use (the first server's start, the first @mcp request, …). */
  session: LoadSessionLayer;
  dialogs: DialogRouter;
  logs: ServerOutputChannels;
  inputs: StoredInputs;
  /** Open resource documents stay subscribed; their updates reload them. */
  resourceSubscriptions: ResourceSubscriptions;
  oauth: OAuthSupport;
}

/**
 * The session layer, required once, when first needed: esbuild turns this require into one of dist/host.js. In the
 * bundle, host.js (beside this file) is compiled with a code cache kept in `cacheDir` (./codeCachedBundle).
 */
function sessionLayerLoader(cacheDir: string | undefined, report: (message: string) => void): LoadSessionLayer {
  let loaded: SessionLayer | undefined;
  const bundle = path.join(__dirname, 'host.js');
  const cached = () => (cacheDir !== undefined && fs.existsSync(bundle) ? (requireWithCodeCache(bundle, cacheDir, report) as SessionLayer) : undefined);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the one load of the session layer: synchronous and deferred
  return () => (loaded ??= cached() ?? (require('./hostBundle.lazy') as SessionLayer));
}

/** The launch layer, required once, when the first plan is made: esbuild turns this require into one of dist/launch.js. */
function launchLayerLoader(): () => LaunchLayer {
  let loaded: LaunchLayer | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the one load of the launch layer: synchronous and deferred
  return () => (loaded ??= require('./launchBundle.lazy') as LaunchLayer);
}

export function createHost(context: vscode.ExtensionContext): Host {
  const hostLog = vscode.window.createOutputChannel('MCP Host', { log: true });
  reportSettingProblems((message) => hostLog.warn(`Setting ignored: ${message}`));
  const listenerErrors = onListenerError((e) => hostLog.error('An event listener failed:', e instanceof Error ? (e.stack ?? e.message) : String(e)));
  const storage = context.globalStorageUri;
  const session = sessionLayerLoader(storage?.scheme === 'file' ? storage.fsPath : undefined, (message) => hostLog.info(message));
  const launch = launchLayerLoader();
  const dialogs = new DialogRouter(() => session().sessionDialogs);
  const logs = new ServerOutputChannels();
  const stores = { global: context.globalState, workspace: context.workspaceState };
  const inputs = new StoredInputs(context.secrets, stores, dialogs);
  const resourceSubscriptions = new ResourceSubscriptions();
  // Remote servers that answer 401 are signed in to through the browser; tokens live in SecretStorage.
  const oauth = createOAuthSupport(context, dialogs, session);
  const core = createCoreHost({
    clientInfo: { name: 'mcp-host-vscode', version: context.extension.packageJSON.version },
    // The process of a trusted plan starts first; then the first start loads the session layer, while that process boots.
    createConnection: (definition, log, secrets, options, events) => {
      const startedProcess = launch().startPlannedProcess(definition);
      try {
        return session().confinedConnection(dialogs, definition, log, secrets, options, events, startedProcess);
      } catch (e) {
        startedProcess?.process.kill();
        throw e;
      }
    },
    planLaunch: (source) => launch().planDebuggableLaunch(source),
    logs,
    stores,
    // The question is rendered from the launch plan, which the session layer has just built.
    trustPrompt: {
      askTrust: (definition, facts) => session().trustPromptFrom(dialogs).askTrust(definition, facts),
      askTrustMany: (questions) => session().trustPromptFrom(dialogs).askTrustMany(questions),
      persistConfined: (definition) => session().trustPromptFrom(dialogs).persistConfined(definition),
    },
    inputs,
    settings: readSettings,
    isWorkspaceTrusted: () => vscode.workspace.isTrusted,
    // mcp.json open in an editor: servers its edits add wait, with a notice (./trustNotice), instead of a modal mid-edit.
    isConfigBeingEdited: (configPath) => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'file' && e.document.uri.fsPath === configPath),
    // Client features every server session gets, beyond roots: each declares its capabilities and handlers.
    features: ({ permissions, activeToolCalls, interactions, servers }) => [
      createSamplingFeature({ dialogs, permissions, activeToolCalls, queue: interactions, logs, servers, session }),
      createElicitationFeature({ dialogs, permissions, activeToolCalls, queue: interactions, session }),
      resourceSubscriptions,
      // Views of tools (MCP Apps) can be shown here, in webviews: servers are told so.
      createAppsFeature(),
    ],
    authProvider: oauth.authProvider,
    authStatus: oauth.status,
    // Which protocol era each definition speaks, for every window: a known legacy server is not probed again.
    protocolStore: context.globalState,
  });
  const subscription = resourceSubscriptions.follow(core.manager.onDidChangeServers);
  return {
    ...core,
    session,
    dialogs,
    logs,
    inputs,
    resourceSubscriptions,
    oauth,
    dispose: () => {
      for (const d of [subscription, resourceSubscriptions, oauth, core.manager, listenerErrors, hostLog]) d.dispose();
    },
  };
}
