// Completion in mcp.json where a server's name goes: well-known servers and the registry's (the items come from the session layer,
// ./session/mcpJsonCompletionItems, loaded on the first request here). Typing a quote asks for them.
import vscode = require('vscode');
import type { LoadSessionLayer } from '../sessionLayer';

export function registerMcpJsonCompletion(session: LoadSessionLayer): vscode.Disposable {
  const files = ['**/.vscode/mcp.json', '**/globalStorage/mcp-host.mcp-host/mcp.json'].map((pattern) => ({ pattern }));
  return vscode.languages.registerCompletionItemProvider(files, { provideCompletionItems: (document, position, token, context) => session().mcpJsonCompletionItems(document, position, context, token) }, '"');
}
