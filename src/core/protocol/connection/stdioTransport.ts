// The stdio transport of our own: a child process speaking newline-delimited JSON-RPC. Ours rather than the SDK's
// because framing must be linear (the SDK's buffer re-scans everything it holds on every chunk: one 40 MB line costs
// seconds of extension-host CPU), every message and stderr line needs a cap, the server needs its own process group
// (so a stop reaches children it forks late), and it must get exactly the environment we build.
import { spawn, type ChildProcess } from 'child_process';
import crossSpawn from 'cross-spawn';
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { deferred, withTimeout } from '../../common/async';
import { LineSplitter } from './lineSplitter';

export interface StdioTransportOptions {
  command: string;
  /** What the process sees as its name (argv[0]) when `command` is the path PATH led to. */
  argv0?: string;
  args: string[];
  /** The whole environment of the process (nothing is added). */
  env: Record<string, string>;
  cwd?: string;
  /** The largest JSON-RPC message the server may send, in bytes; a larger one ends the session with an error. */
  maxMessageBytes: number;
  /** The longest stderr line kept, in bytes; a longer one is cut (see `onStderrLine`'s `cut`). */
  maxStderrLineBytes: number;
  onStderrLine(line: string, cut: boolean): void;
}

/** Stopping waits this long for the process to exit after stdin closed; the launcher escalates meanwhile. */
const CLOSE_WAIT_MS = 10_000;

export const isWindows = process.platform === 'win32';

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: StdioTransportOptions) {}

  /**
   * The server's stderr is read here, line by line (`onStderrLine`): never handed out. The property exists because the
   * SDK recognises a stdio transport by `pid` and `stderr`, and decides by it what an unanswered probe means.
   */
  readonly stderr = null;

  /** The server's pid, while it runs. On POSIX it leads its own process group: `-pid` signals the whole group. */
  /** How the process ended, once it has. */
  exitStatus: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('StdioTransport already started');
    const { command, args, env, cwd, argv0 } = this.options;
    return new Promise((resolve, reject) => {
      // cross-spawn runs `.cmd`/`.bat` shims such as `npx` on Windows without a shell; a new process group elsewhere.
      const child = (this.child = (isWindows ? crossSpawn : spawn)(command, args, {
        env,
        cwd,
        ...(argv0 !== undefined && !isWindows ? { argv0 } : {}),
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: !isWindows,
        windowsHide: true,
      }));
      const exited = deferred<void>();
      this.exited = exited.promise;
      child.once('exit', (code, signal) => {
        this.exitStatus = { code, signal };
        exited.resolve();
      });
      child.on('error', (error) => {
        // A process that never spawned (ENOENT, EACCES) never exits either.
        if (child.pid === undefined) exited.resolve();
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => this.finish());
      child.stdin!.on('error', (error) => this.onerror?.(error));
      child.stdout!.on('error', (error) => this.onerror?.(error));
      const messages = new LineSplitter({
        maxLineBytes: this.options.maxMessageBytes,
        onLine: (line) => this.receive(line),
        onOverflow: () => this.fail(new Error(`The server sent a message over ${Math.round(this.options.maxMessageBytes / 1024 / 1024)} MB: the session was ended.`)),
      });
      child.stdout!.on('data', (chunk: Buffer) => messages.push(chunk));
      const stderr = new LineSplitter({
        maxLineBytes: this.options.maxStderrLineBytes,
        onLine: (line) => this.options.onStderrLine(line.toString('utf8'), false),
        onOverflow: (head) => this.options.onStderrLine(head.toString('utf8'), true),
      });
      child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
      child.stderr!.once('end', () => stderr.end());
    });
  }

  private receive(line: Buffer) {
    if (!line.length) return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line.toString('utf8'));
    } catch (e) {
      // A line that is not JSON-RPC (a stray log line on stdout) is reported and skipped, as the SDK does.
      this.onerror?.(e as Error);
      return;
    }
    this.onmessage?.(message);
  }

  private fail(error: Error) {
    this.onerror?.(error);
    void this.close();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) return resolve();
      // A full pipe waits for room; a process that died never makes room, so its end settles the wait too.
      const settle = () => {
        stdin.off('drain', settle);
        stdin.off('close', settle);
        resolve();
      };
      stdin.once('drain', settle);
      stdin.once('close', settle);
    });
  }

  /** Ends stdin and waits (a while) for the process to exit: the polite stop. The launcher signals if it must. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return;
    this.closed = true;
    try {
      child.stdin?.end();
    } catch {
      // Already closed by the other side.
    }
    await withTimeout(this.exited!, CLOSE_WAIT_MS);
    this.finish();
  }

  private finish() {
    if (this.child === undefined) return;
    const child = this.child;
    this.child = undefined;
    this.closed = true;
    // Whatever a grandchild still holds open must not keep our side of the pipes alive.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
    this.onclose?.();
  }
}
