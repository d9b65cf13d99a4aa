// What is kept of a remote server's sign-in, in the SecretStore: one record per server, bound to the server's URL, so a
// token is never offered to another server or origin. The protocol layer's OAuthProvider reads and writes it; signing
// out and "signed in before?" need no more than this (nor the SDK).
import type { webcrypto } from 'node:crypto';
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { SecretStore } from './authPorts';

type JsonWebKey = webcrypto.JsonWebKey;

export interface StoredTokens {
  tokens: StoredOAuthTokens;
  /** Epoch ms; absent when the server did not say. */
  expiresAt?: number;
}

export interface StoredClient {
  info: StoredOAuthClientInformation;
  /** A registration is only valid for the redirect URL it was made with. */
  redirectUrl: string;
}

/** Everything kept for one server, bound to the resource (server URL) it was obtained for. */
export interface AuthRecord {
  resource: string;
  clients: Record<string, StoredClient>;
  tokens?: StoredTokens;
  discovery?: OAuthDiscoveryState;
  codeVerifier?: string;
  resourceIndicator?: string;
  /** The DPoP signing key (ES256), exported: the tokens are bound to it. */
  dpopKey?: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
}

export const authStorageKey = (serverId: string): string => `mcpHost.oauth/${serverId}`;

/** Forgets a server's tokens, registrations and pending sign-in. */
export async function signOut(store: SecretStore, serverId: string): Promise<void> {
  await store.delete(authStorageKey(serverId));
}

/** Whether anything is stored for a server (it signed in before). */
export async function hasStoredAuth(store: SecretStore, serverId: string): Promise<boolean> {
  return (await store.get(authStorageKey(serverId))) !== undefined;
}

/** Who the tokens belong to, from an ID token or a JWT access token; display only, never trusted. */
export function accountOf(tokens: StoredOAuthTokens): string | undefined {
  for (const jwt of [tokens.id_token, tokens.access_token]) {
    const payload = jwt?.split('.')[1];
    if (!payload || jwt!.split('.').length !== 3) continue;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      const name = [claims.email, claims.preferred_username, claims.name, claims.sub].find((v) => typeof v === 'string' && v);
      if (name) return name as string;
    } catch {
      // Not a JWT after all: opaque tokens name no account.
    }
  }
  return undefined;
}

/** One secret per server; what it is valid for is stored with it (see StoredSecret). */
export const clientSecretKey = (serverId: string): string => `mcpHost.oauthClientSecret/${serverId}`;
