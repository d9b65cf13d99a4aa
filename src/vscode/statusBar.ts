// `$(server) MCP 3/4` in the status bar: how many servers run, red when one failed, a click lists them. A start that
// takes longer than two seconds (an npx download) shows instead, with the server's name, and a click cancels it.
import vscode = require('vscode');
import type { Disposable, Event } from '../core/common/events';
import type { ServerInfo } from '../core/host/types';
import { labelText } from '../core/presentation/serverText';
import { isSlowStart, slowStartSummary, statusSummary } from '../core/presentation/serverPresentation';
import { SlowStartAlarm } from '../core/presentation/slowStartAlarm';
import { CommandIds } from '../core/common/commandIds';

/**
 * The least time between two updates of the item, and how long after a change it shows. Each change is drawn again by
 * the workbench (the status bar laid out anew): 10 servers starting changed it a dozen times, which cost the
 * workbench's renderer 20–50 ms of CPU beside the servers' own start. Shown 250 ms after the change, as the trees do
 * (see CoalescedRefresh), a quick start is drawn once.
 */
const UPDATE_INTERVAL_MS = 250;

export class McpStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: Disposable;
  /** Looks again when a start becomes slow. */
  private readonly slowStarts = new SlowStartAlarm(() => this.update());

  constructor(private readonly source: { servers(): ServerInfo[]; onDidChangeServers: Event<void> }) {
    // Low priority: a summary, it yields its place to the editor's own items.
    this.item = vscode.window.createStatusBarItem('mcpHost.status', vscode.StatusBarAlignment.Left, -100);
    this.item.name = 'MCP Servers';
    this.item.command = CommandIds.listServers;
    // At most one update per UPDATE_INTERVAL_MS, however many servers changed (50 starting fire hundreds of changes).
    this.subscription = source.onDidChangeServers(() => this.schedule());
    this.update();
  }

  private scheduled: NodeJS.Timeout | undefined;

  private schedule() {
    this.scheduled ??= setTimeout(() => this.update(), UPDATE_INTERVAL_MS);
  }

  private update() {
    clearTimeout(this.scheduled);
    this.scheduled = undefined;
    const servers = this.source.servers();
    const now = Date.now();
    const slow = servers.filter((s) => isSlowStart(s, now));
    this.slowStarts.set(servers, now);
    if (slow.length) {
      const summary = slowStartSummary(slow);
      this.show({
        // Server names are plain text: a `$(…)` in one stays text.
        text: `$(loading~spin) ${labelText(summary.text)}`,
        tooltip: summary.tooltip,
        accessibleLabel: summary.accessibleLabel,
        error: false,
        // Stopping a server cancels its start at once; with several, Stop Server asks which.
        command: { title: 'Cancel Start', command: CommandIds.stopServer, arguments: slow.length === 1 ? [slow[0].id] : [] },
      });
      return;
    }
    const summary = statusSummary(servers);
    if (summary.text === undefined) {
      this.shownKey = undefined;
      this.item.hide();
      return;
    }
    this.show({ text: summary.text, tooltip: summary.tooltip, accessibleLabel: summary.accessibleLabel, error: summary.anyError, command: CommandIds.listServers });
  }

  /** What the item shows, as a key: the item is touched only when that changes (each change is drawn again). */
  private shownKey: string | undefined;

  private show(view: { text: string; tooltip: string; accessibleLabel: string; error: boolean; command: vscode.Command | string }) {
    const key = JSON.stringify(view);
    if (key === this.shownKey) return;
    this.shownKey = key;
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.accessibilityInformation = { label: view.accessibleLabel };
    this.item.backgroundColor = view.error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.command = view.command;
    this.item.show();
  }

  /** What the item shows now (tests cannot read the status bar). */
  get shown(): { text: string; tooltip: string; command: vscode.Command | string | undefined } {
    return { text: this.item.text, tooltip: String(this.item.tooltip ?? ''), command: this.item.command };
  }

  dispose(): void {
    this.slowStarts.dispose();
    clearTimeout(this.scheduled);
    this.subscription.dispose();
    this.item.dispose();
  }
}
