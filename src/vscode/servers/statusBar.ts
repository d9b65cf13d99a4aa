// `$(server) MCP 3/4` in the status bar: how many servers run, red when one failed, a click lists them. A start that
// takes longer than two seconds (an npx download) shows instead, with the server's name, and a click cancels it.
import vscode = require('vscode');
import type { Disposable, Event } from '../../core/common/events';
import type { ServersChanged } from '../../core/host/serverSession';
import type { ServerInfo } from '../../core/host/serverInfo';
import { labelText } from '../../core/presentation/serverText';
import { isSlowStart, slowStartSummary, statusSummary } from '../../core/presentation/serverPresentation';
import { SlowStartAlarm } from '../../core/presentation/slowStartAlarm';
import { CommandIds } from '../../core/common/commandIds';
import { CoalescedRefresh } from '../coalescedRefresh';

export class McpStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: Disposable;
  /** Looks again when a start becomes slow. */
  private readonly slowStarts = new SlowStartAlarm(() => this.update());
  /** Each change is drawn again by the workbench: shown once a burst of changes settles, as the views are. */
  private readonly refresh = new CoalescedRefresh(() => this.update());

  constructor(private readonly source: { servers(): ServerInfo[]; onDidChangeServers: Event<ServersChanged> }) {
    // Low priority: a summary, it yields its place to the editor's own items.
    this.item = vscode.window.createStatusBarItem('mcpHost.status', vscode.StatusBarAlignment.Left, -100);
    this.item.name = 'MCP Servers';
    this.item.command = CommandIds.listServers;
    // 10 servers starting change it a dozen times, and each update is laid out anew by the workbench.
    this.subscription = source.onDidChangeServers(() => this.refresh.schedule());
    this.update();
  }

  private update() {
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
    this.refresh.dispose();
    this.subscription.dispose();
    this.item.dispose();
  }
}
