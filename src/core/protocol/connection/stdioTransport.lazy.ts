// The stdio transport of our own: a child process speaking newline-delimited JSON-RPC. Ours rather than the SDK's
// because framing must be linear (the SDK's buffer re-scans everything it holds on every chunk: one long line costs
// time quadratic in its length), every message and stderr line needs a cap, the server needs its own process group
// (so a stop reaches children it forks late), and it must get exactly the environment we build (../launch/serverProcess).
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { withTimeout } from '../../common/async';
import type { ServerProcess } from '../launch/serverProcess.lazy';
import { LineSplitter } from './lineSplitter.lazy';

export interface StdioTransportOptions {
  /** The server's process, when the transport starts: started then, or already (see startPlannedProcess). */
  process: () => ServerProcess;
  /** The largest JSON-RPC message the server may send, in bytes; a larger one ends the session with an error. */
  maxMessageBytes: number;
  /** The longest stderr line kept, in bytes; a longer one is cut (see `onStderrLine`'s `cut`). */
  maxStderrLineBytes: number;
  onStderrLine(line: string, cut: boolean): void;
}

/** Stopping waits this long for the process to exit after stdin closed; the launcher escalates meanwhile. */
const CLOSE_WAIT_MS = 10_000;

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private server: ServerProcess | undefined;
  private child: ServerProcess['child'] | undefined;
  private closed = false;

  constructor(private readonly options: StdioTransportOptions) {}

  /**
   * The server's stderr is read here, line by line (`onStderrLine`): never handed out. The property exists because the
   * SDK recognises a stdio transport by `pid` and `stderr`, and decides by it what an unanswered probe means.
   */
  readonly stderr = null;

  /** How the process ended, once it has. */
  get exitStatus(): ServerProcess['exitStatus'] {
    return this.server?.exitStatus;
  }

  /** The mark of this run's processes (ServerProcess.mark), once it started. */
  get runMark(): string | undefined {
    return this.server?.mark;
  }

  /** The server's pid, while it runs. On POSIX it leads its own process group: `-pid` signals the whole group. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.server) throw new Error('StdioTransport already started');
    const server = (this.server = this.options.process());
    this.child = server.child;
    const messages = new LineSplitter({
      maxLineBytes: this.options.maxMessageBytes,
      onLine: (line) => this.receive(line),
      onOverflow: () => this.fail(new Error(`The server sent a message over ${Math.round(this.options.maxMessageBytes / 1024 / 1024)} MB: the session was ended.`)),
    });
    const stderr = new LineSplitter({
      maxLineBytes: this.options.maxStderrLineBytes,
      onLine: (line) => this.options.onStderrLine(line.toString('utf8'), false),
      onOverflow: (head) => this.options.onStderrLine(head.toString('utf8'), true),
    });
    server.listen({
      stdout: (chunk) => messages.push(chunk),
      stderr: (chunk) => stderr.push(chunk),
      stderrEnd: () => stderr.end(),
      error: (error) => this.onerror?.(error),
      close: () => this.finish(),
    });
    return server.spawned.catch((error: Error) => {
      this.onerror?.(error);
      throw error;
    });
  }

  private receive(line: Buffer) {
    // Nothing more is taken from a session being ended (a message over the cap ended it: what follows in the same
    // read, such as an answer to the call that asked for it, is not delivered).
    if (!line.length || this.closed) return;
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
    await withTimeout(this.server!.exited, CLOSE_WAIT_MS);
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
