// `$(server) MCP 3/4` in the status bar: how many servers run, red when one failed, a click lists them. A start that
// takes longer than two seconds (an npx download) shows instead, with the server's name, and a click cancels it.
import vscode = require('vscode');
import type { Disposable, Event } from '../core/common/events';
import type { ServerInfo } from '../core/host/types';
import { labelText } from '../core/presentation/serverText';
import { SLOW_START_MS, slowStartSummary, statusSummary } from '../core/presentation/serverPresentation';
import { CommandIds } from '../core/common/commandIds';

export class McpStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: Disposable;
  /** When each starting server began to start. */
  private readonly startingSince = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly source: { servers(): ServerInfo[]; onDidChangeServers: Event<void> }) {
    // Low priority: a summary, it yields its place to the editor's own items.
    this.item = vscode.window.createStatusBarItem('mcpHost.status', vscode.StatusBarAlignment.Left, -100);
    this.item.name = 'MCP Servers';
    this.item.command = CommandIds.listServers;
    // One update per tick, however many servers changed in it (50 starting fire hundreds of changes): no debounce,
    // so the bar never lags behind the tree.
    this.subscription = source.onDidChangeServers(() => this.scheduled || (this.scheduled = setImmediate(() => this.update())));
    this.update();
  }

  private scheduled: NodeJS.Immediate | undefined;

  private update() {
    this.scheduled = undefined;
    const servers = this.source.servers();
    const now = Date.now();
    const starting = new Set(servers.filter((s) => s.state.kind === 'starting').map((s) => s.id));
    for (const id of [...this.startingSince.keys()]) if (!starting.has(id)) this.startingSince.delete(id);
    for (const id of starting) if (!this.startingSince.has(id)) this.startingSince.set(id, now);
    const slow = servers.filter((s) => starting.has(s.id) && now - this.startingSince.get(s.id)! >= SLOW_START_MS);
    // Look again when the next start becomes slow.
    clearTimeout(this.timer);
    const next = Math.min(...[...this.startingSince.values()].map((t) => t + SLOW_START_MS).filter((t) => t > now));
    this.timer = Number.isFinite(next) ? setTimeout(() => this.update(), next - now + 10) : undefined;
    if (slow.length) {
      const summary = slowStartSummary(slow);
      // Server names are plain text: a `$(…)` in one stays text.
      this.item.text = `$(loading~spin) ${labelText(summary.text)}`;
      this.item.tooltip = summary.tooltip;
      this.item.accessibilityInformation = { label: summary.accessibleLabel };
      this.item.backgroundColor = undefined;
      // Stopping a server cancels its start at once; with several, Stop Server asks which.
      this.item.command = { title: 'Cancel Start', command: CommandIds.stopServer, arguments: slow.length === 1 ? [slow[0].id] : [] };
      this.item.show();
      return;
    }
    const summary = statusSummary(servers);
    if (summary.text === undefined) {
      this.item.hide();
      return;
    }
    this.item.text = summary.text;
    this.item.tooltip = summary.tooltip;
    this.item.accessibilityInformation = { label: summary.accessibleLabel };
    this.item.backgroundColor = summary.anyError ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.command = CommandIds.listServers;
    this.item.show();
  }

  /** What the item shows now (tests cannot read the status bar). */
  get shown(): { text: string; tooltip: string; command: vscode.Command | string | undefined } {
    return { text: this.item.text, tooltip: String(this.item.tooltip ?? ''), command: this.item.command };
  }

  dispose(): void {
    clearTimeout(this.timer);
    clearImmediate(this.scheduled);
    this.subscription.dispose();
    this.item.dispose();
  }
}
