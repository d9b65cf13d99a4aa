// OAuth for remote servers, assembled for VS Code: tokens and registrations in SecretStorage, sign-in through the
// dialogs and the browser, and the per-server sign-in state the Servers view shows. Loaded on demand: a remote server's
// start asks for it.
import vscode = require('vscode');
import type { AuthStatusStore } from '../../core/auth/authStatus';
import type { AuthProviderFactory } from '../../core/auth/authPorts';
import { oauthProviderFactory } from '../../core/protocol/auth/oauthProviderFactory.lazy';
import type { HostDialogs } from '../dialogs/dialogRouter';
import { BrowserSignIn } from './browserSignIn.lazy';
import { clientMetadataUrlOf, staticClients } from './oauthClients.lazy';

export interface OAuthDeps {
  secrets: vscode.SecretStorage;
  /** Where the redirect listener's port is kept, so the redirect URL stays the same. */
  state: vscode.Memento;
  dialogs: HostDialogs;
  status: AuthStatusStore;
}

/** The providers of remote servers' sign-ins, and what ends their redirect listener. */
export interface OAuth extends vscode.Disposable {
  authProvider: AuthProviderFactory;
}

export function createOAuth(deps: OAuthDeps): OAuth {
  const browser = new BrowserSignIn(deps.dialogs, deps.state);
  const factory = oauthProviderFactory({
    store: deps.secrets,
    interaction: browser,
    status: deps.status,
    clientName: 'MCP Host for VS Code',
    staticClient: staticClients(deps.secrets, deps.dialogs),
    clientMetadataUrl: clientMetadataUrlOf,
  });
  return { authProvider: (definition, log) => factory(definition, log), dispose: () => browser.dispose() };
}
