// The project settings a runner reads before it decides what to run: a repository's `.npmrc` with `registry=` makes
// `npx -y <pkg>` fetch the attacker's package, a `.yarnrc.yml` `yarnPath` runs a file of the repository, a `uv.toml`
// or `pyproject.toml [tool.uv]` names another package index, a package.json's `packageManager` URL is what corepack
// downloads and runs. Found from the working directory up, the real one (the folders above the home folder, and the
// home folder itself, hold the user's own settings: not listed), plus the files the server's own environment points
// the runner to (NPM_CONFIG_USERCONFIG, HOME, UV_CONFIG_FILE, YARN_RC_FILENAME, COREPACK_ENV_FILE, …). Read capped,
// each setting shown in the trust question and part of the plan's identity: a file added or changed later is asked
// about again. And what `python -m` / `-c` imports from the working directory (pythonImports).
import * as fs from 'fs';
import * as path from 'path';
import { createHash } from 'crypto';
import type { PlannedRunnerFile } from '../../config/launchPlan';
import { LaunchPlanError } from './launchPlanError.lazy';
import { inside } from './pathInside.lazy';
import { settingLines, uvSettingsOfPyproject, type ShownSettings } from './settingsText.lazy';
import { pythonArgs, pythonImports, runnerName } from './pythonImports.lazy';

export { runnerName } from './pythonImports.lazy';

const NPM = ['.npmrc', 'package.json'];
const COREPACK = ['.corepack.env', 'package.json'];
/** The settings files each runner reads from its project folder (and the folders above it). */
const SETTINGS_FILES: Record<string, readonly string[] | undefined> = {
  npx: NPM,
  npm: NPM,
  pnpm: ['.npmrc', 'pnpm-workspace.yaml', ...COREPACK],
  pnpx: ['.npmrc', 'pnpm-workspace.yaml', ...COREPACK],
  yarn: ['.yarnrc.yml', '.yarnrc', '.npmrc', ...COREPACK],
  bun: ['bunfig.toml', '.npmrc'],
  bunx: ['bunfig.toml', '.npmrc'],
  deno: ['.npmrc'],
  uv: ['uv.toml', 'pyproject.toml'],
  uvx: ['uv.toml', 'pyproject.toml'],
  // pip reads no project file, only the one its environment names (or the user's, under a HOME the entry sets).
  pipx: ['pip.conf'],
  pip: ['pip.conf'],
  pip3: ['pip.conf'],
};
/** Files a runner reads only where its environment points, never from its project folder. */
const NOT_IN_PROJECT = new Set(['pip.conf']);
/** What is read of a settings file (a pyproject.toml or package.json may be larger: only a part of it counts). */
const MAX_SETTINGS_BYTES = 64 * 1024;
const MAX_PROJECT_BYTES = 1024 * 1024;
/** A file a setting names to be run (`yarnPath`): vouched for by its contents, read whole up to this size. */
const MAX_RUN_BYTES = 64 * 1024 * 1024;
const MAX_DEPTH = 64;

/** How each file is read: its syntax (and for `key value` files, the separator). */
function shownSettings(name: string, text: string): ShownSettings | undefined {
  if (name === 'pyproject.toml') return uvSettingsOfPyproject(text);
  if (name === 'package.json') return packageManager(text);
  if (name.endsWith('.toml')) return settingLines(text, /^#/, 'toml');
  if (name.endsWith('.yml') || name.endsWith('.yaml')) return settingLines(text, /^#/, 'yaml');
  return settingLines(text, /^[#;]/, 'line', name === '.yarnrc' ? /\s/ : /=/);
}

/** Corepack runs the package manager a package.json names: a plain `yarn@4.1.0` is the registry's; a URL is a file from anywhere. */
function packageManager(text: string): ShownSettings | undefined {
  let value: unknown;
  try {
    value = (JSON.parse(text) as { packageManager?: unknown } | null)?.packageManager;
  } catch {
    return undefined;
  }
  if (typeof value !== 'string' || /^(npm|pnpm|yarn)@\d+\.\d+\.\d+[\w.+-]*$/.test(value)) return undefined;
  return { lines: [`"packageManager": ${JSON.stringify(value)}`], masked: false };
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
  const cap = name === 'pyproject.toml' || name === 'package.json' ? MAX_PROJECT_BYTES : MAX_SETTINGS_BYTES;
  if (stat.size > cap) throw new LaunchPlanError(`The ${runner} settings file ${file} is over ${cap / 1024} KB: too large to be shown in the question before ${runner} reads it.`);
  const text = fs.readFileSync(target, 'utf8');
  const shown = shownSettings(name, text);
  if (!shown || ((name === 'pyproject.toml' || name === 'package.json') && !shown.lines.length)) return undefined;
  const settings = shown.lines;
  // A masked value still counts: the file's real contents are the identity (a masked registry changed is asked about again).
  const sha256 = shown.masked ? createHash('sha256').update(text).digest('hex') : undefined;
  return { path: file, reader: runner, kind: 'settings', settings, ...(linkNote ? { note: linkNote } : {}), ...(sha256 ? { sha256 } : {}), ...runsFile(name, settings, path.dirname(file)) };
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

const realPath = (p: string): string => {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
};

/**
 * The folders a runner looks in: the working directory and up, stopping at the home folder (the user's own settings).
 * The runner walks up from the real directory (the process's working directory is the link's target); the written
 * one is walked too.
 */
function projectFolders(cwd: string, home: string | undefined): string[] {
  const homes = home ? [path.resolve(home), realPath(home)] : [];
  const folders: string[] = [];
  for (const start of new Set([realPath(path.resolve(cwd)), path.resolve(cwd)])) {
    let dir = start;
    for (let depth = 0; depth < MAX_DEPTH; depth++) {
      if (homes.some((h) => inside(dir, h))) break;
      if (!folders.includes(dir)) folders.push(dir);
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return folders;
}

/** `env [-i] [-u NAME] [-C DIR] [-S …] [NAME=VALUE…] program args`: the program it runs, where, with what environment. */
interface Start {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
}
function unwrapEnv(start: Start): Start | undefined {
  let { command, args, cwd, env } = start;
  for (let depth = 0; runnerName(command) === 'env' && depth < 8; depth++) {
    env = { ...env };
    const rest = [...args];
    let i = 0;
    for (; i < rest.length; i++) {
      const a = rest[i];
      const long = /^--(\w[\w-]*)=(.*)$/.exec(a);
      if (a === '-i' || a === '-' || a === '--ignore-environment') env = {};
      else if (a === '-u' || a === '--unset' || long?.[1] === 'unset') delete env[long ? long[2] : rest[++i] ?? ''];
      else if (a === '-C' || a === '--chdir' || long?.[1] === 'chdir') cwd = path.resolve(cwd, long ? long[2] : rest[++i] ?? '');
      else if (a === '-S' || a === '--split-string' || long?.[1] === 'split-string') rest.splice(i + 1, long ? 0 : 1, ...(long ? long[2] : rest[i + 1] ?? '').split(/\s+/).filter(Boolean));
      else if (a === '--') {
        i++;
        break;
      } else if (a.startsWith('-')) continue;
      else if (/^[^=]+=/.test(a)) env[a.slice(0, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
      else break;
    }
    if (i >= rest.length) return undefined;
    command = rest[i];
    args = rest.slice(i + 1);
  }
  return { command, args, cwd, env };
}

/** The settings files the server's own environment points its runner to (a value the host's environment does not have). */
function filesNamedByEnvironment(names: readonly string[], start: Start, hostEnv: Readonly<Record<string, string | undefined>> | undefined, home: string | undefined): { file: string; name: string }[] {
  const { env, cwd } = start;
  // npm reads its config variables in any case (npm_config_x, NPM_CONFIG_X).
  const value = (name: string): string | undefined => {
    const key = Object.keys(env).find((k) => k.toLowerCase() === name.toLowerCase());
    if (key === undefined || !env[key]) return undefined;
    const own = hostEnv ? hostEnv[key] === env[key] : name === 'HOME' && home !== undefined && path.resolve(env[key]) === path.resolve(home);
    return own ? undefined : path.resolve(cwd, env[key]);
  };
  const files: { file: string; name: string }[] = [];
  const add = (file: string | undefined, name: string) => file && files.push({ file, name });
  const newHome = value('HOME');
  const xdg = value('XDG_CONFIG_HOME');
  if (names.includes('.npmrc')) {
    add(value('npm_config_userconfig') ?? (newHome && path.join(newHome, '.npmrc')), '.npmrc');
    add(value('npm_config_globalconfig') ?? (value('npm_config_prefix') && path.join(value('npm_config_prefix')!, 'etc', 'npmrc')), '.npmrc');
  }
  if (names.includes('.yarnrc.yml') && newHome) add(path.join(newHome, env.YARN_RC_FILENAME || '.yarnrc.yml'), '.yarnrc.yml');
  if (names.includes('bunfig.toml')) add((xdg ?? newHome) && path.join((xdg ?? newHome)!, '.bunfig.toml'), 'bunfig.toml');
  if (names.includes('uv.toml')) add(value('UV_CONFIG_FILE') ?? (xdg ? path.join(xdg, 'uv', 'uv.toml') : newHome && path.join(newHome, '.config', 'uv', 'uv.toml')), 'uv.toml');
  if (names.includes('.corepack.env')) add(value('COREPACK_ENV_FILE'), '.corepack.env');
  if (names.includes('pip.conf')) {
    const named = value('PIP_CONFIG_FILE');
    add(named, 'pip.conf');
    // pip still reads the user's files when the one PIP_CONFIG_FILE names does not exist (macOS: under Library first).
    if (!named || !fs.existsSync(named)) {
      add((xdg ?? (newHome && path.join(newHome, '.config'))) && path.join((xdg ?? path.join(newHome!, '.config'))!, 'pip', 'pip.conf'), 'pip.conf');
      add(newHome && path.join(newHome, '.pip', 'pip.conf'), 'pip.conf');
      add(newHome && path.join(newHome, 'Library', 'Application Support', 'pip', 'pip.conf'), 'pip.conf');
    }
  }
  return files;
}

/** `python -m pip` / `python -m pipx` (also after `uv run`): pip's settings files count as for `pip` / `pipx`. */
function pythonModuleRunner(start: Start): string | undefined {
  const args = pythonArgs(start.command, start.args, start.cwd)?.args ?? [];
  // python's own flags (-I, -E, -P too: pip reads PIP_CONFIG_FILE whatever they say) up to `-m <module>`.
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--' || arg === '-' || !arg.startsWith('-')) return undefined;
    if (arg.startsWith('--')) {
      if (arg === '--check-hash-based-pycs') i++;
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      if (arg[j] === 'c') return undefined;
      if (arg[j] === 'm') {
        const module = (arg.slice(j + 1) || args[i + 1] || '').split('.')[0];
        return module === 'pip' || module === 'pipx' ? module : undefined;
      }
      if (arg[j] === 'W' || arg[j] === 'X') {
        if (j === arg.length - 1) i++;
        break;
      }
    }
  }
  return undefined;
}

/** Every project file that decides what this command's runner or interpreter runs, in the order the question lists them. */
export function runnerFiles(command: string, args: readonly string[], cwd: string | undefined, env: Readonly<Record<string, string>>, home: string | undefined, hostEnv?: Readonly<Record<string, string | undefined>>): PlannedRunnerFile[] {
  if (!cwd) return [];
  const start = unwrapEnv({ command, args, cwd: path.resolve(cwd), env: { ...env } });
  if (!start) return [];
  const runner = runnerName(start.command);
  const pipModule = pythonModuleRunner(start);
  // What reads each file: `python -m pip` reads pip.conf as pip does.
  const reader = (name: string) => (pipModule && name === 'pip.conf' ? `python -m ${pipModule}` : runner);
  const files: PlannedRunnerFile[] = [];
  // YARN_RC_FILENAME: the name yarn looks for instead of .yarnrc.yml; COREPACK_ENV_FILE=0: no env file.
  const read = [...(SETTINGS_FILES[runner] ?? []), ...((pipModule && SETTINGS_FILES[pipModule]) || [])];
  const names = read
    .map((n) => (n === '.yarnrc.yml' && start.env.YARN_RC_FILENAME ? start.env.YARN_RC_FILENAME : n))
    .filter((n) => !(n === '.corepack.env' && start.env.COREPACK_ENV_FILE));
  if (names.length) {
    for (const dir of projectFolders(start.cwd, home)) {
      for (const name of names.filter((n) => !NOT_IN_PROJECT.has(n))) {
        const found = readSettings(path.join(dir, name), name === start.env.YARN_RC_FILENAME ? '.yarnrc.yml' : name, runner);
        if (found) files.push(found);
      }
    }
    for (const { file, name } of filesNamedByEnvironment(read, start, hostEnv, home)) {
      const found = files.some((f) => f.path === file) ? undefined : readSettings(file, name, reader(name));
      if (found) files.push(found);
    }
  }
  files.push(...pythonImports(start.command, start.args, start.cwd, start.env, runner === 'uv' ? 'uv run' : runner));
  return files;
}
