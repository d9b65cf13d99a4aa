// Read-only documents behind chat responses (the expanded prompt that was sent, each tool call with its input and
// result: chat lists them as the response's references, one click away, instead of flooding the answer) and the
// prompts "MCP: Run Prompt…" expands.
import vscode = require('vscode');

const CHAT_DOCUMENT_SCHEME = 'mcp-host-chat';

/** Documents kept for the window's lifetime, oldest dropped first: chat history keeps links to recent ones. */
const MAX_DOCUMENTS = 200;

export class ChatDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private next = 1;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(CHAT_DOCUMENT_SCHEME, this);

  /** Stores a Markdown document; its URI ends in `name` so the references list shows something readable. */
  add(name: string, markdown: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: CHAT_DOCUMENT_SCHEME, path: `/${this.next++}/${name.replace(/[\\/]/g, '_')}.md` });
    this.contents.set(uri.toString(), markdown);
    if (this.contents.size > MAX_DOCUMENTS) this.contents.delete(this.contents.keys().next().value!);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? 'This document is no longer available: it belonged to an older chat response.';
  }

  dispose(): void {
    this.registration.dispose();
    this.contents.clear();
  }
}
