// Completion where a server's name goes in mcp.json (a key of "servers"), or in an mcpServers file (.mcp.json,
// ~/.copilot/mcp-config.json: a key of "mcpServers"): well-known servers, each a whole entry with its name. Offered
// only while a name is being typed (inside its quotes) or when asked for (Ctrl+Space), never after
// the name or in a value, so Enter typed for a new line never takes one. Pure; loaded on demand (it loads on the
// first completion). The VS Code side (src/vscode/config/mcpJsonCompletion.ts) turns these into completion items.
import { getLocation, visit } from 'jsonc-parser';
import type { VariableDialect } from './serverDefinition';

export interface ServerNameCompletion {
  /** The server's name, also what the item is filtered by. */
  label: string;
  /** What it runs, in one line. */
  detail: string;
  /** The entry as a snippet (tab stops `${1:…}`), without the trailing comma. */
  snippet: string;
  /** Where the text goes: the typed (quoted) name it replaces, or an empty range at the cursor. */
  replace: { start: number; end: number };
}

interface WellKnown {
  name: string;
  detail: string;
  server: Record<string, unknown>;
}

const npx = (pkg: string, ...rest: string[]) => ({ command: 'npx', args: ['-y', pkg, ...rest] });
const uvx = (pkg: string, ...rest: string[]) => ({ command: 'uvx', args: [pkg, ...rest] });

/** Servers a newcomer is likely to want, started the way their READMEs say. */
export const WELL_KNOWN_SERVERS: readonly WellKnown[] = [
  { name: 'everything', detail: 'npx @modelcontextprotocol/server-everything: the reference server, tools, prompts and resources of every kind', server: npx('@modelcontextprotocol/server-everything') },
  { name: 'filesystem', detail: 'npx @modelcontextprotocol/server-filesystem: the files of this folder', server: npx('@modelcontextprotocol/server-filesystem', '${workspaceFolder}') },
  { name: 'memory', detail: 'npx @modelcontextprotocol/server-memory: a knowledge graph kept across chats', server: npx('@modelcontextprotocol/server-memory') },
  { name: 'sequential-thinking', detail: 'npx @modelcontextprotocol/server-sequential-thinking: step-by-step problem solving', server: npx('@modelcontextprotocol/server-sequential-thinking') },
  { name: 'fetch', detail: 'uvx mcp-server-fetch: web pages as Markdown (needs uv)', server: uvx('mcp-server-fetch') },
  { name: 'git', detail: "uvx mcp-server-git: this folder's git repository (needs uv)", server: uvx('mcp-server-git', '--repository', '${workspaceFolder}') },
  { name: 'time', detail: 'uvx mcp-server-time: the time and time zones (needs uv)', server: uvx('mcp-server-time') },
  { name: 'playwright', detail: 'npx @playwright/mcp: a browser the model can drive', server: npx('@playwright/mcp@latest') },
  { name: 'github', detail: "GitHub's remote MCP server over Streamable HTTP, with sign-in", server: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' } },
];

/** Larger files get no suggestions (the scan below reads the whole text). */
const MAX_TEXT = 1_000_000;

/** `$`, `}` and `\` are special in a snippet. */
const snippetText = (text: string) => text.replace(/[$}\\]/g, (c) => `\\${c}`);

/** An entry as a snippet: the name is the first tab stop, the rest as written, indented for its line. */
export function entrySnippet(name: string, server: object, indent: string): string {
  const body = JSON.stringify(server, null, 2)
    .split('\n')
    .map((line, i) => (i === 0 ? line : indent + line))
    .join('\n');
  return `"\${1:${snippetText(name)}}": ${snippetText(body)}$0`;
}

/** Where a server's name is being typed: what is typed so far, the range a completion replaces, and how to write one. */
export interface ServerNameContext {
  /** The name typed so far, without its quotes ('' when asked for at an empty place). */
  typed: string;
  replace: { start: number; end: number };
  /** The indentation of the name's line. */
  indent: string;
  /** ',' when another entry follows, so that a new one needs a comma after it. */
  comma: string;
  /** The names already in the file. */
  existing: Set<string>;
  /** The file's format, by the key its servers are under: what an entry may hold there. */
  format: VariableDialect;
}

const FORMAT_OF_KEY: Record<string, VariableDialect> = { servers: 'vscode', mcpServers: 'mcpServers' };

/**
 * The name being typed when `offset` is inside the quotes of a server's name, or where a name goes and the user asked
 * for completion (`invoked`); undefined elsewhere, and for a name that already has its value.
 */
export function serverNameContext(text: string, offset: number, invoked = false): ServerNameContext | undefined {
  if (text.length > MAX_TEXT) return undefined;
  const location = getLocation(text, offset);
  const key = location.path[0];
  if (location.path.length !== 2 || typeof key !== 'string' || !Object.hasOwn(FORMAT_OF_KEY, key) || !location.isAtPropertyKey) return undefined;
  const format = FORMAT_OF_KEY[key];
  const typed = location.previousNode?.type === 'property' || location.previousNode?.type === 'string' ? location.previousNode : undefined;
  if (typed) {
    const end = typed.offset + typed.length;
    const closed = typed.length > 1 && text[end - 1] === '"';
    const inside = offset > typed.offset && (offset < end || !closed);
    // After the closing quote, or a name that already has its value: the user is past naming.
    if (!inside || /^\s*:/.test(text.slice(end))) return undefined;
  } else if (!invoked) return undefined;
  const replace = typed ? { start: typed.offset, end: typed.offset + typed.length } : { start: offset, end: offset };
  const lineStart = text.lastIndexOf('\n', replace.start - 1) + 1;
  return {
    typed: text.slice(replace.start, offset).replace(/^"/, ''),
    replace,
    indent: /^[ \t]*/.exec(text.slice(lineStart))![0],
    comma: /^\s*"/.test(text.slice(replace.end)) ? ',' : '',
    existing: serverNames(text),
    format,
  };
}

/** Well-known servers where a server's name is being typed (see serverNameContext), those in the file left out. */
export function serverNameCompletions(text: string, offset: number, invoked = false): ServerNameCompletion[] {
  const at = serverNameContext(text, offset, invoked);
  if (!at) return [];
  return WELL_KNOWN_SERVERS.filter((w) => !at.existing.has(w.name)).map((w) => ({
    label: w.name,
    detail: w.detail,
    snippet: entrySnippet(w.name, w.server, at.indent) + at.comma,
    replace: at.replace,
  }));
}

/** The names of the servers in the file, read tolerantly (a half-typed entry does not hide the others). */
function serverNames(text: string): Set<string> {
  const names = new Set<string>();
  visit(text, {
    onObjectProperty(property, _offset, _length, _line, _character, pathSupplier) {
      const at = pathSupplier();
      if (at.length === 1 && (at[0] === 'servers' || at[0] === 'mcpServers')) names.add(property);
    },
  });
  // After a half-typed entry the parser loses the entries that follow: any `"name": {` counts too (a nested key such as
  // "env" is no well-known server's name).
  for (const m of text.matchAll(/"([\w.-]{1,100})"\s*:\s*\{/g)) names.add(m[1]);
  return names;
}
