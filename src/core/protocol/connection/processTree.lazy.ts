// Process-tree helpers for stopping stdio servers. Launchers such as `npx` or `uvx` put the real server one or
// more levels below the process we spawned, and signalling only that process would orphan the server.
import { execFile } from 'child_process';
import { existsSync, promises as fs, readFileSync, readdirSync } from 'fs';

const isWindows = process.platform === 'win32';

// process.kill(0 | -n) would signal whole process groups, including our own: never let such a pid through.
const isValidPid = (pid: number): boolean => Number.isInteger(pid) && pid > 0;

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { windowsHide: true, maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}

/** `[pid, ppid]` of every process, from /proc: no child process, and no dependency on `ps` being installed. */
async function procTable(): Promise<Array<[number, number]>> {
  const entries = await fs.readdir('/proc');
  const rows = await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (e): Promise<[number, number] | undefined> => {
        try {
          const stat = await fs.readFile(`/proc/${e}/stat`, 'utf8');
          return [Number(e), parseStatPpid(stat)];
        } catch {
          return undefined; // exited while we were reading
        }
      }),
  );
  return rows.filter((r): r is [number, number] => r !== undefined && !Number.isNaN(r[1]));
}

// The command name (field 2) is in parentheses and may itself contain spaces and ')', so parse from the last ')'.
function statFieldsAfterComm(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function parseStatPpid(stat: string): number {
  return Number(statFieldsAfterComm(stat)[1]);
}

async function psTable(): Promise<Array<[number, number]>> {
  const out = await run('ps', ['-A', '-o', 'pid=,ppid=']);
  const rows: Array<[number, number]> = [];
  for (const line of out.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (Number.isInteger(pid) && Number.isInteger(ppid)) rows.push([pid, ppid]);
  }
  return rows;
}

/**
 * The direct children of `pid` from `/proc/<pid>/task/<tid>/children` (Linux): no scan of every process. Read
 * synchronously: these files are made by the kernel on reading (no disk), and a promise per file costs four round
 * trips to the thread pool (open, fstat, read and close) for each thread of each server.
 */
async function procChildren(pid: number): Promise<number[]> {
  const children: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return children; // gone
  }
  for (const t of tasks) {
    let list = '';
    try {
      list = readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8');
    } catch {
      // The thread ended meanwhile.
    }
    for (const c of list.split(' ')) if (c) children.push(Number(c));
  }
  return children;
}

/** Children by parent, from the whole process table (`ps`, or /proc where `children` files are missing). */
async function childrenFromTable(): Promise<(pid: number) => number[]> {
  const table = process.platform === 'linux' ? await procTable().catch(() => psTable()) : await psTable();
  const children = new Map<number, number[]>();
  for (const [p, pp] of table) {
    const list = children.get(pp);
    if (list) list.push(p);
    else children.set(pp, [p]);
  }
  return (pid) => children.get(pid) ?? [];
}

/** Whether this kernel offers `/proc/<pid>/task/<tid>/children` (CONFIG_PROC_CHILDREN). */
let procChildrenAvailable: boolean | undefined;

/**
 * Every descendant of `pid` (not `pid` itself), parents before their children. Empty on Windows, where
 * `taskkill /T` walks the tree itself. On Linux it walks down from `pid` only, reading nothing of other processes.
 */
export async function listDescendants(pid: number): Promise<number[]> {
  if (isWindows || !isValidPid(pid)) return [];
  procChildrenAvailable ??= process.platform === 'linux' && existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
  const childrenOf = procChildrenAvailable ? procChildren : await childrenFromTable().then((f) => async (p: number) => f(p));
  const result: number[] = [];
  const seen = new Set<number>([pid]);
  const queue = [pid];
  while (queue.length) {
    for (const c of await childrenOf(queue.shift()!)) {
      // The guard protects against a pid-reuse cycle in a table that is read non-atomically.
      if (!seen.has(c)) {
        seen.add(c);
        result.push(c);
        queue.push(c);
      }
    }
  }
  return result;
}

/** This process and its ancestors: never signalled for a mark, whatever their environment holds. */
async function selfAndAncestors(): Promise<Set<number>> {
  const own = new Set<number>();
  for (let pid = process.pid; pid > 1 && !own.has(pid); ) {
    own.add(pid);
    try {
      pid = parseStatPpid(await fs.readFile(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      break;
    }
  }
  return own;
}

/**
 * Every process (Linux) whose environment holds `name=value`: those a server started carry its run's mark, whether
 * they left its process group and session or were re-parented when their parent exited. Read from
 * `/proc/<pid>/environ` (only this user's processes are readable); this process and its ancestors are left out.
 */
export async function markedProcesses(name: string, value: string): Promise<number[]> {
  if (process.platform !== 'linux' || !value) return [];
  const entry = Buffer.from(`${name}=${value}\0`);
  const own = await selfAndAncestors();
  const pids = (await fs.readdir('/proc').catch(() => [])).filter((e) => /^\d+$/.test(e)).map(Number).filter((pid) => !own.has(pid));
  const marked = await Promise.all(
    pids.map(async (pid) => {
      try {
        const environ = await fs.readFile(`/proc/${pid}/environ`);
        const at = environ.indexOf(entry);
        return at === 0 || (at > 0 && environ[at - 1] === 0) ? pid : undefined;
      } catch {
        return undefined; // gone, or not ours
      }
    }),
  );
  return marked.filter((pid): pid is number => pid !== undefined);
}

/** Whether any process of the group led by `pgid` still exists (zombies included: a bound on waiting, not a verdict). */
export function groupAlive(pgid: number): boolean {
  if (isWindows || !isValidPid(pgid)) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Signals every process of the group led by `pgid`, children it forked late included. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  if (isWindows || !isValidPid(pgid)) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is gone.
  }
}

/**
 * Whether `pid` still runs. EPERM means it exists but belongs to someone else. On Linux a zombie counts as dead:
 * an orphan re-parented to a PID 1 that never reaps (common in containers) would otherwise look alive forever.
 */
export function isAlive(pid: number): boolean {
  if (!isValidPid(pid) || !answersSignalZero(pid)) return false;
  if (process.platform !== 'linux') return true;
  try {
    const state = statFieldsAfterComm(readFileSync(`/proc/${pid}/stat`, 'utf8'))[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    // Gone between the two checks, or /proc unreadable: trust the signal check.
    return answersSignalZero(pid);
  }
}

function answersSignalZero(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Sends `signal` to `pid` and all its descendants, returning the pids actually signalled. The tree is collected
 * before anything is signalled, because a dead parent's children are re-parented and can no longer be found
 * from it; children go first, so a supervising parent cannot react to their death by spawning replacements
 * that escape. On Windows the signal is ignored: `taskkill /T /F` terminates the tree.
 */
export async function killTree(pid: number, signal: NodeJS.Signals): Promise<number[]> {
  if (!isValidPid(pid)) throw new RangeError(`killTree: invalid pid ${pid}`);
  if (isWindows) {
    try {
      await run('taskkill', ['/pid', String(pid), '/T', '/F']);
      return [pid];
    } catch {
      return []; // typically: no such process
    }
  }
  const descendants = await listDescendants(pid);
  const signalled: number[] = [];
  for (const p of [...descendants.reverse(), pid]) {
    // A zombie accepts signals but is already dead: reporting it as signalled would mislead the caller.
    if (!isAlive(p)) continue;
    try {
      process.kill(p, signal);
      signalled.push(p);
    } catch {
      // ESRCH: already gone; EPERM: not ours to stop.
    }
  }
  return signalled;
}

/** Resolves true once none of `pids` is alive, false if some still are after `timeoutMs`. */
export function waitForExit(pids: number[], timeoutMs: number): Promise<boolean> {
  return waitUntil(() => !pids.some(isAlive), timeoutMs);
}

/** Resolves true once `done()` holds (checked every 50 ms), false if it still does not after `timeoutMs`. */
export async function waitUntil(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (done()) return true;
    const left = end - Date.now();
    if (left <= 0) return false;
    await new Promise((r) => setTimeout(r, Math.min(50, left)));
  }
}
