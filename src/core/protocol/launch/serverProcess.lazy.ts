// A stdio server's process, started from its launch plan: in a process group of its own (so that a stop reaches
// children it forks late), with exactly the plan's environment. Part of the launch bundle, so that a trusted plan's
// process can start before the host bundle loads (see startPlannedProcess): the first server's process then boots
// while the SDK loads, where it used to wait for it. What happened before the transport took the process is kept for
// it: its output (Node discards what nobody reads when a process exits), whether it spawned, how it exited.
import { spawn, type ChildProcess } from 'child_process';
import crossSpawn from 'cross-spawn';
import * as fs from 'fs';
import type { StdioLaunchPlan } from '../../config/launchPlan';
import type { ServerDefinition } from '../../config/serverDefinition';
import { deferred } from '../../common/async';

export const isWindows = process.platform === 'win32';

/** What a process may write before it is taken; then its pipes wait. */
const MAX_UNHEARD_BYTES = 4 * 1024 * 1024;

/** What is run: the command, what it sees as its name, its arguments, its whole environment, its folder. */
export interface ProcessCommand {
  command: string;
  /** What the process sees as its name (argv[0]) when `command` is the path PATH led to. */
  argv0?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** A fourth pipe (fd 3), the confined launcher's channel of the sandbox's denials: `child.stdio[3]`. */
  channel?: boolean;
  /** Written to a fifth pipe (fd 4), then closed: the confined launcher's settings. */
  input?: string;
}

/** What the owner of a started process hears of it from the moment it takes it (what came before, at once). */
export interface ServerProcessListener {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  /** Its stderr ended (the last line may have no newline). */
  stderrEnd(): void;
  /** An error after the process started (a pipe's, a signal that failed). */
  error(error: Error): void;
  /** The process exited and its pipes closed. */
  close(): void;
}

export class ServerProcess {
  readonly child: ChildProcess;
  /** Settles once the process runs: rejects with why it never did (ENOENT, EACCES). Awaited by whoever takes it. */
  readonly spawned: Promise<void>;
  /** Resolves once the process has exited (at once for one that never ran). */
  readonly exited: Promise<void>;
  /** How the process ended, once it has. */
  exitStatus: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private listener: ServerProcessListener | undefined;
  /** Until it is taken: output in order, then whether stderr ended and the process closed. */
  private unheard: { stdout: Buffer[]; stderr: Buffer[]; bytes: number; stderrEnded: boolean; closed: boolean } | undefined = {
    stdout: [],
    stderr: [],
    bytes: 0,
    stderrEnded: false,
    closed: false,
  };

  constructor({ command, args, env, cwd, argv0, channel, input }: ProcessCommand) {
    // cross-spawn runs `.cmd`/`.bat` shims such as `npx` on Windows without a shell; a new process group elsewhere.
    const child = (this.child = (isWindows ? crossSpawn : spawn)(command, args, {
      env,
      cwd,
      ...(argv0 !== undefined && !isWindows ? { argv0 } : {}),
      stdio: ['pipe', 'pipe', 'pipe', ...(channel || input !== undefined ? ['pipe' as const] : []), ...(input !== undefined ? ['pipe' as const] : [])],
      detached: !isWindows,
      windowsHide: true,
    }));
    const exited = deferred<void>();
    this.exited = exited.promise;
    const spawned = deferred<void>();
    this.spawned = spawned.promise;
    // Heard by whoever takes the process; a process nobody takes (its start abandoned) is ended, never awaited.
    this.spawned.catch(() => undefined);
    child.once('spawn', () => spawned.resolve());
    child.once('exit', (code, signal) => {
      this.exitStatus = { code, signal };
      exited.resolve();
    });
    child.on('error', (error) => {
      if (child.pid === undefined) {
        // A process that never spawned never exits either.
        exited.resolve();
        spawned.reject(error);
      } else this.listener?.error(error);
    });
    if (input !== undefined) {
      const fd4 = child.stdio[4] as NodeJS.WritableStream | null;
      fd4?.on('error', () => undefined);
      fd4?.end(input);
    }
    child.once('close', () => (this.unheard ? (this.unheard.closed = true) : this.listener!.close()));
    for (const stream of [child.stdin, child.stdout]) stream!.on('error', (error) => this.listener?.error(error));
    for (const name of ['stdout', 'stderr'] as const) {
      const stream = child[name]!;
      stream.on('data', (chunk: Buffer) => {
        const unheard = this.unheard;
        if (!unheard) return this.listener![name](chunk);
        unheard[name].push(chunk);
        // A server that floods before it is taken waits (the pipe fills) rather than fill this process's memory.
        if ((unheard.bytes += chunk.length) > MAX_UNHEARD_BYTES) stream.pause();
      });
    }
    child.stderr!.once('end', () => (this.unheard ? (this.unheard.stderrEnded = true) : this.listener!.stderrEnd()));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Takes the process: `listener` hears what came before, in order, once the taker's start has gone on (as a process
   * spawned then would be heard), then what comes.
   */
  listen(listener: ServerProcessListener): void {
    if (this.listener) throw new Error('The server process was already taken');
    this.listener = listener;
    setImmediate(() => {
      const unheard = this.unheard!;
      for (const chunk of unheard.stdout) listener.stdout(chunk);
      for (const chunk of unheard.stderr) listener.stderr(chunk);
      this.unheard = undefined;
      if (unheard.stderrEnded) listener.stderrEnd();
      if (unheard.closed) listener.close();
      else for (const stream of [this.child.stdout!, this.child.stderr!]) if (stream.isPaused()) stream.resume();
    });
  }

  /** Ends a process nobody took (its start was abandoned): the whole group, at once. */
  kill(): void {
    const pid = this.child.pid;
    try {
      if (pid !== undefined && !isWindows) process.kill(-pid, 'SIGKILL');
      else this.child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** The process of an unconfined plan: the executable PATH led to, seen by the name the user wrote. */
export function processCommand(plan: StdioLaunchPlan & { executable: string }): ProcessCommand {
  return { command: plan.executable, argv0: plan.command, args: [...plan.args], env: plan.env, cwd: plan.cwd };
}

/** Why a plan cannot start (the launcher's start error), or undefined when it can. */
export function planProblem(plan: StdioLaunchPlan): string | undefined {
  if (plan.envFile?.error) return plan.envFile.error;
  if (plan.executable === undefined) return `The command "${plan.command}" was not found on the PATH (the workspace folder is not searched).`;
  if (plan.cwd && !fs.existsSync(plan.cwd)) return `The working directory ${plan.cwd} does not exist.`;
  return undefined;
}

/** A process started from a plan, before its connection: the launcher takes it when its plan is this very plan. */
export interface StartedProcess {
  plan: StdioLaunchPlan;
  process: ServerProcess;
}

/**
 * Starts the process of a definition's trusted plan at once, when nothing must come first: a stdio plan that can
 * start, not confined (the sandbox runtime's command is built by the launcher) and not under a debugger (attached
 * before the process starts). Undefined otherwise: the launcher starts it, or says why it cannot.
 */
export function startPlannedProcess(definition: ServerDefinition): StartedProcess | undefined {
  const plan = definition.plan;
  if (plan?.kind !== 'stdio' || plan.sandbox || plan.debug || plan.executable === undefined || planProblem(plan) !== undefined) return undefined;
  return { plan, process: new ServerProcess(processCommand({ ...plan, executable: plan.executable })) };
}
