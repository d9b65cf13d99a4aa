// "MCP: Manage Permissions…": every remembered decision (server trust, tool calls, sampling, elicitation) in one
// list, each once (see permissionRows), to revoke one or all of them. Loaded on demand, when the command is first used.
import vscode = require('vscode');
import type { PermissionStore } from '../../core/host/permissionStore';
import { KIND_TITLES, permissionRows, revokeAllLabel, type PermissionRow } from '../../core/presentation/permissionRows';
import { labelText, plainText } from '../../core/presentation/serverText';

interface Item extends vscode.QuickPickItem {
  row?: PermissionRow;
  all?: true;
}

/** The list's items as the user sees them: Revoke All (with the number of decisions), then each kind's decisions. */
export function permissionItems(rows: readonly PermissionRow[]): Item[] {
  const items: Item[] = [{ label: revokeAllLabel(rows), description: 'every server, tool and request asks again', all: true }];
  let kind: string | undefined;
  for (const row of rows) {
    if (row.kind !== kind) items.push({ label: KIND_TITLES[(kind = row.kind)], kind: vscode.QuickPickItemKind.Separator });
    // Labels name servers, tools and URLs as their servers and workspaces wrote them.
    items.push({ label: labelText(row.label), description: row.description, detail: `Decided ${new Date(row.at).toLocaleString()}. Pick to revoke.`, row });
  }
  return items;
}

export async function managePermissions(permissions: PermissionStore): Promise<void> {
  const rows = permissionRows(permissions.list());
  if (!rows.length) {
    void vscode.window.showInformationMessage('No MCP permissions are remembered: servers ask before they act.');
    return;
  }
  const picked = await vscode.window.showQuickPick(permissionItems(rows), {
    title: 'MCP permissions',
    placeHolder: 'Pick a decision to revoke it (it is asked again next time), or revoke all',
    matchOnDescription: true,
  });
  if (picked?.all) {
    await permissions.reset();
    void vscode.window.showInformationMessage(`Revoked ${rows.length} MCP permission${rows.length === 1 ? '' : 's'}: you are asked again next time.`);
  } else if (picked?.row) {
    for (const r of picked.row.records) await permissions.remove(r.kind, r.key);
    void vscode.window.showInformationMessage(`Revoked: ${plainText(picked.row.label)}.`);
  }
}
