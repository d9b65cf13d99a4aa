// Why a session ended while requests were still in flight: they are rejected with an error that says so in plain
// words (not the AbortController's "This operation was aborted"), and that surfaces can recognise by its `sessionEnd`.
// A plain Error with a property, not a class: the check must hold across bundles.

/** Stopped by the user (or removed from the configuration), restarted, or the server exited on its own. */
export type SessionEnd = 'stopped' | 'restarted' | 'exited';

const WORDS: Record<SessionEnd, string> = { stopped: 'was stopped', restarted: 'was restarted', exited: 'exited' };

/** `was stopped` / `was restarted` / `exited`, to follow a server's name. */
export const sessionEndWords = (end: SessionEnd): string => WORDS[end];

/** The reason requests in flight are rejected with when the session ends. */
export function sessionEndedError(serverName: string, end: SessionEnd): Error {
  const error = new Error(`The server "${serverName}" ${WORDS[end]} while the request ran.`);
  return Object.assign(error, { sessionEnd: end });
}

/** How the session ended, when `error` is the reason a request was rejected with because of it. */
export function sessionEndOf(error: unknown): SessionEnd | undefined {
  const end = (error as { sessionEnd?: unknown } | undefined)?.sessionEnd;
  return end === 'stopped' || end === 'restarted' || end === 'exited' ? end : undefined;
}
