// The trees' refresh: a burst of change events (a start fires several: starting, running, lists loaded) becomes one
// refresh, run once the burst has had REFRESH_DELAY_MS to arrive.
import type * as vscode from 'vscode';

const REFRESH_DELAY_MS = 50;

export class CoalescedRefresh implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly refresh: () => void) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refresh();
    }, REFRESH_DELAY_MS);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
