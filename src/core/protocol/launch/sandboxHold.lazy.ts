// A confined start's hold on what the rule protects: every protected path that is absent is made (an empty
// placeholder) before the runtime looks, and so is every path the runtime denies on its own in the working directory
// (its dangerous files and folders, a repository's hooks and config there and one level below): the runtime then
// makes no placeholder of its own, which its process would remove when its server ends, whatever other servers still
// rely on. The placeholders are counted across starts (placeholderRegistry) and go with the last one; before they go,
// git's state in the protected folders is checked (gitAftermath).
import * as fs from 'fs';
import * as path from 'path';
import type { PlannedSandbox } from '../../config/launchPlan';
import { gitAftermath, gitSnapshot } from './gitAftermath.lazy';
import { inside } from './pathInside.lazy';
import { PlaceholderRegistry, type Placeholder } from './placeholderRegistry.lazy';
import { protectedFolders, protectedWrites } from './sandboxProtection.lazy';

/** What the runtime denies in the working directory by itself (its DANGEROUS_FILES and dangerous folders; checked by a test). */
export const RUNTIME_FILES = ['.gitconfig', '.gitmodules', '.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile', '.ripgreprc', '.mcp.json'];
export const RUNTIME_FOLDERS = ['.vscode', '.idea', path.join('.claude', 'commands'), path.join('.claude', 'agents')];
/** A glob character: the runtime expands such a denyWrite entry over what exists, and makes nothing for it. */
const GLOB = /[*?[\]]/;

const isDirectory = (p: string): boolean => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};
const isFile = (p: string): boolean => {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
};

/** The paths the runtime denies on its own for a command run in `cwd`, as the disk is now (its mandatory denies). */
export function runtimeDenies(cwd: string): Placeholder[] {
  const out: Placeholder[] = [...RUNTIME_FILES.map((f) => ({ path: path.join(cwd, f), folder: false })), ...RUNTIME_FOLDERS.map((f) => ({ path: path.join(cwd, f), folder: true }))];
  const dotGit = path.join(cwd, '.git');
  if (isDirectory(dotGit)) out.push({ path: path.join(dotGit, 'hooks'), folder: true }, { path: path.join(dotGit, 'config'), folder: false });
  // Its scan below: a repository one level down (known by its HEAD) has its hooks denied.
  let names: string[] = [];
  try {
    names = fs.readdirSync(cwd);
  } catch {
    // Nothing below to scan.
  }
  for (const name of names) if (name !== 'node_modules' && isFile(path.join(cwd, name, '.git', 'HEAD'))) out.push({ path: path.join(cwd, name, '.git', 'hooks'), folder: true });
  return out;
}

export interface SandboxHold {
  /** Every protected path, for the runtime's denyWrite. */
  denied: string[];
  /** What the aftermath of earlier starts said. */
  notes: string[];
  /** Lets the hold go (once; again does nothing); returns what the aftermath said. */
  release(): string[];
}

let holds = 0;

/**
 * Holds the protection of one start: `writable` its writable roots (with its own cache and temp dir), `cwd` where the
 * runtime runs, `extraDenies` the file's own denyWrite entries (a literal one is held as a file, as the runtime would).
 */
export function holdProtection(sandbox: PlannedSandbox, writable: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>>): SandboxHold {
  const ctx = { home: sandbox.home, storage: sandbox.storage, cache: sandbox.cache, pathValue: env.PATH, env, runByOthers: sandbox.runByOthers };
  const within = (p: string) => writable.some((w) => inside(w, p));
  const protectedPaths = protectedWrites(sandbox.writable, ctx);
  const literal = sandbox.notWritable.filter((p) => path.isAbsolute(p) && !GLOB.test(p)).map((p) => ({ path: p, folder: false }));
  const wanted = [...protectedPaths, ...literal].filter((p) => within(p.path));
  const folders = protectedFolders(sandbox.writable);
  const registry = new PlaceholderRegistry(path.join(sandbox.storage, 'sandbox-placeholders'));
  const holder = `${process.pid}:${++holds}:${Date.now()}`;
  const checks = { snapshot: gitSnapshot, aftermath: gitAftermath };
  const notes = registry.acquire(holder, wanted, folders, checks, () => runtimeDenies(cwd).filter((p) => within(p.path)));
  let released = false;
  return {
    denied: protectedPaths.map((p) => p.path),
    notes,
    release: () => {
      if (released) return [];
      released = true;
      return registry.release(holder, checks);
    },
  };
}
