// Where a workspace folder's configuration files are: class-free, so both bundles may use it.
import vscode = require('vscode');

export function workspaceConfigUri(folder: vscode.WorkspaceFolder): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
}

export function portableConfigUri(folder: vscode.WorkspaceFolder): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, '.mcp.json');
}
