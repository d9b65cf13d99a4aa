// Long calls don't hold the turn: a call from a surface that waits for it within a turn (@mcp, the agent tools, the
// gateway) that is still running after a set time (`mcpHost.tools.backgroundAfter`) goes on in the background. The call
// is not stopped: a plain call gets a row among its server's tasks (ToolTasks.adopt) with its progress, Cancel and,
// once it ends, its result; a call that runs as an MCP task already has its row. The caller gets, at once, a result
// that says so in plain words. The caller's signal cancels the call only while the caller still waits for it.
import type { CallToolResult, Progress } from '@modelcontextprotocol/client';

/** What the still-running result carries in `_meta`: the row's task key (a surface can tell it from a real result). */
export const MOVED_TO_BACKGROUND = 'mcpHost/movedToBackground';

export interface HeldCall {
  /** How long the caller waits (ms); 0 or less: until the call ends. */
  afterMs: number;
  /** The caller's signal: it cancels the call while the caller waits, not once the call is in the background. */
  signal?: AbortSignal;
  /** The caller's progress: it hears the call's progress while it waits. */
  onProgress?(progress: Progress): void;
  /** Sends the call, cancelled by `signal`, reporting to `onProgress`. */
  start(signal: AbortSignal, onProgress: (progress: Progress) => void): Promise<CallToolResult>;
  /**
   * The caller stops waiting: the call gets its row (`running` ends it, `cancel` stops it). Resolves with the row's
   * task key and where the call's progress goes from now on.
   */
  moveToBackground(moved: { running: Promise<CallToolResult>; cancel(): void; progress?: Progress }): Promise<{ key: string; progressed?(progress: Progress): void }>;
  /** What the caller gets instead of the result, once the call is in the background. */
  stillRunning(key: string): CallToolResult;
}

/**
 * The call's result if it ends within `afterMs`; otherwise, once it is in the background, the still-running result.
 * A call that ends while it is being moved gives its own result.
 */
export function holdAtMost(held: HeldCall): Promise<CallToolResult> {
  const inner = new AbortController();
  let moved = false;
  let last: Progress | undefined;
  let progressed: ((progress: Progress) => void) | undefined;
  const onAbort = () => {
    if (!moved) inner.abort(held.signal!.reason);
  };
  if (held.signal?.aborted) onAbort();
  held.signal?.addEventListener('abort', onAbort, { once: true });
  const running = held.start(inner.signal, (p) => {
    last = p;
    if (moved) progressed?.(p);
    else held.onProgress?.(p);
  });
  void running.then(
    () => held.signal?.removeEventListener('abort', onAbort),
    () => held.signal?.removeEventListener('abort', onAbort),
  );
  if (!(held.afterMs > 0)) return running;
  return new Promise<CallToolResult>((resolve, reject) => {
    let done = false;
    const finish = (end: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      end();
    };
    const timer = setTimeout(() => {
      moved = true;
      held.signal?.removeEventListener('abort', onAbort);
      const cancel = () => inner.abort(new Error('Cancelled from its row in the MCP Servers view.'));
      held.moveToBackground({ running, cancel, progress: last }).then(
        (row) => {
          progressed = row.progressed;
          finish(() => resolve(held.stillRunning(row.key)));
        },
        () => {
          // No row could be made: the caller waits for the call after all, and may still cancel it.
          moved = false;
          if (held.signal?.aborted) onAbort();
          else held.signal?.addEventListener('abort', onAbort, { once: true });
        },
      );
    }, held.afterMs);
    running.then(
      (result) => finish(() => resolve(result)),
      (e: unknown) => finish(() => reject(e)),
    );
  });
}

/** `90 s`, `2 min`: how long the caller waited. */
export const waitedFor = (ms: number): string => (ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);

/** What the model (or the gateway's client) is told of a call that goes on in the background. */
/**
 * How long a call that may go on in the background may go without progress (the request timeout's place): it is not
 * ended at mcpHost.requestTimeout, which would end a silent 3-minute tool before it moves; its row can cancel it.
 */
export const BACKGROUND_CALL_TIMEOUT_MS = 60 * 60 * 1000;

export function stillRunningResult(tool: string, serverName: string, afterMs: number, key: string): CallToolResult {
  const text =
    `The tool "${tool}" of the MCP server "${serverName}" is still running: it did not finish within ${waitedFor(afterMs)}, so it goes on in the background and this turn does not wait for it. ` +
    `Its outcome will appear in the MCP Servers view, under the server's Tasks, where the user can open its result or cancel it. ` +
    `Tell the user it is still running; do not call it again for the same request.`;
  return { content: [{ type: 'text', text }], _meta: { [MOVED_TO_BACKGROUND]: key } };
}

/** Whether a result is the still-running one, not the tool's. */
export const movedToBackground = (result: CallToolResult): boolean => typeof result._meta?.[MOVED_TO_BACKGROUND] === 'string';
