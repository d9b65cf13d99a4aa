// The "MCP" commands. Server commands take a tree node, a server id, or nothing (then they ask with a quick pick).
import vscode = require('vscode');
import type { ServerManager } from '../../core/host/serverManager';
import type { TrustStore } from '../../core/host/trustStore';
import { canBeStarted, type ServerInfo } from '../../core/host/serverInfo';
import type { ConfigLoader } from '../config/configLoader';
import { workspaceConfigUri } from '../config/configUris';
import { labelText, plainText } from '../../core/presentation/serverText';
import { describeState } from '../../core/presentation/serverPresentation';
import type { ServerOutputChannels } from './serverLogs';
import { serverIdOf } from './serverNodes';
import type { StoredInputs } from '../config/storedInputs';
import { CommandIds } from '../../core/common/commandIds';

export interface CommandDeps {
  manager: ServerManager;
  configLoader: ConfigLoader;
  logs: ServerOutputChannels;
  trustStore: TrustStore;
  inputs: StoredInputs;
  /** A new .vscode/mcp.json's text (loaded on demand: only that command needs it). */
  configTemplate(): string;
}

type ServerArg = unknown;

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { manager } = deps;

  async function pickServer(arg: ServerArg, placeHolder: string, filter: (s: ServerInfo) => boolean = () => true) {
    const id = typeof arg === 'string' ? arg : arg ? serverIdOf(arg as never) : undefined;
    if (id) return manager.servers().find((s) => s.id === id);
    const candidates = manager.servers().filter(filter);
    if (!candidates.length) {
      void vscode.window.showInformationMessage('No MCP server matches. Configure servers in .vscode/mcp.json.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      candidates.map((s) => ({ label: labelText(s.name), description: labelText(`${s.scope.label} · ${describeState(s)}`), server: s })),
      { placeHolder },
    );
    return picked?.server;
  }

  const withServer =
    (placeHolder: string, filter: (s: ServerInfo) => boolean, action: (s: ServerInfo) => Promise<unknown> | unknown) =>
    async (arg?: ServerArg) => {
      const server = await pickServer(arg, placeHolder, filter);
      // What the action returns (Show Output: whether the log was shown) goes back to the caller.
      return server ? await action(server) : undefined;
    };

  const start = (s: ServerInfo) => manager.get(s.id)?.start(true);
  const stop = (s: ServerInfo) => manager.get(s.id)?.stop();
  const restart = (s: ServerInfo) => manager.get(s.id)?.restart();
  const showOutput = (s: ServerInfo) => deps.logs.show(s.id);

  async function openConfig(uri: vscode.Uri) {
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(deps.configTemplate()));
    }
    await vscode.window.showTextDocument(uri);
  }

  async function openWorkspaceConfiguration() {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (!folders.length) {
      void vscode.window.showWarningMessage('Open a folder first: MCP servers are configured in its .vscode/mcp.json.');
      return;
    }
    const folder = folders.length === 1 ? folders[0] : await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Configure MCP servers of…' });
    if (folder) await openConfig(workspaceConfigUri(folder));
  }

  async function listServers() {
    const server = await pickServer(undefined, 'MCP servers: pick one for its actions');
    if (!server) return;
    const running = server.state.kind === 'running' || server.state.kind === 'starting';
    const actions: { label: string; run: () => unknown }[] = [
      ...(running
        ? [
            { label: '$(debug-stop) Stop', run: () => stop(server) },
            { label: '$(debug-restart) Restart', run: () => restart(server) },
          ]
        : [{ label: '$(debug-start) Start', run: () => start(server) }]),
      { label: '$(output) Show Output', run: () => showOutput(server) },
      { label: '$(gear) Open Configuration', run: () => vscode.window.showTextDocument(vscode.Uri.file(server.scope.configPath)) },
    ];
    const action = await vscode.window.showQuickPick(actions, { placeHolder: plainText(`${server.name}: ${describeState(server)}`) });
    await action?.run();
  }

  return [
    vscode.commands.registerCommand(CommandIds.listServers, listServers),
    // The walkthrough (package.json's contributes.walkthroughs), by a name the Command Palette finds.
    vscode.commands.registerCommand(CommandIds.getStarted, () => vscode.commands.executeCommand('workbench.action.openWalkthrough', 'mcp-host.mcp-host#gettingStarted', false)),
    vscode.commands.registerCommand(
      CommandIds.startServer,
      withServer('Start which MCP server?', (s) => canBeStarted(s.state), start),
    ),
    // The user's own start of a server that waits for trust: it shows what the server would run and asks.
    vscode.commands.registerCommand(
      CommandIds.trustServer,
      withServer('Trust which MCP server?', (s) => s.state.kind === 'blocked' && s.state.reason === 'untrusted', start),
    ),
    vscode.commands.registerCommand(
      CommandIds.stopServer,
      withServer('Stop which MCP server?', (s) => s.state.kind !== 'stopped' && s.state.kind !== 'blocked', stop),
    ),
    vscode.commands.registerCommand(CommandIds.restartServer, withServer('Restart which MCP server?', () => true, restart)),
    vscode.commands.registerCommand(CommandIds.showOutput, withServer('Show the log of which MCP server?', () => true, showOutput)),
    vscode.commands.registerCommand(CommandIds.openWorkspaceConfiguration, openWorkspaceConfiguration),
    vscode.commands.registerCommand(CommandIds.createWorkspaceConfiguration, openWorkspaceConfiguration),
    vscode.commands.registerCommand(CommandIds.openUserConfiguration, async () => {
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(deps.configLoader.userConfigUri, '..'));
      await openConfig(deps.configLoader.userConfigUri);
    }),
    vscode.commands.registerCommand(CommandIds.resetServerTrust, async () => {
      await deps.trustStore.reset();
      void vscode.window.showInformationMessage('MCP server trust was reset: each workspace server asks again at its next start.');
    }),
    vscode.commands.registerCommand(CommandIds.clearStoredInputs, async () => {
      const n = await deps.inputs.clear();
      void vscode.window.showInformationMessage(`Cleared ${n} stored MCP input value${n === 1 ? '' : 's'}: servers ask again at their next start.`);
    }),
  ];
}
