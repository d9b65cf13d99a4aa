// VS Code's built-in MCP support reads the same .vscode/mcp.json. Tell the user once how to avoid running every
// server twice.
import * as vscode from 'vscode';

const SHOWN_KEY = 'mcpHost.coexistenceNoticeShown';

/** True when this VS Code has built-in MCP support and it is not switched off. */
export function isBuiltinMcpEnabled(): boolean {
  const chat = vscode.workspace.getConfiguration('chat');
  if (chat.get<boolean>('mcp.enabled') === false) return false;
  const access = chat.inspect<string>('mcp.access');
  if (!access) return false;
  const value = access.workspaceFolderValue ?? access.workspaceValue ?? access.globalValue ?? access.defaultValue;
  return value !== 'none';
}

export async function noticeBuiltinMcp(state: vscode.Memento, hasWorkspaceServers: boolean): Promise<void> {
  if (!hasWorkspaceServers || state.get(SHOWN_KEY) || !isBuiltinMcpEnabled()) return;
  await state.update(SHOWN_KEY, true);
  const openSetting = 'Open Setting';
  const answer = await vscode.window.showInformationMessage(
    'VS Code\'s built-in MCP support also reads .vscode/mcp.json. MCP Host runs these servers for you; to keep them from ' +
      'running twice, set "chat.mcp.access" to "none" (or don\'t start them from the Chat view as well).',
    openSetting,
  );
  if (answer === openSetting) await vscode.commands.executeCommand('workbench.action.openSettings', 'chat.mcp.access');
}
