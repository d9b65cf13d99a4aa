// What Python imports from the working directory: with `-m` or `-c` (and no -I, -P or safe path) the working directory
// comes first on sys.path, for every import the program makes, not only the module `-m` names (`python3 -m calendar`
// runs ./argparse.py). So the question names the module `-m` names when the directory has it, and the directory itself
// with every module it holds, vouched for by their contents: one added or changed later is asked about again.
import * as fs from 'fs';
import * as path from 'path';
import { createHash } from 'crypto';
import type { PlannedRunnerFile } from '../../config/launchPlan';
import { LaunchPlanError } from './launchPlanError.lazy';

const PYTHONS = /^python(\d+(\.\d+)?)?w?$/;
/** The modules of one directory read for the question: more is refused as too many to be vouched for. */
const MAX_MODULES = 1000;
const MAX_MODULE_BYTES = 64 * 1024 * 1024;

export const runnerName = (command: string) => path.basename(command).replace(/\.(cmd|exe|bat|ps1)$/i, '').toLowerCase();

/** How python is started: the module `-m` names, or `-c`; undefined when the working directory is not on sys.path. */
export function pythonStart(args: readonly string[], env: Readonly<Record<string, string>>): { module?: string; code?: true } | undefined {
  let ignoreEnvironment = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--' || !arg.startsWith('-') || arg === '-') return undefined;
    if (arg.startsWith('--')) {
      if (arg === '--check-hash-based-pycs') i++;
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const flag = arg[j];
      // Isolated and safe-path modes leave the working directory off sys.path; -E (and -I) ignore PYTHONSAFEPATH.
      if (flag === 'I' || flag === 'P') return undefined;
      if (flag === 'E') ignoreEnvironment = true;
      const safe = !ignoreEnvironment && !!env.PYTHONSAFEPATH;
      if (flag === 'c') return safe ? undefined : { code: true };
      if (flag === 'm') {
        if (safe) return undefined;
        const module = (arg.slice(j + 1) || args[i + 1] || '').split('.')[0];
        return module ? { module } : undefined;
      }
      if (flag === 'W' || flag === 'X') {
        if (j === arg.length - 1) i++;
        break;
      }
    }
  }
  return undefined;
}

/** `uv run`'s options that take a value (the value is not the program). */
const UV_VALUE_OPTIONS = /^--(with|with-editable|with-requirements|python|directory|project|env-file|index|index-url|extra-index-url|default-index|find-links|group|extra|package|script|config-file|cache-dir)$|^-[pw]$/;

/** The python arguments of a command and where python runs: python's own, or after `uv run` (`--module`, `--directory`). */
export function pythonArgs(command: string, args: readonly string[], cwd: string): { args: readonly string[]; cwd: string } | undefined {
  const runner = runnerName(command);
  if (PYTHONS.test(runner)) return { args, cwd };
  if (runner !== 'uv' || args[0] !== 'run') return undefined;
  let dir = cwd;
  for (let i = 1; i < args.length; i++) {
    const arg = args[i];
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name === '-m' || name === '--module') return { args: ['-m', ...(inline !== undefined ? [inline] : []), ...args.slice(i + 1)], cwd: dir };
    if (arg.startsWith('-m') && !arg.startsWith('--')) return { args: args.slice(i), cwd: dir };
    if (name === '--directory') dir = path.resolve(dir, inline ?? args[i + 1] ?? '');
    if (UV_VALUE_OPTIONS.test(name)) {
      if (inline === undefined) i++;
      continue;
    }
    if (arg === '--') continue;
    if (!arg.startsWith('-')) return PYTHONS.test(runnerName(arg)) ? { args: args.slice(i + 1), cwd: dir } : undefined;
  }
  return undefined;
}

/** A module file or package of a directory: what `import <name>` finds there. */
function moduleName(entry: fs.Dirent, dir: string): string | undefined {
  if (entry.isDirectory() || (entry.isSymbolicLink() && isDirectory(path.join(dir, entry.name)))) return fs.existsSync(path.join(dir, entry.name, '__init__.py')) || fs.existsSync(path.join(dir, entry.name, '__init__.pyc')) ? entry.name : undefined;
  const m = /^([^.]+)(\.[^.]+)*\.(py|pyc|pyw|so|pyd)$/.exec(entry.name);
  return m ? m[1] : undefined;
}

/** The file that stands for a module found there (a package's `__init__.py`), for its digest. */
const moduleFile = (entry: fs.Dirent, dir: string): string => {
  const file = path.join(dir, entry.name);
  if (!isDirectory(file)) return file;
  const init = path.join(file, '__init__.py');
  return fs.existsSync(init) ? init : path.join(file, '__init__.pyc');
};

/** What python imports from its working directory first: the module `-m` names, and every module the directory holds. */
export function pythonImports(command: string, args: readonly string[], cwd: string, env: Readonly<Record<string, string>>, reader: string): PlannedRunnerFile[] {
  const python = pythonArgs(command, args, cwd);
  const start = python && pythonStart(python.args, env);
  if (!python || !start) return [];
  const dir = python.cwd;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() || e.isDirectory() || e.isSymbolicLink());
  } catch {
    return [];
  }
  const modules = entries
    .map((e) => ({ entry: e, name: moduleName(e, dir) }))
    .filter((m): m is { entry: fs.Dirent; name: string } => m.name !== undefined)
    .sort((a, b) => (a.entry.name < b.entry.name ? -1 : 1));
  const files: PlannedRunnerFile[] = [];
  // The module -m names may also be a folder without __init__.py (a namespace package), found when none is installed.
  const named = start.module !== undefined ? (modules.find((m) => m.name === start.module)?.entry ?? entries.find((e) => e.name === start.module && isDirectory(path.join(dir, e.name)))) : undefined;
  if (named) files.push({ path: path.join(dir, named.name), reader, kind: 'module', settings: [], module: start.module });
  if (!modules.length) return files;
  if (modules.length > MAX_MODULES) throw new LaunchPlanError(`The working directory ${dir} holds over ${MAX_MODULES} Python modules, which ${reader} imports before installed ones: too many to be shown in the question.`);
  const digest = createHash('sha256');
  for (const m of modules) digest.update(`${m.entry.name}\0${contentDigest(moduleFile(m.entry, dir))}\0`);
  files.push({ path: dir, reader, kind: 'imports', settings: modules.map((m) => m.entry.name), sha256: digest.digest('hex') });
  return files;
}

const isDirectory = (p: string): boolean => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};

function contentDigest(file: string): string {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return 'not a regular file';
    if (stat.size > MAX_MODULE_BYTES) throw new LaunchPlanError(`The Python module ${file} is over ${MAX_MODULE_BYTES / 1024 / 1024} MB: too large to be vouched for by its contents.`);
    return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch (e) {
    if (e instanceof LaunchPlanError) throw e;
    return 'unreadable';
  }
}
