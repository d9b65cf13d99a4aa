// The placeholders of absent protected paths, shared by every confined server of this user (each window's, the CLI's):
// made before a start, counted per path across starts and processes, removed once no confined server holds them.
// (The runtime's own placeholders are its process's: one server's end removed those another server was protected by.)
// Kept in a file of the extension's storage, which no confined server may write, changed under a lock.
import * as fs from 'fs';
import * as path from 'path';

interface Holder {
  pid: number;
  /** The paths its sandbox relies on (made or found). */
  paths: string[];
  /** The protected folders of its start: checked when the last server holding one ends (see release). */
  folders: string[];
}

interface State {
  holders: Record<string, Holder>;
  /** Paths made here as placeholders (true: a folder), removed once nobody holds them. */
  made: Record<string, boolean>;
  /** Per protected folder, what the first start holding it found there (see gitAftermath). */
  before: Record<string, unknown>;
}

/** A path held while a confined server runs: a folder or a file (an absent one is made so, empty). */
export interface Placeholder {
  path: string;
  folder: boolean;
}

/** What is looked at in a protected folder: before the first start that holds it, and after the last one ends. */
export interface FolderChecks {
  snapshot(folder: string): unknown;
  /** What was undone, in words (for the server's log). */
  aftermath(folder: string, before: unknown): string[];
}

const LOCK_WAIT_MS = 5000;
const STALE_LOCK_MS = 30_000;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
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
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export class PlaceholderRegistry {
  private readonly file: string;
  private readonly lock: string;

  constructor(private readonly dir: string) {
    this.file = path.join(dir, 'state.json');
    this.lock = path.join(dir, 'lock');
  }

  /** Runs `change` on the state under the lock (sync: a start waits for it), then writes the state back. */
  private locked<T>(change: (state: State) => T): T {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        fs.writeFileSync(this.lock, String(process.pid), { flag: 'wx' });
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        if (this.staleLock()) continue;
        if (Date.now() > deadline) throw new Error(`the sandbox's placeholders are locked by another process (${this.lock})`);
        sleep(10);
      }
    }
    try {
      const state = this.read();
      const out = change(state);
      fs.writeFileSync(`${this.file}.tmp`, JSON.stringify(state));
      fs.renameSync(`${this.file}.tmp`, this.file);
      return out;
    } finally {
      fs.rmSync(this.lock, { force: true });
    }
  }

  /** A lock whose process is gone (or that is older than any start takes) is taken over. */
  private staleLock(): boolean {
    try {
      const pid = Number(fs.readFileSync(this.lock, 'utf8'));
      if ((Number.isInteger(pid) && pid > 0 && alive(pid)) && Date.now() - fs.statSync(this.lock).mtimeMs < STALE_LOCK_MS) return false;
      fs.rmSync(this.lock, { force: true });
      return true;
    } catch {
      return true;
    }
  }

  private read(): State {
    try {
      const state = JSON.parse(fs.readFileSync(this.file, 'utf8')) as State;
      if (state && typeof state.holders === 'object' && typeof state.made === 'object' && typeof state.before === 'object') return state;
    } catch {
      // None yet, or unreadable: nothing is held.
    }
    return { holders: {}, made: {}, before: {} };
  }

  /**
   * Holds `wanted` for `holder` (each absent one made: a folder or an empty file, its missing folders above it too),
   * then what `more` lists, asked once those are made (the runtime's own list depends on the disk); `snapshot` is
   * asked for each protected folder no start holds yet. Returns what the aftermath of ended starts said (see release).
   */
  acquire(holder: string, wanted: readonly Placeholder[], folders: readonly string[], checks: FolderChecks, more: () => readonly Placeholder[] = () => []): string[] {
    return this.locked((state) => {
      const notes = this.collect(state, checks.aftermath);
      const paths: string[] = [];
      const make = (list: readonly Placeholder[]) => {
        for (const w of [...list].sort((a, b) => a.path.length - b.path.length)) paths.push(...this.materialize(state, w.path, w.folder), w.path);
      };
      for (const f of folders) if (!Object.hasOwn(state.before, f)) state.before[f] = checks.snapshot(f);
      make(wanted);
      make(more());
      state.holders[holder] = { pid: process.pid, paths: [...new Set(paths)], folders: [...folders] };
      return notes;
    });
  }

  /**
   * Lets `holder` go: first the aftermath of each folder no start holds any more (with what the first start holding it
   * found there), then every placeholder nobody holds is removed (when still empty). Returns what the aftermath said.
   */
  release(holder: string, checks: FolderChecks): string[] {
    return this.locked((state) => {
      delete state.holders[holder];
      return this.collect(state, checks.aftermath);
    });
  }

  /** Drops the holders of ended processes; runs the aftermath of folders nobody holds; removes placeholders nobody holds. */
  private collect(state: State, aftermath: FolderChecks['aftermath']): string[] {
    for (const [id, h] of Object.entries(state.holders)) if (h.pid !== process.pid && !alive(h.pid)) delete state.holders[id];
    const live = Object.values(state.holders);
    const folders = new Set(live.flatMap((h) => h.folders));
    // A held path holds the folders above it too (one start made `.git` for `.git/config`, another holds the file).
    const paths = new Set<string>();
    for (const p of live.flatMap((h) => h.paths)) for (let at = p; !paths.has(at) && path.dirname(at) !== at; at = path.dirname(at)) paths.add(at);
    const notes: string[] = [];
    for (const f of Object.keys(state.before)) {
      if (folders.has(f)) continue;
      notes.push(...aftermath(f, state.before[f]));
      delete state.before[f];
    }
    for (const p of Object.keys(state.made).sort((a, b) => b.length - a.length)) {
      if (paths.has(p)) continue;
      removeIfPlaceholder(p, state.made[p]);
      delete state.made[p];
    }
    return notes;
  }

  /** Makes `p` (and its missing folders) where it is absent; returns what it made. */
  private materialize(state: State, p: string, folder: boolean): string[] {
    const missing: string[] = [];
    for (let at = p; !exists(at); at = path.dirname(at)) {
      if (path.dirname(at) === at) return [];
      missing.unshift(at);
    }
    for (const m of missing) {
      const asFolder = m !== p || folder;
      try {
        if (asFolder) fs.mkdirSync(m);
        else fs.writeFileSync(m, '', { flag: 'wx' });
        state.made[m] = asFolder;
      } catch {
        // Made meanwhile by someone else, or not ours to make (then the sandbox cannot make it either).
        break;
      }
    }
    return missing;
  }
}

/** Removes a placeholder still as it was made (an empty file, an empty folder); anything else stays. */
function removeIfPlaceholder(p: string, folder: boolean): void {
  try {
    const s = fs.lstatSync(p);
    if (folder && s.isDirectory() && fs.readdirSync(p).length === 0) fs.rmdirSync(p);
    else if (!folder && s.isFile() && s.size === 0) fs.unlinkSync(p);
  } catch {
    // Gone already.
  }
}
