// Completion items in mcp.json where a server's name goes: well-known servers, each inserted as a whole entry (see
// ../../core/protocol/config/serverNameCompletions). Offered only inside a name's quotes or on Ctrl+Space, never
// preselected, so Enter typed for a new line never takes one. ../mcpJsonCompletion registers the provider.
import * as vscode from 'vscode';
import { serverNameCompletions } from '../../core/protocol/config/serverNameCompletions';

export function mcpJsonCompletionItems(document: vscode.TextDocument, position: vscode.Position, context: vscode.CompletionContext): vscode.CompletionItem[] {
  const invoked = context.triggerKind === vscode.CompletionTriggerKind.Invoke;
  return serverNameCompletions(document.getText(), document.offsetAt(position), invoked).map((c, i) => {
    const item = new vscode.CompletionItem({ label: c.label, description: 'MCP server' }, vscode.CompletionItemKind.Module);
    item.detail = c.detail;
    item.insertText = new vscode.SnippetString(c.snippet);
    // The snippet is indented for its line already.
    item.keepWhitespace = true;
    item.range = new vscode.Range(document.positionAt(c.replace.start), document.positionAt(c.replace.end));
    item.filterText = `"${c.label}"`;
    item.sortText = String(i).padStart(3, '0');
    item.preselect = false;
    return item;
  });
}
