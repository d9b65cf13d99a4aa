// A tool's Markdown result shown as Markdown (headings, lists, emphasis, tables, code) rather than as raw text, with
// every construct that could reach out of the text disarmed: links, images, autolinks, reference definitions, HTML
// and entities are escaped, so they read as the characters they are. Code (fenced blocks and inline spans) is left as
// written: Markdown shows code literally. One pass over the text, no backtracking regex: linear in its length.

/** Longer text is shown as plain text (in a code block) instead: a chat response is no book. */
export const MAX_MARKDOWN_CHARS = 50_000;

/** Markdown punctuation that can start a link, an image, HTML, an entity or an autolink, and the escape itself (`>` alone starts only a quote). */
const DISARM = /[\\[\]<&:@]/g;
// eslint-disable-next-line no-control-regex -- control and bidi characters are exactly what is removed
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A line that opens a fenced code block (CommonMark: up to 3 spaces, then 3+ backticks or tildes; a backtick fence's info has no backtick). */
function fenceOpening(line: string): { char: string; length: number } | undefined {
  const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
  if (!m) return undefined;
  const char = m[1][0];
  if (char === '`' && line.slice(m[0].length).includes('`')) return undefined;
  return { char, length: m[1].length };
}

const closesFence = (line: string, fence: { char: string; length: number }): boolean => {
  const m = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  return !!m && m[1][0] === fence.char && m[1].length >= fence.length;
};

/** `www.` as GFM autolinks it; the dot escaped, it stays text. */
const disarmText = (text: string): string => text.replace(DISARM, '\\$&').replace(/www\./gi, (w) => `${w.slice(0, 3)}\\.`);

/** One line outside code blocks: inline code spans (backtick runs matched on this line) kept, the rest disarmed. */
function disarmLine(line: string): string {
  // Every backtick run and its length, in one pass.
  const runs: { at: number; length: number }[] = [];
  for (let i = 0; i < line.length; ) {
    if (line[i] !== '`') {
      i++;
      continue;
    }
    let j = i;
    while (line[j] === '`') j++;
    runs.push({ at: i, length: j - i });
    i = j;
  }
  // The next run of each length, from the end: a span closes at the next run of the same length.
  const nextOfLength = new Array<number>(runs.length).fill(-1);
  const seen = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    nextOfLength[k] = seen.get(runs[k].length) ?? -1;
    seen.set(runs[k].length, k);
  }
  let out = '';
  let at = 0;
  for (let k = 0; k < runs.length; k++) {
    const run = runs[k];
    if (run.at < at) continue;
    out += disarmText(line.slice(at, run.at));
    const close = nextOfLength[k];
    if (close === -1) {
      // No closing run on this line: escaped, so it cannot open a span across lines.
      out += '\\`'.repeat(run.length);
      at = run.at + run.length;
      continue;
    }
    const end = runs[close].at + runs[close].length;
    out += line.slice(run.at, end);
    at = end;
    // Runs inside the span are skipped by the `run.at < at` check.
  }
  return out + disarmText(line.slice(at));
}

/**
 * Text that reads as Markdown: a heading, a list, a fenced block, a table row or strong emphasis at some line. Plain
 * prose (or JSON, or a log) stays in a code block, where it keeps its line breaks and spacing.
 */
export function looksLikeMarkdown(text: string): boolean {
  if (text.length > MAX_MARKDOWN_CHARS) return false;
  let signs = 0;
  for (const line of text.split('\n')) {
    if (/^ {0,3}(#{1,6} \S|[-*+] \S|\d{1,3}[.)] \S|```|~~~|\|.*\|\s*$)/.test(line) || /\*\*\S/.test(line)) signs++;
    if (signs >= 2) return true;
  }
  return false;
}

/** A result's headings stay below the response's own (level 4 and deeper): a result cannot pose as its title. */
const subordinateHeading = (line: string): string => line.replace(/^( {0,3})(#{1,6})(?=[ \t]|$)/, (_, indent: string, marks: string) => `${indent}${'#'.repeat(Math.min(6, marks.length + 3))}`);

/** The text as Markdown that shows its formatting and can link, load or run nothing (see the file's comment). */
export function safeMarkdown(text: string): string {
  const out: string[] = [];
  let fence: { char: string; length: number } | undefined;
  for (const raw of text.replace(INVISIBLE, '').split(/\r\n?|\n/)) {
    if (fence) {
      out.push(raw);
      if (closesFence(raw, fence)) fence = undefined;
      continue;
    }
    fence = fenceOpening(raw);
    // The opening line's info string is text VS Code shows as a language name only: disarmed all the same.
    if (fence) out.push(raw.replace(DISARM, ''));
    // A setext underline would make the line above a top-level heading: kept as text (after a blank line, `---` is a rule).
    else if (/^ {0,3}(=+|-+)[ \t]*$/.test(raw) && (raw.includes('=') || (out.at(-1) ?? '').trim() !== '')) out.push(raw.replace(/[=-]/, '\\$&'));
    else out.push(disarmLine(subordinateHeading(raw)));
  }
  // A block left open would swallow what follows the result.
  if (fence) out.push(fence.char.repeat(fence.length));
  return out.join('\n');
}
