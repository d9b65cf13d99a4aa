// Rings when a server that is starting becomes a slow start. The views and the status bar then show it differently
// (a spinner, a way to cancel), though nothing about the server changed that would make them draw it again.
import type { ServerInfo } from '../host/serverInfo';
import { nextSlowStart } from './serverPresentation';

export class SlowStartAlarm {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly ring: () => void) {}

  /** Sets the alarm for the next of these servers to become slow, replacing the one set before; none if none will. */
  set(servers: readonly ServerInfo[], now = Date.now()): void {
    clearTimeout(this.timer);
    const at = nextSlowStart(servers, now);
    // A little late rather than early: at the ring, that start is slow.
    this.timer =
      at === undefined
        ? undefined
        : setTimeout(() => {
            this.timer = undefined;
            this.ring();
          }, at - now + 10);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
