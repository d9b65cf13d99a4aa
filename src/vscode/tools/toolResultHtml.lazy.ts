// The page of a tool result: which tool of which server ran with which arguments, whether it failed, and what it
// returned, block by block (text, pretty JSON, images and audio with their real size, resource links, embedded
// resources, structured content), with links to run it again. Pure, without `vscode`, so it is unit-tested in Node.
//
// Everything a server chose is escaped (serverText.escapeHtml); the page runs no script (its CSP allows none), loads
// nothing but data: images and audio that passed a check, and its only links are our own commands, which the webview
// enables by id.
import { formatBytes, type ResultBlock, type ToolResultView } from '../../core/features/tools/toolResultView.lazy';
import { escapeHtml } from '../../core/presentation/serverText';
import { CommandIds } from '../../core/common/commandIds';


export interface ToolResultPage {
  /** Identifies the call for "Run again". */
  callId: string;
  serverId: string;
  serverName: string;
  toolName: string;
  toolTitle?: string;
  argumentsJson: string;
  outcome:
    | { kind: 'result'; view: ToolResultView; durationMs: number }
    | { kind: 'failed'; message: string; durationMs: number }
    /** Cancelled by the user or by its server's stop or restart: `message` says which. */
    | { kind: 'cancelled'; message: string; durationMs: number };
  /** How many times this call has run (a re-run counts up). */
  run: number;
  /** A fresh random value per render, for the style element. */
  nonce: string;
}

export const commandUri = (command: string, args: unknown[]): string => `command:${command}?${encodeURIComponent(JSON.stringify(args))}`;

const pre = (text: string, className = ''): string => `<pre${className ? ` class="${className}"` : ''}>${escapeHtml(text)}</pre>`;

function blockHtml(block: ResultBlock, page: ToolResultPage, index: number): string {
  switch (block.kind) {
    case 'text':
      // VS Code's own Markdown preview renders it (see markdownResults.lazy.ts); here it stays text.
      return `${pre(block.text)}<p class="note"><a href="${commandUri(CommandIds.previewToolResult, [page.callId, index])}">Open as Markdown Preview</a></p>`;
    case 'json':
      return `<p class="kind">JSON</p>${pre(block.json, 'json')}`;
    case 'image':
    case 'audio': {
      const caption = `<p class="kind">${block.kind === 'image' ? 'Image' : 'Audio'} · ${escapeHtml(block.mimeType)} · ${formatBytes(block.bytes)}</p>`;
      if (!block.displayable) return `${caption}<p class="note">Not shown: its type or data is not valid ${block.kind}.</p>`;
      const src = `data:${escapeHtml(block.mimeType.toLowerCase())};base64,${block.base64}`;
      return block.kind === 'image'
        ? `${caption}<img src="${src}" alt="${escapeHtml(`image, ${block.mimeType}, ${formatBytes(block.bytes)}`)}">`
        : `${caption}<audio controls src="${src}"></audio>`;
    }
    case 'resourceLink': {
      const l = block.link;
      const href = commandUri(CommandIds.openResourceLink, [page.serverId, { type: 'resource_link', uri: l.uri, name: l.name, title: l.title, mimeType: l.mimeType }]);
      const details = [l.mimeType, l.description].filter(Boolean).map((d) => escapeHtml(String(d))).join(' · ');
      return `<p class="kind">Resource link</p><p><a href="${href}">${escapeHtml(l.title ?? l.name)}</a> <code>${escapeHtml(l.uri)}</code>${details ? ` — ${details}` : ''}</p>`;
    }
    case 'resource': {
      const header = `<p class="kind">Embedded resource · <code>${escapeHtml(block.uri)}</code>${block.mimeType ? ` · ${escapeHtml(block.mimeType)}` : ''}</p>`;
      return block.text !== undefined ? `${header}${pre(block.text)}` : `${header}<p class="note">${formatBytes(block.bytes ?? 0)} of binary data</p>`;
    }
    case 'unsupported':
      return `<p class="note">Content of type <code>${escapeHtml(block.type)}</code> cannot be shown.</p>`;
  }
}

export function toolResultHtml(page: ToolResultPage): string {
  const { outcome } = page;
  const title = page.toolTitle && page.toolTitle !== page.toolName ? `${page.toolTitle} (${page.toolName})` : page.toolName;
  const seconds = `${(outcome.durationMs / 1000).toFixed(outcome.durationMs < 10_000 ? 2 : 0)} s`;
  const failed = outcome.kind === 'failed' || (outcome.kind === 'result' && outcome.view.isError);
  const status =
    outcome.kind === 'failed'
      ? '<span class="status error">✗ the call failed</span>'
      : outcome.kind === 'cancelled'
        ? '<span class="status">⊘ cancelled</span>'
        : outcome.view.isError
        ? '<span class="status error">✗ the tool reported an error</span>'
        : '<span class="status ok">✓ done</span>';
  const body: string[] = [];
  if (outcome.kind === 'failed') {
    body.push(`<section class="error-box"><h2>The call failed</h2>${pre(outcome.message)}</section>`);
  } else if (outcome.kind === 'cancelled') {
    body.push(`<section><h2>Cancelled</h2><p>${escapeHtml(outcome.message)}</p></section>`);
  } else {
    const { view } = outcome;
    const blocks = view.blocks.map((b, i) => `<div class="block">${blockHtml(b, page, i)}</div>`).join('');
    body.push(
      `<section${view.isError ? ' class="error-box"' : ''}><h2>${view.isError ? 'Error returned by the tool' : 'Result'}</h2>${blocks || '<p class="note">No content.</p>'}</section>`,
    );
    if (view.structured !== undefined) body.push(`<section><h2>Structured content</h2>${pre(view.structured, 'json')}</section>`);
  }
  body.push(`<section><h2>Arguments</h2>${pre(page.argumentsJson, 'json')}</section>`);
  const again = commandUri(CommandIds.rerunToolCall, [page.callId]);
  const edit = commandUri(CommandIds.rerunToolCall, [page.callId, { edit: true }]);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; media-src data:; style-src 'nonce-${page.nonce}';">
<style nonce="${page.nonce}">
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 16px 16px; line-height: 1.4; }
h1 { font-size: 1.4em; margin: 12px 0 4px; }
h2 { font-size: 1.05em; margin: 18px 0 6px; }
.meta { color: var(--vscode-descriptionForeground); margin: 0 0 8px; }
.status.ok { color: var(--vscode-testing-iconPassed); }
.status.error, .error-box h2 { color: var(--vscode-errorForeground); }
.error-box { border-left: 3px solid var(--vscode-errorForeground); padding-left: 10px; }
nav a { margin-right: 16px; }
pre { background: var(--vscode-textCodeBlock-background); padding: 8px; white-space: pre-wrap; word-break: break-word; font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
.kind, .note { color: var(--vscode-descriptionForeground); margin: 8px 0 4px; font-size: 0.9em; }
.block { margin-bottom: 10px; }
img { max-width: 100%; image-rendering: auto; border: 1px solid var(--vscode-panel-border); }
code { font-family: var(--vscode-editor-font-family); }
</style>
<title>${escapeHtml(title)}</title>
</head>
<body${failed ? ' class="failed"' : ''}>
<h1>${escapeHtml(title)}</h1>
<p class="meta">Tool <code>${escapeHtml(page.toolName)}</code> of MCP server <strong>${escapeHtml(page.serverName)}</strong> · ${status} · ${seconds}${page.run > 1 ? ` · run ${page.run}` : ''}</p>
<nav><a href="${again}">▷ Run again</a><a href="${edit}">Change arguments and run…</a></nav>
${body.join('\n')}
</body>
</html>
`;
}
