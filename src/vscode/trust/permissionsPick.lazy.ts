// "MCP: Manage Permissions…": every remembered decision (server trust, tool calls, sampling, elicitation) in one
// list, to revoke one or all of them. Loaded on demand, when the command is first used.
import vscode = require('vscode');
import type { PermissionKind, PermissionRecord, PermissionStore } from '../../core/host/permissionStore';
import { labelText, plainText } from '../../core/presentation/serverText';

const KIND_TITLES: Record<PermissionKind, string> = {
  'server-trust': 'Server trust',
  tool: 'Tool calls',
  sampling: 'Sampling (language model use)',
  'sampling-review': 'Sampling response review',
  elicitation: 'Questions from servers (elicitation)',
};

const DECISION_WORDS: Record<string, string> = {
  trusted: 'trusted',
  denied: 'not trusted',
  allow: 'allowed',
  deny: 'denied',
  skip: 'not reviewed',
};

interface Item extends vscode.QuickPickItem {
  record?: PermissionRecord;
  all?: true;
}

export async function managePermissions(permissions: PermissionStore): Promise<void> {
  {
    const records = permissions.list();
    if (!records.length) {
      void vscode.window.showInformationMessage('No MCP permissions are remembered: servers ask before they act.');
      return;
    }
    const items: Item[] = [{ label: `$(trash) Revoke All (${records.length})`, description: 'every server, tool and request asks again', all: true }];
    for (const kind of Object.keys(KIND_TITLES) as PermissionKind[]) {
      const ofKind = records.filter((r) => r.kind === kind);
      if (!ofKind.length) continue;
      items.push({ label: KIND_TITLES[kind], kind: vscode.QuickPickItemKind.Separator });
      for (const r of ofKind)
        items.push({
          // Labels name servers, tools and URLs as their servers and workspaces wrote them.
          label: labelText(r.label),
          description: `${DECISION_WORDS[r.decision] ?? r.decision} · ${r.scope === 'workspace' ? 'this workspace' : 'everywhere'}`,
          detail: `Decided ${new Date(r.at).toLocaleString()}. Pick to revoke.`,
          record: r,
        });
    }
    const picked = await vscode.window.showQuickPick(items, {
      title: 'MCP permissions',
      placeHolder: 'Pick a decision to revoke it (it is asked again next time), or revoke all',
      matchOnDescription: true,
    });
    if (picked?.all) {
      const n = await permissions.reset();
      void vscode.window.showInformationMessage(`Revoked ${n} MCP permission${n === 1 ? '' : 's'}: you are asked again next time.`);
    } else if (picked?.record) {
      await permissions.remove(picked.record.kind, picked.record.key);
      void vscode.window.showInformationMessage(`Revoked: ${plainText(picked.record.label)}.`);
    }
  }
}
