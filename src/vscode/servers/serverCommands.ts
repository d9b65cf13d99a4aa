// The "MCP" server and configuration commands: registered on activation, their work (./serverCommands.lazy.ts)
// loaded at the first one run.
import vscode = require('vscode');
import type { ServerManager } from '../../core/host/serverManager';
import type { TrustStore } from '../../core/host/trustStore';
import type { PermissionStore } from '../../core/host/permissionStore';
import type { ServerInfo } from '../../core/host/serverInfo';
import type { ConfigLoader } from '../config/configLoader';
import type { ServerOutputChannels } from './serverLogs';
import type { StoredInputs } from '../config/storedInputs';
import type { HostDialogs } from '../dialogs/dialogRouter';
import { CommandIds } from '../../core/common/commandIds';
import { serverIdOf } from './treeNode';

export interface CommandDeps {
  manager: ServerManager;
  configLoader: ConfigLoader;
  logs: ServerOutputChannels;
  trustStore: TrustStore;
  inputs: StoredInputs;
  /** Reset Server Trust asks first, through the dialogs tests can answer, saying how many servers it forgets. */
  dialogs: Pick<HostDialogs, 'confirmResetTrust'>;
  permissions: Pick<PermissionStore, 'list'>;
  /** A new .vscode/mcp.json's text (loaded on demand: only that command needs it). */
  configTemplate(): string;
  /** Enable Server: takes `"disabled": true` out of the server's entry in its file (loaded on demand). */
  enableServerInFile(scope: ServerInfo['scope'], name: string): Promise<void>;
}

/** Each command's work, by command id. */
export type CommandHandlers = Record<string, (...args: never[]) => unknown>;

const SERVER_COMMANDS = [
  CommandIds.listServers,
  CommandIds.getStarted,
  CommandIds.startServer,
  CommandIds.trustServer,
  CommandIds.stopServer,
  CommandIds.restartServer,
  CommandIds.enableServer,
  CommandIds.showOutput,
  CommandIds.openWorkspaceConfiguration,
  CommandIds.createWorkspaceConfiguration,
  CommandIds.openUserConfiguration,
  CommandIds.resetServerTrust,
  CommandIds.clearStoredInputs,
];

export function registerCommands(deps: CommandDeps, handlers: (deps: CommandDeps) => CommandHandlers): vscode.Disposable[] {
  let built: CommandHandlers | undefined;
  const handler = (id: string) => (built ??= handlers(deps))[id] as (...args: unknown[]) => unknown;
  // A tree row becomes its server's id here: the rows' classes belong to this bundle (instanceof fails in another).
  const plain = (arg: unknown) => serverIdOf(arg) ?? arg;
  return SERVER_COMMANDS.map((id) => vscode.commands.registerCommand(id, (first?: unknown, ...rest: unknown[]) => handler(id)(plain(first), ...rest)));
}
