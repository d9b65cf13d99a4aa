// "MCP: Sign In to Server" and "MCP: Sign Out of Server", for remote servers. Commands take a tree node, a server id,
// or nothing (then a quick pick of the remote servers); what they do (./serverSignIn.lazy.ts) loads on demand.
import vscode = require('vscode');
import type { AuthStatusStore } from '../../core/auth/authStatus';
import type { SecretStore } from '../../core/auth/authPorts';
import { CommandIds } from '../../core/common/commandIds';
import type { ServerManager } from '../../core/host/serverManager';
import { serverIdOf } from '../servers/serverNodes';

export interface SignInCommandDeps {
  manager: ServerManager;
  status: AuthStatusStore;
  secrets: SecretStore;
}

/** What the two commands do, given the server's id (undefined: ask). */
export interface SignInParts {
  signInToServer(deps: SignInCommandDeps, id: string | undefined): Promise<void>;
  signOutOfServer(deps: SignInCommandDeps, id: string | undefined): Promise<void>;
}

export function registerSignInCommands(deps: SignInCommandDeps, parts: SignInParts): vscode.Disposable[] {
  const idOf = (arg: unknown) => (typeof arg === 'string' ? arg : serverIdOf(arg));
  return [
    vscode.commands.registerCommand(CommandIds.signInToServer, (arg?: unknown) => parts.signInToServer(deps, idOf(arg))),
    vscode.commands.registerCommand(CommandIds.signOutOfServer, (arg?: unknown) => parts.signOutOfServer(deps, idOf(arg))),
  ];
}
