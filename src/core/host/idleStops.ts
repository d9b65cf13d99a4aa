// Servers that start on demand go dormant again when idle: a timer per running server, restarted by each use, that
// stops it once it has been idle for the setting's time, unless it holds something (an open call, a subscription, a
// task): then it is checked again after another idle time.
import type { Disposable } from '../common/events';
import type { ManagedServer } from './managedServer';

export class IdleStops implements Disposable {
  private readonly timers = new Map<ManagedServer, NodeJS.Timeout>();

  constructor(
    /** 0: never. */
    private readonly idleMs: () => number,
    /** Whether it may go dormant now: it starts on demand, runs, and holds nothing. */
    private readonly mayStop: (server: ManagedServer) => boolean,
  ) {}

  /** It was used (or started): its idle time starts again. */
  touch(server: ManagedServer): void {
    this.forget(server);
    const ms = this.idleMs();
    if (!(ms > 0)) return;
    const timer = setTimeout(() => {
      this.timers.delete(server);
      if (server.state.kind !== 'running') return;
      if (this.mayStop(server)) void server.sleep();
      else this.touch(server);
    }, ms);
    timer.unref?.();
    this.timers.set(server, timer);
  }

  /** Started without a timer yet (a start of its own, not by a use). */
  watch(server: ManagedServer): void {
    if (!this.timers.has(server)) this.touch(server);
  }

  forget(server: ManagedServer): void {
    const timer = this.timers.get(server);
    if (timer) clearTimeout(timer);
    this.timers.delete(server);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
