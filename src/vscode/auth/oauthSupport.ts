// OAuth for remote servers, assembled for VS Code: tokens and registrations in SecretStorage, sign-in through the
// dialogs and the browser, and the per-server sign-in state the Servers view shows.
import * as vscode from 'vscode';
import { AuthStatusStore } from '../../core/auth/authStatus';
import type { AuthProviderFactory } from '../../core/host/clientFeature';
import type { HostDialogs } from '../dialogs';
import { BrowserSignIn } from './browserSignIn';
import { clientMetadataUrlOf, staticClients } from './oauthClients';
import { loadHostBundle } from '../loadHostBundle';

export interface OAuthSupport extends vscode.Disposable {
  status: AuthStatusStore;
  authProvider: AuthProviderFactory;
}

export function createOAuthSupport(context: vscode.ExtensionContext, dialogs: HostDialogs): OAuthSupport {
  const status = new AuthStatusStore();
  const browser = new BrowserSignIn(dialogs, context.globalState);
  // Asked when a remote server starts: OAuth is part of the protocol layer, loaded by then.
  let factory: AuthProviderFactory | undefined;
  const authProvider: AuthProviderFactory = (definition, log) => {
    factory ??= loadHostBundle().oauthProviderFactory({
      store: context.secrets,
      interaction: browser,
      status,
      clientName: 'MCP Host for VS Code',
      staticClient: staticClients(context.secrets, dialogs),
      clientMetadataUrl: clientMetadataUrlOf,
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
