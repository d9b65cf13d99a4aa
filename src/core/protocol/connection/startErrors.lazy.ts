// Why a server did not start, in a sentence the user can act on: a missing command, a refused sign-in, a handshake
// that timed out, an HTTP answer, a network error. Also whether retrying could help.
import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { describeAuthFailure, SignInError } from '../auth/authErrors.lazy';
import type { ServerDefinition } from '../../config/serverDefinition';
import { explainCrash } from '../../presentation/crashOutput';
import { networkCodeIn, networkProblem } from '../../presentation/networkProblem';

/** A start that failed, with a message fit for the user. Not retryable: a restart cannot fix it (wrong command, bad URL). */
export class StartError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The server waits for the user to sign in rather than for a fix. */
    readonly needsSignIn = false,
  ) {
    super(message);
  }
}

export const startCancelled = () => new StartError('The start was cancelled.', false);

/** A start ahead of its use would ask the user `what` (see ConnectionOptions.refuseToAsk): it ends here instead. */
export const refusedToAsk = (what: string) => new StartError(`It would ask ${what}, which waits for the call to be confirmed.`, false);

/**
 * What really went wrong when the SDK's `server/discover` probe failed: it wraps a network failure (connection refused,
 * an error of our own auth provider) as the probe's cause, and re-states an HTTP answer as a negotiation error. Both
 * are given back as the plain errors a request would have met, so every later decision (sign in, fall back, describe)
 * sees the same thing whatever request met it first.
 */
export function unwrapNegotiationError(e: unknown): unknown {
  if (e instanceof SdkHttpError && /^Version negotiation failed/.test(e.message)) {
    return new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${e.data.statusText ?? ''}`, e.data);
  }
  if (e instanceof SdkError && e.code === SdkErrorCode.EraNegotiationFailed && e.cause instanceof Error) return e.cause;
  return e;
}

/** `exitMessage`: how a stdio server's process ended, when it did (its exit code in words). */
export function describeStartFailure(error: Error, def: ServerDefinition, initializeTimeoutMs: number, recentOutput: readonly string[], exitMessage = 'The server process exited'): StartError {
  if (error instanceof StartError) return error;
  const e = unwrapNegotiationError(error) as Error;
  const code = (e as NodeJS.ErrnoException).code;
  const said = explainCrash(recentOutput);
  const tail = said ? ` It printed: ${said}` : '';
  if (def.resolved.type === 'stdio') {
    const cmd = def.resolved.command;
    if (code === 'ENOENT')
      return new StartError(
        `The command "${cmd}" was not found. Check that it is installed and on the PATH VS Code sees, or use its absolute path.`,
        false,
      );
    if (code === 'EACCES') return new StartError(`The command "${cmd}" is not executable (permission denied).`, false);
  }
  const auth = describeAuthFailure(e);
  if (auth) return new StartError(auth, false, e instanceof SignInError && e.needsSignIn);
  if (/timed out|timeout/i.test(e.message))
    return new StartError(`The server did not answer initialize within ${Math.round(initializeTimeoutMs / 1000)} s.${tail}`, false);
  if (def.resolved.type !== 'stdio') {
    const remote = describeRemoteFailure(e, def.resolved.url);
    if (remote) return remote;
  }
  const status = (e as { status?: unknown }).status;
  const httpStatus = typeof status === 'number' ? ` (HTTP ${status})` : '';
  // A process that ends before it has even started (twice, after the probe) ends so again: no automatic restarts, the
  // user hears it at once (with a Restart button) instead of after the restarts' backoff.
  if (/closed/i.test(e.message) && def.resolved.type === 'stdio') return new StartError(`${exitMessage} before it finished starting.${tail}`, false);
  return new StartError(`${e.message}${httpStatus}${tail}`, true);
}

/** HTTP answers and network errors of a remote server, in a sentence; 4xx (but 408/429) will not fix itself. */
function describeRemoteFailure(e: Error, url: string): StartError | undefined {
  const host = new URL(url).host;
  if (e instanceof SdkHttpError) {
    const body = String(e.data.text ?? '').trim().split(/\r?\n/, 1)[0].slice(0, 200);
    const retryable = e.status >= 500 || e.status === 408 || e.status === 429;
    return new StartError(`${host} answered HTTP ${e.status}${e.statusText ? ` ${e.statusText}` : ''}${body ? `: ${body}` : ''}`, retryable);
  }
  // The code in words (the log keeps the error as it came): on the error's cause, or only in its message (SSE's).
  const code = (e.cause as NodeJS.ErrnoException | undefined)?.code ?? networkCodeIn(e.message);
  if (code === 'ECONNREFUSED') return new StartError(`Cannot connect to ${host}: connection refused. Is the server running?`, true);
  if (code) return new StartError(`Cannot reach ${host}: ${networkProblem(code)}. Check the URL and your network.`, true);
  return undefined;
}

/** The SDK's verdict when the connection closed during the `server/discover` probe it ran in place. */
export function isProbeClosed(e: unknown): boolean {
  return e instanceof SdkError && e.code === SdkErrorCode.EraNegotiationFailed && /closed during the server\/discover probe/.test(e.message);
}
