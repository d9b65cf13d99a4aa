// The first-start marks shared by every VS Code profile (`mcp-host` asks about every entry at each run): a user-level
// file such as ~/.copilot/mcp-config.json is read by each profile, so an entry Import wrote there from one profile must
// be asked about in the others too. A small JSON file in the user's state folder, read when asked (it changes under us
// when another profile writes it) and replaced whole when written, under a lock (two windows may write at once).
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { KeyValueStore } from './hostPorts';

/** The file is never read past this: marks are a few thousand short strings at most. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** Where the shared marks live: `$XDG_STATE_HOME/mcp-host` (else ~/.local/state/mcp-host), `%LOCALAPPDATA%\mcp-host` on Windows. */
export function sharedStateDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform, home = os.homedir()): string {
  // A relative folder is ignored (as XDG says): it would be relative to wherever VS Code was started, a repository say,
  // and the sandbox protects only absolute settings folders.
  const absolute = (dir: string | undefined) => (dir && (platform === 'win32' ? path.win32 : path.posix).isAbsolute(dir) ? dir : undefined);
  if (platform === 'win32') return path.join(absolute(env.LOCALAPPDATA) ?? path.join(home, 'AppData', 'Local'), 'mcp-host');
  return path.join(absolute(env.XDG_STATE_HOME) ?? path.join(home, '.local', 'state'), 'mcp-host');
}

/** How long a write waits for another window's; a lock older than this is one a crashed window left. */
const LOCK_WAIT_MS = 5000;

export class SharedStateFile implements KeyValueStore {
  /** Each key's value as last read: what another window changed since is kept when this one writes. */
  private readonly seen = new Map<string, unknown>();

  constructor(
    private readonly file: string,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  private read(): Record<string, unknown> {
    try {
      if (fs.statSync(this.file).size > MAX_FILE_BYTES) throw new Error(`over ${MAX_FILE_BYTES / 1024 / 1024} MB`);
      const parsed: unknown = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.warn(`Could not read ${this.file}: ${(err as Error).message}`);
      return {};
    }
  }

  get<T>(key: string): T | undefined {
    const value = this.read()[key];
    this.seen.set(key, value);
    return value as T | undefined;
  }

  async update(key: string, value: unknown): Promise<void> {
    const lock = `${this.file}.lock`;
    let locked = false;
    try {
      await fs.promises.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      locked = await takeLock(lock);
      // Read again under the lock: a list keeps what another window added since this one read it, and loses only
      // what this one removed (two imports at once in two profiles both stay marked).
      const all = this.read();
      const before = this.seen.get(key);
      const now = all[key];
      if (Array.isArray(value) && Array.isArray(now)) {
        const removed = new Set(Array.isArray(before) ? before.filter((v) => !value.includes(v)) : []);
        all[key] = [...value, ...now.filter((v) => !value.includes(v) && !removed.has(v))];
      } else if (value === undefined) delete all[key];
      else all[key] = value;
      this.seen.set(key, all[key]);
      // Written beside it, then renamed over it: a reader in another window never sees half a file.
      // A name no one can guess, made new (a link planted there is not followed).
      const temporary = `${this.file}.${randomBytes(8).toString('hex')}.tmp`;
      try {
        await fs.promises.writeFile(temporary, JSON.stringify(all), { mode: 0o600, flag: 'wx' });
        await fs.promises.rename(temporary, this.file);
      } finally {
        await fs.promises.rm(temporary, { force: true });
      }
    } catch (err) {
      this.warn(`Could not write ${this.file}: ${(err as Error).message}`);
      throw err;
    } finally {
      if (locked) await fs.promises.rm(lock, { force: true });
    }
  }
}

/** Takes the lock file (made exclusively); one older than LOCK_WAIT_MS is a crashed window's and is taken over. */
async function takeLock(lock: string): Promise<boolean> {
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await (await fs.promises.open(lock, 'wx', 0o600)).close();
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const age = await fs.promises.stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (age > LOCK_WAIT_MS) await fs.promises.rm(lock, { force: true });
    else if (Date.now() > until) throw new Error('another window kept it locked');
    else await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));
  }
}

/** The shared state file `name` in the user's state folder. */
export const sharedStateFile = (name: string, warn: (message: string) => void): SharedStateFile => new SharedStateFile(path.join(sharedStateDir(), name), warn);
