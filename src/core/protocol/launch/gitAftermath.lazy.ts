// What a confined server may write in git's own state and git would obey once it has ended, undone when the last
// confined server of a folder ends: a folder it made into a repository of its own (a bare one: `HEAD`, `objects`,
// `refs` and `config` at its root; while it ran, the empty `commondir` placeholder made git refuse it), and the
// instruction list of a rebase, cherry-pick or revert it left in progress (`exec` lines run at `--continue`). Both
// are moved aside, never deleted, and said in the server's log; the rebase stays in progress (`git rebase --abort`).
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { looksLikeGitDir } from './sandboxProtection.lazy';

/** The instruction lists git's sequencer runs at `--continue`, in a git folder. */
const TODOS = [path.join('rebase-merge', 'git-rebase-todo'), path.join('sequencer', 'todo')];
/** What a moved-aside file is renamed to (its name, then this). */
export const SET_ASIDE = '.written-while-confined';

interface Before {
  bare: boolean;
  todos: Record<string, string | null>;
}

const gitDirsOf = (folder: string): string[] => {
  const dirs: string[] = [];
  try {
    if (fs.statSync(path.join(folder, '.git')).isDirectory()) dirs.push(path.join(folder, '.git'));
  } catch {
    // No repository there.
  }
  if (looksLikeGitDir(folder)) dirs.push(folder);
  return dirs;
};

const digest = (file: string): string | null => {
  try {
    return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
};

/** What the aftermath compares with: whether the folder was a repository itself, and each instruction list's content. */
export function gitSnapshot(folder: string): Before {
  const todos: Record<string, string | null> = {};
  for (const dir of gitDirsOf(folder)) for (const t of TODOS) todos[path.join(dir, t)] = digest(path.join(dir, t));
  return { bare: looksLikeGitDir(folder), todos };
}

const setAside = (file: string): string => {
  const to = `${file}${SET_ASIDE}`;
  fs.renameSync(file, to);
  return to;
};

/** Undoes what git would obey of the confined servers' writes in `folder` (see the top); says what it moved. */
export function gitAftermath(folder: string, before: unknown): string[] {
  const was = (before ?? {}) as Partial<Before>;
  const notes: string[] = [];
  try {
    if (was.bare === false && looksLikeGitDir(folder)) {
      const to = setAside(path.join(folder, 'HEAD'));
      notes.push(`${folder} was made into a git repository of its own (HEAD, objects and refs at its root) while a confined server could write it: its HEAD is moved to ${to}, so that git does not obey its config.`);
    }
    for (const dir of gitDirsOf(folder)) {
      for (const t of TODOS) {
        const file = path.join(dir, t);
        const now = digest(file);
        if (now === null || now === (was.todos ?? {})[file]) continue;
        const to = setAside(file);
        notes.push(`A confined server left git's instruction list ${file} (a rebase, cherry-pick or revert in progress, whose exec lines --continue would run): moved to ${to}. Look at it, then run git rebase --abort (or --quit).`);
      }
    }
  } catch (e) {
    notes.push(`Could not undo what a confined server left in ${folder}: ${(e as Error).message}`);
  }
  return notes;
}
