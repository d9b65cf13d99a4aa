// A remote server: Streamable HTTP, falling back to legacy SSE where the spec says (the initial POST answered 404 or
// 405); the browser step of an OAuth sign-in between attempts; and a RenewingTransport that renews expired sessions and
// ends them with DELETE.
import { SdkHttpError, SSEClientTransport, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { untilAborted } from '../../common/async';
import { isSameOriginIssuerMismatch } from '../auth/authErrors.lazy';
import { OAuthProvider, SignInNotPreparedError } from '../auth/oauthProvider.lazy';
import type { ResolvedRemoteServer, ServerDefinition } from '../../config/serverDefinition';
import type { ServerLog } from '../../common/log';
import { RenewingTransport } from './renewingTransport.lazy';
import type { ConnectionOptions, Handshake, Launcher } from './launcher.lazy';
import { guardedFetch } from './guardedFetch.lazy';
import { runHeadersHelper } from './headersHelper.lazy';
import { addHeaderSecrets } from '../../config/headerSecrets';
import { socketFetch } from './socketFetch.lazy';
import { SOCKET_ORIGIN, socketAddress } from '../../config/socketAddress.lazy';
import { refusedToAsk, startCancelled, unwrapNegotiationError } from './startErrors.lazy';

export class RemoteLauncher implements Launcher {
  readonly pid = undefined;
  readonly spawnedPid = undefined;
  readonly recentOutput = [];
  /** Why the launcher itself ended the session (a stream over its limit), for the exit message. */
  private violation: Error | undefined;
  private readonly authProvider: ReturnType<NonNullable<ConnectionOptions['authProvider']>>;
  private readonly auth: OAuthProvider | undefined;
  private session: RenewingTransport | undefined;
  /** What the headers helper printed last: values never logged. */
  private helperSecrets: string[] = [];

  constructor(
    private readonly definition: ServerDefinition,
    private readonly server: ResolvedRemoteServer,
    private readonly log: ServerLog,
    private readonly options: Pick<ConnectionOptions, 'authProvider' | 'requestTimeoutMs' | 'refuseToAsk'>,
    /** A new session replaced an expired one: the server's lists may differ. */
    private readonly onSessionRenewed: () => void,
  ) {
    this.authProvider = options.authProvider?.(definition, log);
    this.auth = this.authProvider instanceof OAuthProvider ? this.authProvider : undefined;
  }

  /** Traced traffic and server messages may echo a token (a "whoami" tool): OAuth secrets are masked like inputs. */
  secrets(): readonly string[] {
    return [...(this.auth?.secretValues() ?? []), ...this.helperSecrets];
  }

  get exitMessage(): string {
    return this.violation ? `The connection was closed: ${this.violation.message}` : 'The connection was closed';
  }

  async connect(handshake: Handshake, signal: AbortSignal): Promise<void> {
    // A socket's server (`unix:`, `pipe:`) is asked for by a stand-in origin that the socket's fetch routes to it.
    const socket = socketAddress(this.server.url);
    const url = new URL(socket ? `${SOCKET_ORIGIN}${socket.httpPath}` : this.server.url);
    const requestInit = { headers: await this.headers(signal) };
    const fetch = guardedFetch({
      serverUrl: url.href,
      ...(socket ? { fetch: socketFetch(socket.socketPath) } : {}),
      onViolation: (error) => {
        this.violation = error;
        this.log.error(error.message);
        void this.session?.close();
      },
    });
    const { auth, authProvider } = this;
    let sse = this.server.type === 'sse';
    let skipIssuerMetadataValidation = false;
    /** What Streamable HTTP met before the SSE fallback: the real error, should the fallback fail too. */
    let refusal: SdkHttpError | undefined;
    let helperRetried = false;
    for (;;) {
      const options = { requestInit, authProvider, skipIssuerMetadataValidation, fetch };
      const inner = sse ? new SSEClientTransport(url, options) : new StreamableHTTPClientTransport(url, options);
      const session = (this.session = new RenewingTransport(inner, {
        log: this.log,
        auth,
        requestTimeoutMs: this.options.requestTimeoutMs,
        onSessionRenewed: this.onSessionRenewed,
        refuseToAsk: this.options.refuseToAsk,
      }));
      this.log.info(`Connecting (${sse ? 'SSE' : 'Streamable HTTP'}): ${socket ? `${socket.socketPath} ${socket.httpPath}` : `${url.origin}${url.pathname}`}`);
      try {
        await handshake(session);
        return;
      } catch (thrown) {
        const e = unwrapNegotiationError(thrown);
        await session.close().catch((error: Error) => this.log.debug(`close: ${error.message}`));
        if (signal.aborted) throw e;
        // Ahead of its use, a sign-in is not even prepared (a listener, a forwarded port): the use's own start asks.
        if ((e instanceof SignInNotPreparedError || (e instanceof UnauthorizedError && auth?.hasPendingSignIn)) && this.options.refuseToAsk?.()) throw refusedToAsk('you to sign in');
        if (e instanceof SignInNotPreparedError && auth) {
          await untilAborted(auth.prepareSignIn(), signal, () => {
            throw startCancelled();
          });
          continue;
        }
        // The browser step runs here, outside initialize's timeout; the provider gives up after its maximum sign-ins.
        if (e instanceof UnauthorizedError && auth?.hasPendingSignIn) {
          await untilAborted(session.finishSignIn(), signal, () => {
            throw startCancelled();
          });
          continue;
        }
        if (!skipIssuerMetadataValidation && isSameOriginIssuerMismatch(e, url)) {
          this.log.warn(`The authorization server metadata at ${url.origin} names the issuer ${e.received}: accepted, as it is on the server's own origin`);
          skipIssuerMetadataValidation = true;
          continue;
        }
        // Claude Code's rule: a helper's headers refused (401, 403) are asked for once more, as they may have expired.
        if (this.hasHeadersHelper && !helperRetried && e instanceof SdkHttpError && (e.status === 401 || e.status === 403)) {
          this.log.info(`HTTP ${e.status}: running the headers helper again`);
          helperRetried = true;
          requestInit.headers = await this.headers(signal);
          continue;
        }
        if (!sse && isRefusedByServer(e)) {
          this.log.info(`The server refused the current way of connecting (Streamable HTTP: HTTP ${e.status}); trying the older one it may expect (legacy SSE)`);
          refusal = e;
          sse = true;
          continue;
        }
        if (refusal) {
          // Neither transport worked: the server's answer to Streamable HTTP says why, not the fallback's.
          this.log.info(`The older way (legacy SSE) failed too: ${(e as Error).message}`);
          throw refusal;
        }
        throw e;
      }
    }
  }

  private get hasHeadersHelper(): boolean {
    return this.definition.plan?.kind === 'remote' && this.definition.plan.headersHelper !== undefined;
  }

  /** The configured headers, and those the plan's headers helper prints (run at each connection; they win over the configured ones). */
  private async headers(signal: AbortSignal): Promise<Record<string, string>> {
    const plan = this.definition.plan;
    const helper = plan?.kind === 'remote' ? plan.headersHelper : undefined;
    if (!helper) return this.server.headers;
    this.log.info(`Running its headers helper: ${helper.executable}`);
    const printed = await untilAborted(runHeadersHelper(helper, { name: this.definition.name, url: this.server.url }, signal), signal, () => {
      throw startCancelled();
    });
    const secrets = new Set<string>();
    for (const value of Object.values(printed)) addHeaderSecrets(value, secrets);
    secrets.delete('');
    this.helperSecrets = [...secrets];
    const names = new Set(Object.keys(printed).map((n) => n.toLowerCase()));
    const kept = Object.entries(this.server.headers).filter(([n]) => !names.has(n.toLowerCase()));
    return { ...Object.fromEntries(kept), ...printed };
  }

  /** The SDK ends the session (DELETE for Streamable HTTP) when the client closes; there is no process to end. */
  async stop(closeTransport: () => Promise<void>): Promise<void> {
    await closeTransport();
  }
}

/**
 * Whether the server does not speak Streamable HTTP: the spec's backwards-compatibility rule falls back to legacy SSE
 * when the initial POST is answered 404 Not Found or 405 Method Not Allowed. Any other answer (a 400 for an unsupported
 * protocol version, a 401, a 5xx) comes from a server that does speak it, and is the error to show.
 */
function isRefusedByServer(e: unknown): e is SdkHttpError {
  return e instanceof SdkHttpError && (e.status === 404 || e.status === 405);
}
