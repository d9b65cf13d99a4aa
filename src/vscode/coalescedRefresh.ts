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
import type * as vscode from 'vscode';

const MIN_DELAY_MS = 250;
const QUIET_MS = 100;
const MAX_DELAY_MS = 1000;

export class CoalescedRefresh implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;
  /** When the burst being held began, and when its last change came (performance.now()). */
  private burstStart = 0;
  private lastChange = 0;

  constructor(private readonly refresh: () => void) {}

  /** A change: shown with the rest of its burst once the burst settles. Cheap to call for every change. */
  schedule(): void {
    this.lastChange = performance.now();
    if (this.timer) return;
    this.burstStart = this.lastChange;
    this.arm(MIN_DELAY_MS);
  }

  /** When the held burst is due: settled (quiet for QUIET_MS) and not before MIN_DELAY_MS, or MAX_DELAY_MS at most. */
  private due(): number {
    return Math.min(Math.max(this.burstStart + MIN_DELAY_MS, this.lastChange + QUIET_MS), this.burstStart + MAX_DELAY_MS);
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
