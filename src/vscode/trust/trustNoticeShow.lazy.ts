// The notification of ./trustNotice (which decides when): what it says, and its Trust… button. Loaded on demand.
import vscode = require('vscode');
import type { ServerManager } from '../../core/host/serverManager';
import type { ServerInfo } from '../../core/host/serverInfo';
import { plainText } from '../../core/presentation/serverText';

/** The notice's text for the servers waiting for trust. */
export function trustNoticeText(names: string[]): string {
  return names.length === 1
    ? `The MCP server "${plainText(names[0])}" in mcp.json is not trusted yet, so it does not run.`
    : `${names.length} MCP servers in mcp.json are not trusted yet, so they do not run: ${names.map((n) => `"${plainText(n)}"`).join(', ')}.`;
}

export function showTrustNotice(manager: ServerManager, fresh: ServerInfo[]): void {
  const trust = 'Trust…';
  void vscode.window.showInformationMessage(trustNoticeText(fresh.map((s) => s.name)), trust).then(async (answer) => {
    if (answer !== trust) return;
    // The user's own start: it asks the trust question, one for a folder's servers together.
    // Its failures are told by the failure notifications.
    await Promise.all(fresh.map(async (s) => manager.get(s.id)?.start(true).catch(() => undefined)));
  });
}
