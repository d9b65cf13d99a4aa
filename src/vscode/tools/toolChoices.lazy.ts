// What the Servers view's tool checkboxes and "Set Tool Approval…" do (registered in src/extension.ts and
// ../servers/serverCommands.ts): the user's
// choices for a server's tools, remembered by the ToolChoiceStore, which the one list of offered tools and the one
// guarded call path read (see core/features/tools/toolSwitches).
import vscode = require('vscode');
import type { ToolApproval } from '../../core/config/serverDefinition';
import { ToolChoiceStore } from '../../core/features/tools/toolChoiceStore.lazy';
import { consentSubject } from '../../core/features/consentSubject';
import { approvalOf, type ToolChoiceWriter, type ToolSwitch } from '../../core/features/tools/toolSwitches';
import type { ServerInfo } from '../../core/host/serverInfo';
import type { SessionPort } from '../../core/host/serverSession';
import type { KeyValueStore } from '../../core/host/hostPorts';
import { labelText } from '../../core/presentation/serverText';
import { userValue } from '../../core/config/tightenedSettings';

export const toolChoiceStore = (stores: { global: KeyValueStore; workspace: KeyValueStore }, changed: (serverId: string) => void) => new ToolChoiceStore(stores, changed);

/**
 * Checkboxes the user changed: a tool's switches that tool; a server's, all its tools (the ones it adds later too;
 * its file's switches stand apart).
 */
export async function switchTools(store: ToolChoiceWriter, sessions: Pick<SessionPort, 'servers'>, changes: readonly ToolSwitch[]): Promise<void> {
  for (const change of changes) {
    const server = sessions.servers().find((s) => s.id === change.serverId);
    if (!server) continue;
    await store.setOff(server.id, server.scope, change.tool !== undefined ? [change.tool] : 'all', change.state !== vscode.TreeItemCheckboxState.Checked);
  }
}

const APPROVALS: { approval: ToolApproval; label: string; detail: string }[] = [
  { approval: 'askEveryCall', label: 'Ask for every call', detail: 'Each call of its tools asks first, unless you allowed that tool for good.' },
  {
    approval: 'askUnlessReadOnly',
    label: 'Ask only for tools not marked read-only',
    detail: 'Tools the server annotates as read-only (and not destructive) run without asking. The server makes that claim, not MCP Host.',
  },
  { approval: 'neverAsk', label: 'Never ask', detail: 'Every tool of this server runs without asking. Only for your own (user-level) servers.' },
];

/** "Set Tool Approval…": a quick pick of how the server's calls are approved; "never ask" only for user-level servers. */
export async function pickToolApproval(store: ToolChoiceWriter, server: ServerInfo): Promise<void> {
  // The read-only setting as the consent reads it (../tools/toolSettings): the user's own value only.
  const subject = consentSubject(server.scope, server.name, server.definition);
  const now = approvalOf(server, userValue<boolean | undefined>(vscode.workspace.getConfiguration('mcpHost'), 'tools.autoAllowReadOnly').user === true, subject);
  const inFile = server.definition.toolApproval;
  const items = APPROVALS.filter((a) => a.approval !== 'neverAsk' || server.scope.kind === 'user').map((a) => ({
    label: a.label,
    description: a.approval === now ? '(current)' : undefined,
    detail: a.detail,
    approval: a.approval,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: `Tool approval for ${labelText(server.name)}`,
    placeHolder: inFile && server.scope.kind === 'workspace' ? `Its file asks for "${inFile}": a choice here can only ask more.` : 'When should a call of its tools ask you first?',
  });
  if (picked) await store.setApproval(server.id, server.scope, picked.approval, subject);
}
