// Minimal event plumbing for the core, shaped like VS Code's so adapters can pass events straight through.

export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => void) => Disposable;

let report = (error: unknown): void => console.error('MCP Host: an event listener failed:', error);

/** Where a failing listener is reported (the extension's log); it must not stop the other listeners, nor vanish. */
export function onListenerError(reporter: (error: unknown) => void): Disposable {
  const previous = report;
  report = reporter;
  return { dispose: () => (report = previous) };
}

/** Told of each listener an Emitter takes and of its end (removed, or its emitter disposed): the unit tests' leak check. */
export interface ListenerTracker {
  added(listener: object): void;
  ended(listener: object): void;
}

let tracker: ListenerTracker | undefined;

/** Tests: who hears of listeners from now on (undefined: nobody). */
export function trackListeners(next: ListenerTracker | undefined): void {
  tracker = next;
}

export class Emitter<T> implements Disposable {
  private listeners = new Set<(e: T) => void>();

  readonly event: Event<T> = (listener) => {
    if (!this.listeners.has(listener)) tracker?.added(listener);
    this.listeners.add(listener);
    return {
      dispose: () => {
        if (this.listeners.delete(listener)) tracker?.ended(listener);
      },
    };
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch (error) {
        report(error);
      }
    }
  }

  dispose(): void {
    if (tracker) for (const l of this.listeners) tracker.ended(l);
    this.listeners.clear();
  }
}
