// The paths git's own settings send it to: `core.hooksPath` (the hooks it runs, `.githooks` in many repositories) and
// `include.path` / `includeIf.*.path` (more settings). Read from a repository's config and the user's global ones,
// includes followed: what they name is obeyed like `.git/config` itself. The parser reads keys and values only, in
// one linear pass (no pattern over a whole line).
import * as fs from 'fs';
import * as path from 'path';

/** One setting: `section[.subsection].name` (section and name lowercased, as git compares them) and its value. */
export interface GitSetting {
  key: string;
  value: string;
}

/** The most config files read for one repository (includes included). */
const MAX_FILES = 32;
const KEY_CHAR = /^[A-Za-z0-9-]$/;

function sectionOf(header: string): string {
  const h = header.trim();
  const quote = h.indexOf('"');
  if (quote < 0) return h.toLowerCase();
  const sub = h.slice(quote + 1, h.lastIndexOf('"') > quote ? h.lastIndexOf('"') : h.length).replace(/\\(.)/g, '$1');
  return `${h.slice(0, quote).trim().toLowerCase()}.${sub}`;
}

/** A value from `at` (after the `=`) to its line's end: quotes, escapes and continued lines as git reads them. */
function valueAt(text: string, at: number): [string, number] {
  let value = '';
  let kept = 0;
  let quoted = false;
  let i = at;
  for (; i < text.length && text[i] !== '\n'; i++) {
    const c = text[i];
    if (c === '\\') {
      const next = text[i + 1] ?? '';
      i++;
      if (next === '\n') continue;
      if (next === '\r' && text[i + 1] === '\n') {
        i++;
        continue;
      }
      value += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '\b' : next;
      kept = value.length;
    } else if (c === '"') {
      quoted = !quoted;
      kept = value.length;
    } else if (!quoted && (c === '#' || c === ';')) {
      while (i < text.length && text[i] !== '\n') i++;
      break;
    } else if (!quoted && (c === ' ' || c === '\t' || c === '\r')) {
      if (value) value += c;
    } else {
      value += c;
      kept = value.length;
    }
  }
  return [value.slice(0, kept), i];
}

/** The settings of a git config file's text. */
export function gitSettings(text: string): GitSetting[] {
  const out: GitSetting[] = [];
  let section = '';
  let i = 0;
  const skipLine = () => {
    while (i < text.length && text[i] !== '\n') i++;
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\n' || c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '#' || c === ';') skipLine();
    else if (c === '[') {
      const end = text.indexOf(']', i);
      if (end < 0) break;
      section = sectionOf(text.slice(i + 1, end));
      i = end + 1;
    } else {
      const start = i;
      while (i < text.length && KEY_CHAR.test(text[i])) i++;
      if (i === start) {
        skipLine();
        continue;
      }
      const name = text.slice(start, i).toLowerCase();
      while (text[i] === ' ' || text[i] === '\t') i++;
      let value = 'true';
      if (text[i] === '=') [value, i] = valueAt(text, i + 1);
      else skipLine();
      out.push({ key: `${section}.${name}`, value });
    }
  }
  return out;
}

const isInclude = (key: string) => key === 'include.path' || (key.startsWith('includeif.') && key.endsWith('.path'));
const expand = (value: string, base: string, home: string) => path.resolve(base, value === '~' || value.startsWith('~/') ? home + value.slice(1) : value);

/**
 * What git obeys beyond the repository's `.git` for the repository whose work tree is `worktree`: the hooks folders
 * `core.hooksPath` names (relative to the work tree) and every file its config includes, read from `configFiles`
 * (the repository's own, then the user's global ones) and what they include.
 */
export function gitNamedPaths(worktree: string, configFiles: readonly string[], home: string): string[] {
  const out = new Set<string>();
  const pending = [...configFiles];
  const read = new Set<string>();
  while (pending.length && read.size < MAX_FILES) {
    const file = pending.shift()!;
    if (read.has(file)) continue;
    read.add(file);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const { key, value } of gitSettings(text)) {
      if (!value) continue;
      if (key === 'core.hookspath') out.add(expand(value, worktree, home));
      else if (isInclude(key)) {
        const included = expand(value, path.dirname(file), home);
        out.add(included);
        pending.push(included);
      }
    }
  }
  return [...out];
}

/** The user's global git config files, as git finds them in this environment (system, global, XDG). */
export function globalGitConfigs(home: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const xdg = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return [env.GIT_CONFIG_SYSTEM || '/etc/gitconfig', env.GIT_CONFIG_GLOBAL || path.join(home, '.gitconfig'), path.join(xdg, 'git', 'config')];
}
