// Where MCP Host writes a server entry: a folder's .mcp.json (servers under `mcpServers`: the file VS Code 1.140's Add
// Server writes, and Claude Code and Copilot CLI read) or its .vscode/mcp.json, and for the user
// ~/.copilot/mcp-config.json ($COPILOT_HOME) or MCP Host's own mcp.json. A pick lists them with the user's last choice
// first, else what the user's VS Code writes. The choice is remembered in global state, which a workspace cannot set,
// and a file is written only once it is picked: a workspace never makes MCP Host write the user's files.
import * as os from 'os';
import vscode = require('vscode');
import type { VariableDialect } from '../../core/config/serverDefinition';
import { orderTargets as orderTargetsOf, preferredFormat as preferredFormatOf, rememberedKind, type TargetKind } from '../../core/config/writeTargetOrder.lazy';
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
  targets.push({ uri: userConfigUri, scopeKey: 'user', format: 'vscode', scope: 'user', where: 'your mcp.json' }, copilotTarget());
  return targets;
}

/** Copilot CLI's user file (`$COPILOT_HOME/mcp-config.json`), which VS Code 1.140 writes too. */
export function copilotTarget(): WriteTarget {
  const copilot = vscode.Uri.file(copilotConfigPath());
  return { uri: copilot, scopeKey: copilot.toString(), format: 'mcpServers', scope: 'user', where: copilotConfigPath().replace(os.homedir(), '~') };
}

/** VS Code's own user mcp.json (in its profile's folder), as the configuration loader keys it. */
export function vscodeUserTarget(vscodeProfile: vscode.Uri): WriteTarget {
  const uri = vscode.Uri.joinPath(vscodeProfile, 'mcp.json');
  return { uri, scopeKey: uri.toString(), format: 'vscode', scope: 'user', where: "VS Code's user mcp.json" };
}

const remembered = (state: vscode.Memento): TargetKind | undefined => rememberedKind(state.get(REMEMBERED));

/** The format to offer first: the one picked last, else the one the user's VS Code writes. */
export const preferredFormat = (state: vscode.Memento): VariableDialect => preferredFormatOf(remembered(state), vscode.version);

/** The targets in the pick's order (../../core/config/writeTargetOrder.lazy). */
export const orderTargets = (targets: WriteTarget[], state: vscode.Memento): WriteTarget[] => orderTargetsOf(targets, remembered(state), vscode.version);

export function rememberTarget(state: vscode.Memento, target: WriteTarget): Thenable<void> {
  return state.update(REMEMBERED, { scope: target.scope, format: target.format } satisfies TargetKind);
}

/** A target as a pick shows it: "<verb> in Workspace (folder)" or "<verb> for User", and which file. */
export function targetItem(verb: string, target: WriteTarget, folders: number): { label: string; description: string } {
  if (target.scope === 'user') {
    return { label: `${verb} for User`, description: target.format === 'vscode' ? 'your mcp.json, for every workspace' : `${target.where}, for every workspace (Copilot CLI reads it too)` };
  }
  const label = folders > 1 ? `${verb} in Workspace (${target.folder})` : `${verb} in Workspace`;
  return { label, description: target.format === 'vscode' ? '.vscode/mcp.json' : '.mcp.json (Claude Code and Copilot CLI read it too)' };
}

/** What a pick of targets says when the server needs inputs: only VS Code's format holds them. */
export const onlyVsCodeFormat = (inputs: string[]): string =>
  inputs.length ? ` (it asks for ${inputs.join(', ')}: only .vscode/mcp.json and your mcp.json can hold inputs, so .mcp.json and ${copilotTarget().where} are not offered)` : '';
