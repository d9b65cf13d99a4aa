// Markdown for server text in VS Code's UI: stateless, so the activation and host bundles may each hold it.
import vscode = require('vscode');

/** Untrusted Markdown (the default): command links stay inert and HTML is not rendered. */
export const markdown = (text: string): vscode.MarkdownString => new vscode.MarkdownString(text);
