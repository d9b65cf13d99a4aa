// Members of a JSON-with-comments object, edited as text the way a person edits them: a member appended on a line of
// its own after the last one, or taken out with the comments that belong to it (the comment lines just above it and
// the comment after it on its line), its comma and its lines. Everything else in the file (other comments, formatting,
// blank lines) stays as it was. Class-free and stateless: the writer and the migration share it.
import { createScanner, SyntaxKind, type FormattingOptions, type Node } from 'jsonc-parser';

/** Indentation and line ends as the file has them (two spaces for a new file). */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent ? Math.min(indent.length, 8) : 2, eol };
}

/** One level of indentation as the file writes it. */
export const indentUnit = (f: FormattingOptions): string => (f.insertSpaces ? ' '.repeat(f.tabSize ?? 2) : '\t');

/** Whitespace at the start of the line holding `offset`. */
export function lineIndent(text: string, offset: number): string {
  const start = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(start))![0];
}

const lineStart = (text: string, offset: number): number => text.lastIndexOf('\n', offset - 1) + 1;

const sameLine = (text: string, a: number, b: number): boolean => !text.slice(Math.min(a, b), Math.max(a, b)).includes('\n');

/** Whether the text has a comment anywhere (its readers take comments, then). */
export function hasComments(text: string): boolean {
  const scanner = createScanner(text, false);
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia) return true;
  }
  return false;
}

/**
 * Appends a member (`prefix` + value as JSON) to an object or array, on a line of its own after the last one:
 * after its comma and any comment that ends its line, indented like it.
 */
export function appendMember(text: string, container: Node, prefix: string, value: unknown, unit: string): string {
  return appendMemberText(text, container, prefix + JSON.stringify(value, null, unit));
}

/**
 * Appends a member written out: `body` is its lines joined by "\n", the first as the member starts (a comment line
 * may come first), the others indented relative to it. It goes on lines of its own after the last member, indented
 * like it, after its comma and any comment that ends its line.
 */
export function appendMemberText(text: string, container: Node, body: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const unit = indentUnit(formattingOf(text));
  const close = container.offset + container.length - 1;
  const children = container.children ?? [];
  const last = children[children.length - 1];
  const containerIndent = lineIndent(text, container.offset);
  const indent = last && !sameLine(text, container.offset, last.offset) ? lineIndent(text, last.offset) : containerIndent + unit;
  const lines = body.split('\n').join(eol + indent);
  if (!last) {
    const inside = text.slice(container.offset + 1, close);
    const member = `${eol}${indent}${lines}${inside.trim() === '' ? eol + containerIndent : ''}`;
    return text.slice(0, container.offset + 1) + member + (inside.trim() === '' ? '' : inside) + text.slice(close);
  }
  const lastEnd = last.offset + last.length;
  const scanner = createScanner(text, false);
  scanner.setPosition(lastEnd);
  let point = lastEnd;
  let hasComma = false;
  for (;;) {
    const kind = scanner.scan();
    const start = scanner.getTokenOffset();
    const end = start + scanner.getTokenLength();
    if (kind === SyntaxKind.EOF || start >= close) break;
    if (kind === SyntaxKind.CommaToken) {
      hasComma = true;
      point = end;
    } else if (kind === SyntaxKind.LineCommentTrivia) {
      point = end;
      break;
    } else if (kind === SyntaxKind.BlockCommentTrivia) {
      if (text.slice(start, end).includes('\n')) break;
      point = end;
    } else if (kind === SyntaxKind.LineBreakTrivia) break;
    else if (kind !== SyntaxKind.Trivia) break;
  }
  const multiline = !sameLine(text, container.offset, close);
  const insertion = `${eol}${indent}${lines}${multiline ? '' : eol + containerIndent}`;
  const withComma = hasComma ? text : `${text.slice(0, lastEnd)},${text.slice(lastEnd)}`;
  const at = hasComma ? point : point + 1;
  return withComma.slice(0, at) + insertion + withComma.slice(at);
}

/** A token of the text: its kind and [start, end). */
interface Token {
  kind: SyntaxKind;
  start: number;
  end: number;
}

function tokensBetween(text: string, from: number, to: number): Token[] {
  const scanner = createScanner(text, false);
  scanner.setPosition(from);
  const tokens: Token[] = [];
  for (;;) {
    const kind = scanner.scan();
    const start = scanner.getTokenOffset();
    if (kind === SyntaxKind.EOF || start >= to) return tokens;
    tokens.push({ kind, start, end: start + scanner.getTokenLength() });
  }
}

const isComment = (t: Token) => t.kind === SyntaxKind.LineCommentTrivia || t.kind === SyntaxKind.BlockCommentTrivia;
const isBlank = (t: Token) => t.kind === SyntaxKind.Trivia || t.kind === SyntaxKind.LineBreakTrivia;

/** Where a member is in the text, with what belongs to it. */
export interface MemberBlock {
  /** The member (a property node: its key and value). */
  property: Node;
  /** The comments just above it, on lines of their own with no blank line between them and it, as written. */
  leading: string[];
  /** The comment after it (after its comma) on its last line. */
  trailing?: string;
  /** The text taken out with it: [start, end). */
  start: number;
  end: number;
  /** A comma of the member before it to take out too (it is the last member, without a comma of its own). */
  commaBefore?: number;
}

/**
 * The member at `index` of `container` and what goes with it. On lines of its own (as members of a file are written),
 * that is whole lines: its comment lines above, itself, the comment after it; else (several members on one line)
 * itself and a comma next to it, its comments left alone.
 */
export function memberBlock(text: string, container: Node, index: number): MemberBlock {
  const members = container.children ?? [];
  const property = members[index];
  const end = property.offset + property.length;
  const before = index > 0 ? members[index - 1].offset + members[index - 1].length : container.offset + 1;
  const after = index + 1 < members.length ? members[index + 1].offset : container.offset + container.length - 1;
  const following = tokensBetween(text, end, after);
  const ownComma = following.find((t) => !isBlank(t) && !isComment(t))?.kind === SyntaxKind.CommaToken;
  const previousComma = tokensBetween(text, before, property.offset).find((t) => t.kind === SyntaxKind.CommaToken);
  const isLast = index === members.length - 1;

  // The rest of its last line: a comma, comments, then the line's end.
  let lineEnd: number | undefined;
  let trailing: string | undefined;
  for (const t of following) {
    if (t.kind === SyntaxKind.CommaToken || t.kind === SyntaxKind.Trivia) continue;
    if (isComment(t) && !text.slice(t.start, t.end).includes('\n')) {
      trailing = text.slice(t.start, t.end);
      continue;
    }
    if (t.kind === SyntaxKind.LineBreakTrivia) lineEnd = t.end;
    break;
  }
  const alone = text.slice(lineStart(text, property.offset), property.offset).trim() === '' && lineEnd !== undefined;
  if (!alone) {
    // Several members on a line: the member and the comma after it (or, the last one, the comma before it).
    const comma = following.find((t) => t.kind === SyntaxKind.CommaToken && ownComma);
    if (comma) {
      const space = /^[ \t]*/.exec(text.slice(comma.end))![0].length;
      return { property, leading: [], start: property.offset, end: comma.end + space };
    }
    return { property, leading: [], start: previousComma && isLast ? previousComma.start : property.offset, end };
  }

  // Its comment lines above: each alone on its line, none separated from the next (or from it) by a blank line.
  const above = tokensBetween(text, before, property.offset);
  const leading: Token[] = [];
  let next = property.offset;
  for (let i = above.length - 1; i >= 0; i--) {
    const t = above[i];
    if (isBlank(t)) continue;
    const gap = text.slice(t.end, next);
    if (!isComment(t) || (gap.match(/\n/g) ?? []).length > 1 || text.slice(lineStart(text, t.start), t.start).trim() !== '' || t.start < lineEndAfter(text, before)) break;
    leading.unshift(t);
    next = t.start;
  }
  return {
    property,
    leading: leading.map((t) => text.slice(t.start, t.end)),
    trailing,
    start: lineStart(text, leading[0]?.start ?? property.offset),
    end: lineEnd!,
    ...(isLast && !ownComma && previousComma ? { commaBefore: previousComma.start } : {}),
  };
}

/** The end of the line holding `offset` (what is on the line of the member before belongs to it). */
function lineEndAfter(text: string, offset: number): number {
  const n = text.indexOf('\n', offset);
  return n < 0 ? text.length : n;
}

/** The text without the member at `index` of `container` and what belongs to it (see memberBlock). */
export function removeMember(text: string, container: Node, index: number): string {
  const block = memberBlock(text, container, index);
  let out = text.slice(0, block.start) + text.slice(block.end);
  if (block.commaBefore !== undefined) out = out.slice(0, block.commaBefore) + out.slice(block.commaBefore + 1);
  return out;
}

/**
 * The text (a member's value, say) without its trailing commas and (unless `keepComments`) its comments, for a file
 * read as plain JSON: a line left empty by a comment goes with it; everything else (numbers as written, order, line
 * breaks) stays.
 */
export function withoutComments(text: string, keepComments = false): string {
  const GONE = '\u0000';
  const tokens = tokensBetween(text, 0, text.length);
  let out = '';
  let last = 0;
  tokens.forEach((t, i) => {
    let drop = isComment(t) && !keepComments;
    if (t.kind === SyntaxKind.CommaToken) {
      const next = tokens.slice(i + 1).find((n) => !isBlank(n) && !isComment(n));
      drop = !next || next.kind === SyntaxKind.CloseBraceToken || next.kind === SyntaxKind.CloseBracketToken;
    }
    if (!drop) return;
    out += text.slice(last, t.start) + GONE;
    last = t.end;
  });
  out += text.slice(last);
  return out
    .split('\n')
    .filter((line) => !(line.includes(GONE) && line.replace(/\r$/, '').replaceAll(GONE, '').trim() === ''))
    .map((line) => (line.includes(GONE) ? line.split(GONE).map((piece, i, all) => (i < all.length - 1 ? piece.trimEnd() : piece)).join('').replace(/[ \t]+(\r?)$/, '$1') : line))
    .join('\n');
}
