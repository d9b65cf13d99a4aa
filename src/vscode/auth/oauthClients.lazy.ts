// The setting `mcpHost.oauthClients` (clients registered beforehand, by server URL) and the client secret prompt, for
// the core's static clients.
import vscode = require('vscode');
import { configuredClientMetadataUrl, staticClients as coreStaticClients, type OAuthClientSetting } from '../../core/protocol/auth/staticClients.lazy';
import type { ServerDefinition } from '../../core/config/serverDefinition';
import type { HostDialogs } from '../dialogs/dialogRouter';

/**
 * Only the user's own settings: a workspace that could set a client id would choose which client, and so which
 * secret, goes to a server. The setting is application-scoped too, so VS Code does not offer it in workspace settings.
 */
const userClients = () =>
  vscode.workspace.getConfiguration('mcpHost').inspect<Record<string, OAuthClientSetting>>('oauthClients')?.globalValue;

export function staticClients(secrets: vscode.SecretStorage, dialogs: Pick<HostDialogs, 'inputText'>) {
  return coreStaticClients({
    settings: userClients,
    secrets,
    askSecret: ({ serverName, clientId, authorizationServer }) =>
      dialogs.inputText({
        title: `MCP server "${serverName}": client secret for ${authorizationServer}`,
        prompt: `The secret of the OAuth client "${clientId}" (from mcpHost.oauthClients), sent only to the authorization server ${authorizationServer}. It is kept in VS Code's secret storage.`,
        password: true,
      }),
  });
}

/** The Client ID Metadata Document URL the user configured for a server's URL in `mcpHost.oauthClients`. */
export const clientMetadataUrlOf = (definition: ServerDefinition): string | undefined =>
  definition.resolved.type === 'stdio' ? undefined : configuredClientMetadataUrl(userClients(), definition.resolved.url);
