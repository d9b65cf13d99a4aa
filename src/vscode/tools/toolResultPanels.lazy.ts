// Tool results in a read-only view of their own (a webview without scripts), one per call: re-running the call shows
// the new result in the same view. Nothing here asks to be saved, as an untitled document would.
import { randomBytes } from 'node:crypto';
import vscode = require('vscode');
import { plainText } from '../../core/presentation/serverText';
import { toolResultHtml, type ToolResultPage } from './toolResultHtml.lazy';
import { CommandIds } from '../../core/common/commandIds';

/** Calls remembered for "Run again"; older ones are forgotten (their views then say so when used). */
const MAX_CALLS = 100;

export interface RecordedCall {
  serverId: string;
  toolName: string;
  arguments: Record<string, unknown>;
}

export class ToolResultPanels implements vscode.Disposable {
  private readonly calls = new Map<string, { call: RecordedCall; panel?: vscode.WebviewPanel; runs: number; html?: string; texts?: (string | undefined)[] }>();
  private next = 1;

  /** A new call id, remembered with what "Run again" needs. */
  record(call: RecordedCall): string {
    const id = `call-${this.next++}`;
    this.calls.set(id, { call, runs: 0 });
    for (const [old, entry] of this.calls) {
      if (this.calls.size <= MAX_CALLS) break;
      entry.panel?.dispose();
      this.calls.delete(old);
    }
    return id;
  }

  call(callId: string): RecordedCall | undefined {
    return this.calls.get(callId)?.call;
  }

  /** The text of block `index` of the result the view of a call shows (for "Open as Markdown Preview"). */
  text(callId: string, index: number): string | undefined {
    return this.calls.get(callId)?.texts?.[index];
  }

  /** Shows (or updates) the view of a call; returns the page's HTML. */
  show(callId: string, page: Omit<ToolResultPage, 'callId' | 'run' | 'nonce'>): string {
    const entry = this.calls.get(callId);
    if (!entry) throw new Error(`unknown tool call ${callId}`);
    entry.runs++;
    entry.texts = page.outcome.kind === 'result' ? page.outcome.view.blocks.map((b) => (b.kind === 'text' ? b.text : undefined)) : undefined;
    const html = toolResultHtml({ ...page, callId, run: entry.runs, nonce: randomBytes(16).toString('base64') });
    const title = plainText(`${page.toolTitle ?? page.toolName} · ${page.serverName}`);
    if (!entry.panel) {
      const panel = vscode.window.createWebviewPanel(
        'mcpHost.toolResult',
        title,
        { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
        { enableScripts: false, enableCommandUris: [CommandIds.rerunToolCall, CommandIds.openResourceLink, CommandIds.previewToolResult], localResourceRoots: [] },
      );
      panel.onDidDispose(() => {
        if (this.calls.get(callId)?.panel === panel) this.calls.get(callId)!.panel = undefined;
      });
      entry.panel = panel;
    } else {
      entry.panel.title = title;
      entry.panel.reveal(undefined, false);
    }
    entry.panel.webview.html = html;
    entry.html = html;
    return html;
  }

  dispose(): void {
    for (const entry of this.calls.values()) entry.panel?.dispose();
    this.calls.clear();
  }
}
