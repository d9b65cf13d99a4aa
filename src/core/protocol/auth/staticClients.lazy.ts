// Clients registered beforehand, for authorization servers without dynamic client registration: the user's settings
// map a server's URL to `{ "clientId": "…", "confidential": true }`. A confidential client's secret is asked once and
// kept in the secret store, never in settings.
import type { ServerDefinition } from '../../config/serverDefinition';
import { signInDeclined } from './authErrors.lazy';
import { clientSecretKey } from '../../auth/authRecords';
import type { SecretStore, StaticClient } from '../../auth/authPorts';

export interface OAuthClientSetting {
  clientId?: unknown;
  confidential?: unknown;
  /** A Client ID Metadata Document URL (SEP-991) to use as the client id, where the authorization server supports it. */
  clientMetadataUrl?: unknown;
}

/** What the secret prompt names: the server, the client, and where the secret will be sent. */
export interface ClientSecretRequest {
  serverName: string;
  clientId: string;
  /** Host of the authorization server the secret is for. */
  authorizationServer: string;
}

export interface StaticClientDeps {
  /** The configured clients, by server URL. Only settings a workspace cannot write belong here. */
  settings(): Record<string, OAuthClientSetting> | undefined;
  secrets: SecretStore;
  /** Undefined = dismissed. */
  askSecret(request: ClientSecretRequest): PromiseLike<string | undefined>;
}


/**
 * A secret is only valid for the client and the authorization server it was given for: an entry whose URL was edited
 * may sign in elsewhere, and that server must not receive the first one's secret.
 */
interface StoredSecret {
  clientId: string;
  issuer: string;
  secret: string;
}

const normalizeUrl = (url: string): string => {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
};

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/**
 * The configured client of a server, found by its URL only: a name is whatever an `mcp.json` chose, and a workspace
 * naming its server like one of the user's must not get the user's client for a server elsewhere.
 */
export function configuredClient(
  settings: Record<string, OAuthClientSetting> | undefined,
  url: string,
): { clientId: string; confidential: boolean } | undefined {
  const wanted = normalizeUrl(url);
  const setting = Object.entries(settings ?? {}).find(([key]) => normalizeUrl(key) === wanted)?.[1];
  if (typeof setting?.clientId !== 'string' || !setting.clientId) return undefined;
  return { clientId: setting.clientId, confidential: setting.confidential === true };
}

/** The Client ID Metadata Document URL configured for a server's URL (HTTPS only), if any. */
export function configuredClientMetadataUrl(settings: Record<string, OAuthClientSetting> | undefined, url: string): string | undefined {
  const wanted = normalizeUrl(url);
  const value = Object.entries(settings ?? {}).find(([key]) => normalizeUrl(key) === wanted)?.[1]?.clientMetadataUrl;
  return typeof value === 'string' && /^https:\/\//i.test(value) ? value : undefined;
}

function storedSecret(raw: string | undefined, clientId: string, issuer: string): string | undefined {
  try {
    const stored = raw ? (JSON.parse(raw) as Partial<StoredSecret>) : undefined;
    return stored?.clientId === clientId && stored.issuer === issuer && typeof stored.secret === 'string' ? stored.secret : undefined;
  } catch {
    // Unreadable: asked again, and the answer replaces it.
    return undefined;
  }
}

/** The configured client of a server, for the authorization server `issuer`, with its secret when it has one. */
export function staticClients(deps: StaticClientDeps) {
  // One question per server and authorization server, even when the SDK asks for the client several times in one sign-in.
  const asking = new Map<string, Promise<string | undefined>>();
  return async (definition: ServerDefinition, issuer: string): Promise<StaticClient | undefined> => {
    if (definition.resolved.type === 'stdio') return undefined;
    const client = configuredClient(deps.settings(), definition.resolved.url);
    if (!client) return undefined;
    if (!client.confidential) return { clientId: client.clientId };
    const key = clientSecretKey(definition.id);
    let secret = storedSecret(await deps.secrets.get(key), client.clientId, issuer);
    if (!secret) {
      const question = `${key}\n${client.clientId}\n${issuer}`;
      let answer = asking.get(question);
      if (!answer) {
        answer = Promise.resolve(
          deps.askSecret({ serverName: definition.name, clientId: client.clientId, authorizationServer: hostOf(issuer) }),
        ).finally(() => asking.delete(question));
        asking.set(question, answer);
      }
      secret = await answer;
      if (!secret) throw signInDeclined();
      const stored: StoredSecret = { clientId: client.clientId, issuer, secret };
      await deps.secrets.store(key, JSON.stringify(stored));
    }
    return { clientId: client.clientId, clientSecret: secret };
  };
}
