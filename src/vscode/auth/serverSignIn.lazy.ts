// "MCP: Sign In to Server" and "MCP: Sign Out of Server" once invoked (loaded on demand): the server from
// the tree node or id the command was given, or a quick pick of the remote servers.
import vscode = require('vscode');
import { clientSecretKey, hasStoredAuth, signOut } from '../../core/auth/authRecords';
import type { ServerInfo } from '../../core/host/serverInfo';
import { describeAuth } from '../../core/presentation/serverPresentation';
import { labelText, plainText } from '../../core/presentation/serverText';
import type { SignInCommandDeps } from './signInCommands';

export const SIGNED_OUT_REASON = 'Signed out: start the server to sign in again.';

async function pick({ manager }: SignInCommandDeps, id: string | undefined, placeHolder: string): Promise<ServerInfo | undefined> {
  const remote = manager.servers().filter((s) => s.definition.type !== 'stdio');
  if (id) return remote.find((s) => s.id === id);
  if (!remote.length) {
    void vscode.window.showInformationMessage('No remote MCP server is configured: only "http" and "sse" servers sign in.');
    return undefined;
  }
  const items = remote.map((s) => ({ label: labelText(s.name), description: labelText(describeAuth(s.auth) ?? s.scope.label), server: s }));
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.server;
}

/** "MCP: Sign In to Server": a (re)start, which signs in when the server asks for it. */
export async function signInToServer(deps: SignInCommandDeps, id: string | undefined): Promise<void> {
  const { manager } = deps;
  const server = await pick(deps, id, 'Sign in to which MCP server?');
  const managed = server && manager.get(server.id);
  if (!server || !managed) return;
  const { auth } = server;
  if (server.state.kind === 'running' && auth?.kind === 'signedIn') {
    void vscode.window.showInformationMessage(`MCP server "${plainText(server.name)}": already ${plainText(describeAuth(auth) ?? '')}.`);
    return;
  }
  if (server.state.kind === 'running' && !auth) {
    void vscode.window.showInformationMessage(`MCP server "${plainText(server.name)}" runs without asking anyone to sign in.`);
    return;
  }
  // A (re)start signs in when the server asks for it: the SDK's flow decides, with stored tokens first.
  await (server.state.kind === 'running' || server.state.kind === 'starting' ? managed.restart() : managed.start(true));
}

/** "MCP: Sign Out of Server": its stored tokens forgotten, and the server stopped. */
export async function signOutOfServer(deps: SignInCommandDeps, id: string | undefined): Promise<void> {
  const { manager, status, secrets } = deps;
  const server = await pick(deps, id, 'Sign out of which MCP server?');
  if (!server) return;
  const had = await hasStoredAuth(secrets, server.id);
  await signOut(secrets, server.id);
  await secrets.delete(clientSecretKey(server.id));
  status.set(server.id, undefined);
  if (server.state.kind === 'running' || server.state.kind === 'starting') await manager.get(server.id)?.stop(SIGNED_OUT_REASON);
  void vscode.window.showInformationMessage(
    had ? `Signed out of MCP server "${plainText(server.name)}": its tokens are forgotten.` : `MCP server "${plainText(server.name)}" had no stored sign-in.`,
  );
}
