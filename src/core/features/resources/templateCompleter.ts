// Value suggestions for a resource template's variables from the server's `completion/complete`, asked with the
// variables already filled in as context, and the debounce that keeps typing from flooding the server.
import type { ServerSession } from '../../host/serverSession';

/** Suggestions for one variable given what the user typed so far and the variables filled in before it. */
export type Completer = (variable: string, value: string, filled: Readonly<Record<string, string>>) => Promise<string[]>;

/**
 * Asks the server for completions of a template's variables. Without the `completions` capability there is nothing to
 * ask; a failing request gives no suggestions rather than an error, as typing must go on.
 */
export function templateCompleter(
  session: Pick<ServerSession, 'complete' | 'capabilities'>,
  uriTemplate: string,
  onError?: (e: Error) => void,
): Completer {
  return async (variable, value, filled) => {
    if (!session.capabilities.completions) return [];
    const context = Object.keys(filled).length ? { context: { arguments: { ...filled } } } : {};
    try {
      const { completion } = await session.complete({ ref: { type: 'ref/resource', uri: uriTemplate }, argument: { name: variable, value }, ...context });
      return completion.values;
    } catch (e) {
      onError?.(e as Error);
      return [];
    }
  };
}

/**
 * Debounces an async call as a user types: only the last call of a burst runs, `delayMs` after it; callers whose call
 * was superseded (by a newer one, before or while it ran) get undefined.
 */
export function debounceLatest<A extends unknown[], T>(fn: (...args: A) => Promise<T>, delayMs: number): ((...args: A) => Promise<T | undefined>) & { cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let generation = 0;
  let settlePending: ((v: undefined) => void) | undefined;
  const cancel = () => {
    generation++;
    if (timer) clearTimeout(timer);
    timer = undefined;
    settlePending?.(undefined);
    settlePending = undefined;
  };
  const debounced = (...args: A) => {
    cancel();
    const mine = generation;
    return new Promise<T | undefined>((resolve, reject) => {
      settlePending = resolve;
      timer = setTimeout(() => {
        timer = undefined;
        settlePending = undefined;
        fn(...args).then(
          (v) => resolve(mine === generation ? v : undefined),
          (e) => (mine === generation ? reject(e) : resolve(undefined)),
        );
      }, delayMs);
    });
  };
  return Object.assign(debounced, { cancel });
}
