// Servers added or changed by an edit of mcp.json do not ask for trust while the user types (no dialog takes the
// keyboard): they wait, "not trusted", in the Servers view, and once the file rests this non-modal notification says
// so. Its Trust… button starts them as the user's own action, which asks the trust question (with what would run).
import vscode = require('vscode');
import { NOT_TRUSTED_EDITED } from '../../core/host/editedTrust';
import type { ServerManager } from '../../core/host/serverManager';
import type { ServerInfo } from '../../core/host/serverInfo';
import { plainText } from '../../core/presentation/serverText';
import { CoalescedRefresh } from '../coalescedRefresh';

/** How long the waiting servers must stay unchanged (the user stopped typing) before the notice. */
export const TRUST_NOTICE_DELAY_MS = 1500;

const waiting = (s: ServerInfo) => s.state.kind === 'blocked' && s.state.reason === 'untrusted' && s.state.message === NOT_TRUSTED_EDITED;

/** The notice's text for the servers waiting for trust. */
export function trustNoticeText(names: string[]): string {
  return names.length === 1
    ? `The MCP server "${plainText(names[0])}" in mcp.json is not trusted yet, so it does not run.`
    : `${names.length} MCP servers in mcp.json are not trusted yet, so they do not run: ${names.map((n) => `"${plainText(n)}"`).join(', ')}.`;
}

export function notifyServersWaitingForTrust(manager: ServerManager, delayMs = TRUST_NOTICE_DELAY_MS): vscode.Disposable {
  /** Ids already told about, so that one server is announced once until it leaves the waiting state. */
  const told = new Set<string>();
  const check = () => {
    const servers = manager.servers().filter(waiting);
    for (const id of told) if (!servers.some((s) => s.id === id)) told.delete(id);
    const fresh = servers.filter((s) => !told.has(s.id));
    if (!fresh.length) return;
    for (const s of fresh) told.add(s.id);
    const trust = 'Trust…';
    void vscode.window.showInformationMessage(trustNoticeText(fresh.map((s) => s.name)), trust).then(async (answer) => {
      if (answer !== trust) return;
      // The user's own start: it asks the trust question, one for a folder's servers together.
      // Its failures are told by the failure notifications.
      await Promise.all(fresh.map(async (s) => manager.get(s.id)?.start(true).catch(() => undefined)));
    });
  };
  // Once the servers have been unchanged for delayMs, however long the changes go on.
  const settled = new CoalescedRefresh(check, { minDelayMs: delayMs, quietMs: delayMs, maxDelayMs: Infinity });
  const subscription = manager.onDidChangeServers(() => settled.schedule());
  return vscode.Disposable.from(subscription, settled);
}
