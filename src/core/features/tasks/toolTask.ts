// A tool call that runs as a task, as every surface sees it (the Tasks rows, the call's result view, the CLI): what
// the window's tool tasks (./toolTasks.lazy.ts) keep of it.
import type { CallToolResult, Progress, Task } from '@modelcontextprotocol/client';
import type { Tool } from '../../host/serverInfo';

export type ToolTaskStatus = Task['status'];

export interface ToolTask {
  /** Unique among the window's tasks (server id and task id). */
  readonly key: string;
  readonly serverId: string;
  readonly serverName: string;
  readonly taskId: string;
  readonly tool: Tool;
  readonly arguments: Record<string, unknown>;
  /** Where the call came from (the tree, @mcp, an agent). */
  readonly origin: string;
  /** When the host started it (ms since the epoch). */
  readonly startedAt: number;
  status: ToolTaskStatus;
  /** The server's words on where it is (untrusted). */
  statusMessage?: string;
  /** The last progress the server reported for the call (`notifications/progress`), if it does. */
  progress?: Progress;
  /** Once completed. */
  result?: CallToolResult;
  /** Once failed or cancelled: why, in plain words. */
  failure?: string;
  endedAt?: number;
  /**
   * A plain call (not an MCP task) that its caller stopped waiting for after this long (ms): it runs on here, its
   * `taskId` is the host's own (see ToolTasks.adopt).
   */
  movedAfterMs?: number;
}

export interface TaskCall {
  tool: Tool;
  arguments: Record<string, unknown>;
  origin: string;
  signal?: AbortSignal;
  onProgress?(progress: Progress): void;
  /** The task exists (the server created it): the caller may show it. */
  onTask?(task: ToolTask): void;
  /**
   * What the caller's signal does once the task exists: 'cancel' (the default) sends `tasks/cancel`; 'detach' only
   * stops waiting, and the task runs on in the view (a chat turn that ends).
   */
  whenAborted?: 'cancel' | 'detach';
}

/** A plain tool call, still running, that its caller hands over (see ../tools/backgroundCalls.ts). */
export interface AdoptedCall {
  serverId: string;
  serverName: string;
  tool: Tool;
  arguments: Record<string, unknown>;
  origin: string;
  /** When the call was sent (ms since the epoch). */
  startedAt: number;
  movedAfterMs: number;
  /** The call, still running: its end ends the row. */
  running: Promise<CallToolResult>;
  /** Stops the call (its signal aborts: the server hears notifications/cancelled). */
  cancel(): void;
  /** The call's last progress so far. */
  progress?: Progress;
}

/** The adopted call's row, and where the call's progress goes from now on. */
export interface AdoptedTask {
  task: ToolTask;
  progressed(progress: Progress): void;
}

const TERMINAL: ReadonlySet<ToolTaskStatus> = new Set(['completed', 'failed', 'cancelled']);
export const isTerminal = (status: ToolTaskStatus): boolean => TERMINAL.has(status);
