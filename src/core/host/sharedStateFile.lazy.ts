// The first-start marks shared by every VS Code profile and by `mcp-host`: a user-level file such as
// ~/.copilot/mcp-config.json is read by each of them, so an entry Import wrote there from one profile must be asked
// about in the others too. A small JSON file in the user's state folder, read when asked (it changes under us when
// another profile writes it) and replaced whole when written.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { KeyValueStore } from './hostPorts';

/** The file is never read past this: marks are a few thousand short strings at most. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** Where the shared marks live: `$XDG_STATE_HOME/mcp-host` (else ~/.local/state/mcp-host), `%LOCALAPPDATA%\mcp-host` on Windows. */
export function sharedStateDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform, home = os.homedir()): string {
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'mcp-host');
  return path.join(env.XDG_STATE_HOME || path.join(home, '.local', 'state'), 'mcp-host');
}

export class SharedStateFile implements KeyValueStore {
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
    return this.read()[key] as T | undefined;
  }

  async update(key: string, value: unknown): Promise<void> {
    const all = this.read();
    if (value === undefined) delete all[key];
    else all[key] = value;
    try {
      await fs.promises.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      // Written beside it, then renamed over it: a reader in another window never sees half a file.
      const temporary = `${this.file}.${process.pid}.${Date.now()}.tmp`;
      await fs.promises.writeFile(temporary, JSON.stringify(all), { mode: 0o600 });
      await fs.promises.rename(temporary, this.file);
    } catch (err) {
      this.warn(`Could not write ${this.file}: ${(err as Error).message}`);
      throw err;
    }
  }
}

/** The shared state file `name` in the user's state folder. */
export const sharedStateFile = (name: string, warn: (message: string) => void): SharedStateFile => new SharedStateFile(path.join(sharedStateDir(), name), warn);
