// Servers added or changed by an edit of mcp.json do not ask for trust while the user types (no dialog takes the
// keyboard): they wait, "not trusted", in the Servers view, and once the file rests a non-modal notification says so
// (./trustNoticeShow.lazy.ts). Its Trust… button starts them as the user's own action, which asks the trust question.
import vscode = require('vscode');
import { NOT_TRUSTED_EDITED } from '../../core/host/editedTrust';
import type { ServerManager } from '../../core/host/serverManager';
import type { ServerInfo } from '../../core/host/serverInfo';
import { CoalescedRefresh } from '../coalescedRefresh';

/** How long the waiting servers must stay unchanged (the user stopped typing) before the notice. */
export const TRUST_NOTICE_DELAY_MS = 1500;

const waiting = (s: ServerInfo) => s.state.kind === 'blocked' && s.state.reason === 'untrusted' && s.state.message === NOT_TRUSTED_EDITED;

/** `show`: the notification (./trustNoticeShow.lazy.ts), for the servers not told of yet. */
export function notifyServersWaitingForTrust(manager: ServerManager, show: (manager: ServerManager, fresh: ServerInfo[]) => void, delayMs = TRUST_NOTICE_DELAY_MS): vscode.Disposable {
  /** Ids already told about, so that one server is announced once until it leaves the waiting state. */
  const told = new Set<string>();
  const check = () => {
    const servers = manager.servers().filter(waiting);
    for (const id of told) if (!servers.some((s) => s.id === id)) told.delete(id);
    const fresh = servers.filter((s) => !told.has(s.id));
    if (!fresh.length) return;
    for (const s of fresh) told.add(s.id);
    show(manager, fresh);
  };
  // Once the servers have been unchanged for delayMs, however long the changes go on.
  const settled = new CoalescedRefresh(check, { minDelayMs: delayMs, quietMs: delayMs, maxDelayMs: Infinity });
  const subscription = manager.onDidChangeServers(() => settled.schedule());
  return vscode.Disposable.from(subscription, settled);
}
