// Every way signing in can fail reads as one sentence saying what happened and what to do.
import * as assert from 'assert';
import { IssuerMismatchError, OAuthError, RegistrationRejectedError, SdkError, SdkErrorCode, UnauthorizedError } from '@modelcontextprotocol/client';
import { describeAuthFailure, isSameOriginIssuerMismatch, redirectMismatch, signInDeclined } from '../../src/core/protocol/auth/authErrors.lazy';

describe('sign-in failure messages', () => {
  it('explains each failure, with the way out where there is one', () => {
    const cases: [unknown, RegExp][] = [
      [signInDeclined(), /^Sign-in was declined\. Use "MCP Host: Sign In to Server" to try again\.$/],
      [redirectMismatch(), /redirect mismatch/],
      [
        new RegistrationRejectedError({ status: 400, body: '{"error":"invalid_redirect_uri"}', submittedMetadata: { redirect_uris: ['http://127.0.0.1/cb'] } }),
        /refused to register MCP Host \(dynamic client registration, HTTP 400 invalid_redirect_uri\)\. Set a client id .*"mcpHost\.oauthClients"/,
      ],
      [new IssuerMismatchError('metadata', 'https://a.example/', 'https://b.example/'), /issuer mismatch\): refused/],
      [new Error('Protected resource https://evil.example/mcp does not match expected https://good.example/mcp (or origin)'), /names another resource \(https:\/\/evil\.example\/mcp\): refused/],
      [new Error('HTTP 500 trying to load well-known OAuth protected resource metadata.'), /^Could not discover how to sign in to this server: HTTP 500/],
      [new OAuthError('invalid_scope', 'scope mcp:admin is unknown'), /^The authorization server refused the sign-in \(invalid_scope\)\. Use "MCP Host: Sign In/],
      [new SdkError(SdkErrorCode.ClientHttpAuthentication, 'Server returned 401 after re-authentication'), /still refused access after signing in/],
      [new SdkError(SdkErrorCode.ClientHttpForbidden, 'retry limit'), /insufficient_scope\): stopped/],
      [new UnauthorizedError(), /requires signing in/],
    ];
    for (const [error, expected] of cases) assert.match(describeAuthFailure(error) ?? '(none)', expected);
    assert.strictEqual(describeAuthFailure(new Error('socket hang up')), undefined);
  });

  it("never shows the authorization server's own words: only a well-formed error code", () => {
    const lure = 'Your account is locked. Call +1 555 0100 or visit https://evil.example/unlock';
    const described = describeAuthFailure(new OAuthError('access_denied', lure))!;
    assert.strictEqual(described, 'The authorization server refused the sign-in (access_denied). Use "MCP Host: Sign In to Server" to try again.');
    const free = describeAuthFailure(new OAuthError(lure, lure))!;
    assert.doesNotMatch(free, /evil|locked/);
    assert.match(free, /refused the sign-in \(unknown error\)/);
  });

  it('accepts a mismatched issuer only on the server\'s own origin (2025-03-26 servers)', () => {
    const server = new URL('http://localhost:3000/mcp');
    assert.ok(isSameOriginIssuerMismatch(new IssuerMismatchError('metadata', 'http://localhost:3000/', 'http://localhost:3000/oauth'), server));
    assert.ok(!isSameOriginIssuerMismatch(new IssuerMismatchError('metadata', 'http://localhost:3000/', 'https://evil.example/'), server));
    assert.ok(!isSameOriginIssuerMismatch(new IssuerMismatchError('authorization_response', 'http://localhost:3000/', 'http://localhost:3000/oauth'), server));
    assert.ok(!isSameOriginIssuerMismatch(new Error('other'), server));
  });
});
