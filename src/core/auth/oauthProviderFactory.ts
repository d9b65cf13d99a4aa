// The host's AuthProviderFactory: every remote server gets an OAuth provider, so a server that answers 401 is signed
// in to; one that never does never sees it (no token is sent until a sign-in stored one). A server whose entry sets
// its own Authorization header gets none: a 401 then means that credential is wrong, not "sign in".
import type { AuthProviderFactory } from '../host/clientFeature';
import type { ServerDefinition } from '../config/types';
import type { AuthStatusStore } from './authStatus';
import { OAuthProvider, type OAuthProviderOptions } from './oauthProvider';
import type { AuthInteraction, SecretStore, StaticClient } from './ports';

export interface OAuthDeps {
  store: SecretStore;
  interaction: AuthInteraction;
  status: AuthStatusStore;
  clientName: string;
  /** The client the user registered for this server beforehand, if any, for the authorization server `issuer`. */
  staticClient?: (definition: ServerDefinition, issuer: string) => Promise<StaticClient | undefined>;
  clientMetadataUrl?: string;
  /** Overrides for tests and the headless client (timeouts, clock). */
  tuning?: Pick<OAuthProviderOptions, 'maxSignIns' | 'signInTimeoutMs' | 'refreshMarginMs' | 'now'>;
}

export function oauthProviderFactory(deps: OAuthDeps): AuthProviderFactory {
  return (definition, log) => {
    if (definition.resolved.type === 'stdio') return undefined;
    if (Object.keys(definition.resolved.headers).some((h) => h.toLowerCase() === 'authorization')) return undefined;
    return new OAuthProvider({
      serverId: definition.id,
      serverName: definition.name,
      serverUrl: definition.resolved.url,
      store: deps.store,
      interaction: deps.interaction,
      status: deps.status,
      log,
      clientName: deps.clientName,
      staticClient: deps.staticClient && ((issuer) => deps.staticClient!(definition, issuer)),
      clientMetadataUrl: deps.clientMetadataUrl,
      ...deps.tuning,
    });
  };
}
