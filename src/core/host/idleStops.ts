// Servers that start on demand go dormant again when idle: each running one is checked when its idle time would end
// (and at least every 30 s, so that a changed setting applies), and stopped once unused for the setting's time, unless
// it holds something (an open call, a subscription, a task): its idle time then starts again.
import type { Disposable } from '../common/events';
import type { ManagedServer } from './managedServer';

export class IdleStops implements Disposable {
  private readonly lastUse = new Map<ManagedServer, number>();
  private readonly timers = new Map<ManagedServer, NodeJS.Timeout>();

  constructor(
    /** 0: never. */
    private readonly idleMs: () => number,
    /** Whether it may go dormant now: it starts on demand, runs, and holds nothing. */
    private readonly mayStop: (server: ManagedServer) => boolean,
    private readonly recheckMs = 30_000,
  ) {}

  /** It was used (or started): its idle time starts again. Cheap: a use only notes the time. */
  touch(server: ManagedServer): void {
    this.lastUse.set(server, Date.now());
    if (!this.timers.has(server)) this.schedule(server);
  }

  /** Runs, and may go dormant: watched from now, unless it already is. */
  watch(server: ManagedServer): void {
    if (!this.timers.has(server)) this.touch(server);
  }

  private schedule(server: ManagedServer) {
    const ms = this.idleMs();
    const left = ms > 0 ? ms - (Date.now() - (this.lastUse.get(server) ?? 0)) : Infinity;
    const timer = setTimeout(() => this.check(server), Math.max(0, Math.min(left, this.recheckMs)));
    timer.unref?.();
    this.timers.set(server, timer);
  }

  private check(server: ManagedServer) {
    this.timers.delete(server);
    if (server.state.kind !== 'running') return this.forget(server);
    const ms = this.idleMs();
    if (ms > 0 && Date.now() - (this.lastUse.get(server) ?? 0) >= ms) {
      if (this.mayStop(server)) {
        this.forget(server);
        void server.sleep();
        return;
      }
      this.lastUse.set(server, Date.now());
    }
    this.schedule(server);
  }

  forget(server: ManagedServer): void {
    clearTimeout(this.timers.get(server));
    this.timers.delete(server);
    this.lastUse.delete(server);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.lastUse.clear();
  }
}
