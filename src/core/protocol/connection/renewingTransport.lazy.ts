// A remote server's transport with what the SDK leaves to the host: finishing a browser sign-in the SDK asked for
// (then sending the request again), starting a new session when the server forgot ours (HTTP 404: re-initialize,
// restore the log level and resource subscriptions, resend), and ending the session with DELETE on close.
import {
  SdkHttpError,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type SSEClientTransport,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { withTimeout } from '../../common/async';
import { SignInNotPreparedError, type OAuthProvider } from '../auth/oauthProvider.lazy';
import { isErrorResponse, isRequest, isResultResponse } from './messageKinds.lazy';
import { refusedToAsk } from './startErrors.lazy';
import type { ServerLog } from '../../common/log';

export type RemoteTransport = StreamableHTTPClientTransport | SSEClientTransport;

/** How long DELETE may take when a session ends: stopping must not hang on a server that is gone. */
const TERMINATE_TIMEOUT_MS = 2000;

export interface RenewingTransportOptions {
  log: ServerLog;
  /** Set when the server may need OAuth: completes the browser step of a sign-in the SDK started. */
  auth?: OAuthProvider;
  /** A new session replaced an expired one: the server's lists may differ. */
  onSessionRenewed?: () => void;
  /** Time the new session's initialize may take. */
  requestTimeoutMs: number;
  /** True while a sign-in may not be asked for (a start ahead of its use): the request fails instead. */
  refuseToAsk?: () => boolean;
}

/**
 * Whether the server ended our session: the spec's 404 for an unknown `Mcp-Session-Id`, or the 400 that servers built
 * on the SDK's examples (server-everything among them) answer with "No valid session ID".
 */
export function isExpiredSession(e: unknown): boolean {
  if (!(e instanceof SdkHttpError)) return false;
  if (e.status === 404) return true;
  return e.status === 400 && /session/i.test(`${String(e.data.text ?? '')} ${e.message}`);
}

export class RenewingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  private initializeRequest: JSONRPCRequest | undefined;
  private logLevelRequest: JSONRPCRequest | undefined;
  private readonly subscriptions = new Set<string>();
  private readonly internal = new Map<string, { resolve: (m: JSONRPCMessage) => void }>();
  private renewal: Promise<void> | undefined;
  private signingIn: Promise<void> | undefined;
  private sessions = 0;
  private internalIds = 0;
  private closing = false;

  constructor(
    readonly inner: RemoteTransport,
    private readonly options: RenewingTransportOptions,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => {
      // Errors while closing (DELETE to a server already gone), and those `send` recovers from, are not problems.
      if (this.closing || this.recoverable(e)) options.log.debug(`Transport: ${e.message}`);
      else this.onerror?.(e);
    };
    inner.onmessage = (m: JSONRPCMessage) => {
      const id = isResultResponse(m) || isErrorResponse(m) ? String(m.id) : undefined;
      const waiter = id !== undefined ? this.internal.get(id) : undefined;
      if (waiter) {
        this.internal.delete(id!);
        waiter.resolve(m);
        return;
      }
      this.onmessage?.(m);
    };
  }

  get sessionId(): string | undefined {
    return this.inner instanceof StreamableHTTPClientTransport ? this.inner.sessionId : undefined;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner instanceof StreamableHTTPClientTransport ? this.inner.hasPerRequestStream : undefined;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  setProtocolVersion = (version: string): void => this.inner.setProtocolVersion(version);

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.remember(message);
    let renewed = false;
    for (;;) {
      try {
        return await (this.inner as Transport).send(message, options);
      } catch (e) {
        const signIn = !isInitializeRequest(message) && ((e instanceof SignInNotPreparedError && !!this.options.auth) || (e instanceof UnauthorizedError && (!!this.signingIn || !!this.options.auth?.hasPendingSignIn)));
        if (signIn && this.options.refuseToAsk?.()) throw refusedToAsk('you to sign in');
        if (e instanceof SignInNotPreparedError && this.options.auth && !isInitializeRequest(message)) {
          await this.options.auth.prepareSignIn();
          continue;
        }
        // The initialize of a new connection is left to the caller: a browser sign-in must not run on its timeout.
        if (e instanceof UnauthorizedError && (this.signingIn || this.options.auth?.hasPendingSignIn) && !isInitializeRequest(message)) {
          // Requests refused while one sign-in runs wait for it rather than each starting their own.
          this.signingIn ??= this.finishSignIn().finally(() => (this.signingIn = undefined));
          await this.signingIn;
          continue;
        }
        if (!renewed && this.sessionId && !isInitializeRequest(message) && isExpiredSession(e)) {
          renewed = true;
          await this.renewSession(e as SdkHttpError);
          continue;
        }
        throw e;
      }
    }
  }

  private recoverable(e: Error): boolean {
    if (e instanceof SignInNotPreparedError) return !!this.options.auth;
    if (e instanceof UnauthorizedError) return !!this.signingIn || !!this.options.auth?.hasPendingSignIn;
    return !!this.sessionId && !!this.initializeRequest && isExpiredSession(e);
  }

  /** Runs the browser step of the pending sign-in and redeems its code; the next request carries the new token. */
  async finishSignIn(): Promise<void> {
    const params = await this.options.auth!.completeSignIn();
    await this.inner.finishAuth(params);
  }

  private remember(message: JSONRPCMessage) {
    if (!isRequest(message)) return;
    const params = message.params as { uri?: unknown } | undefined;
    switch (message.method) {
      case 'initialize':
        this.initializeRequest = message;
        break;
      case 'logging/setLevel':
        this.logLevelRequest = message;
        break;
      case 'resources/subscribe':
        if (typeof params?.uri === 'string') this.subscriptions.add(params.uri);
        break;
      case 'resources/unsubscribe':
        if (typeof params?.uri === 'string') this.subscriptions.delete(params.uri);
        break;
    }
  }

  private renewSession(cause: SdkHttpError): Promise<void> {
    this.renewal ??= this.doRenewSession(cause).finally(() => (this.renewal = undefined));
    return this.renewal;
  }

  private async doRenewSession(cause: SdkHttpError): Promise<void> {
    const { log } = this.options;
    if (!this.initializeRequest) throw cause;
    log.info(`The server no longer knows session ${this.sessionId} (HTTP ${cause.status}): starting a new session`);
    const result = await this.request(this.initializeRequest.method, this.initializeRequest.params);
    const version = (result as { protocolVersion?: unknown }).protocolVersion;
    if (typeof version === 'string') this.inner.setProtocolVersion(version);
    await this.inner.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const restored: Promise<unknown>[] = [];
    if (this.logLevelRequest) restored.push(this.request('logging/setLevel', this.logLevelRequest.params));
    for (const uri of this.subscriptions) restored.push(this.request('resources/subscribe', { uri }));
    for (const r of await Promise.allSettled(restored)) {
      if (r.status === 'rejected') log.warn(`Restoring the session state failed: ${(r.reason as Error).message}`);
    }
    this.sessions++;
    log.info(
      `New session ${this.sessionId ?? ''} started (renewal ${this.sessions})${this.subscriptions.size ? `; ${this.subscriptions.size} resource subscriptions restored` : ''}`,
    );
    this.options.onSessionRenewed?.();
  }

  /** A request of our own on the session, answered to us rather than to the Client. */
  private async request(method: string, params: JSONRPCRequest['params']): Promise<unknown> {
    const id = `mcp-host-session-${++this.internalIds}`;
    const answer = new Promise<JSONRPCMessage>((resolve) => this.internal.set(id, { resolve }));
    const { requestTimeoutMs } = this.options;
    try {
      // The time limit covers sending as well as answering.
      const message = await withTimeout(this.inner.send({ jsonrpc: '2.0', id, method, params }).then(() => answer), requestTimeoutMs, () => {
        throw new Error(`${method} got no answer within ${Math.round(requestTimeoutMs / 1000)} s`);
      });
      if (isJSONRPCErrorResponse(message)) throw new Error(`${method} failed: ${message.error.message}`);
      return isJSONRPCResultResponse(message) ? message.result : undefined;
    } finally {
      this.internal.delete(id);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.inner instanceof StreamableHTTPClientTransport && this.inner.sessionId) {
      await withTimeout(this.inner.terminateSession().catch(() => undefined), TERMINATE_TIMEOUT_MS);
    }
    await this.inner.close();
  }
}
