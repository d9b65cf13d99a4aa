// Adds (or replaces) one server and its inputs in an mcp.json's text, as an edit: comments, formatting and every other
// entry stay as they were. A new member is inserted as text after the last one (jsonc-parser's `modify` would reformat
// the line it lands on, and move a trailing comment); a replaced entry is `modify`'s edit of its value alone.
import { applyEdits, createScanner, findNodeAtLocation, getNodeValue, modify, parseTree, SyntaxKind, type FormattingOptions, type Node, type ParseError } from 'jsonc-parser';
import type { InputDefinition } from './serverDefinition';

/** One server to write: its key under `servers`, its entry, and the inputs its entry refers to. */
export interface ServerToWrite {
  name: string;
  entry: object;
  inputs: InputDefinition[];
}

export interface WriteResult {
  text: string;
  /** The key was there already: its entry was replaced. */
  replaced: boolean;
}

export class McpJsonWriteError extends Error {}

/** Indentation as the file has it (two spaces for a new file). */
function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol: text.includes('\r\n') ? '\r\n' : '\n' };
  return { insertSpaces: true, tabSize: indent ? Math.min(indent.length, 8) : 2, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

const sameInput = (a: unknown, b: InputDefinition): boolean => {
  if (typeof a !== 'object' || a === null) return false;
  const o = a as Record<string, unknown>;
  if (o.type !== b.type) return false;
  if (b.type === 'promptString') return (o.password === true) === b.password;
  if (b.type === 'command') return o.command === b.command && JSON.stringify(o.args) === JSON.stringify(b.args);
  return JSON.stringify(o.options) === JSON.stringify(b.options);
};

/** Writes `plan` into the text of an mcp.json (empty text: a new file). `key` defaults to the plan's name. */
export function writeServer(text: string, plan: ServerToWrite, key = plan.name): WriteResult {
  let source = text.trim() === '' ? '{\n  "servers": {}\n}\n' : text;
  const errors: ParseError[] = [];
  const root = parseTree(source, errors, { allowTrailingComma: true, allowEmptyContent: true });
  if (errors.length) throw new McpJsonWriteError('The file has syntax errors; fix them first.');
  if (!root || root.type !== 'object') throw new McpJsonWriteError('The file is not a JSON object.');
  const servers = findNodeAtLocation(root, ['servers']);
  if (servers && servers.type !== 'object') throw new McpJsonWriteError('"servers" is not an object.');
  const inputsNode = findNodeAtLocation(root, ['inputs']);
  if (inputsNode && inputsNode.type !== 'array') throw new McpJsonWriteError('"inputs" is not an array.');
  const replaced = !!servers && !!findNodeAtLocation(servers, [key]);

  // Inputs: one already declared the same way is shared; an id taken by a different input gets a new id.
  const existing = new Map<string, unknown>();
  for (const item of inputsNode?.children ?? []) {
    const value = getNodeValue(item) as unknown;
    const id = (value as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string') existing.set(id, value);
  }
  const renames = new Map<string, string>();
  const toAdd: InputDefinition[] = [];
  for (const input of plan.inputs) {
    let id = input.id;
    for (let n = 2; existing.has(id) && !sameInput(existing.get(id), { ...input, id }); n++) id = `${input.id}-${n}`;
    if (id !== input.id) renames.set(input.id, id);
    if (!existing.has(id)) {
      toAdd.push({ ...input, id });
      existing.set(id, input);
    }
  }
  let entryJson = JSON.stringify(plan.entry);
  if (renames.size) {
    entryJson = entryJson.replace(/\$\{input:([^{}"]*)\}/g, (whole, id: string) => (renames.has(id) ? `\${input:${renames.get(id)}}` : whole));
  }
  const entry = JSON.parse(entryJson) as unknown;

  const formattingOptions = formatting(source);
  const unit = formattingOptions.insertSpaces ? ' '.repeat(formattingOptions.tabSize ?? 2) : '\t';
  const reparse = () => parseTree(source, [], { allowTrailingComma: true })!;
  if (replaced) {
    source = applyEdits(source, modify(source, ['servers', key], entry, { formattingOptions }));
  } else if (servers) {
    source = appendMember(source, servers, `${JSON.stringify(key)}: `, entry, unit);
  } else {
    source = appendMember(source, root, '"servers": ', { [key]: entry }, unit);
  }
  if (toAdd.length) {
    const inputs = findNodeAtLocation(reparse(), ['inputs']);
    if (inputs) for (const input of toAdd) source = appendMember(source, findNodeAtLocation(reparse(), ['inputs'])!, '', inputJson(input), unit);
    else source = appendMember(source, reparse(), '"inputs": ', toAdd.map(inputJson), unit);
  }
  return { text: source, replaced };
}

export function inputJson(input: InputDefinition): Record<string, unknown> {
  if (input.type === 'promptString') return { type: 'promptString', id: input.id, description: input.description, ...(input.password ? { password: true } : {}), ...(input.default !== undefined ? { default: input.default } : {}) };
  if (input.type === 'command') return { type: 'command', id: input.id, command: input.command, ...(input.args !== undefined ? { args: input.args } : {}) };
  return { type: 'pickString', id: input.id, description: input.description, options: input.options, ...(input.default !== undefined ? { default: input.default } : {}) };
}

/** Whitespace at the start of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

const sameLine = (text: string, a: number, b: number): boolean => !text.slice(Math.min(a, b), Math.max(a, b)).includes('\n');

/**
 * Appends a member (`prefix` + value as JSON) to an object or array, on a line of its own after the last one:
 * after its comma and any comment that ends its line, indented like it.
 */
function appendMember(text: string, container: Node, prefix: string, value: unknown, unit: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const close = container.offset + container.length - 1;
  const children = container.children ?? [];
  const last = children[children.length - 1];
  const containerIndent = lineIndent(text, container.offset);
  const indent = last && !sameLine(text, container.offset, last.offset) ? lineIndent(text, last.offset) : containerIndent + unit;
  const body = (prefix + JSON.stringify(value, null, unit)).split('\n').join(eol + indent);
  if (!last) {
    const inside = text.slice(container.offset + 1, close);
    const member = `${eol}${indent}${body}${inside.trim() === '' ? eol + containerIndent : ''}`;
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
  const insertion = `${eol}${indent}${body}${multiline ? '' : eol + containerIndent}`;
  const withComma = hasComma ? text : `${text.slice(0, lastEnd)},${text.slice(lastEnd)}`;
  const at = hasComma ? point : point + 1;
  return withComma.slice(0, at) + insertion + withComma.slice(at);
}
