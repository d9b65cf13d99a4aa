// The rule a confined server never breaks, whatever its `sandbox` block says: nothing it may write is run, loaded or
// obeyed by a program outside its sandbox. In every folder it may write, and every folder above one that it may also
// write, the files and folders git, editors, shells and package managers take settings or programs from are not
// writable (they are added to the runtime's denyWrite at each start, as they are on disk then); a folder that programs
// outside the sandbox run from (a PATH entry, a runner's own cache, the extension's storage) or one that holds the
// home folder is never writable at all: a plan that would make it so is refused.
import * as fs from 'fs';
import * as path from 'path';

/** Files read as settings (some of them run commands) in the folder they are in: by MCP hosts, git, npm, yarn, pnpm, direnv, vim. */
export const PROTECTED_FILES = ['.mcp.json', '.gitmodules', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', '.envrc', '.exrc', '.vimrc', '.nvimrc', '.nvim.lua'];
/**
 * Shell, git and ripgrep settings, read from the home folder only (which is never writable): protected where they
 * are, not made where they are not (each made one is an empty file in the folder while the server runs).
 */
export const HOME_FILES = ['.gitconfig', '.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.ripgreprc'];
/** Folders of settings, tasks and hooks (editors, CI and dev containers, agents, git hooks, cargo), and of programs a run puts first on PATH. */
export const PROTECTED_FOLDERS = ['.vscode', '.idea', '.github', '.devcontainer', '.claude', '.cursor', '.husky', '.cargo', 'node_modules/.bin', '.venv/bin'];
/**
 * In a repository's `.git`, what git obeys or runs. The rest stays writable, so that a git server commits: objects,
 * refs, the index, logs, HEAD, packed refs.
 */
export const PROTECTED_GIT = { files: ['config', 'config.worktree', 'commondir', 'gitdir'], folders: ['hooks', 'info', 'modules', 'worktrees'] };
/** The user's package caches and tool folders under the home folder: unconfined runs execute what is in them. */
export const USER_RUNNER_FOLDERS = ['.npm', '.cache/uv', '.local/share/uv', '.local/share/pnpm', '.cache/pnpm', '.local/pipx', '.cache/pip', '.yarn', '.bun', '.cargo', '.deno', '.nvm', '.volta'];

/** The name an absent protected folder is denied through: its placeholder is then a folder (git shows no empty one), not a file. */
const ABSENT_CHILD = '.protected';

/** `child` is `parent` or lies below it. */
export const inside = (parent: string, child: string): boolean => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

export interface ProtectionContext {
  home: string;
  /** The extension's storage. */
  storage: string;
  /** The server's own package cache (in the storage), when it has one. */
  cache?: string;
  /** The PATH the user's programs run with. */
  pathValue?: string;
}

const pathDirs = (pathValue: string | undefined): string[] => (pathValue ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d)).map((d) => path.resolve(d));

/** Why `root` may not be writable (it holds the home folder, or programs outside the sandbox run from it); undefined: it may. */
export function writableProblem(root: string, ctx: ProtectionContext): string | undefined {
  if (inside(root, ctx.home)) return root === ctx.home ? 'it is your home folder' : 'it holds your home folder';
  if (inside(root, ctx.storage)) return "it holds the extension's storage (your mcp.json, the servers' own caches)";
  if (inside(ctx.storage, root) && !(ctx.cache && inside(ctx.cache, root))) return "it is in the extension's storage (your mcp.json, the servers' own caches)";
  const onPath = pathDirs(ctx.pathValue).find((d) => inside(d, root));
  if (onPath) return `programs are run from it: ${onPath} is on your PATH`;
  const runner = USER_RUNNER_FOLDERS.map((f) => path.join(ctx.home, f)).find((f) => inside(f, root));
  if (runner) return `programs outside the sandbox run packages from ${runner}`;
  return undefined;
}

const isDirectory = (p: string): boolean => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};
const exists = (p: string): boolean => {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

/**
 * git reads `commondir` if there is one (an empty one stops git), so an absent one cannot be held by the runtime's
 * empty placeholder: one holding `.` (this very folder, what git assumes without it) is made first, and held. It stays.
 */
function ensureCommondir(gitDir: string): void {
  try {
    fs.writeFileSync(path.join(gitDir, 'commondir'), '.\n', { flag: 'wx' });
  } catch {
    // There already, or not ours to write (then the server cannot either).
  }
}

/** The paths to deny in one folder the server may write. */
function protectedIn(dir: string): string[] {
  const out = [...PROTECTED_FILES, ...HOME_FILES.filter((f) => exists(path.join(dir, f)))].map((f) => path.join(dir, f));
  for (const f of PROTECTED_FOLDERS) out.push(exists(path.join(dir, f)) ? path.join(dir, f) : path.join(dir, f, ABSENT_CHILD));
  const dotGit = path.join(dir, '.git');
  if (!exists(dotGit)) out.push(path.join(dotGit, 'config'));
  else if (!isDirectory(dotGit)) out.push(dotGit);
  else {
    ensureCommondir(dotGit);
    for (const f of PROTECTED_GIT.files) out.push(path.join(dotGit, f));
    for (const f of PROTECTED_GIT.folders) out.push(exists(path.join(dotGit, f)) ? path.join(dotGit, f) : path.join(dotGit, f, ABSENT_CHILD));
  }
  return out;
}

/**
 * Every path a start must deny writing so that the rule holds, for these writable roots as the disk is now: the
 * protected names in each root and in each folder above it that another root makes writable, and each PATH entry,
 * user cache or tool folder inside a root. (Below a root, the runtime finds `.git/hooks`, `.git/config` and shell
 * files of repositories already there; a folder the server makes itself is its own.)
 */
export function protectedWrites(roots: readonly string[], ctx: ProtectionContext): string[] {
  const real = roots.filter((r) => fs.existsSync(r)).map((r) => fs.realpathSync(r));
  const dirs = new Set<string>();
  for (const root of real) {
    for (let dir = root; ; dir = path.dirname(dir)) {
      if (real.some((r) => inside(r, dir))) dirs.add(dir);
      if (path.dirname(dir) === dir) break;
    }
  }
  const out = [...dirs].flatMap(protectedIn);
  const guarded = [...pathDirs(ctx.pathValue), ...USER_RUNNER_FOLDERS.map((f) => path.join(ctx.home, f))];
  for (const g of guarded) if (real.some((r) => inside(r, g) && r !== g)) out.push(g);
  return [...new Set(out)];
}

/**
 * The names an absent protected file is held by (an empty placeholder while the server runs), for the server's own
 * git to leave out of what it lists and adds: they are not its files. Also the runtime's own (shell files, .gitconfig).
 */
export const PLACEHOLDER_NAMES = [...new Set([...PROTECTED_FILES, ...HOME_FILES, 'gitdir', 'config.worktree'])];

/** Path segments that mark a protected place wherever they appear in a path (a rule inside one is refused). */
const PROTECTED_SEGMENTS = new Set(['.git', ...PROTECTED_FOLDERS.map((f) => f.split('/')[0]).filter((f) => f !== 'node_modules' && f !== '.venv')]);

/**
 * Why "Allow and Restart" must not write `p` into allowWrite (undefined: it may): a rule is exactly the path refused,
 * and not one that the rule above forbids, nor a hidden folder of the home folder (where programs keep their settings).
 */
export function allowRuleProblem(p: string, ctx: ProtectionContext, pathExists: (p: string) => boolean = fs.existsSync): string | undefined {
  if (!path.isAbsolute(p) || p !== path.resolve(p)) return 'it is not a plain absolute path';
  const writable = writableProblem(p, ctx);
  if (writable) return writable;
  if (inside(ctx.home, p) && path.relative(ctx.home, p).startsWith('.')) return 'it is among the settings in your home folder';
  const segments = p.split(path.sep);
  const at = segments.findIndex((s, i) => PROTECTED_SEGMENTS.has(s) || (s === 'node_modules' && segments[i + 1] === '.bin') || (s === '.venv' && segments[i + 1] === 'bin'));
  if (at >= 0 || PROTECTED_FILES.includes(path.basename(p)) || HOME_FILES.includes(path.basename(p))) return 'programs outside the sandbox take settings or run programs from there';
  if (!pathExists(p)) return 'it did not exist when the server started, and the sandbox allows only paths that exist (to let it create files in a folder, add the folder to sandbox.filesystem.allowWrite yourself)';
  return undefined;
}
