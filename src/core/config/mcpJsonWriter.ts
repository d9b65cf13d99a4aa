// Adds (or replaces) one server and its inputs in an mcp.json's text, as an edit: comments, formatting and every other
// entry stay as they were. A new member is inserted as text after the last one (jsonc-parser's `modify` would reformat
// the line it lands on, and move a trailing comment); a replaced entry is `modify`'s edit of its value alone. Both
// formats: VS Code's (`servers` and `inputs`) and the one Claude Code and Copilot CLI share (`mcpServers`, no inputs),
// whose entries the caller has written in that format (../config/configMigration.lazy translates them).
import { applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree, type Node, type ParseError } from 'jsonc-parser';
import { appendMember, formattingOf, indentUnit, removeMember } from './jsoncMembers';
import type { InputDefinition, VariableDialect } from './serverDefinition';

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

/** The key a format lists its servers under. */
export const serversKey = (format: VariableDialect): 'servers' | 'mcpServers' => (format === 'mcpServers' ? 'mcpServers' : 'servers');

/** The file's root object, parsed; its syntax errors and a root that is not an object are refused with what to do. */
export function parseRoot(text: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, allowEmptyContent: true });
  if (errors.length) throw new McpJsonWriteError('The file has syntax errors; fix them first.');
  if (!root || root.type !== 'object') throw new McpJsonWriteError('The file is not a JSON object.');
  return root;
}

/** A new file of the format: its servers key and nothing else. */
export const emptyConfig = (format: VariableDialect): string => `{\n  "${serversKey(format)}": {}\n}\n`;

const sameInput = (a: unknown, b: InputDefinition): boolean => {
  if (typeof a !== 'object' || a === null) return false;
  const o = a as Record<string, unknown>;
  if (o.type !== b.type) return false;
  if (b.type === 'promptString') return (o.password === true) === b.password;
  if (b.type === 'command') return o.command === b.command && JSON.stringify(o.args) === JSON.stringify(b.args);
  return JSON.stringify(o.options) === JSON.stringify(b.options);
};

/**
 * Writes `plan` into the text of an mcp.json (empty text: a new file). `key` defaults to the plan's name. In the
 * `mcpServers` format, which has no inputs, a plan with inputs is refused.
 */
export function writeServer(text: string, plan: ServerToWrite, key = plan.name, format: VariableDialect = 'vscode'): WriteResult {
  const serversName = serversKey(format);
  if (format === 'mcpServers' && plan.inputs.length) throw new McpJsonWriteError(`This format has no "inputs": ${plan.name} asks for values (${plan.inputs.map((i) => i.id).join(', ')}) that only VS Code's format can hold.`);
  let source = text.trim() === '' ? emptyConfig(format) : text;
  const root = parseRoot(source);
  const servers = findNodeAtLocation(root, [serversName]);
  if (servers && servers.type !== 'object') throw new McpJsonWriteError(`"${serversName}" is not an object.`);
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

  const formattingOptions = formattingOf(source);
  const unit = indentUnit(formattingOptions);
  const reparse = () => parseTree(source, [], { allowTrailingComma: true })!;
  if (replaced) {
    source = applyEdits(source, modify(source, [serversName, key], entry, { formattingOptions }));
  } else if (servers) {
    source = appendMember(source, servers, `${JSON.stringify(key)}: `, entry, unit);
  } else {
    source = appendMember(source, root, `${JSON.stringify(serversName)}: `, { [key]: entry }, unit);
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

/**
 * The text without the server `name` (and the comment lines just above it, and the comment after it on its line);
 * every other line as it was. Its inputs stay: other servers may use them, and their stored values with them.
 */
export function removeServer(text: string, name: string, format: VariableDialect = 'vscode'): string {
  const servers = findNodeAtLocation(parseRoot(text), [serversKey(format)]);
  const index = servers?.type === 'object' ? (servers.children ?? []).findIndex((p) => p.children?.[0]?.value === name) : -1;
  if (!servers || index < 0) throw new McpJsonWriteError(`There is no server "${name}" in the file.`);
  return removeMember(text, servers, index);
}
