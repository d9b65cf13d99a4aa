// The work of the "MCP" server and configuration commands (./serverCommands.ts registers them). Server commands take
// a server id (a tree row is turned into one where they are registered), or nothing (then they ask with a quick pick).
import vscode = require('vscode');
import { canBeStarted, type ServerInfo } from '../../core/host/serverInfo';
import { workspaceConfigUri } from '../config/configUris';
import { labelText, plainText } from '../../core/presentation/serverText';
import { describeState, stateDisplay } from '../../core/presentation/serverPresentation';
import { placeholderText } from '../../core/presentation/fittedText';
import { rememberedServers } from '../../core/presentation/permissionRows';
import { CommandIds } from '../../core/common/commandIds';
import type { CommandDeps, CommandHandlers } from './serverCommands';
import { pickToolApproval } from '../tools/toolChoices.lazy';

type ServerArg = unknown;

export function serverCommandHandlers(deps: CommandDeps): CommandHandlers {
  const { manager } = deps;

  async function pickServer(arg: ServerArg, placeHolder: string, filter: (s: ServerInfo) => boolean = () => true) {
    const id = typeof arg === 'string' ? arg : undefined;
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
  const isDisabled = (s: ServerInfo) => s.state.kind === 'blocked' && s.state.reason === 'disabled';
  // The file's change (watched) starts it, as an edit by hand would.
  const enable = (s: ServerInfo) =>
    deps.enableServerInFile(s.scope, s.name).catch((e: Error) => void vscode.window.showErrorMessage(`Could not enable ${plainText(s.name)} in ${plainText(s.scope.configPath)}: ${plainText(e.message)}`));

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
    const action = await vscode.window.showQuickPick(actions, { placeHolder: placeholderText(`${server.name}: ${stateDisplay(server).description}`) });
    await action?.run();
  }

  return {
    [CommandIds.listServers]: listServers,
    // The walkthrough (package.json's contributes.walkthroughs), by a name the Command Palette finds.
    [CommandIds.getStarted]: () => vscode.commands.executeCommand('workbench.action.openWalkthrough', 'mcp-host.mcp-host#gettingStarted', false),
    [CommandIds.startServer]: withServer('Start which MCP server?', (s) => canBeStarted(s.state), start),
    // The user's own start of a server that waits for trust: it shows what the server would run and asks.
    [CommandIds.trustServer]: withServer('Trust which MCP server?', (s) => s.state.kind === 'blocked' && s.state.reason === 'untrusted', start),
    [CommandIds.stopServer]: withServer('Stop which MCP server?', (s) => s.state.kind !== 'stopped' && s.state.kind !== 'blocked', stop),
    [CommandIds.restartServer]: withServer('Restart which MCP server?', () => true, restart),
    [CommandIds.enableServer]: withServer('Enable which MCP server?', isDisabled, enable),
    [CommandIds.showOutput]: withServer('Show the log of which MCP server?', () => true, showOutput),
    [CommandIds.setToolApproval]: withServer('Set the tool approval of which MCP server?', () => true, (s) => pickToolApproval(deps.toolChoices(), s)),
    [CommandIds.openWorkspaceConfiguration]: openWorkspaceConfiguration,
    [CommandIds.createWorkspaceConfiguration]: openWorkspaceConfiguration,
    [CommandIds.openUserConfiguration]: async () => {
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(deps.configLoader.userConfigUri, '..'));
      await openConfig(deps.configLoader.userConfigUri);
    },
    [CommandIds.resetServerTrust]: async () => {
      const servers = rememberedServers(deps.permissions.list('server-trust'));
      if (!servers) {
        void vscode.window.showInformationMessage('No MCP server trust is remembered: there is nothing to reset.');
        return;
      }
      if ((await deps.dialogs.confirmResetTrust({ servers })) !== true) return;
      await deps.trustStore.reset();
      void vscode.window.showInformationMessage(`MCP server trust was reset: ${servers} server${servers === 1 ? '' : 's'} will ask again before ${servers === 1 ? 'it starts' : 'they start'} next.`);
    },
    [CommandIds.clearStoredInputs]: async () => {
      const n = await deps.inputs.clear();
      void vscode.window.showInformationMessage(`Cleared ${n} stored MCP input value${n === 1 ? '' : 's'}: servers ask again at their next start.`);
    },
  };
}
