// The rule a confined server never breaks, whatever its `sandbox` block says: nothing it may write is run, loaded or
// obeyed by a program outside its sandbox. In every folder it may write, and every folder above one that it may also
// write, the files and folders git, editors, shells and package managers take settings or programs from are not
// writable (they are added to the runtime's denyWrite at each start, as they are on disk then); a folder that programs
// outside the sandbox run from (a PATH entry and the install its links lead into, a runner's own cache, the
// extension's storage, VS Code's user folder) or one that holds the home folder is never writable at all: a plan that
// would make it so is refused. The user's settings folders (hidden ones of the home folder) are never writable either.
import * as fs from 'fs';
import * as path from 'path';
import { gitNamedPaths, globalGitConfigs } from './gitConfigPaths.lazy';
import { inside, pathDirs } from './pathInside.lazy';
import { programInstalls } from './programInstalls.lazy';

export { inside };

/**
 * Files read as settings (some of them run commands) in the folder they are in: by MCP hosts, git, npm, yarn, pnpm,
 * direnv, vim. `commondir`, empty where there is none, makes git refuse the folder as a repository of its own (a bare
 * one, made of `HEAD`, `objects`, `refs` and `config` at its root).
 */
export const PROTECTED_FILES = ['.mcp.json', '.gitmodules', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', '.envrc', '.exrc', '.vimrc', '.nvimrc', '.nvim.lua', 'commondir'];
/**
 * Shell, git and ripgrep settings, read from the home folder only (which is never writable): protected where they
 * are, not made where they are not (each made one is an empty file in the folder while the server runs).
 */
export const HOME_FILES = ['.gitconfig', '.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.ripgreprc'];
/**
 * Folders of settings, tasks and hooks (editors, CI and dev containers, agents, git hooks, cargo), and of code that
 * runs unreviewed (installed packages, which git ignores: `node_modules`, and Python's `.venv`, whose `.pth` files run
 * at each start).
 */
export const PROTECTED_FOLDERS = ['.vscode', '.idea', '.github', '.devcontainer', '.claude', '.cursor', '.husky', '.cargo', 'node_modules', '.venv'];
/**
 * In a repository's `.git`, what git obeys or runs. The rest stays writable, so that a git server commits: objects,
 * refs, the index, logs, HEAD, packed refs.
 */
export const PROTECTED_GIT = { files: ['config', 'config.worktree', 'commondir', 'gitdir'], folders: ['hooks', 'info', 'modules', 'worktrees'] };
/** The user's package caches and tool folders under the home folder: unconfined runs execute what is in them. */
export const USER_RUNNER_FOLDERS = ['.npm', '.cache/uv', '.local/share/uv', '.local/share/pnpm', '.cache/pnpm', '.local/pipx', '.local/share/pipx', '.local/state/pipx', '.cache/pip', '.yarn', '.bun', '.cargo', '.deno', '.nvm', '.volta'];

/** A protected path: denied as it is, or, absent, held by an empty placeholder of that kind while the server runs. */
export interface Protected {
  path: string;
  folder: boolean;
}

export interface ProtectionContext {
  home: string;
  /** The extension's storage. */
  storage: string;
  /** The server's own package cache (in the storage), when it has one. */
  cache?: string;
  /** The PATH the user's programs run with. */
  pathValue?: string;
  /** The user's environment (git's global config, Copilot CLI's and XDG's folders). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The files other configured servers run or are given (they run unconfined). */
  runByOthers?: readonly string[];
}

/** VS Code's user folder (its settings.json, mcp.json), when the storage is the extension's global storage in it. */
export function vscodeUserFolder(storage: string): string | undefined {
  const global = path.dirname(storage);
  return path.basename(global) === 'globalStorage' ? path.dirname(global) : undefined;
}

/** Folders of settings outside the hidden ones of the home folder, named by the user's environment. */
export function settingsFolders(ctx: ProtectionContext): string[] {
  const env = ctx.env ?? {};
  // XDG_STATE_HOME holds MCP Host's own shared marks (which entries ask at their first start).
  const named = [env.COPILOT_HOME, env.XDG_CONFIG_HOME, env.XDG_STATE_HOME];
  return [path.join(ctx.home, 'Library'), ...named.filter((d): d is string => !!d && path.isAbsolute(d)).map((d) => path.resolve(d))];
}

/** Why `root` may not be writable (it holds the home folder, or programs outside the sandbox run from it); undefined: it may. */
export function writableProblem(root: string, ctx: ProtectionContext): string | undefined {
  if (inside(root, ctx.home)) return root === ctx.home ? 'it is your home folder' : 'it holds your home folder';
  if (inside(root, ctx.storage)) return "it holds the extension's storage (your mcp.json, the servers' own caches)";
  if (inside(ctx.storage, root) && !(ctx.cache && inside(ctx.cache, root))) return "it is in the extension's storage (your mcp.json, the servers' own caches)";
  const user = vscodeUserFolder(ctx.storage);
  if (user && inside(user, root)) return "it is in VS Code's user folder (your settings.json and mcp.json)";
  const onPath = pathDirs(ctx.pathValue).find((d) => inside(d, root));
  if (onPath) return `programs are run from it: ${onPath} is on your PATH`;
  const install = programInstalls(ctx.pathValue).find((d) => inside(d.path, root));
  if (install) return `programs are run from it: a program on your PATH links to ${install.path}`;
  const runner = USER_RUNNER_FOLDERS.map((f) => path.join(ctx.home, f)).find((f) => inside(f, root));
  if (runner) return `programs outside the sandbox run packages from ${runner}`;
  return undefined;
}

/**
 * Why `root` is among the user's settings (a hidden folder of the home folder, ~/Library, $COPILOT_HOME, …), which
 * no confined server writes; undefined when it is not.
 */
export function settingsProblem(root: string, ctx: ProtectionContext): string | undefined {
  if (inside(ctx.home, root) && root !== ctx.home && path.relative(ctx.home, root).startsWith('.')) return 'it is among the settings in your home folder';
  const folder = settingsFolders(ctx).find((f) => inside(f, root));
  return folder ? `it is among your settings (${folder})` : undefined;
}

const stat = (p: string): fs.Stats | undefined => {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
};
const isDirectory = (p: string): boolean => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};
const names = (dir: string): string[] => {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
};

/** Whether git would take `dir` itself for a repository (a bare one): a valid-looking HEAD, `objects` and `refs`. */
export function looksLikeGitDir(dir: string): boolean {
  if (!isDirectory(path.join(dir, 'objects')) || !isDirectory(path.join(dir, 'refs'))) return false;
  try {
    if (stat(path.join(dir, 'HEAD'))?.isSymbolicLink()) return fs.readlinkSync(path.join(dir, 'HEAD')).startsWith('refs/');
    const head = fs.readFileSync(path.join(dir, 'HEAD'), 'utf8');
    return head.startsWith('ref: refs/') || /^[0-9a-f]{40,64}\s*$/.test(head.slice(0, 80));
  } catch {
    return false;
  }
}

/**
 * git reads `commondir` if there is one (an empty one stops git), so an absent one in a `.git` cannot be held by an
 * empty placeholder: one holding `.` (this very folder, what git assumes without it) is made first, and held. It stays.
 */
function ensureCommondir(gitDir: string): void {
  try {
    fs.writeFileSync(path.join(gitDir, 'commondir'), '.\n', { flag: 'wx' });
  } catch {
    // There already, or not ours to write (then the server cannot either).
  }
}

/** What git obeys in the git folder `gitDir` of the work tree `worktree`: its settings, hooks, and what its config names. */
function gitProtected(gitDir: string, worktree: string, ctx: ProtectionContext): Protected[] {
  ensureCommondir(gitDir);
  const own = [...PROTECTED_GIT.files.map((f) => ({ path: path.join(gitDir, f), folder: false })), ...PROTECTED_GIT.folders.map((f) => ({ path: path.join(gitDir, f), folder: true }))];
  const configs = [path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree'), ...globalGitConfigs(ctx.home, ctx.env ?? {})];
  return [...own, ...gitNamedPaths(worktree, configs, ctx.home).map((p) => ({ path: p, folder: isDirectory(p) || !stat(p) }))];
}

/** The paths to deny in one folder the server may write. */
function protectedIn(dir: string, ctx: ProtectionContext): Protected[] {
  const present = names(dir);
  const files = [...PROTECTED_FILES, ...HOME_FILES.filter((f) => present.includes(f)), ...present.filter((f) => f.endsWith('.code-workspace'))];
  const out: Protected[] = files.map((f) => ({ path: path.join(dir, f), folder: false }));
  // Python environments by what makes one (any name), beside the usual `.venv`.
  const venvs = present.filter((f) => stat(path.join(dir, f, 'pyvenv.cfg'))?.isFile());
  for (const f of new Set([...PROTECTED_FOLDERS, ...venvs])) out.push({ path: path.join(dir, f), folder: true });
  // A `.git` that is no repository (none, or a placeholder: no HEAD) is denied whole: a repository it would make.
  const dotGit = path.join(dir, '.git');
  if (stat(dotGit) && !isDirectory(dotGit)) out.push({ path: dotGit, folder: false });
  else if (!stat(path.join(dotGit, 'HEAD'))) out.push({ path: dotGit, folder: true });
  else out.push(...gitProtected(dotGit, dir, ctx));
  // A folder that is itself a repository (a bare one) has its settings and hooks at its root.
  if (looksLikeGitDir(dir)) out.push(...gitProtected(dir, dir, ctx));
  return out;
}

/** The folders the rule protects for these writable roots: each root, and each folder above one that another root makes writable. */
export function protectedFolders(roots: readonly string[]): string[] {
  const real = roots.filter((r) => fs.existsSync(r)).map((r) => fs.realpathSync(r));
  const dirs = new Set<string>();
  for (const root of real) {
    for (let dir = root; ; dir = path.dirname(dir)) {
      if (real.some((r) => inside(r, dir))) dirs.add(dir);
      if (path.dirname(dir) === dir) break;
    }
  }
  return [...dirs];
}

/**
 * Every path a start must deny writing so that the rule holds, for these writable roots as the disk is now: the
 * protected names in each protected folder, and each PATH entry, install a PATH link leads into, user cache, tool or
 * settings folder inside a root. (Below a root, the runtime finds `.git/hooks`, `.git/config` and shell files of
 * repositories already there; a folder the server makes itself is its own.)
 */
export function protectedWrites(roots: readonly string[], ctx: ProtectionContext): Protected[] {
  const real = roots.filter((r) => fs.existsSync(r)).map((r) => fs.realpathSync(r));
  const out = protectedFolders(roots).flatMap((dir) => protectedIn(dir, ctx));
  // What other servers run (they run unconfined): each file that exists, as it is and where a link leads.
  for (const file of ctx.runByOthers ?? []) {
    if (!stat(file)?.isFile()) continue;
    out.push({ path: file, folder: false });
    const target = fs.realpathSync(file);
    if (target !== file) out.push({ path: target, folder: false });
  }
  const user = vscodeUserFolder(ctx.storage);
  const guarded = [...pathDirs(ctx.pathValue), ...USER_RUNNER_FOLDERS.map((f) => path.join(ctx.home, f)), ...settingsFolders(ctx), ...(user ? [user] : [])].map((g) => ({ path: g, folder: true }));
  for (const g of [...guarded, ...programInstalls(ctx.pathValue)]) if (real.some((r) => inside(r, g.path) && r !== g.path)) out.push(g);
  for (const f of globalGitConfigs(ctx.home, ctx.env ?? {})) out.push({ path: f, folder: false });
  const seen = new Set<string>();
  return out.filter((p) => real.some((r) => inside(r, p.path)) && !seen.has(p.path) && seen.add(p.path));
}

/**
 * The names an absent protected file is held by (an empty placeholder while the server runs), for the server's own
 * git to leave out of what it lists and adds: they are not its files. Also the runtime's own (shell files, .gitconfig).
 */
export const PLACEHOLDER_NAMES = [...new Set([...PROTECTED_FILES, ...HOME_FILES, 'gitdir', 'config.worktree'])];

/** Path segments that mark a protected place wherever they appear in a path (a rule inside one is refused). */
const PROTECTED_SEGMENTS = new Set(['.git', ...PROTECTED_FOLDERS]);

/**
 * Why "Allow and Restart" must not write `p` into allowWrite (undefined: it may): a rule is exactly the file refused
 * (a folder would open all it holds: other repositories' settings among them), and not one that the rule above
 * forbids, nor one among the user's settings.
 */
export function allowRuleProblem(p: string, ctx: ProtectionContext, isFile: (p: string) => boolean = (f) => stat(f)?.isFile() ?? false): string | undefined {
  if (!path.isAbsolute(p) || p !== path.resolve(p)) return 'it is not a plain absolute path';
  const writable = writableProblem(p, ctx) ?? settingsProblem(p, ctx);
  if (writable) return writable;
  const segments = p.split(path.sep);
  if (segments.some((s) => PROTECTED_SEGMENTS.has(s)) || PROTECTED_FILES.includes(path.basename(p)) || HOME_FILES.includes(path.basename(p)) || p.endsWith('.code-workspace')) return 'programs outside the sandbox take settings or run programs from there';
  if (isDirectory(p)) return 'it is a folder: a rule for it would let the server write everything in it (add it to sandbox.filesystem.allowWrite yourself if you mean that)';
  if (!isFile(p)) return 'it did not exist when the server started, and the sandbox allows only paths that exist (to let it create files in a folder, add the folder to sandbox.filesystem.allowWrite yourself)';
  return undefined;
}
