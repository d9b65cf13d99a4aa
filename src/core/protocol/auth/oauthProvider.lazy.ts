// The SDK's OAuthClientProvider for one remote server: what the SDK's auth flow (discovery, registration, PKCE,
// token exchange, refresh, step-up) reads and writes. Everything it keeps goes to a SecretStore, in one record per
// server that is bound to the server's URL, so a token is never offered to another server or origin.
import { randomBytes, webcrypto } from 'node:crypto';

type JsonWebKey = webcrypto.JsonWebKey;
import {
  DpopSession,
  generateDpopKeyPair,
  refreshAuthorization,
  resourceUrlFromServerUrl,
  type FetchLike,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { withTimeout } from '../../common/async';
import type { ServerLog } from '../../common/log';
import { redirectMismatch, signInAttemptsExceeded, signInDeclined, signInTimedOut, SignInError } from './authErrors.lazy';
import { isAllowedUrl } from '../../config/allowedUrls';
import { assertAllowedUrl } from './refusedUrl.lazy';
import type { AuthStatusStore } from '../../auth/authStatus';
import type { AuthInteraction, SecretStore, StaticClient } from '../../auth/authPorts';
import { accountOf, authStorageKey, type AuthRecord, type StoredClient, type StoredTokens } from '../../auth/authRecords';

export interface OAuthProviderOptions {
  serverId: string;
  serverName: string;
  serverUrl: string;
  store: SecretStore;
  interaction: AuthInteraction;
  status: AuthStatusStore;
  log: ServerLog;
  /** `client_name` in dynamic client registration. */
  clientName: string;
  /**
   * A client registered beforehand for this server, if the user configured one. Asked per authorization server
   * (`issuer`): a confidential client's secret is only ever given to the one it was entered for.
   */
  staticClient?: (issuer: string) => Promise<StaticClient | undefined>;
  /** A Client ID Metadata Document URL (SEP-991), used when the authorization server supports it. */
  clientMetadataUrl?: string;
  /**
   * DPoP-bound tokens (RFC 9449): `true` always, `'auto'` where the authorization server advertises it (or tokens are
   * already bound), `false` never. The signing key is kept with the tokens, so bound tokens outlive a restart.
   */
  dpop?: boolean | 'auto';
  /** Browser sign-ins one start may ask for before it gives up. */
  maxSignIns?: number;
  signInTimeoutMs?: number;
  /** Access tokens are refreshed this long before they expire. */
  refreshMarginMs?: number;
  now?: () => number;
  fetchFn?: FetchLike;
}

const ES256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/**
 * The SDK asked for the redirect URL before it was resolved. Resolving it may open a listener or forward a port, so it
 * happens only once a server asks for authorization: the connection calls `prepareSignIn()` and tries again.
 */
export class SignInNotPreparedError extends Error {
  constructor() {
    super('The sign-in redirect URL is not resolved yet.');
    this.name = 'SignInNotPreparedError';
  }
}

/** RFC 7638 thumbprint of an EC public key. */
async function thumbprintOf(jwk: JsonWebKey): Promise<string> {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return Buffer.from(await webcrypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical))).toString('base64url');
}

const hostOf = (url: string | undefined): string | undefined => {
  try {
    return url ? new URL(url).host : undefined;
  } catch {
    return undefined;
  }
};

export class OAuthProvider implements OAuthClientProvider {
  private record: AuthRecord | undefined;
  private loading: Promise<AuthRecord> | undefined;
  private resolvedRedirectUrl: string | undefined;
  private expectedState: string | undefined;
  private pendingAuthorization: URL | undefined;
  private signIns = 0;
  private staticSecret: string | undefined;
  private refreshing: Promise<void> | undefined;
  private dpopSession: Promise<DpopSession> | undefined;
  /** Between the browser's return and the code's redemption: the discovery this sign-in started from is what counts. */
  private awaitingCallback = false;
  private readonly resource: string;
  private readonly now: () => number;

  constructor(private readonly options: OAuthProviderOptions) {
    this.resource = resourceUrlFromServerUrl(options.serverUrl).href;
    this.now = options.now ?? Date.now;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  /** Read synchronously by the SDK when a sign-in starts; resolved beforehand by `prepareSignIn()`. */
  get redirectUrl(): string {
    if (!this.resolvedRedirectUrl) throw new SignInNotPreparedError();
    return this.resolvedRedirectUrl;
  }

  async prepareSignIn(): Promise<void> {
    this.resolvedRedirectUrl ??= await this.options.interaction.redirectUrl();
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  private async load(): Promise<AuthRecord> {
    if (this.record) return this.record;
    this.loading ??= (async () => {
      const raw = await this.options.store.get(authStorageKey(this.options.serverId));
      let record: AuthRecord | undefined;
      try {
        record = raw ? (JSON.parse(raw) as AuthRecord) : undefined;
      } catch {
        this.options.log.warn('Stored sign-in data was unreadable: signing in again.');
      }
      // Stored for another URL (the entry was edited): those credentials belong to another resource.
      if (record && record.resource !== this.resource) record = undefined;
      this.record = record ?? { resource: this.resource, clients: {} };
      const tokens = this.record.tokens?.tokens;
      if (tokens) {
        const authorizationServer = hostOf(tokens.issuer) ?? hostOf(this.record.discovery?.authorizationServerUrl) ?? '';
        this.options.status.set(this.options.serverId, { kind: 'signedIn', account: accountOf(tokens), authorizationServer });
      } else if (this.options.status.get(this.options.serverId)?.kind === 'failed') {
        // A new attempt: the last one's failure no longer describes the server.
        this.options.status.set(this.options.serverId, undefined);
      }
      return this.record;
    })();
    return this.loading;
  }

  /** Values that must never reach a log: tokens, client secrets, the PKCE verifier. */
  secretValues(): string[] {
    const r = this.record;
    const t = r?.tokens?.tokens;
    const clientSecrets = Object.values(r?.clients ?? {}).map((c) => ('client_secret' in c.info ? c.info.client_secret : undefined));
    return [t?.access_token, t?.refresh_token, t?.id_token, r?.codeVerifier, this.staticSecret, r?.dpopKey?.privateJwk.d, ...clientSecrets].filter((v): v is string => !!v);
  }

  private async save(change: (r: AuthRecord) => void): Promise<void> {
    const record = await this.load();
    change(record);
    await this.options.store.store(authStorageKey(this.options.serverId), JSON.stringify(record));
  }

  state(): string {
    this.expectedState = randomBytes(24).toString('base64url');
    return this.expectedState;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    // A configured client is bound to an authorization server, so it needs the issuer; the SDK always names it.
    const configured = ctx && (await this.options.staticClient?.(ctx.issuer));
    if (configured) {
      this.staticSecret = configured.clientSecret;
      return { client_id: configured.clientId, ...(configured.clientSecret ? { client_secret: configured.clientSecret } : {}) };
    }
    const record = await this.load();
    // During a sign-in the redirect URL is known and must match the registration's; a refresh uses none.
    const current = (c: StoredClient | undefined) =>
      c && (this.resolvedRedirectUrl === undefined || c.redirectUrl === this.resolvedRedirectUrl) ? c.info : undefined;
    if (ctx) return current(record.clients[ctx.issuer]);
    return Object.values(record.clients).map(current).find(Boolean);
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? info.issuer ?? '';
    // The SDK saves a configured client back with its issuer stamped on: it stays in the settings, not in the record.
    if (await this.options.staticClient?.(issuer)) return;
    await this.save((r) => (r.clients[issuer] = { info, redirectUrl: this.redirectUrl }));
    this.options.log.info(`Registered with the authorization server ${hostOf(issuer) ?? issuer}`);
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const record = await this.load();
    if (!ctx && record.tokens && this.expiresSoon(record.tokens)) await this.refreshEarly();
    return this.record?.tokens?.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    this.awaitingCallback = false;
    const expiresAt = tokens.expires_in !== undefined ? this.now() + tokens.expires_in * 1000 : undefined;
    await this.save((r) => (r.tokens = { tokens, expiresAt }));
    const authorizationServer = hostOf(tokens.issuer) ?? hostOf(this.record?.discovery?.authorizationServerUrl) ?? '';
    const account = accountOf(tokens);
    this.options.status.set(this.options.serverId, { kind: 'signedIn', account, authorizationServer });
    this.options.log.info(`Signed in${account ? ` as ${account}` : ''} (${authorizationServer})${expiresAt ? `; the token expires in ${tokens.expires_in} s` : ''}`);
  }

  private expiresSoon(stored: StoredTokens): boolean {
    return stored.expiresAt !== undefined && stored.expiresAt - this.now() <= (this.options.refreshMarginMs ?? 60_000);
  }

  /**
   * Refreshes an access token that is about to expire, before a request fails with it. A failure only logs: the
   * request then goes out with the old token and a 401 starts the SDK's full flow, which may ask the user.
   */
  private refreshEarly(): Promise<void> {
    this.refreshing ??= (async () => {
      const record = await this.load();
      const stored = record.tokens;
      const discovery = record.discovery;
      if (!stored?.tokens.refresh_token || !discovery) return;
      // As the SDK names the issuer: from the metadata, else the authorization server's URL.
      const issuer = stored.tokens.issuer ?? discovery.authorizationServerMetadata?.issuer ?? discovery.authorizationServerUrl;
      const client = await this.clientInformation({ issuer });
      if (!client) return;
      try {
        const tokens = await refreshAuthorization(discovery.authorizationServerUrl, {
          metadata: discovery.authorizationServerMetadata,
          clientInformation: client,
          refreshToken: stored.tokens.refresh_token,
          resource: record.resourceIndicator,
          // The token endpoint comes from the server's metadata: contacted only where any other request may go.
          fetchFn: (url, init) => {
            assertAllowedUrl(url, this.options.serverUrl, 'the token endpoint');
            return (this.options.fetchFn ?? fetch)(url, init);
          },
        });
        this.options.log.info('Refreshed the access token before it expired');
        // A refresh response may omit the refresh token: the old one stays valid then (RFC 6749 §6).
        await this.saveTokens({ refresh_token: stored.tokens.refresh_token, ...tokens, issuer: stored.tokens.issuer });
      } catch (e) {
        this.options.log.warn(`Token refresh failed: ${(e as Error).message}. If the server refuses the old token, signing in starts again.`);
      }
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** Not blocking here: the SDK then throws UnauthorizedError and the connection completes the sign-in. */
  redirectToAuthorization(authorizationUrl: URL): void {
    this.awaitingCallback = false;
    // Checked before the browser could ever be asked to open it.
    if (!isAllowedUrl(authorizationUrl, this.options.serverUrl)) {
      throw new SignInError(`The authorization server's sign-in address (${authorizationUrl.protocol}) is not an https address: refused.`);
    }
    this.pendingAuthorization = authorizationUrl;
    this.options.status.set(this.options.serverId, { kind: 'needsSignIn', authorizationServer: authorizationUrl.host });
  }

  /** True after the SDK asked for a browser sign-in that has not run yet. */
  get hasPendingSignIn(): boolean {
    return this.pendingAuthorization !== undefined;
  }

  /**
   * Runs the user's part of a pending authorization: consent, browser, redirect. Resolves with the callback's
   * parameters for the transport's `finishAuth`; rejects with a SignInError the user can read.
   */
  async completeSignIn(): Promise<URLSearchParams> {
    const url = this.pendingAuthorization;
    this.pendingAuthorization = undefined;
    if (!url) throw new SignInError('No sign-in is pending.');
    const max = this.options.maxSignIns ?? 3;
    try {
      if (++this.signIns > max) throw signInAttemptsExceeded(max);
      const consent = await this.options.interaction.confirmSignIn({ serverName: this.options.serverName, authorizationServer: url.host });
      if (consent !== true) throw signInDeclined();
      this.options.log.info(`Signing in at ${url.host} (attempt ${this.signIns} of ${max})`);
      const timeoutMs = this.options.signInTimeoutMs ?? 5 * 60_000;
      // Aborted once the sign-in is over, whichever way: the browser listener closes with it.
      const abort = new AbortController();
      let params: URLSearchParams;
      try {
        params = await withTimeout(this.options.interaction.authorize(url, abort.signal), timeoutMs, () => {
          throw signInTimedOut(Math.round(timeoutMs / 60_000));
        });
      } finally {
        abort.abort();
      }
      if (!this.expectedState || params.get('state') !== this.expectedState) throw redirectMismatch();
      this.awaitingCallback = true;
      return params;
    } catch (e) {
      const needsSignIn = e instanceof SignInError && e.needsSignIn;
      this.options.status.set(
        this.options.serverId,
        needsSignIn ? { kind: 'needsSignIn', authorizationServer: url.host } : { kind: 'failed', message: (e as Error).message },
      );
      throw e;
    } finally {
      this.expectedState = undefined;
    }
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.save((r) => (r.codeVerifier = codeVerifier));
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.load()).codeVerifier;
    if (!verifier) throw new Error('No PKCE code verifier was saved for this sign-in.');
    return verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.save((r) => (r.discovery = state));
  }

  /** The DPoP session the SDK signs token requests and resource requests with, when DPoP is used (see `dpop`). */
  async dpop(): Promise<DpopSession | undefined> {
    const mode = this.options.dpop ?? false;
    if (!mode) return undefined;
    const record = await this.load();
    if (mode === 'auto' && !record.dpopKey) {
      const algs = (record.discovery?.authorizationServerMetadata as { dpop_signing_alg_values_supported?: unknown } | undefined)?.dpop_signing_alg_values_supported;
      if (!Array.isArray(algs) || !algs.includes('ES256')) return undefined;
    }
    this.dpopSession ??= this.loadDpopSession();
    return this.dpopSession;
  }

  private async loadDpopSession(): Promise<DpopSession> {
    const stored = (await this.load()).dpopKey;
    if (stored) {
      try {
        const privateKey = await webcrypto.subtle.importKey('jwk', stored.privateJwk, ES256, false, ['sign']);
        const publicKey = await webcrypto.subtle.importKey('jwk', stored.publicJwk, ES256, true, ['verify']);
        return await DpopSession.create({ keyPair: { privateKey, publicKey, publicJwk: stored.publicJwk as never, thumbprint: await thumbprintOf(stored.publicJwk), alg: 'ES256' } });
      } catch (e) {
        this.options.log.warn(`The stored DPoP key was unreadable (${(e as Error).message}): a new key, and a new sign-in.`);
      }
    }
    const keyPair = await generateDpopKeyPair({ alg: 'ES256', extractable: true });
    const privateJwk = await webcrypto.subtle.exportKey('jwk', keyPair.privateKey);
    await this.save((r) => (r.dpopKey = { privateJwk, publicJwk: keyPair.publicJwk as JsonWebKey }));
    return DpopSession.create({ keyPair });
  }

  /**
   * What discovery found, for the SDK's auth flow. Only the redemption of a code gets the stored state (it must be the
   * authorization server the sign-in began at, SEP-2352). Every other run of the flow follows a refused token or a
   * missing one, and discovers afresh: the resource's metadata may now name another authorization server (a
   * migration), whose registration and tokens are its own. Refreshing before expiry reads the stored state directly.
   */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const discovery = (await this.load()).discovery;
    return this.awaitingCallback ? discovery : undefined;
  }

  async saveResourceUrl(resourceUrl: string): Promise<void> {
    await this.save((r) => (r.resourceIndicator = resourceUrl));
  }

  async resourceUrl(): Promise<string | undefined> {
    return (await this.load()).resourceIndicator;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    this.options.log.info(`Discarding stored ${scope === 'all' ? 'sign-in data' : scope === 'client' ? 'client registration' : scope}`);
    await this.save((r) => {
      if (scope === 'all' || scope === 'client') r.clients = {};
      if (scope === 'all' || scope === 'tokens') delete r.tokens;
      if (scope === 'all' || scope === 'verifier') delete r.codeVerifier;
      if (scope === 'all' || scope === 'discovery') delete r.discovery;
    });
  }
}
