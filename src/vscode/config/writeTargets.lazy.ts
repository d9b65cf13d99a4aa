// Where MCP Host writes a server entry: a folder's .mcp.json (servers under `mcpServers`: the file VS Code 1.140's Add
// Server writes, and Claude Code and Copilot CLI read) or its .vscode/mcp.json, and for the user
// ~/.copilot/mcp-config.json ($COPILOT_HOME) or MCP Host's own mcp.json. A pick lists them with the user's last choice
// first, else what the user's VS Code writes. The choice is remembered in global state, which a workspace cannot set,
// and a file is written only once it is picked: a workspace never makes MCP Host write the user's files.
import * as os from 'os';
import vscode = require('vscode');
import type { VariableDialect } from '../../core/config/serverDefinition';
import { copilotConfigPath, FOLDER_FILES } from './configUris';

/** One file a server can be written to. */
export interface WriteTarget {
  uri: vscode.Uri;
  /** Its scope's key, as the configuration loader keys it (a reload of that file). */
  scopeKey: string;
  format: VariableDialect;
  scope: 'workspace' | 'user';
  /** How a message names it. */
  where: string;
  /** Its workspace folder's name. */
  folder?: string;
}

const REMEMBERED = 'mcpHost.writeTarget';

/** The one the user picked last: its scope and format. */
interface Remembered {
  scope: WriteTarget['scope'];
  format: VariableDialect;
}

/** Every file a server can be written to: each folder's two, then the user's two. */
export function writeTargets(userConfigUri: vscode.Uri): WriteTarget[] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const targets: WriteTarget[] = folders.flatMap((folder) =>
    [FOLDER_FILES[0].of(folder), FOLDER_FILES[1].of(folder)].map((file) => ({
      uri: file.uri,
      scopeKey: file.key,
      format: file.format === 'mcpServers' ? 'mcpServers' : 'vscode',
      scope: 'workspace' as const,
      where: vscode.workspace.asRelativePath(file.uri, folders.length > 1),
      folder: folder.name,
    })),
  );
  const copilot = vscode.Uri.file(copilotConfigPath());
  targets.push(
    { uri: userConfigUri, scopeKey: 'user', format: 'vscode', scope: 'user', where: 'your mcp.json' },
    { uri: copilot, scopeKey: copilot.toString(), format: 'mcpServers', scope: 'user', where: copilotConfigPath().replace(os.homedir(), '~') },
  );
  return targets;
}

/** The format the user's VS Code writes new servers in: from 1.140 on, the mcpServers files; before, its own. */
export function vscodeWrites(version = vscode.version): VariableDialect {
  const [major, minor] = version.split('.').map((n) => parseInt(n, 10));
  return major > 1 || (major === 1 && minor >= 140) ? 'mcpServers' : 'vscode';
}

function remembered(state: vscode.Memento): Remembered | undefined {
  const value = state.get<Partial<Remembered>>(REMEMBERED);
  const scopeOk = value?.scope === 'workspace' || value?.scope === 'user';
  const formatOk = value?.format === 'vscode' || value?.format === 'mcpServers';
  return scopeOk && formatOk ? (value as Remembered) : undefined;
}

/** The format to offer first: the one picked last, else the one the user's VS Code writes. */
export const preferredFormat = (state: vscode.Memento): VariableDialect => remembered(state)?.format ?? vscodeWrites();

/** The targets in the pick's order: the one picked last first, else the preferred format first; the workspace's before the user's. */
export function orderTargets(targets: WriteTarget[], state: vscode.Memento): WriteTarget[] {
  const last = remembered(state);
  const format = last?.format ?? vscodeWrites();
  const rank = (t: WriteTarget) => (last && t.scope === last.scope && t.format === last.format ? 0 : 8) + (t.scope === 'workspace' ? 0 : 4) + (t.format === format ? 0 : 2);
  return targets.map((t, i) => ({ t, i })).sort((a, b) => rank(a.t) - rank(b.t) || a.i - b.i).map(({ t }) => t);
}

export function rememberTarget(state: vscode.Memento, target: WriteTarget): Thenable<void> {
  return state.update(REMEMBERED, { scope: target.scope, format: target.format } satisfies Remembered);
}

/** A target as a pick shows it: "<verb> in Workspace (folder)" or "<verb> for User", and which file. */
export function targetItem(verb: string, target: WriteTarget, folders: number): { label: string; description: string } {
  if (target.scope === 'user') {
    return { label: `${verb} for User`, description: target.format === 'vscode' ? 'your mcp.json, for every workspace' : `${target.where}, for every workspace (Copilot CLI reads it too)` };
  }
  const label = folders > 1 ? `${verb} in Workspace (${target.folder})` : `${verb} in Workspace`;
  return { label, description: target.format === 'vscode' ? '.vscode/mcp.json' : '.mcp.json (Claude Code and Copilot CLI read it too)' };
}
