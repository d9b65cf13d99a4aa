// Where the MCP configuration files are: a workspace folder's, and the user's. Class-free, so both bundles may use it.
import * as os from 'os';
import * as path from 'path';
import vscode = require('vscode');
import type { ConfigFormat } from '../../core/config/mcpConfigParser';

/** One configuration file: where it is, how it lists servers, its scope's key and label, and how messages name it. */
export interface ConfigFile {
  uri: vscode.Uri;
  format: ConfigFormat;
  /** The scope's key: the folder's URI for its .vscode/mcp.json (as trust and server ids have always used), else the file's. */
  key: string;
  /** The group's label in the views. */
  label: string;
  /** The file as a message names it. */
  where: string;
  /** What its watcher watches: a folder's file from the folder (its own folder, .vscode or .github, may come later). */
  watch: vscode.RelativePattern;
  /** Where in the file its servers are (a .code-workspace's `settings.mcp`); absent: at its root. */
  section?: readonly string[];
  /** Only MCP Host reads it (its own user mcp.json); VS Code's MCP support reads every other one. */
  ownFile?: boolean;
}

export function workspaceConfigUri(folder: vscode.WorkspaceFolder): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
}

/**
 * A folder's files, in the order their servers win a name: .vscode/mcp.json (VS Code's), .mcp.json (the file Claude
 * Code, Cursor, Copilot CLI and VS Code 1.140's Add Server share), .github/mcp.json (Copilot's agent reads it).
 */
export const FOLDER_FILES: readonly { of(folder: vscode.WorkspaceFolder): ConfigFile; read?(): boolean }[] = [
  { of: (folder) => ({ uri: workspaceConfigUri(folder), format: 'vscode', key: folder.uri.toString(), label: folder.name, where: '.vscode/mcp.json', watch: new vscode.RelativePattern(folder, '.vscode/mcp.json') }) },
  { of: (folder) => fileIn(folder, ['.mcp.json'], 'mcpServers') },
  { of: (folder) => fileIn(folder, ['.github', 'mcp.json'], 'either') },
  // A dev container's own servers, read (as VS Code reads them) only in that container.
  { of: (folder) => ({ ...fileIn(folder, ['.devcontainer', 'devcontainer.json'], 'vscode'), section: ['customizations', 'vscode', 'mcp'] }), read: inContainer },
];

function fileIn(folder: vscode.WorkspaceFolder, segments: string[], format: ConfigFormat): ConfigFile {
  const uri = vscode.Uri.joinPath(folder.uri, ...segments);
  const where = segments.join('/');
  return { uri, format, key: uri.toString(), label: `${folder.name} (${where})`, where, watch: new vscode.RelativePattern(folder, where) };
}

/** The window runs in a container (a dev container, one attached to, a codespace). */
function inContainer(): boolean {
  return ['dev-container', 'attached-container', 'codespaces'].includes(vscode.env.remoteName ?? '');
}

/** Copilot CLI's user file: `$COPILOT_HOME/mcp-config.json`, by default `~/.copilot/mcp-config.json`. */
export function copilotConfigPath(env: Record<string, string | undefined> = process.env): string {
  return path.join(env.COPILOT_HOME || path.join(os.homedir(), '.copilot'), 'mcp-config.json');
}

/**
 * The user's files, in the order their servers win a name: MCP Host's own mcp.json; VS Code's, in the profile's
 * folder (`vscodeProfile`: where VS Code keeps the profile's settings.json), and its settings.json's `mcp`; then
 * Copilot CLI's.
 */
export function userFiles(ownConfigUri: vscode.Uri, vscodeProfile: vscode.Uri): ConfigFile[] {
  const copilot = vscode.Uri.file(copilotConfigPath());
  const vscodeMcp = vscode.Uri.joinPath(vscodeProfile, 'mcp.json');
  const settings = vscode.Uri.joinPath(vscodeProfile, 'settings.json');
  const inItsFolder = (uri: vscode.Uri) => new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), uri.path.slice(uri.path.lastIndexOf('/') + 1));
  return [
    { uri: ownConfigUri, format: 'vscode', key: 'user', label: 'User', where: 'your user mcp.json', watch: inItsFolder(ownConfigUri), ownFile: true },
    { uri: vscodeMcp, format: 'vscode', key: vscodeMcp.toString(), label: 'User (VS Code)', where: "VS Code's user mcp.json", watch: inItsFolder(vscodeMcp) },
    { uri: settings, format: 'vscode', key: settings.toString(), label: 'User (settings)', where: 'your settings.json (mcp)', watch: inItsFolder(settings), section: ['mcp'] },
    { uri: copilot, format: 'mcpServers', key: copilot.toString(), label: 'User (Copilot CLI)', where: copilotConfigPath().replace(os.homedir(), '~'), watch: inItsFolder(copilot) },
  ];
}

/**
 * A saved multi-root workspace's own servers: its .code-workspace file's `settings.mcp` (VS Code's format), as VS Code
 * reads them. Their `${workspaceFolder}` is the first folder of the workspace.
 */
export function workspaceFileConfig(workspaceFile: vscode.Uri): ConfigFile {
  const name = workspaceFile.path.slice(workspaceFile.path.lastIndexOf('/') + 1);
  return {
    uri: workspaceFile,
    format: 'vscode',
    key: workspaceFile.toString(),
    label: `Workspace (${name})`,
    where: `${name} (settings.mcp)`,
    watch: new vscode.RelativePattern(vscode.Uri.joinPath(workspaceFile, '..'), name),
    section: ['settings', 'mcp'],
  };
}
