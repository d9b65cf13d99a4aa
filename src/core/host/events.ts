// Minimal event plumbing for the core, shaped like VS Code's so adapters can pass events straight through.

export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => void) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners = new Set<(e: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        // One failing listener must not stop the others (or the host).
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
