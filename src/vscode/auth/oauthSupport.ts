// OAuth for remote servers, assembled for VS Code: tokens and registrations in SecretStorage, sign-in through the
// dialogs and the browser, and the per-server sign-in state the Servers view shows.
import vscode = require('vscode');
import { AuthStatusStore } from '../../core/auth/authStatus';
import type { AuthProviderFactory } from '../../core/auth/authPorts';
import type { HostDialogs } from '../dialogs/dialogRouter';
import { BrowserSignIn } from './browserSignIn';
import { clientMetadataUrlOf, staticClients } from './oauthClients';
import type { LoadSessionLayer } from '../sessionLayer';

export interface OAuthSupport extends vscode.Disposable {
  status: AuthStatusStore;
  authProvider: AuthProviderFactory;
}

export function createOAuthSupport(context: vscode.ExtensionContext, dialogs: HostDialogs, session: LoadSessionLayer): OAuthSupport {
  const status = new AuthStatusStore();
  const browser = new BrowserSignIn(dialogs, context.globalState, session);
  // Asked when a remote server starts: OAuth is part of the protocol layer, loaded by then.
  let factory: AuthProviderFactory | undefined;
  const authProvider: AuthProviderFactory = (definition, log) => {
    factory ??= session().oauthProviderFactory({
      store: context.secrets,
      interaction: browser,
      status,
      clientName: 'MCP Host for VS Code',
      staticClient: staticClients(context.secrets, dialogs, session),
      clientMetadataUrl: clientMetadataUrlOf(session),
    });
    return factory(definition, log);
  };
  return {
    status,
    authProvider,
    dispose: () => {
      browser.dispose();
      status.dispose();
    },
  };
}
