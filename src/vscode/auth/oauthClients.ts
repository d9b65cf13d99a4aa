// Clients registered beforehand, for authorization servers without dynamic client registration: the setting
// `mcpHost.oauthClients` maps a server's name (or URL) to `{ "clientId": "…", "confidential": true }`. A confidential
// client's secret is asked once and kept in SecretStorage, never in settings.
import * as vscode from 'vscode';
import { signInDeclined } from '../../core/auth/authErrors';
import type { StaticClient } from '../../core/auth/ports';
import type { ServerDefinition } from '../../core/config/types';
import type { HostDialogs } from '../dialogs';

export interface OAuthClientSetting {
  clientId?: unknown;
  confidential?: unknown;
}

export const clientSecretKey = (serverId: string): string => `mcpHost.oauthClientSecret/${serverId}`;

/** The configured client of a server: by its name first, then by its URL. */
export function configuredClient(name: string, url: string): { clientId: string; confidential: boolean } | undefined {
  const all = vscode.workspace.getConfiguration('mcpHost').get<Record<string, OAuthClientSetting>>('oauthClients') ?? {};
  const setting = all[name] ?? all[url];
  if (typeof setting?.clientId !== 'string' || !setting.clientId) return undefined;
  return { clientId: setting.clientId, confidential: setting.confidential === true };
}

export function staticClients(secrets: vscode.SecretStorage, dialogs: Pick<HostDialogs, 'inputText'>) {
  // One question per server even when the SDK asks for the client several times during one sign-in.
  const asking = new Map<string, Promise<string | undefined>>();
  return async (definition: ServerDefinition): Promise<StaticClient | undefined> => {
    if (definition.resolved.type === 'stdio') return undefined;
    const client = configuredClient(definition.name, definition.resolved.url);
    if (!client) return undefined;
    if (!client.confidential) return { clientId: client.clientId };
    const key = clientSecretKey(definition.id);
    let secret = await secrets.get(key);
    if (!secret) {
      let question = asking.get(key);
      if (!question) {
        question = Promise.resolve(
          dialogs.inputText({
            title: `MCP server "${definition.name}": client secret`,
            prompt: `The secret of the OAuth client "${client.clientId}" (from mcpHost.oauthClients). It is kept in VS Code's secret storage.`,
            password: true,
          }),
        ).finally(() => asking.delete(key));
        asking.set(key, question);
      }
      secret = await question;
      if (!secret) throw signInDeclined();
      await secrets.store(key, secret);
    }
    return { clientId: client.clientId, clientSecret: secret };
  };
}
