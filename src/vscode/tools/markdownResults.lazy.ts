// "Open as Markdown Preview" in a tool result's view: the text block as a read-only virtual document of our scheme,
// shown in VS Code's own Markdown preview (which sanitises it and runs no script; images and raw HTML of these
// documents are shown as text by core/presentation/markdownPreviewGuard.ts). Nothing is saved or asks to be.
import vscode = require('vscode');
import { TOOL_RESULT_SCHEME } from '../../core/presentation/markdownPreviewGuard';

/** Documents remembered for the preview; older ones are forgotten (a preview of one then says so). */
const MAX_DOCUMENTS = 50;

export class MarkdownResults implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(TOOL_RESULT_SCHEME, this);
  private next = 1;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '*This tool result is no longer kept: run the tool again to see it.*';
  }

  /** Opens `text` (the result of `toolName`) in the Markdown preview, beside the result's view. */
  async preview(toolName: string, text: string): Promise<void> {
    // The name is the preview's title ("Preview <name>"); `.md` makes the document Markdown.
    const name = `${toolName.replace(/[^\w.-]+/g, '-').slice(0, 60) || 'result'} result.md`;
    const uri = vscode.Uri.from({ scheme: TOOL_RESULT_SCHEME, path: `/${this.next++}/${name}` });
    this.texts.set(uri.toString(), text);
    for (const old of this.texts.keys()) {
      if (this.texts.size <= MAX_DOCUMENTS) break;
      this.texts.delete(old);
    }
    await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
