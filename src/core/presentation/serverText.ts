// Every text an MCP server (or a workspace's mcp.json) chose passes through here before VS Code shows it: server,
// tool, prompt and resource names and titles, descriptions, URIs, error and log messages, instructions. Such text is
// untrusted: in Markdown it could form links (command: links run commands in trusted strings; https: links and images
// reach the network even in untrusted ones), HTML or fake headings; in notifications and quick inputs VS Code turns
// `[label](command:…)` into a clickable link and `$(name)` into an icon; a line break or a bidi control could fake a
// line or reorder what the user reads. Pure functions without `vscode`, so they are unit-tested in plain Node.

/** Every line ending CommonMark knows (a lone `\r` too), for text that must stay on one line. */
const LINE_ENDING = /\r\n?|\n/g;

/**
 * Markdown punctuation that can start a construct (links, images, HTML, emphasis, code, headings, lists, tables,
 * strikethrough, entities, setext underlines), and `:` and `.` so GFM autolinks no bare URL, `www.` or e-mail address.
 */
const MARKDOWN_SPECIAL = /[\\`*_{}[\]()<>#+\-=.!|~&:]/g;

const escapeSpecial = (text: string): string => text.replace(MARKDOWN_SPECIAL, '\\$&');

/** Plain text as Markdown that renders as exactly that text; every line break becomes a hard break. */
export function escapeMarkdown(text: string): string {
  return text.split(LINE_ENDING).map(escapeSpecial).join('  \n');
}

/**
 * Plain text as Markdown on one line, for list items, headings, emphasis and link text: a line break there would end
 * the construct (and a blank line the paragraph), leaving the rest to start Markdown of its own.
 */
export const markdownLine = (text: string): string => escapeSpecial(text.replace(LINE_ENDING, ' '));

/**
 * An inline code span holding any text on one line: every line ending becomes a space (a blank line would end the
 * paragraph and leave the rest outside the span), and the fence is longer than any backtick run inside.
 */
export function inlineCode(text: string): string {
  const flat = text.replace(LINE_ENDING, ' ');
  // Two backticks alone would not be a span at all.
  if (!flat) return '` `';
  const fence = '`'.repeat(longestBacktickRun(flat) + 1);
  // Padding keeps a backtick at either end from joining the fence.
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** `$(name)` as escapeMarkdown and markdownLine write it: `$\(name\)`, with `-` and `~` escaped too. */
const ESCAPED_THEME_ICON = /\$(?=\\\((?:[A-Za-z0-9]|\\-)+(?:\\~[A-Za-z]+)?\\\))/g;

/**
 * Escaped Markdown (from escapeMarkdown or markdownLine, not code) made ready for a MarkdownString with theme icons.
 * VS Code turns `$(name)` into an icon in the rendered HTML, where Markdown escapes are gone: the `$` gets a backslash
 * that survives rendering, which the icon renderer takes as "show as text" and drops.
 */
export const withoutThemeIcons = (markdown: string): string => markdown.replace(ESCAPED_THEME_ICON, '\\\\$');

/** A fenced code block holding any text: the fence is longer than any backtick run inside, so none can close it. */
export function fenced(text: string, language = ''): string {
  const fence = '`'.repeat(Math.max(2, longestBacktickRun(text)) + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

const longestBacktickRun = (text: string): number => Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));

/** A bold display name, then the protocol name in code when they differ: the name is what models and links use. */
export function heading(label: string, name: string): string {
  return label === name ? `**${markdownLine(name)}**` : `**${markdownLine(label)}** ${inlineCode(name)}`;
}

/** Line breaks of every kind, and tabs: each run becomes one space. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;

/** Other control characters, and the bidi controls that can make text read in another order than it is. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Plain text for notifications, dialog messages, titles and placeholders: one line, no control characters, and no
 * `[label](target)` link (VS Code links these in notification and quick input messages), since a space goes between
 * `]` and `(`.
 */
export function plainText(text: string): string {
  return text.replace(BREAKS, ' ').replace(INVISIBLE, '').replace(/\](?=\()/g, '] ');
}

/**
 * Also what shows as nothing yet carries text: soft hyphen, fillers, Unicode tags (ASCII in disguise), variation
 * selectors (data hidden after an emoji); of the two presentation selectors only one after another selector.
 */
// eslint-disable-next-line no-control-regex, no-misleading-character-class -- these characters, each alone, are what is shown as escapes
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\u3164\ufe00-\ufe0d\ufeff\uffa0\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]|(?<=[\ufe00-\ufe0f\u{e0100}-\u{e01ef}])[\ufe0e\ufe0f]/gu;

/**
 * Text whose every character must be seen (the trust question's names, values, paths and arguments): control,
 * line-breaking, zero-width and bidi characters are written as `\u{…}` escapes instead of removed, so a value can
 * neither hide what follows it nor forge a line of its own.
 */
export const visibleText = (text: string): string => text.replace(HIDDEN, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);

/** VS Code's `$(name)` and `$(name~modifier)` icon syntax. */
const THEME_ICON = /\$\((?=[A-Za-z0-9-]+(?:~[A-Za-z]+)?\))/g;

/**
 * Plain text for places that also render `$(name)` as an icon: quick pick labels, descriptions and details, input box
 * prompts, status bar messages. The icon syntax is backslash-escaped, which those places show as the text it was.
 */
export const labelText = (text: string): string => plainText(text).replace(THEME_ICON, '\\$(');

/** The first line of the trimmed text: descriptions next to names show only this. */
export const firstLine = (text: string | undefined): string => (text ?? '').trim().split(LINE_ENDING, 1)[0].trim();

export const truncate = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Plain text as HTML text or a quoted attribute value: it can open no tag, entity or attribute of its own. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
