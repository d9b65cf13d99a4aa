// The RFC 7523 JWT-bearer grant (workload identity federation, SEP-1933): the token request carries a JWT the
// workload already holds — from its platform (a Kubernetes projected service-account token file, a cloud's metadata
// service through a command) or typed in — as `assertion`, with `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`
// and no client secret. An OAuthClientProvider whose token request the SDK sends as for its own machine providers
// (`prepareTokenRequest`); the assertion is fetched afresh for every token request, as workload tokens rotate.
// A refused grant (invalid_grant, invalid_scope, unauthorized_client) is surfaced as the SDK reports it: never retried
// with another grant.
import type { OAuthClientMetadata, OAuthClientProvider, OAuthTokens } from '@modelcontextprotocol/client';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface JwtBearerProviderOptions {
  clientId: string;
  clientName: string;
  scope?: string;
  /** The authorization server the assertion is for: tokens are requested from no other. */
  expectedIssuer?: string;
  /** The workload's JWT, read when a token is requested. */
  assertion(): Promise<string>;
}

export class JwtBearerProvider implements OAuthClientProvider {
  private current: OAuthTokens | undefined;
  private readonly metadata: OAuthClientMetadata;

  constructor(private readonly options: JwtBearerProviderOptions) {
    this.metadata = {
      client_name: options.clientName,
      redirect_uris: [],
      grant_types: [JWT_BEARER_GRANT],
      token_endpoint_auth_method: 'none',
      ...(options.scope ? { scope: options.scope } : {}),
    };
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return this.metadata;
  }

  clientInformation() {
    return { client_id: this.options.clientId, ...(this.options.expectedIssuer ? { issuer: this.options.expectedIssuer } : {}) };
  }

  tokens(): OAuthTokens | undefined {
    return this.current;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.current = tokens;
  }

  redirectToAuthorization(): void {
    throw new Error('The JWT-bearer grant has no browser sign-in.');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error('The JWT-bearer grant has no code verifier.');
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const assertion = (await this.options.assertion()).trim();
    if (!assertion) throw new Error('The JWT-bearer assertion is empty.');
    const params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion });
    if (scope) params.set('scope', scope);
    return params;
  }
}
