// Moving servers between the two formats of MCP configuration files: VS Code's (`servers` and `inputs`: a folder's
// .vscode/mcp.json, MCP Host's user mcp.json) and the one Claude Code, Copilot CLI and VS Code 1.140's Add Server
// share (`mcpServers`, no inputs: a folder's .mcp.json, ~/.copilot/mcp-config.json). An entry moves as text: its
// comments with it (into a file that takes comments), its strings translated where the formats write a variable
// differently, every other key as written. What the target cannot hold keeps the entry where it is, with the reason.
// Before anything is written, both files are read again as MCP Host reads them: the moved server must read the same
// in the target as in the source, and every other server of both files as before. Loaded with the command.
import { isDeepStrictEqual } from 'node:util';
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { appendMember, appendMemberText, formattingOf, hasComments, indentUnit, lineIndent, memberBlock, removeMember, withoutComments } from './jsoncMembers';
import { emptyConfig, McpJsonWriteError, parseRoot, serversKey } from './mcpJsonWriter';
import type { ParsedConfig, RawServer, VariableDialect } from './serverDefinition';
import { variablesIn, type VariableOccurrence } from './variableSyntax';

/** One file of a move: its text (empty: no file yet), its format, and how a message names it. */
export interface ConfigText {
  text: string;
  format: VariableDialect;
  where: string;
}

/** A name that a file read before the target defines: the moved server would not run from the target. */
export interface ShadowingName {
  name: string;
  where: string;
}

/**
 * What a move reads with: MCP Host's parser, handed in (the extension's lazy code keeps no second copy of the one its
 * activation side has), and the names files read before the target define.
 */
export interface MigrationContext {
  parse(text: string, format: VariableDialect): ParsedConfig;
  shadowing?: ShadowingName[];
}

export type MoveResult = { ok: true; source: string; target: string; notes: string[] } | { ok: false; reason: string };

/** Copilot CLI's other names for a type (VS Code's format knows only stdio, http and sse). */
const TYPE_ALIASES: Record<string, string> = { local: 'stdio', 'streamable-http': 'http', streamableHttp: 'http' };
/** A name an mcpServers file reads as an environment variable: `${NAME}`, `${NAME:-default}`. */
const SHELL_STYLE = /^[A-Za-z_][A-Za-z0-9_]*(:-.*)?$/s;
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const FORMAT_NAME: Record<VariableDialect, string> = { vscode: "VS Code's format", mcpServers: 'the mcpServers format' };

interface Translation {
  /** Replacements in the file's text: [offset, offset + length) becomes `text`. */
  edits: { offset: number; length: number; text: string }[];
  refusals: string[];
  notes: string[];
}

/**
 * How an entry (its value node in `text`) is written in the other format: each string's variables as that format
 * writes them, Copilot CLI's type names as VS Code's. What has no equivalent is refused, with the reason.
 */
function translate(value: Node, from: VariableDialect, to: VariableDialect, target: string): Translation {
  const t: Translation = { edits: [], refusals: [], notes: [] };
  if (from === to || value.type !== 'object') return t;
  const inputs = new Set<string>();
  const refuse = (why: string) => t.refusals.includes(why) || t.refusals.push(why);
  const translateVariable = (v: VariableOccurrence): string => {
    const ref = v.ref;
    if (ref.kind === 'input') {
      inputs.add(ref.id);
      return v.text;
    }
    if (to === 'mcpServers') {
      if (ref.kind === 'env' && SHELL_NAME.test(ref.name)) return `\${${ref.name}}`;
      // VS Code leaves it unresolved; the other format would read an environment variable of that name.
      if (ref.kind === 'unsupported' && SHELL_STYLE.test(ref.name)) refuse(`${v.text} would read as an environment variable in ${target}`);
      return v.text;
    }
    if (ref.kind === 'env' && !v.text.startsWith('${env:')) {
      if (ref.fallback) refuse(`${v.text} has a default, which ${FORMAT_NAME.vscode} cannot write`);
      return `\${env:${ref.name}}`;
    }
    return v.text;
  };
  const walk = (node: Node): void => {
    if (node.type === 'string') {
      const text = node.value as string;
      let out = '';
      let last = 0;
      for (const v of variablesIn(text, from)) {
        out += text.slice(last, v.index) + translateVariable(v);
        last = v.index + v.text.length;
      }
      out += text.slice(last);
      if (out !== text) t.edits.push({ offset: node.offset, length: node.length, text: JSON.stringify(out) });
    } else if (node.type === 'object') {
      for (const property of node.children ?? []) if (property.children?.[1]) walk(property.children[1]);
    } else if (node.type === 'array') (node.children ?? []).forEach(walk);
  };
  walk(value);
  const key = (name: string) => findNodeAtLocation(value, [name]);
  if (inputs.size) {
    const ids = [...inputs].map((id) => `\${input:${id}}`).join(', ');
    refuse(`it asks for values (${ids}), which ${target} cannot hold: VS Code's format keeps them in secret storage, asked once, and the other format has no inputs (as environment variables, each would have to be set by you)`);
  }
  const type = key('type');
  if (to === 'vscode' && type?.type === 'string' && Object.hasOwn(TYPE_ALIASES, type.value)) t.edits.push({ offset: type.offset, length: type.length, text: JSON.stringify(TYPE_ALIASES[type.value]) });
  if (to === 'mcpServers') {
    if (key('sandboxEnabled')?.value === true) refuse(`it runs confined ("sandboxEnabled"): Claude Code and Copilot CLI, which read ${target} too, would run it unconfined, and the file's "sandbox" rules have no place there`);
    for (const name of ['envFile', 'dev']) if (key(name)) t.notes.push(`"${name}" is read there by MCP Host, not by Claude Code or Copilot CLI`);
  } else if (key('headersHelper')) t.notes.push('"headersHelper" is run there by MCP Host, not by VS Code');
  return t;
}

/** An entry's value in the other format (an install written into that format), or why it cannot be written there. */
export function translateEntry(entry: object, from: VariableDialect, to: VariableDialect, target: string): { ok: true; entry: Record<string, unknown>; notes: string[] } | { ok: false; reasons: string[] } {
  const text = JSON.stringify(entry);
  const t = translate(parseTree(text)!, from, to, target);
  if (t.refusals.length) return { ok: false, reasons: t.refusals };
  return { ok: true, entry: JSON.parse(applyEdits(text, t.edits, 0)) as Record<string, unknown>, notes: t.notes };
}

function applyEdits(text: string, edits: Translation['edits'], base: number): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset - base) + e.text + out.slice(e.offset - base + e.length);
  return out;
}

/**
 * A server as MCP Host runs it, its variables by what they mean rather than how they are written: `${env:X}` in VS
 * Code's format and `${X}` in the other are the same variable. (VS Code's format has no required variable: an unset
 * one is empty there, and stops the start in the other format; README: Migrate Configuration.)
 */
function meaning(server: RawServer, dialect: VariableDialect): unknown {
  const text = (s: string) => {
    let out = '';
    let last = 0;
    for (const v of variablesIn(s, dialect)) {
      const r = v.ref;
      const token = r.kind === 'input' ? `input:${r.id}` : r.kind === 'env' ? `env:${r.name}${r.fallback ? `:-${r.fallback}` : ''}` : r.kind === 'config' || r.kind === 'unsupported' ? `${r.kind}:${r.name}` : r.kind;
      out += `${s.slice(last, v.index)}\u0000{${token}}`;
      last = v.index + v.text.length;
    }
    return out + s.slice(last);
  };
  const walk = (v: unknown): unknown =>
    typeof v === 'string' ? text(v) : Array.isArray(v) ? v.map(walk) : typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x === undefined ? [] : [[k, walk(x)]]))) : v;
  return walk(server);
}

const othersRead = (parsed: ParsedConfig, dialect: VariableDialect, except: string) =>
  parsed.servers.filter((s) => s.name !== except).map((s) => [s.name, meaning(s.server, dialect)]);

/** `rel` with its indentation converted from one unit to the other (tabs to spaces, four spaces to two, …). */
function reindent(line: string, from: string, to: string): string {
  if (from === to) return line;
  const ws = /^[ \t]*/.exec(line)![0];
  let rest = ws;
  let levels = 0;
  while (rest.startsWith(from)) {
    rest = rest.slice(from.length);
    levels++;
  }
  return to.repeat(levels) + rest + line.slice(ws.length);
}

/**
 * Moves the server `name` from `source` into `target`: the new texts of both, or why it stays. Nothing is
 * overwritten: a name the target has (or that `shadowing` names) stays where it is.
 */
export function moveServer(source: ConfigText, target: ConfigText, name: string, context: MigrationContext): MoveResult {
  const fail = (reason: string): MoveResult => ({ ok: false, reason });
  const parse = (text: string, format: VariableDialect) => context.parse(text, format);
  const parsed = parse(source.text, source.format);
  if (parsed.syntaxBroken) return fail(`${source.where} has syntax errors: fix them first`);
  const entry = parsed.servers.find((s) => s.name === name);
  if (!entry) return fail(parsed.rejectedServers.includes(name) ? `it has errors in ${source.where}: fix them first` : `${source.where} has no server of that name`);
  const sourceContainer = findNodeAtLocation(parseTree(source.text, [], { allowTrailingComma: true })!, [serversKey(source.format)])!;
  const members = sourceContainer.children ?? [];
  const index = members.findIndex((p) => p.children?.[0]?.value === name);
  if (members.filter((p) => p.children?.[0]?.value === name).length > 1) return fail(`it is defined more than once in ${source.where}: keep one first`);

  let targetText = target.text.trim() === '' ? emptyConfig(target.format) : target.text;
  let targetRoot: Node;
  try {
    targetRoot = parseRoot(targetText);
  } catch (e) {
    if (!(e instanceof McpJsonWriteError)) throw e;
    return fail(`${target.where}: ${e.message}`);
  }
  const key = serversKey(target.format);
  let container = findNodeAtLocation(targetRoot, [key]);
  if (container && container.type !== 'object') return fail(`"${key}" in ${target.where} is not an object`);
  if (container?.children?.some((p) => p.children?.[0]?.value === name)) return fail(`${target.where} has a server of that name already (nothing is overwritten)`);
  const shadow = context.shadowing?.find((s) => s.name === name);
  if (shadow) return fail(`${shadow.where} has a server of that name too, which would run instead of it`);
  if (entry.server.type === 'stdio' && entry.server.sandboxEnabled && target.format === 'vscode' && findNodeAtLocation(targetRoot, ['sandbox'])) {
    return fail(`it runs confined with the default rules: the "sandbox" rules of ${target.where} would apply to it there`);
  }

  const block = memberBlock(source.text, sourceContainer, index);
  const value = block.property.children![1];
  const t = translate(value, source.format, target.format, target.where);
  if (t.refusals.length) return fail(t.refusals.join('; '));

  // The entry as text: its comments with it where the target takes comments (a file of the other format only when it
  // has some already: Claude Code and Copilot CLI may read it as plain JSON).
  const original = source.text.slice(value.offset, value.offset + value.length);
  const comments = target.format === 'vscode' || hasComments(targetText);
  const written = applyEdits(original, t.edits, value.offset);
  const base = lineIndent(source.text, block.property.offset);
  // VS Code's format is read with trailing commas; the other, at most with comments.
  const entryText = target.format === 'vscode' ? written : withoutComments(written, comments);
  const parts = [...(comments ? block.leading.map((c) => base + c) : []), `${base}${JSON.stringify(name)}: ${entryText}${comments && block.trailing ? ` ${block.trailing}` : ''}`];
  const [fromUnit, toUnit] = [indentUnit(formattingOf(source.text)), indentUnit(formattingOf(targetText))];
  const body = parts
    .join('\n')
    .split(/\r?\n/)
    .map((line) => reindent(line.startsWith(base) ? line.slice(base.length) : line.trimStart(), fromUnit, toUnit))
    .join('\n');
  if (!container) {
    targetText = appendMember(targetText, targetRoot, `${JSON.stringify(key)}: `, {}, toUnit);
    container = findNodeAtLocation(parseRoot(targetText), [key])!;
  }
  const newTarget = appendMemberText(targetText, container, body);
  const newSource = removeMember(source.text, sourceContainer, index);

  // Read back as MCP Host reads them: the server the same, every other one of both files as before.
  const before = parse(targetText, target.format);
  const after = parse(newTarget, target.format);
  const moved = after.servers.find((s) => s.name === name);
  const sourceAfter = parse(newSource, source.format);
  const same =
    moved &&
    !after.syntaxBroken &&
    !sourceAfter.syntaxBroken &&
    isDeepStrictEqual(meaning(moved.server, target.format), meaning(entry.server, source.format)) &&
    isDeepStrictEqual(othersRead(after, target.format, name), othersRead(before, target.format, name)) &&
    isDeepStrictEqual(othersRead(sourceAfter, source.format, name), othersRead(parsed, source.format, name)) &&
    !sourceAfter.servers.some((s) => s.name === name) &&
    isDeepStrictEqual(sourceAfter.inputs, parsed.inputs);
  if (!same) return fail(`it would not read the same from ${target.where}`);
  const notes = [...t.notes];
  if (!comments && (block.leading.length || block.trailing || hasComments(original))) notes.push(`its comments were not copied: ${target.where} has none, and Claude Code reads it as plain JSON`);
  return { ok: true, source: newSource, target: newTarget, notes };
}

/** Each server of `source`: whether it can move into `target`, and why not. */
export function migrationCandidates(source: ConfigText, target: ConfigText, context: MigrationContext): { name: string; reason?: string; notes: string[] }[] {
  const parsed = context.parse(source.text, source.format);
  if (parsed.syntaxBroken) return [];
  return [...parsed.servers.map((s) => s.name), ...parsed.rejectedServers].map((name) => {
    const r = moveServer(source, target, name, context);
    return r.ok ? { name, notes: r.notes } : { name, reason: r.reason, notes: [] };
  });
}

/** Moves each of `names` in turn: the texts of both files after every move that could be made, and what stayed and why. */
export function migrateServers(source: ConfigText, target: ConfigText, names: string[], context: MigrationContext) {
  let [from, to] = [source.text, target.text];
  const moved: { name: string; notes: string[] }[] = [];
  const stayed: { name: string; reason: string }[] = [];
  for (const name of names) {
    const r = moveServer({ ...source, text: from }, { ...target, text: to }, name, context);
    if (!r.ok) stayed.push({ name, reason: r.reason });
    else {
      [from, to] = [r.source, r.target];
      moved.push({ name, notes: r.notes });
    }
  }
  return { source: from, target: to, moved, stayed };
}
