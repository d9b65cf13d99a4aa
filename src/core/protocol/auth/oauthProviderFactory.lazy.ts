// The host's AuthProviderFactory: every remote server gets an OAuth provider, so a server that answers 401 is signed
// in to; one that never does never sees it (no token is sent until a sign-in stored one). A server whose entry sets
// its own Authorization header gets none: a 401 then means that credential is wrong, not "sign in".
// A server whose `auth` names a machine-to-machine or enterprise flow gets the SDK's own provider for it (client
// credentials with a secret or a private-key JWT, cross-app access), DPoP-bound when its `auth` asks.
import {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  DpopSession,
  PrivateKeyJwtProvider,
  discoverAndRequestJwtAuthGrant,
  requestJwtAuthorizationGrant,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import type { AuthProviderFactory } from '../../auth/authPorts';
import type { RemoteAuthConfig, ServerDefinition } from '../../config/serverDefinition';
import type { AuthStatusStore } from '../../auth/authStatus';
import { OAuthProvider, type OAuthProviderOptions } from './oauthProvider.lazy';
import { JwtBearerProvider } from './jwtBearerProvider.lazy';
import { readAssertionFile, runAssertionCommand } from './assertionSources.lazy';
import type { AuthInteraction, SecretStore, StaticClient } from '../../auth/authPorts';

export interface OAuthDeps {
  store: SecretStore;
  interaction: AuthInteraction;
  status: AuthStatusStore;
  clientName: string;
  /** The client the user registered for this server beforehand, if any, for the authorization server `issuer`. */
  staticClient?: (definition: ServerDefinition, issuer: string) => Promise<StaticClient | undefined>;
  /** A Client ID Metadata Document URL (SEP-991), for every server or per server; an `auth.clientMetadataUrl` wins. */
  clientMetadataUrl?: string | ((definition: ServerDefinition) => string | undefined);
  /** DPoP for browser sign-ins without an `auth.dpop` of their own: `auto` uses it where the authorization server offers it. */
  dpop?: 'auto';
  /** Overrides for tests and the headless client (timeouts, clock). */
  tuning?: Pick<OAuthProviderOptions, 'maxSignIns' | 'signInTimeoutMs' | 'refreshMarginMs' | 'now'>;
}

export function oauthProviderFactory(deps: OAuthDeps): AuthProviderFactory {
  return (definition, log) => {
    if (definition.resolved.type === 'stdio') return undefined;
    if (Object.keys(definition.resolved.headers).some((h) => h.toLowerCase() === 'authorization')) return undefined;
    const auth = definition.resolved.auth;
    if (auth && auth.type !== 'oauth') return machineProvider(auth, deps.clientName);
    return new OAuthProvider({
      serverId: definition.id,
      serverName: definition.name,
      serverUrl: definition.resolved.url,
      store: deps.store,
      interaction: deps.interaction,
      status: deps.status,
      log,
      clientName: deps.clientName,
      // A client of the user's settings first; else the one the file names (`oauth.clientId`: a public client, no secret).
      staticClient: async (issuer) => (await deps.staticClient?.(definition, issuer)) ?? (auth?.clientId ? { clientId: auth.clientId } : undefined),
      clientMetadataUrl: auth?.clientMetadataUrl ?? (typeof deps.clientMetadataUrl === 'function' ? deps.clientMetadataUrl(definition) : deps.clientMetadataUrl),
      dpop: auth?.dpop ?? deps.dpop ?? false,
      ...deps.tuning,
    });
  };
}

/** The SDK's provider for a flow without a person: the token comes from the token endpoint directly. */
function machineProvider(auth: RemoteAuthConfig, clientName: string): OAuthClientProvider {
  const issuer = auth.issuer ? { expectedIssuer: auth.issuer } : {};
  let provider: OAuthClientProvider;
  switch (auth.type) {
    case 'clientCredentials':
      provider = new ClientCredentialsProvider({ clientId: auth.clientId!, clientSecret: auth.clientSecret!, clientName, scope: auth.scope, ...issuer });
      break;
    case 'privateKeyJwt':
      provider = new PrivateKeyJwtProvider({ clientId: auth.clientId!, privateKey: auth.privateKey!, algorithm: auth.algorithm!, clientName, scope: auth.scope, ...issuer });
      break;
    case 'jwtBearer': {
      const { assertion, assertionFile, assertionCommand } = auth;
      const read = assertionFile !== undefined ? () => readAssertionFile(assertionFile) : assertionCommand ? () => runAssertionCommand(assertionCommand) : async () => assertion ?? '';
      provider = new JwtBearerProvider({ clientId: auth.clientId!, clientName, scope: auth.scope, ...issuer, assertion: read });
      break;
    }
    default: {
      const idp = auth.idp!;
      provider = new CrossAppAccessProvider({
        clientId: auth.clientId!,
        clientSecret: auth.clientSecret!,
        clientName,
        ...issuer,
        // The enterprise identity provider exchanges the user's ID token for an ID-JAG naming this server (RFC 8693).
        assertion: async (ctx) => {
          const request = { audience: ctx.authorizationServerUrl, resource: ctx.resourceUrl, idToken: idp.idToken, clientId: idp.clientId, clientSecret: idp.clientSecret, scope: ctx.scope, fetchFn: ctx.fetchFn };
          const grant = idp.tokenEndpoint
            ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.tokenEndpoint })
            : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.issuer! });
          return grant.jwtAuthGrant;
        },
      });
    }
  }
  if (auth.dpop) {
    const session = DpopSession.create();
    provider.dpop = () => session;
  }
  return provider;
}
