// A tool result opened in VS Code's Markdown preview ("Open as Markdown Preview" in a result's view) is server text:
// VS Code's preview renders it, but in its default security level it still loads https images and renders raw HTML
// (sanitised, yet an <img> there still fetches). For our result documents only, this markdown-it plugin (contributed
// through `markdown.markdownItPlugins`) shows images and raw HTML as plain text, so nothing in the text reaches the
// network. Links stay links: the preview opens them only on a click (and never runs `command:` links).

/** The URI scheme of the result documents (src/vscode/tools/markdownResults.lazy.ts). */
export const TOOL_RESULT_SCHEME = 'mcp-host-tool-result';

interface Token {
  content: string;
  attrGet(name: string): string | null;
}
type Rule = (tokens: Token[], index: number, options: unknown, env: { currentDocument?: { scheme?: string } } | undefined, self: { renderToken(tokens: Token[], index: number, options: unknown): string }) => string;
interface MarkdownIt {
  renderer: { rules: Record<string, Rule | undefined> };
  utils: { escapeHtml(text: string): string };
}

export function guardToolResultPreviews<T extends MarkdownIt>(md: T): T {
  for (const name of ['image', 'html_block', 'html_inline']) {
    const original = md.renderer.rules[name];
    md.renderer.rules[name] = (tokens, index, options, env, self) => {
      if (env?.currentDocument?.scheme !== TOOL_RESULT_SCHEME) return original ? original(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
      const token = tokens[index];
      return md.utils.escapeHtml(name === 'image' ? `[image: ${token.content} ${token.attrGet('src') ?? ''}]` : token.content);
    };
  }
  return md;
}
