// The core's async toolkit: one way to stop waiting when a signal aborts or a time limit passes, and a deferred.
// Everything that waits on something it does not control goes through these (the serial queue is ./serialQueue).

/** A promise with its resolve and reject at hand. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Waits for `work` until `signal` aborts, then settles with `onAbort()` instead: a value, or a rejection when it
 * throws. The work itself goes on (its result is no longer wanted), and its late rejection is never left unhandled.
 */
export function untilAborted<T, A = undefined>(work: Promise<T>, signal: AbortSignal | undefined, onAbort: () => A = () => undefined as A): Promise<T | A> {
  if (!signal) return work;
  return new Promise<T | A>((resolve, reject) => {
    const abort = () => {
      work.catch(() => undefined);
      try {
        resolve(onAbort());
      } catch (e) {
        reject(e);
      }
    };
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** Waits for `work` at most `ms`, then settles with `onTimeout()` (a value, or a rejection when it throws). */
export function withTimeout<T, A = undefined>(work: Promise<T>, ms: number, onTimeout: () => A = () => undefined as A): Promise<T | A> {
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(), ms);
  return untilAborted(work, timer.signal, onTimeout).finally(() => clearTimeout(handle));
}
