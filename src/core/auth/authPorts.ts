// What signing in to a remote server needs from its surroundings. The VS Code layer implements these with
// SecretStorage, a modal dialog, the browser and a redirect receiver; the headless client with memory and plain fetch.
import type { AuthProvider, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { ServerLog } from '../common/log';
import type { ServerDefinition } from '../config/serverDefinition';

/** A store for secrets (tokens, client registrations, PKCE verifiers). VS Code's SecretStorage fits. */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

export interface SignInRequest {
  serverName: string;
  /** Host of the authorization server the browser would open. */
  authorizationServer: string;
}

/** The user's side of an authorization-code flow: consent, a browser, and the way back. */
export interface AuthInteraction {
  /** Where the authorization server sends the browser back. Stable while the host runs. */
  redirectUrl(): Promise<string>;
  /** true = open the browser, false = no, undefined = dismissed. */
  confirmSignIn(request: SignInRequest): Promise<boolean | undefined>;
  /** Opens the authorization URL and resolves with the query parameters the browser came back to `redirectUrl` with. */
  authorize(authorizationUrl: URL, signal: AbortSignal): Promise<URLSearchParams>;
}

/** A client registered with the authorization server beforehand, instead of dynamic client registration. */
export interface StaticClient {
  clientId: string;
  /** Only for confidential clients; public clients use PKCE alone. */
  clientSecret?: string;
}

/** Gives the auth provider for a remote server (OAuth, or static credentials), if any. */
export type AuthProviderFactory = (definition: ServerDefinition, log: ServerLog) => AuthProvider | OAuthClientProvider | undefined;
