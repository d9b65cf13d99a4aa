// Completion in mcp.json, .mcp.json and Copilot CLI's mcp-config.json where a server's name goes: well-known servers
// and the registry's (the items come from ./mcpJsonCompletionItems.lazy.ts, loaded on the first request here). Typing
// a quote asks for them.
import vscode = require('vscode');
import { copilotConfigPath } from './configUris';

/** The items at a position of an mcp.json. */
export type McpJsonCompletionItems = (document: vscode.TextDocument, position: vscode.Position, context: vscode.CompletionContext, token: vscode.CancellationToken) => Promise<vscode.CompletionList>;

export function registerMcpJsonCompletion(items: McpJsonCompletionItems): vscode.Disposable {
  const copilot = vscode.Uri.file(copilotConfigPath());
  const files = ['**/.vscode/mcp.json', '**/globalStorage/mcp-host.mcp-host/mcp.json', '**/.mcp.json'].map((pattern): vscode.DocumentFilter => ({ pattern }));
  files.push({ pattern: new vscode.RelativePattern(vscode.Uri.joinPath(copilot, '..'), 'mcp-config.json') });
  return vscode.languages.registerCompletionItemProvider(files, { provideCompletionItems: (document, position, token, context) => items(document, position, context, token) }, '"');
}
