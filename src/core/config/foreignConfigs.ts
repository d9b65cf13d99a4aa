// Other tools' MCP configurations, read for "MCP: Import Servers…": Claude Desktop, Cursor (~/.cursor/mcp.json and a
// folder's .cursor/mcp.json), Claude Code (~/.claude.json: its user servers and those of the open folders) and VS Code's
// user mcp.json. Each server becomes an entry of ours. Their files often hold keys written out: a literal value of a
// header, or of an environment variable whose name says key, token, secret or password, is not copied — it becomes a
// password input, entered once at the first start — so no secret lands in a workspace's (committed) mcp.json.
import * as os from 'node:os';
import * as path from 'node:path';
import { parse, type ParseError } from 'jsonc-parser';
import { variablesIn } from './variableSyntax';
import type { InputDefinition, ParsedConfig, RawServer, VariableDialect } from './serverDefinition';

export type ForeignKind = 'claudeDesktop' | 'cursor' | 'claudeCode' | 'vscode';

export interface ForeignSource {
  kind: ForeignKind;
  /** e.g. "Claude Desktop", "Cursor (my-app)". */
  label: string;
  path: string;
  /** A workspace folder's own file (its .cursor/mcp.json): the repository's words, never imported into the user's file. */
  inWorkspace?: boolean;
}

/** One server found in another tool's file, ready to write (or why it cannot be). */
export interface ImportCandidate {
  source: ForeignSource;
  name: string;
  entry?: Record<string, unknown>;
  inputs: InputDefinition[];
  problem?: string;
}

const MAX_SERVERS = 200;

/** VS Code's user data folder (`…/Code/User`). */
export function vscodeUserDir(env: NodeJS.ProcessEnv, platform = process.platform, home = os.homedir()): string {
  const base =
    platform === 'win32'
      ? path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Code')
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support', 'Code')
        : path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Code');
  return path.join(base, 'User');
}

/** Where each tool keeps its servers, for this user and these workspace folders (whether or not the files exist). */
export function foreignConfigSources(options: { env: NodeJS.ProcessEnv; platform?: NodeJS.Platform; home?: string; folders: { name: string; path: string }[] }): ForeignSource[] {
  const { env, folders } = options;
  const platform = options.platform ?? process.platform;
  const home = options.home ?? os.homedir();
  const claudeDesktop =
    platform === 'win32'
      ? path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json')
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')
        : path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Claude', 'claude_desktop_config.json');
  return [
    { kind: 'claudeDesktop', label: 'Claude Desktop', path: claudeDesktop },
    { kind: 'cursor', label: 'Cursor', path: path.join(home, '.cursor', 'mcp.json') },
    ...folders.map((f): ForeignSource => ({ kind: 'cursor', label: `Cursor (${f.name})`, path: path.join(f.path, '.cursor', 'mcp.json'), inWorkspace: true })),
    { kind: 'claudeCode', label: 'Claude Code', path: path.join(home, '.claude.json') },
    { kind: 'vscode', label: 'VS Code', path: path.join(vscodeUserDir(env, platform, home), 'mcp.json') },
  ];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const SECRET_NAME = /key|token|secret|password|passwd|pass|auth|credential|cookie/i;
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'value';

/**
 * Claude Code's and Cursor's `${NAME}` are environment variables: ours are `${env:NAME}`. A `${NAME:-default}` has no
 * equivalent (VS Code's format cannot write a default, and dropping it would run the server with an empty value where
 * the other host used the default): it is reported to `refuse`, as Migrate Configuration does. The names both formats
 * share (`${workspaceFolder}`, `${userHome}`, …) stay as they are.
 */
const envVariablesOf = (value: string, refuse: (why: string) => void): string => {
  let out = '';
  let last = 0;
  for (const v of variablesIn(value, 'mcpServers')) {
    if (v.ref.kind !== 'env' || v.text.startsWith('${env:')) continue;
    if (v.ref.fallback !== undefined) refuse(`${v.text} has a default, which VS Code's format cannot write`);
    out += `${value.slice(last, v.index)}\${env:${v.ref.name}}`;
    last = v.index + v.text.length;
  }
  return out + value.slice(last);
};

/** Reads one file's servers; `folders` picks Claude Code's per-project servers. */
/**
 * Our own parser, handed in: the extension reads with the copy its activation side already has (the lazy code,
 * which imports, keeps no second one).
 */
export interface ConfigModel {
  /** `format`: VS Code's (the default) or `mcpServers`. */
  parse(text: string, format?: VariableDialect): ParsedConfig;
  referencedInputIds(server: RawServer): string[];
}

export function readForeignConfig(text: string, source: ForeignSource, config: ConfigModel, folders: string[] = []): { candidates: ImportCandidate[]; error?: string } {
  if (source.kind === 'vscode') return readVsCode(text, source, config);
  const errors: ParseError[] = [];
  const root = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length || !isObject(root)) return { candidates: [], error: `${source.path} is not a JSON object.` };
  const groups: Record<string, unknown>[] = [];
  if (isObject(root.mcpServers)) groups.push(root.mcpServers);
  if (source.kind === 'claudeCode' && isObject(root.projects)) {
    for (const folder of folders) {
      const project = root.projects[folder];
      if (isObject(project) && isObject(project.mcpServers)) groups.push(project.mcpServers);
    }
  }
  const candidates: ImportCandidate[] = [];
  for (const group of groups) {
    for (const [name, value] of Object.entries(group).slice(0, MAX_SERVERS)) {
      if (candidates.some((c) => c.name === name)) continue;
      candidates.push(convert(source, name, value));
    }
  }
  return { candidates };
}

function convert(source: ForeignSource, name: string, value: unknown): ImportCandidate {
  const fail = (problem: string): ImportCandidate => ({ source, name, inputs: [], problem });
  if (!isObject(value)) return fail('it is not an object');
  const refusals: string[] = [];
  const envVariables = (text: string) => envVariablesOf(text, (why) => refusals.includes(why) || refusals.push(why));
  const done = (candidate: ImportCandidate): ImportCandidate => (refusals.length ? fail(refusals.join('; ')) : candidate);
  if (value.disabled === true) return fail('it is disabled there');
  const inputs: InputDefinition[] = [];
  const secret = (key: string, what: string): string => {
    const id = `${slug(name)}-${slug(key)}`;
    if (!inputs.some((i) => i.id === id)) inputs.push({ type: 'promptString', id, description: `${what} for ${name} (not copied from ${source.label})`, password: true });
    return `\${input:${id}}`;
  };
  const strings = (v: unknown): string[] | undefined => {
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) return undefined;
    return (v as string[]).map(envVariables);
  };
  const map = (v: unknown, isSecret: (key: string, value: string) => boolean, what: string): Record<string, string> | undefined => {
    if (v === undefined) return {};
    if (!isObject(v)) return undefined;
    const out: Record<string, string> = {};
    for (const [k, raw] of Object.entries(v)) {
      if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
      const text = envVariables(String(raw));
      // Written out (not a variable) and secret by its name: entered once instead of copied.
      out[k] = !text.includes('${') && text !== '' && isSecret(k, text) ? secret(k, `${what} ${k}`) : text;
    }
    return out;
  };
  const type = typeof value.type === 'string' ? value.type : undefined;
  // Windsurf's (and Antigravity's) remote servers have a `serverUrl`.
  const url = typeof value.url === 'string' ? value.url : typeof value.serverUrl === 'string' ? value.serverUrl : undefined;
  if (url !== undefined || type === 'http' || type === 'sse' || type === 'streamable-http') {
    if (url === undefined || !/^https?:\/\//i.test(url)) return fail('it has no http or https "url"');
    const headers = map(value.headers, () => true, 'Header');
    if (!headers) return fail('"headers" is not an object of strings');
    return done({ source, name, inputs, entry: { type: type === 'sse' ? 'sse' : 'http', url: envVariables(url), ...(Object.keys(headers).length ? { headers } : {}) } });
  }
  if (typeof value.command !== 'string' || value.command.trim() === '') return fail('it has neither a "command" nor a "url"');
  const args = strings(value.args);
  if (!args) return fail('"args" is not a list of strings');
  const env = map(value.env, (k) => SECRET_NAME.test(k), 'Environment variable');
  if (!env) return fail('"env" is not an object of strings');
  const cwd = typeof value.cwd === 'string' ? { cwd: envVariables(value.cwd) } : {};
  return done({ source, name, inputs, entry: { type: 'stdio', command: envVariables(value.command), args, ...(Object.keys(env).length ? { env } : {}), ...cwd } });
}

/** VS Code's own format: read by our parser; each entry with the inputs it uses. */
function readVsCode(text: string, source: ForeignSource, config: ConfigModel): { candidates: ImportCandidate[]; error?: string } {
  const parsed = config.parse(text);
  if (parsed.syntaxBroken) return { candidates: [], error: `${source.path} has syntax errors.` };
  const candidates = parsed.servers.slice(0, MAX_SERVERS).map((s): ImportCandidate => {
    const used = new Set(config.referencedInputIds(s.server));
    // A confined server's rules (its file's block) go with it, as its own: the target's block is other servers' too.
    const entry: Record<string, unknown> = { ...s.server };
    if (s.server.type === 'stdio' && Object.keys(s.server.env).length === 0) delete entry.env;
    if (s.server.type === 'stdio' && s.server.sandbox && !Object.values({ ...s.server.sandbox.filesystem, ...s.server.sandbox.network }).some((l) => l.length)) delete entry.sandbox;
    if (s.server.type !== 'stdio' && Object.keys(s.server.headers).length === 0) delete entry.headers;
    return { source, name: s.name, entry, inputs: parsed.inputs.filter((i) => used.has(i.id)) };
  });
  for (const name of parsed.rejectedServers) candidates.push({ source, name, inputs: [], problem: 'it has errors in that file' });
  return { candidates };
}
