// `$(server) MCP 3/4` in the status bar: how many servers run, red when one failed, a click lists them.
import * as vscode from 'vscode';
import type { Disposable, Event } from '../core/host/events';
import type { ServerInfo } from '../core/host/types';
import { statusSummary } from './serverPresentation';

export class McpStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: Disposable;

  constructor(private readonly source: { servers(): ServerInfo[]; onDidChangeServers: Event<void> }) {
    // Low priority: a summary, it yields its place to the editor's own items.
    this.item = vscode.window.createStatusBarItem('mcpHost.status', vscode.StatusBarAlignment.Left, -100);
    this.item.name = 'MCP Servers';
    this.item.command = 'mcpHost.listServers';
    // Cheap to compute, so no debounce: the bar never lags behind the tree.
    this.subscription = source.onDidChangeServers(() => this.update());
    this.update();
  }

  private update() {
    const summary = statusSummary(this.source.servers());
    if (summary.text === undefined) {
      this.item.hide();
      return;
    }
    this.item.text = summary.text;
    this.item.tooltip = summary.tooltip;
    this.item.accessibilityInformation = { label: summary.accessibleLabel };
    this.item.backgroundColor = summary.anyError ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
