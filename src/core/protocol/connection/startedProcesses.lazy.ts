// Every process a stdio server started, remembered while it runs: a child that left the server's process group and
// session (setsid), or whose parent crashed, is re-parented and no longer found by walking the tree from the server.
// The launcher keeps a list, refreshed every second, and ends every process on it at stop and after a crash. A pid
// is remembered with its start time (Linux), so a pid reused by an unrelated process is never signalled.
import { readFileSync } from 'fs';
import { isAlive, listDescendants } from './processTree.lazy';

/** How often the server's tree is read while it runs. */
export const TREE_SNAPSHOT_MS = 1000;
/** The most processes remembered for one server. */
const MAX_REMEMBERED = 4096;

/** The kernel's start time of a process (Linux: field 22 of /proc/<pid>/stat); undefined elsewhere or when gone. */
export function processStartTime(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

export class StartedProcesses {
  private readonly known = new Map<number, string | undefined>();
  private timer: NodeJS.Timeout | undefined;
  private reading = false;

  /**
   * Starts remembering the tree under `root` (the spawned server), from one interval on: a process that has just
   * started has no children yet, and reading every thread's list at each spawn costs the host's busiest moment. What it
   * forks meanwhile stays in its session and group, which a stop reaches.
   */
  watch(root: number, intervalMs = TREE_SNAPSHOT_MS): void {
    this.unwatch();
    const read = async () => {
      if (this.reading || !isAlive(root)) return;
      this.reading = true;
      try {
        this.remember(await listDescendants(root).catch(() => []));
      } finally {
        this.reading = false;
      }
    };
    this.timer = setInterval(() => void read(), intervalMs);
    this.timer.unref();
  }

  unwatch(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  remember(pids: readonly number[]): void {
    for (const pid of pids) if (!this.known.has(pid) && this.known.size < MAX_REMEMBERED) this.known.set(pid, processStartTime(pid));
  }

  /** The remembered processes still alive as the same process (same start time where it can be read). */
  alive(): number[] {
    return [...this.known].filter(([pid, started]) => isAlive(pid) && (started === undefined || processStartTime(pid) === started)).map(([pid]) => pid);
  }
}
