// The trees' refresh: a burst of change events (a start fires several: starting, running, lists loaded) becomes few
// refreshes. A lone change is shown after REFRESH_DELAY_MS (the rest of its burst arrives meanwhile); while changes
// keep coming, at most one refresh per REFRESH_INTERVAL_MS: the workbench draws every row of a refreshed tree again
// (50 servers starting cost its renderer about 400 ms of CPU at one refresh per 50 ms).
import type * as vscode from 'vscode';

const REFRESH_DELAY_MS = 50;
const REFRESH_INTERVAL_MS = 250;

export class CoalescedRefresh implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;
  private last = 0;

  constructor(private readonly refresh: () => void) {}

  schedule(): void {
    if (this.timer) return;
    const wait = Math.max(REFRESH_DELAY_MS, this.last + REFRESH_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.last = Date.now();
      this.refresh();
    }, wait);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
