// How a runner's settings file is shown in the trust question: every line that sets something, with only the value of
// a key that itself names a credential masked (never the rest of the line: a flow mapping or an array holds more than
// one setting). And the `[tool.uv]` part of a pyproject.toml, read as TOML reads it (escapes, multi-line strings and
// values), so no line of it is hidden or shown under another table.

const MASK = '••••••';
export const CREDENTIAL_KEY = /auth|token|password|passwd|secret|credential/i;

/** The shown lines of a settings file, and whether a mask hid anything (then the file's contents count, not the lines). */
export interface ShownSettings {
  readonly lines: string[];
  readonly masked: boolean;
}

/** A key names a credential by its own last part: `//host/:_authToken` does, `@auth0:registry` (a scope's registry) does not. */
const namesCredential = (key: string): boolean => CREDENTIAL_KEY.test(key.replace(/^["']|["']$/g, '').split(/[.:/]/).pop() ?? '');
const maskUrlPasswords = (line: string) => line.replace(/(:\/\/[^\s/:@]*:)[^\s/@]+@/g, `$1${MASK}@`);

/** `key=value` files (.npmrc, .corepack.env) and `key value` (.yarnrc): the value runs to the end of the line. */
function maskedLineSetting(line: string, separator: RegExp): string {
  const at = separator.exec(line);
  if (!at || !namesCredential(line.slice(0, at.index).trim())) return line;
  const valueAt = at.index + at[0].length;
  return line.slice(valueAt).trim() ? `${line.slice(0, valueAt)}${MASK}` : line;
}

// A key as TOML and YAML write it (quoted, or bare), and a value up to the end of its item in a flow mapping or array.
const KEY = String.raw`"(?:[^"\\]|\\.)*"|'[^']*'|[^\s"'{}\[\],=#:&*]+(?::[^\s"'{}\[\],=#:]+)*`;
const ITEM_VALUE = String.raw`(?:&[^\s,{}\[\]]+\s+)?(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,{}\[\]\s][^,{}\[\]]*)`;

/** TOML and YAML lines: each `key = value` / `key: value`, also inside `{ … }` and `[ … ]`, judged on its own key. */
function maskedStructuredSetting(line: string, yaml: boolean): string {
  const sep = yaml ? String.raw`\s*:(?=\s)\s*` : String.raw`\s*=\s*`;
  const top = new RegExp(`^(${KEY})(${sep})(.*)$`).exec(line);
  if (top && !/^[{[]/.test(top[3])) return namesCredential(top[1]) && top[3].trim() ? `${top[1]}${top[2]}${MASK}` : line;
  // A flow mapping or inline table: every pair in it.
  return line.replace(new RegExp(`(^|[{,]\\s*)(${KEY})(${sep})(${ITEM_VALUE})`, 'g'), (whole, before: string, key: string, between: string) =>
    namesCredential(key) ? `${before}${key}${between}${MASK}` : whole,
  );
}

/** A YAML alias (`*r`) shown with the value its anchor (`&r`) gave, wherever that anchor is (on a masked key too). */
function yamlAnchors(lines: readonly string[]): Map<string, string> {
  const anchors = new Map<string, string>();
  for (const line of lines) {
    for (const m of line.matchAll(/&([^\s,{}[\]]+)\s+("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,{}[\]\s][^,{}[\]]*)/g)) anchors.set(m[1], maskUrlPasswords(m[2].trim()));
  }
  return anchors;
}

export type SettingsSyntax = 'line' | 'toml' | 'yaml';

/** The lines of a settings file that set something (comments and blank lines aside), credential values masked. */
export function settingLines(text: string, comment: RegExp, syntax: SettingsSyntax, separator: RegExp = /=/): ShownSettings {
  const written = text
    .split(/\r\n?|\n/)
    .map((l) => l.trim())
    .filter((l) => l && !comment.test(l));
  const anchors = syntax === 'yaml' ? yamlAnchors(written) : undefined;
  let masked = false;
  const lines = written.map((l) => {
    const urlMasked = maskUrlPasswords(l);
    const shown = syntax === 'line' ? maskedLineSetting(urlMasked, separator) : maskedStructuredSetting(urlMasked, syntax === 'yaml');
    if (shown !== l) masked = true;
    if (!anchors?.size) return shown;
    return shown.replace(/(^|[\s,[{])\*([^\s,{}[\]]+)/g, (whole, before: string, name: string) => (anchors.has(name) ? `${before}*${name} (= ${anchors.get(name)})` : whole));
  });
  return { lines, masked };
}

const BASIC_ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b', '"': '"', '\\': '\\' };
const unescapeBasic = (s: string) => s.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|.)/g, (_, e: string) => (e.length > 1 ? String.fromCodePoint(parseInt(e.slice(1), 16)) : BASIC_ESCAPES[e] ?? e));

/** The parts of a TOML dotted key at the start of `text` (`tool."\u0075v"` is tool, uv), and where it ends. */
function tomlKey(text: string): { parts: string[]; end: number } | undefined {
  const part = /\s*(?:([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(\.?)/y;
  const parts: string[] = [];
  let at = 0;
  for (;;) {
    part.lastIndex = at;
    const m = part.exec(text);
    if (!m) return parts.length ? { parts, end: at } : undefined;
    parts.push(m[1] ?? (m[2] !== undefined ? unescapeBasic(m[2]) : m[3]));
    at = part.lastIndex;
    if (!m[4]) return { parts, end: at };
  }
}

/** Where a line leaves TOML's strings and brackets: a multi-line string still open, and how deep in a value it is. */
interface TomlState {
  open: '"""' | "'''" | undefined;
  depth: number;
}
function scanToml(line: string, state: TomlState): void {
  for (let i = 0; i < line.length; i++) {
    if (state.open) {
      if (state.open === '"""' && line[i] === '\\') i++;
      else if (line.startsWith(state.open, i)) {
        // A closing delimiter may be followed by up to two more quotes that belong to the string.
        let end = i + 3;
        while (line[end] === state.open[0] && end < i + 5) end++;
        state.open = undefined;
        i = end - 1;
      }
      continue;
    }
    const c = line[i];
    if (c === '#') return;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      state.open = line.startsWith('"""', i) ? '"""' : "'''";
      i += 2;
    } else if (c === '"' || c === "'") {
      for (i++; i < line.length && line[i] !== c; i++) if (c === '"' && line[i] === '\\') i++;
    } else if (c === '[' || c === '{') state.depth++;
    else if ((c === ']' || c === '}') && state.depth > 0) state.depth--;
  }
}

const isUv = (parts: readonly string[]) => parts[0] === 'tool' && (parts.length === 1 || parts[1] === 'uv');

/** A pyproject.toml's uv settings: its `[tool.uv…]` tables, and `uv` keys of `[tool]` or dotted ones at the top. */
export function uvSettingsOfPyproject(text: string): ShownSettings {
  let table: string[] = [];
  let current = false;
  let masked = false;
  const state: TomlState = { open: undefined, depth: 0 };
  const lines: string[] = [];
  const push = (line: string) => {
    const shown = maskedStructuredSetting(maskUrlPasswords(line), false);
    if (shown !== line) masked = true;
    lines.push(shown);
  };
  for (const raw of text.split(/\r\n?|\n/)) {
    const line = raw.trim();
    // Inside a multi-line string or value: part of the setting that opened it.
    const continued = state.open !== undefined || state.depth > 0;
    if (!continued && line.startsWith('[')) {
      const key = tomlKey(line.slice(line.startsWith('[[') ? 2 : 1));
      table = key?.parts ?? [];
      current = false;
      if (isUv(table) && table.length > 1) push(line);
    } else if (!continued && line && !line.startsWith('#')) {
      const key = tomlKey(line);
      const full = [...table, ...(key?.parts ?? [])];
      // `[tool] uv = {…}`, `tool.uv.x = …`, or `tool = { uv = … }` at the top.
      current = (table.length >= 2 && isUv(table)) || (full.length >= 1 && isUv(full));
      if (current) push(line);
    } else if (continued && current && line) push(line);
    scanToml(line, state);
  }
  return { lines, masked };
}
