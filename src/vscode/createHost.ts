// The composition root: the core host with VS Code behind its ports (output channels for logs, Memento and
// SecretStorage for trust, permissions and inputs, dialogs for every question, vscode.lm for sampling, the browser for
// sign-ins), and the one place that decides what loads on demand. It requires the lazy bundles (dist/launch.js,
// dist/host.js, dist/gateway.js) and builds each lazy part as a proxy (../core/common/lazy): whoever receives a part sees the interface
// its caller declares, and its first use loads the bundle. No other file loads a lazy module (ESLint says so).
import * as fs from 'fs';
import * as path from 'path';
import vscode = require('vscode');
import { requireWithCodeCache } from './codeCachedBundle';
import { Emitter, onListenerError } from '../core/common/events';
import { lazyFunction, lazyObject } from '../core/common/lazy';
import { AuthStatusStore } from '../core/auth/authStatus';
import { createAppsFeature } from '../core/features/apps/appsFeature';
import { ResourceSubscriptions } from '../core/features/resources/resourceSubscriptions';
import { createCoreHost, type CoreHost } from '../core/createCoreHost';
import { EitherStore } from '../core/host/eitherStore';
import { DialogRouter } from './dialogs/dialogRouter';
import { ServerOutputChannels } from './servers/serverLogs';
import { readSettings, reportSettingProblems } from './settings';
import { KNOWN_RUNS_KEY } from '../core/host/knownRuns';
import { StoredInputs } from './config/storedInputs';
import type { ToolChoiceWriter } from '../core/features/tools/toolSwitches';
import type * as HostBundleModule from './hostBundle.lazy';
import type * as LaunchBundleModule from './launchBundle.lazy';
import type * as GatewayBundleModule from './gatewayBundle.lazy';

type HostBundle = typeof HostBundleModule;
type LaunchBundle = typeof LaunchBundleModule;
type GatewayBundle = typeof GatewayBundleModule;

/**
 * The host bundle, required once, at the first use of a part: esbuild turns this require into one of dist/host.js,
 * which (beside the activation bundle) is compiled with a code cache kept in `cacheDir` (./codeCachedBundle).
 */
function hostBundleLoader(cacheDir: string | undefined, report: (message: string) => void) {
  let loaded: HostBundle | undefined;
  const bundle = path.join(__dirname, 'host.js');
  const cached = () => (cacheDir !== undefined && fs.existsSync(bundle) ? (requireWithCodeCache(bundle, cacheDir, report) as HostBundle) : undefined);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the one load of the host bundle: synchronous and deferred
  const load = (): HostBundle => (loaded ??= cached() ?? (require('./hostBundle.lazy') as HostBundle));
  return { load, ifLoaded: (): HostBundle | undefined => loaded };
}

/** The launch bundle, required once, when the first plan is made: esbuild turns this require into one of dist/launch.js. */
function launchBundleLoader(): () => LaunchBundle {
  let loaded: LaunchBundle | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the one load of the launch bundle: synchronous and deferred
  return () => (loaded ??= require('./launchBundle.lazy') as LaunchBundle);
}

/** The gateway's bundle (the SDK's server package in it), required once, when the gateway is first turned on or used. */
function gatewayBundleLoader(): () => GatewayBundle {
  let loaded: GatewayBundle | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the one load of the gateway bundle: synchronous and deferred
  return () => (loaded ??= require('./gatewayBundle.lazy') as GatewayBundle);
}

/**
 * Every part that loads on demand, declared once: `part` is an object built at its first use, `factory` a function
 * whose product is (its arguments are kept until then: for products whose making does nothing), `fn` a function
 * loaded at its first call.
 */
function onDemandParts(bundle: () => HostBundle, ifLoaded: () => HostBundle | undefined, gatewayBundle = gatewayBundleLoader()) {
  const part = <T extends object>(pick: (b: HostBundle) => T): T => lazyObject(() => pick(bundle()));
  const factory =
    <A extends unknown[], T extends object>(pick: (b: HostBundle) => (...args: A) => T) =>
    (...args: A): T =>
      lazyObject(() => pick(bundle())(...args));
  const fn = <A extends unknown[], R>(pick: (b: HostBundle) => (...args: A) => R) => lazyFunction(() => pick(bundle()));
  return {
    // Dialogs, trust, sign-in: asked once a start's plan is built.
    modalDialogs: part((b) => b.modalDialogs),
    trustPrompt: factory((b) => b.trustPromptFrom),
    trustQuestions: factory((b) => b.trustQuestions),
    oauth: factory((b) => b.createOAuth),
    managePermissions: fn((b) => b.managePermissions),
    signInToServer: fn((b) => b.signInToServer),
    signOutOfServer: fn((b) => b.signOutOfServer),
    // Client features every session gets.
    samplingFeature: factory((b) => b.samplingFeature),
    elicitationFeature: factory((b) => b.elicitationFeature),
    // Chat, prompts and tools.
    answerChatRequest: fn((b) => b.answerChatRequest),
    chatTranscripts: factory((b) => b.chatTranscripts),
    runPrompt: fn((b) => b.runPrompt),
    agentTools: factory((b) => b.agentTools),
    toolCallRunner: factory((b) => b.toolCallRunner),
    // The one guarded path of every tool call, and its consent: built at the first call (or permission reset).
    toolConsent: factory((b) => b.toolConsent),
    toolCaller: factory((b) => b.toolCaller),
    toolTasks: part((b) => b.toolTasks()),
    openAppView: fn((b) => b.openAppView),
    // The views' rows and hover texts.
    serverRows: fn((b) => b.serverRows),
    switchTools: fn((b) => b.switchTools),
    hoverTexts: part((b) => b.hoverTexts),
    // Resources, skills, configuration, the MCP Registry, dev mode, VS Code's own MCP beside ours.
    resourceCommands: factory((b) => b.resourceCommands),
    resourceDocuments: factory((b) => b.resourceDocuments),
    resourcesTree: fn((b) => b.resourcesTree),
    resourceOpener: factory((b) => b.resourceOpener),
    openSkillFileCommand: fn((b) => b.openSkillFileCommand),
    attachSkillCommand: fn((b) => b.attachSkillCommand),
    configTemplate: () => bundle().CONFIG_TEMPLATE,
    enableServerInFile: fn((b) => b.enableServerInFile),
    serverCommandHandlers: fn((b) => b.serverCommandHandlers),
    mcpJsonCompletionItems: fn((b) => b.mcpJsonCompletionItems),
    registryBrowser: factory((b) => b.registryBrowser),
    // Made when a server with a `dev` block runs: its watchers start at once.
    devModeWatcher: fn((b) => b.devModeWatcher),
    offerCoexistence: fn((b) => b.offerCoexistence),
    pickCoexistence: fn((b) => b.pickCoexistence),
    showTrustNotice: fn((b) => b.showTrustNotice),
    // The gateway: made when first turned on or used, from a bundle of its own.
    gatewayController: (...args: Parameters<GatewayBundle['gatewayController']>) => lazyObject(() => gatewayBundle().gatewayController(...args)),
    /** Extension tests: the prompt-argument pick on screen; never loads the bundle. */
    activeArgumentPick: () => ifLoaded()?.activeArgumentPick(),
  };
}

export type OnDemandParts = ReturnType<typeof onDemandParts>;

export interface Host extends CoreHost, vscode.Disposable {
  /** What loads on demand, as plain interfaces. */
  parts: OnDemandParts;
  dialogs: DialogRouter;
  logs: ServerOutputChannels;
  inputs: StoredInputs;
  /** Open resource documents stay subscribed; their updates reload them. */
  resourceSubscriptions: ResourceSubscriptions;
  /** Remote servers' sign-in state, as the views show it. */
  authStatus: AuthStatusStore;
  /** The user's choices for each server's tools (the view's checkboxes, tool approval); loads the host bundle. */
  toolChoices(): ToolChoiceWriter;
  /** What servers offered, written now (tests and the bench: the write otherwise comes 2–10 s after a run). */
  flushKnownRuns(): Promise<void>;
}

export function createHost(context: vscode.ExtensionContext): Host {
  const hostLog = vscode.window.createOutputChannel('MCP Host', { log: true });
  reportSettingProblems((message) => hostLog.warn(`Setting ignored: ${message}`));
  const listenerErrors = onListenerError((e) => hostLog.error('An event listener failed:', e instanceof Error ? (e.stack ?? e.message) : String(e)));
  const storage = context.globalStorageUri;
  const hostBundle = hostBundleLoader(storage?.scheme === 'file' ? storage.fsPath : undefined, (message) => hostLog.info(message));
  const launch = launchBundleLoader();
  const parts = onDemandParts(hostBundle.load, hostBundle.ifLoaded);
  const dialogs = new DialogRouter(parts.modalDialogs);
  const logs = new ServerOutputChannels();
  const stores = { global: context.globalState, workspace: context.workspaceState };
  const inputs = new StoredInputs(context.secrets, stores, dialogs);
  const resourceSubscriptions = new ResourceSubscriptions();
  // Remote servers that answer 401 are signed in to through the browser; tokens live in SecretStorage.
  const authStatus = new AuthStatusStore();
  const oauth = parts.oauth({ secrets: context.secrets, state: context.globalState, dialogs, status: authStatus });
  const trustPrompt = parts.trustPrompt(dialogs);
  // Read for every server's snapshot, and only once the host bundle is loaded (a server with tools runs by then).
  const toolChoicesChanged = new Emitter<string>();
  const toolChoices = lazyObject(() => hostBundle.load().toolChoiceStore(stores, (id) => toolChoicesChanged.fire(id)));
  const knownRuns = lazyObject(() => hostBundle.load().knownRunStore(context.globalState, (message) => hostLog.warn(message)));
  const core = createCoreHost({
    clientInfo: { name: 'mcp-host-vscode', version: context.extension.packageJSON.version },
    // The process of a trusted plan starts first; then the first start loads the host bundle, while that process boots.
    createConnection: (definition, log, secrets, options, events) => {
      const startedProcess = launch().startPlannedProcess(definition);
      try {
        return hostBundle.load().confinedConnection(dialogs, definition, log, secrets, options, events, startedProcess);
      } catch (e) {
        startedProcess?.process.kill();
        throw e;
      }
    },
    // Confined servers keep their own package caches in the extension's storage (sandboxPolicy).
    readEnvFile: (file) => launch().readEnvFile(file),
    planLaunch: (source) => launch().planDebuggableLaunch(storage?.scheme === 'file' ? { ...source, sandboxStorage: storage.fsPath } : source),
    logs,
    stores,
    // A user file such as ~/.copilot/mcp-config.json is read by every profile: its marks are shared by them all.
    marksStore: new EitherStore([context.globalState, lazyObject(() => launch().sharedStateFile('first-start-marks.json', (message) => hostLog.warn(message)))]),
    // The question is rendered from the launch plan, which the launch bundle has just built.
    trustPrompt,
    // A folder's new servers asked about together: made at the first question.
    trustQuestions: parts.trustQuestions,
    inputs,
    settings: readSettings,
    // `${config:…}` in mcp.json: the setting's value where the server's folder is, and whether the workspace set it.
    setting: (name, scope) => {
      const config = vscode.workspace.getConfiguration(undefined, scope.folderPath ? vscode.Uri.file(scope.folderPath) : undefined);
      const levels = config.inspect(name);
      const fromWorkspace = [levels?.workspaceValue, levels?.workspaceFolderValue, levels?.workspaceLanguageValue, levels?.workspaceFolderLanguageValue].some((v) => v !== undefined);
      return { value: config.get(name), fromWorkspace };
    },
    // `${command:…}` and `command` inputs, as VS Code resolves them: the command's result, when it is a text.
    runCommand: async (command, args) => {
      const value: unknown = await (args === undefined ? vscode.commands.executeCommand(command) : vscode.commands.executeCommand(command, args));
      if (value === undefined || value === null) return undefined;
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new Error(`The VS Code command ${command} did not give a text.`);
      return String(value);
    },
    isWorkspaceTrusted: () => vscode.workspace.isTrusted,
    // mcp.json open in an editor: servers its edits add wait, with a notice (./trust/trustNotice), instead of a modal mid-edit.
    isConfigBeingEdited: (configPath) => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'file' && e.document.uri.fsPath === configPath),
    // Client features every server session gets, beyond roots: each declares its capabilities and handlers.
    features: ({ permissions, activeToolCalls, interactions, servers }) => [
      parts.samplingFeature({ dialogs, permissions, activeToolCalls, queue: interactions, logs, servers }),
      parts.elicitationFeature({ dialogs, permissions, activeToolCalls, queue: interactions }),
      resourceSubscriptions,
      // Views of tools (MCP Apps) can be shown here, in webviews: servers are told so.
      createAppsFeature(),
    ],
    authProvider: (definition, log) => oauth.authProvider(definition, log),
    authStatus,
    // Which protocol era each definition speaks, for every window: a known legacy server is not probed again.
    protocolStore: context.globalState,
    toolChoices: { of: (id, scope) => (hostBundle.ifLoaded() ? toolChoices.of(id, scope) : undefined), onDidChange: toolChoicesChanged.event },
    // What servers offered at their last run (dormant servers show it); the bundle loads only once some are kept.
    knownRuns: {
      get: (id, key) => (hostBundle.ifLoaded() || context.globalState.get(KNOWN_RUNS_KEY) !== undefined ? knownRuns.get(id, key) : undefined),
      remember: (id, key, run) => knownRuns.remember(id, key, run),
    },
    // Open resource documents and running tasks keep a server from going dormant.
    isBusy: (id) => resourceSubscriptions.subscriptions().some((s) => s.serverId === id) || !!hostBundle.ifLoaded()?.toolTasks().of(id).some((t) => t.status === 'working' || t.status === 'input_required'),
  });
  const subscription = resourceSubscriptions.follow(core.manager.onDidChangeServers);
  const flushKnownRuns = () => (hostBundle.ifLoaded() ? knownRuns.flush() : undefined);
  return {
    ...core,
    parts,
    dialogs,
    logs,
    inputs,
    resourceSubscriptions,
    authStatus,
    toolChoices: () => toolChoices,
    flushKnownRuns: async () => void (await flushKnownRuns()),
    dispose: () => {
      void flushKnownRuns();
      for (const d of [subscription, resourceSubscriptions, oauth, authStatus, core.manager, listenerErrors, hostLog]) d.dispose();
    },
  };
}
