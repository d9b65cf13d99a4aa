// Sign-in failures and the one message each gives the user. The SDK's own errors are translated here too, so every
// way signing in can fail ends in a sentence that says what happened and what to do.
import {
  InsecureTokenEndpointError,
  IssuerMismatchError,
  AuthorizationServerMismatchError,
  OAuthError,
  RegistrationRejectedError,
  SdkError,
  SdkErrorCode,
  UnauthorizedError,
} from '@modelcontextprotocol/client';

import { RefusedUrlError } from './refusedUrl.lazy';

const SIGN_IN_HINT = 'Use "MCP Host: Sign In to Server" to try again.';

/** A sign-in failure whose message is already fit for the user. */
export class SignInError extends Error {
  constructor(
    message: string,
    /** For the Servers view: the user must act (sign in) rather than fix something. */
    readonly needsSignIn = false,
  ) {
    super(message);
    this.name = 'SignInError';
  }
}

export const signInDeclined = () => new SignInError(`Sign-in was declined. ${SIGN_IN_HINT}`, true);

export const signInAttemptsExceeded = (n: number) =>
  new SignInError(`Signing in did not succeed after ${n} attempts: stopped trying. See the output for each attempt. ${SIGN_IN_HINT}`);

export const signInTimedOut = (minutes: number) =>
  new SignInError(`Sign-in was not completed within ${minutes} minutes. ${SIGN_IN_HINT}`, true);

export const redirectMismatch = () =>
  new SignInError('The sign-in redirect did not come back with the state this sign-in sent (redirect mismatch): refused.');

/**
 * The authorization server answered an OAuth error, in the browser's redirect or from its token endpoint. Only the error
 * code is shown, and only when it is one (RFC 6749 codes are words like `access_denied`): the description, and anything
 * else in that place, is the server's free text, which could tell the user to do anything.
 */
export const authorizationRefused = (code: string) =>
  new SignInError(`The authorization server refused the sign-in (${/^[\w.-]{1,64}$/.test(code) ? code : 'unknown error'}). ${SIGN_IN_HINT}`);

const hostOf = (url: string | URL | undefined): string => {
  try {
    return url ? new URL(url).host : 'the authorization server';
  } catch {
    return String(url);
  }
};

/** The user-facing message for a failure while signing in or using a token; undefined when it is not about auth. */
export function describeAuthFailure(e: unknown): string | undefined {
  if (e instanceof SignInError) return e.message;
  if (!(e instanceof Error)) return undefined;
  if (e instanceof RefusedUrlError) return e.message;
  // The SDK validates metadata with a schema: a field it refuses (a `javascript:` endpoint) comes as a list of issues.
  const issues = (e as { issues?: { path?: unknown[] }[] }).issues;
  if (Array.isArray(issues)) {
    const fields = [...new Set(issues.map((i) => (i.path ?? []).join('.')).filter(Boolean))].join(', ');
    return `The authorization server's metadata was refused: ${fields || 'it is not valid'} (an address must be https). See the output.`;
  }
  if (e instanceof RegistrationRejectedError) {
    let code = '';
    try {
      code = String((JSON.parse(e.body) as { error?: unknown }).error ?? '');
    } catch {
      // A body that is not JSON names no error code.
    }
    return `The authorization server refused to register MCP Host (dynamic client registration, HTTP ${e.status}${code ? ` ${code}` : ''}). Set a client id for this server's URL in the "mcpHost.oauthClients" user setting.`;
  }
  if (e instanceof IssuerMismatchError || e instanceof AuthorizationServerMismatchError) {
    return `The authorization server's identity did not match what discovery found (issuer mismatch): refused. ${SIGN_IN_HINT}`;
  }
  if (e instanceof InsecureTokenEndpointError) return `The token endpoint ${hostOf(e.tokenEndpoint)} does not use HTTPS: refused.`;
  const resource = /^Protected resource (\S+) does not match expected (\S+)/.exec(e.message);
  if (resource) {
    return `The server's protected resource metadata names another resource (${resource[1]}): refused, as a token for it could be used elsewhere.`;
  }
  if (/well-known|metadata/i.test(e.message) && /HTTP \d{3}|fetch failed|Invalid|parse/i.test(e.message)) {
    return `Could not discover how to sign in to this server: ${e.message}`;
  }
  if (e instanceof OAuthError) return authorizationRefused(e.code).message;
  if (e instanceof SdkError && e.code === SdkErrorCode.ClientHttpAuthentication) {
    return `The server still refused access after signing in (HTTP 401). ${SIGN_IN_HINT}`;
  }
  if (e instanceof SdkError && e.code === SdkErrorCode.ClientHttpForbidden) {
    return `The server asked for more permissions again after signing in (HTTP 403 insufficient_scope): stopped.`;
  }
  if (e instanceof UnauthorizedError) return `The server requires signing in. ${SIGN_IN_HINT}`;
  return undefined;
}

/**
 * Authorization server metadata found at the MCP server's own origin (servers of the 2025-03-26 revision have no
 * protected resource metadata, so the origin is the authorization server) whose `issuer` names another path of that
 * same origin. RFC 8414's echo check guards against metadata naming another server's issuer; here nothing named an
 * issuer beforehand, and whoever runs the origin could name any authorization server anyway, so it is accepted.
 */
export function isSameOriginIssuerMismatch(e: unknown, serverUrl: URL): e is IssuerMismatchError {
  if (!(e instanceof IssuerMismatchError) || e.kind !== 'metadata' || !e.expected || !e.received) return false;
  try {
    return new URL(e.expected).origin === serverUrl.origin && new URL(e.received).origin === serverUrl.origin;
  } catch {
    return false;
  }
}
