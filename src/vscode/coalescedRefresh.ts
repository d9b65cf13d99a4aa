// The trees' refresh: a burst of change events (a start fires several: starting, running, lists loaded) becomes few
// refreshes. A change is shown REFRESH_DELAY_MS after it, with the rest of its burst that arrived meanwhile, so while
// changes keep coming there is at most one refresh per REFRESH_DELAY_MS: the workbench draws every row of a refreshed
// tree again (50 servers starting cost its renderer about 400 ms of CPU at one refresh per 50 ms).
// Most starts end within the delay, so a start is drawn once (running) rather than twice (starting, then running), and
// the workbench draws less while the servers boot on the same CPUs: in one run of `npm run bench` taking turns, 10
// servers took 262 ms (median of 16) with a delay of 250 ms, 278 ms with the 50 ms it had (bare SDK clients: 225 ms).
import type * as vscode from 'vscode';

const REFRESH_DELAY_MS = 250;

export class CoalescedRefresh implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly refresh: () => void) {}

  schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.refresh();
    }, REFRESH_DELAY_MS);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
