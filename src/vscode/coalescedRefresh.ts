// The views' and the status bar's refresh: a burst of change events (a start fires several: starting, running, lists
// loaded; ten servers starting fire dozens) becomes one refresh, drawn once the burst has settled. The workbench draws
// every row of a refreshed tree again, on the same CPUs the servers boot on: drawing while they boot delayed them.
// - A change is shown at the earliest MIN_DELAY_MS after the burst's first change: most starts end within that, so a
//   start is drawn once (running) rather than twice (starting, then running).
// - And once no change came for QUIET_MS: servers that start together are drawn when the last of them runs, not
//   while the others still boot (with a fixed delay, the refresh fell among the last servers' answers whenever a
//   start took about that delay).
// - At the latest MAX_DELAY_MS after the burst's first change: a long burst (50 servers starting) is still shown as it
//   goes, once a second.
// - Now, with what was held, for a change that must be listed without waiting (servers a saved file added: see now()).
import type * as vscode from 'vscode';

/** When a burst is shown, after its first change (ms): at the earliest, once quiet for so long, and at the latest. */
export interface RefreshTiming {
  minDelayMs: number;
  quietMs: number;
  maxDelayMs: number;
}

const VIEWS: RefreshTiming = { minDelayMs: 250, quietMs: 100, maxDelayMs: 1000 };

export class CoalescedRefresh implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;
  /** When the burst being held began, and when its last change came (performance.now()). */
  private burstStart = 0;
  private lastChange = 0;

  constructor(
    private readonly refresh: () => void,
    private readonly timing: RefreshTiming = VIEWS,
  ) {}

  /**
   * A change: shown with the rest of its burst once the burst settles. Cheap to call for every change: it only notes
   * the time (a timer cleared and set again at each of the dozens of changes of a start costs more).
   */
  schedule(): void {
    this.lastChange = performance.now();
    if (this.timer) return;
    this.burstStart = this.lastChange;
    this.arm(this.timing.minDelayMs);
  }

  /** Shows the held changes and this one at once (the held burst's timer is dropped): for what a user waits to see listed. */
  now(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.refresh();
  }

  /** When the held burst is due: settled (quiet for quietMs) and not before minDelayMs, or maxDelayMs at most. */
  private due(): number {
    const { minDelayMs, quietMs, maxDelayMs } = this.timing;
    return Math.min(Math.max(this.burstStart + minDelayMs, this.lastChange + quietMs), this.burstStart + maxDelayMs);
  }

  private arm(ms: number) {
    this.timer = setTimeout(() => {
      // Changes that came meanwhile only moved `lastChange`: the timer is set again for them rather than at each one.
      const wait = this.due() - performance.now();
      if (wait > 1) return this.arm(wait);
      this.timer = undefined;
      this.refresh();
    }, ms);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
