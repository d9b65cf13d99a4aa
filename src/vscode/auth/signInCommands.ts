// "MCP: Sign In to Server" and "MCP: Sign Out of Server", for remote servers. Commands take a tree node, a server id,
// or nothing (then a quick pick of the remote servers); what they do is in the session layer (session/signInCommands.ts).
import vscode = require('vscode');
import { CommandIds } from '../../core/common/commandIds';
import { serverIdOf } from '../servers/serverNodes';
import type { SignInCommandDeps } from './serverSignIn.lazy';
import type { LoadSessionLayer } from '../sessionLayer';

export function registerSignInCommands(deps: SignInCommandDeps & { session: LoadSessionLayer }): vscode.Disposable[] {
  const idOf = (arg: unknown) => (typeof arg === 'string' ? arg : serverIdOf(arg));
  return [
    vscode.commands.registerCommand(CommandIds.signInToServer, (arg?: unknown) => deps.session().signInToServer(deps, idOf(arg))),
    vscode.commands.registerCommand(CommandIds.signOutOfServer, (arg?: unknown) => deps.session().signOutOfServer(deps, idOf(arg))),
  ];
}
