// The project settings a runner reads before it decides what to run: a repository's `.npmrc` with `registry=` makes
// `npx -y <pkg>` fetch the attacker's package, a `.yarnrc.yml` `yarnPath` runs a file of the repository, a `uv.toml`
// or `pyproject.toml [tool.uv]` names another package index. Found from the working directory up (the folders above
// the home folder, and the home folder itself, hold the user's own settings: not listed), read capped, each setting
// shown in the trust question and part of the plan's identity: a file added or changed later is asked about again.
// And `python -m <module>`: Python imports the module from the working directory first, the repository's copy.
import * as fs from 'fs';
import * as path from 'path';
import { createHash } from 'crypto';
import type { PlannedRunnerFile } from '../../config/launchPlan';
import { LaunchPlanError } from './launchPlanError.lazy';
import { inside } from './pathInside.lazy';

/** The settings files each runner reads from its project folder (and the folders above it). */
const SETTINGS_FILES: Record<string, readonly string[] | undefined> = {
  npx: ['.npmrc'],
  npm: ['.npmrc'],
  pnpm: ['.npmrc', 'pnpm-workspace.yaml'],
  pnpx: ['.npmrc', 'pnpm-workspace.yaml'],
  yarn: ['.yarnrc.yml', '.yarnrc', '.npmrc'],
  bun: ['bunfig.toml', '.npmrc'],
  bunx: ['bunfig.toml', '.npmrc'],
  uv: ['uv.toml', 'pyproject.toml'],
  uvx: ['uv.toml', 'pyproject.toml'],
};
const PYTHONS = /^python(\d+(\.\d+)?)?$/;
/** What is read of a settings file (a pyproject.toml may be larger: only its `[tool.uv]` part counts). */
const MAX_SETTINGS_BYTES = 64 * 1024;
const MAX_PYPROJECT_BYTES = 1024 * 1024;
/** A file a setting names to be run (`yarnPath`): vouched for by its contents, read whole up to this size. */
const MAX_RUN_BYTES = 64 * 1024 * 1024;
const MAX_DEPTH = 64;
const MASK = '••••••';

export const runnerName = (command: string) => path.basename(command).replace(/\.(cmd|exe|bat|ps1)$/i, '').toLowerCase();

/** How a file's lines split into key and value: `key=value` (.npmrc, TOML), `key: value` (YAML), `key value` (.yarnrc). */
const SEPARATOR: Record<string, RegExp> = { '.yarnrc.yml': /:(\s|$)/, 'pnpm-workspace.yaml': /:(\s|$)/, '.yarnrc': /\s/ };
const CREDENTIAL_KEY = /auth|token|password|passwd|secret|credential/i;

/** A setting's value masked when its key names a credential; a URL's password masked anywhere. */
function maskedSetting(line: string, separator: RegExp): string {
  const shown = line.replace(/(:\/\/[^\s/:@]*:)[^\s/@]+@/g, `$1${MASK}@`);
  const at = separator.exec(shown);
  if (!at || !CREDENTIAL_KEY.test(shown.slice(0, at.index))) return shown;
  const valueAt = at.index + at[0].length;
  return shown.slice(valueAt).trim() ? `${shown.slice(0, valueAt)}${MASK}` : shown;
}

/** The lines of a settings file that set something (comments and blank lines aside), secrets masked. */
function settingLines(text: string, comment: RegExp, separator: RegExp = /=/): string[] {
  return text
    .split(/\r\n?|\n/)
    .map((l) => l.trim())
    .filter((l) => l && !comment.test(l))
    .map((l) => maskedSetting(l, separator));
}

const tomlHeader = (line: string) => /^\[\[?([^\]]*)\]\]?/.exec(line)?.[1].replace(/["'\s]/g, '');

/** A pyproject.toml's uv settings: its `[tool.uv…]` tables, and `uv` keys of `[tool]` or dotted ones at the top. */
function uvSettingsOfPyproject(text: string): string[] {
  let table: string | undefined = '';
  const lines: string[] = [];
  for (const line of settingLines(text, /^#/)) {
    const header = tomlHeader(line);
    if (header !== undefined) {
      table = header;
      if (header === 'tool.uv' || header.startsWith('tool.uv.')) lines.push(line);
      continue;
    }
    const key = line.replace(/["'\s]/g, '');
    if (table === 'tool.uv' || table.startsWith('tool.uv.') || (table === 'tool' && /^uv[.=]/.test(key)) || (table === '' && /^tool(\.uv[.=]|=)/.test(key))) lines.push(line);
  }
  return lines;
}

const digestOf = (file: string): string => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Reads one settings file as the question shows it; undefined when it does not exist (or sets nothing the runner reads). */
function readSettings(file: string, name: string, runner: string): PlannedRunnerFile | undefined {
  let link: string | undefined;
  try {
    if (fs.lstatSync(file).isSymbolicLink()) link = fs.realpathSync(file);
  } catch {
    // No such file; or a dangling link: the runner reads nothing there, but the link itself is said.
    return isLink(file) ? { path: file, reader: runner, kind: 'settings', settings: [], note: 'a link to a file that does not exist' } : undefined;
  }
  const target = link ?? file;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    return { path: file, reader: runner, kind: 'settings', settings: [], note: 'unreadable' };
  }
  const linkNote = link !== undefined ? `a link to ${link}` : undefined;
  if (!stat.isFile()) return { path: file, reader: runner, kind: 'settings', settings: [], note: `${linkNote ? `${linkNote}, ` : ''}not a regular file` };
  const cap = name === 'pyproject.toml' ? MAX_PYPROJECT_BYTES : MAX_SETTINGS_BYTES;
  if (stat.size > cap) throw new LaunchPlanError(`The ${runner} settings file ${file} is over ${cap / 1024} KB: too large to be shown in the question before ${runner} reads it.`);
  const text = fs.readFileSync(target, 'utf8');
  const settings = name === 'pyproject.toml' ? uvSettingsOfPyproject(text) : settingLines(text, /^[#;]/, SEPARATOR[name]);
  if (name === 'pyproject.toml' && !settings.length) return undefined;
  return { path: file, reader: runner, kind: 'settings', settings, ...(linkNote ? { note: linkNote } : {}), ...runsFile(name, settings, path.dirname(file)) };
}

const isLink = (file: string): boolean => {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
};

/** Yarn's `yarnPath` (`yarn-path` of a classic .yarnrc) runs that file instead of the yarn installed: its contents count. */
function runsFile(name: string, settings: readonly string[], dir: string): Pick<PlannedRunnerFile, 'runs'> {
  if (name !== '.yarnrc.yml' && name !== '.yarnrc') return {};
  const line = settings.find((l) => /^["']?yarn-?path["']?\s*[:= ]/i.test(l));
  const value = line?.replace(/^["']?yarn-?path["']?\s*[:=]?\s*/i, '').replace(/^["'](.*)["']$/, '$1');
  if (!value) return {};
  const file = path.resolve(dir, value);
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return { runs: { path: file, sha256: 'not a regular file' } };
    if (stat.size > MAX_RUN_BYTES) throw new LaunchPlanError(`The file ${file} that yarnPath runs is over ${MAX_RUN_BYTES / 1024 / 1024} MB: too large to be vouched for by its contents.`);
    return { runs: { path: file, sha256: digestOf(file) } };
  } catch (e) {
    if (e instanceof LaunchPlanError) throw e;
    return { runs: { path: file, sha256: 'missing' } };
  }
}

/** The folders a runner looks in: the working directory and up, stopping at the home folder (the user's own settings). */
function projectFolders(cwd: string, home: string | undefined): string[] {
  const folders: string[] = [];
  let dir = path.resolve(cwd);
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (home && inside(dir, home)) break;
    folders.push(dir);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return folders;
}

/** The module `python -m <module>` names (the first part: what is looked up on sys.path), unless -I, -P or -c apply. */
export function pythonModule(args: readonly string[], env: Readonly<Record<string, string>>): string | undefined {
  if (env.PYTHONSAFEPATH) return undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--' || !arg.startsWith('-') || arg === '-') return undefined;
    if (arg.startsWith('--')) {
      if (arg === '--check-hash-based-pycs') i++;
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const flag = arg[j];
      // Isolated and safe-path modes leave the working directory off sys.path.
      if (flag === 'I' || flag === 'P' || flag === 'c') return undefined;
      if (flag === 'm') return (arg.slice(j + 1) || args[i + 1] || '').split('.')[0] || undefined;
      if (flag === 'W' || flag === 'X') {
        if (j === arg.length - 1) i++;
        break;
      }
    }
  }
  return undefined;
}

/** The python arguments of a command: python's own, or those after `uv run` (`uv run -m x`, `uv run python -m x`). */
function pythonArgs(command: string, args: readonly string[]): readonly string[] | undefined {
  const runner = runnerName(command);
  if (PYTHONS.test(runner)) return args;
  if (runner !== 'uv' || args[0] !== 'run') return undefined;
  const rest = args.slice(1);
  const program = rest.findIndex((a) => !a.startsWith('-') && PYTHONS.test(runnerName(a)));
  const module = rest.indexOf('-m');
  if (module >= 0 && (program < 0 || module < program)) return rest.slice(module);
  return program >= 0 ? rest.slice(program + 1) : undefined;
}

/** What `-m <module>` would import from the working directory (a package folder, a .py, a compiled module). */
function localModule(module: string, cwd: string, reader: string): PlannedRunnerFile | undefined {
  if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(module)) return undefined;
  let names: string[] = [];
  try {
    names = fs.readdirSync(cwd);
  } catch {
    return undefined;
  }
  const found = names.filter((n) => n === module || n === `${module}.py` || n === `${module}.pyc` || (n.startsWith(`${module}.`) && /\.(so|pyd)$/.test(n))).sort();
  return found.length ? { path: path.join(cwd, found[0]), reader, kind: 'module', settings: [], module } : undefined;
}

/** Every project file that decides what this command's runner or interpreter runs, in the order the question lists them. */
export function runnerFiles(command: string, args: readonly string[], cwd: string | undefined, env: Readonly<Record<string, string>>, home: string | undefined): PlannedRunnerFile[] {
  if (!cwd) return [];
  const runner = runnerName(command);
  const files: PlannedRunnerFile[] = [];
  const names = SETTINGS_FILES[runner] ?? [];
  if (names.length) {
    for (const dir of projectFolders(cwd, home)) {
      for (const name of names) {
        const found = readSettings(path.join(dir, name), name, runner);
        if (found) files.push(found);
      }
    }
  }
  const python = pythonArgs(command, args);
  const module = python && pythonModule(python, env);
  const copy = module ? localModule(module, path.resolve(cwd), runner === 'uv' ? 'uv run' : runner) : undefined;
  if (copy) files.push(copy);
  return files;
}
