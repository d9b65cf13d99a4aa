// A host-owned request path beside the SDK's, on the same transport: requests whose answers the SDK's decoder would
// refuse (a 2026-07-28 `tools/call` answered with `resultType: "task"`, the tasks extension's `tasks/*` methods). Their
// ids are strings of our own (the SDK numbers its requests), their answers are taken off the wire before the SDK sees
// them, and every one ends: by its answer, its timeout (then `notifications/cancelled` tells the server), its caller's
// signal, or the end of the session.
import { ProtocolError, type JSONRPCMessage } from '@modelcontextprotocol/client';

/** The ids of raw requests: strings, never a number the SDK would use. */
export const RAW_ID_PREFIX = 'mcp-host-raw-';

export interface RawRequestOptions {
  signal?: AbortSignal;
  /** ms; no answer by then rejects (default 60 s). */
  timeout?: number;
  /** The request's `progressToken`: its progress restarts the timeout (see `progressed`), as the SDK's requests do. */
  progressToken?: string;
}

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: unknown): void;
  progressToken?: string;
  restartTimer(): void;
}

export class RawRequests {
  private next = 0;
  private readonly pending = new Map<string, Pending>();
  private sendMessage: ((message: JSONRPCMessage) => Promise<void>) | undefined;
  private closedReason: Error | undefined;

  /** The transport the requests go out on (set at each connection attempt; a new one reopens the path). */
  attach(send: (message: JSONRPCMessage) => Promise<void>): void {
    this.sendMessage = send;
    this.closedReason = undefined;
  }

  /** Sends `method` and resolves with the answer's `result`; an error answer rejects with a ProtocolError. */
  request(method: string, params: Record<string, unknown>, options: RawRequestOptions = {}): Promise<Record<string, unknown>> {
    const send = this.sendMessage;
    if (this.closedReason || !send) return Promise.reject(this.closedReason ?? new Error('The session has not started.'));
    const { signal, timeout = 60_000, progressToken } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = `${RAW_ID_PREFIX}${++this.next}`;
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      const giveUp = (reason: unknown) => {
        cleanup();
        // The server may still be working on it: it hears that nobody waits any more.
        send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String((reason as Error)?.message ?? reason) } }).catch(() => undefined);
        reject(reason);
      };
      const onAbort = () => giveUp(signal!.reason);
      const expire = () => giveUp(new Error(`The server did not answer ${method} within ${Math.round(timeout / 100) / 10} s.`));
      let timer = setTimeout(expire, timeout);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (result) => {
          cleanup();
          resolve(result);
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
        progressToken,
        restartTimer: () => {
          clearTimeout(timer);
          timer = setTimeout(expire, timeout);
        },
      });
      send({ jsonrpc: '2.0', id, method, params }).catch((e: unknown) => this.pending.get(id)?.reject(e));
    });
  }

  /** Takes the answer to one of our requests off the wire: true when the message was one (the SDK must not see it). */
  take(message: JSONRPCMessage): boolean {
    if ('method' in message || !('id' in message) || typeof message.id !== 'string' || !message.id.startsWith(RAW_ID_PREFIX)) return false;
    const pending = this.pending.get(message.id);
    if (!pending) return true; // late (timed out, cancelled): still ours, and still not the SDK's
    if ('error' in message && message.error && typeof message.error === 'object') {
      const { code, message: text, data } = message.error as { code?: unknown; message?: unknown; data?: unknown };
      pending.reject(new ProtocolError(typeof code === 'number' ? code : -32603, typeof text === 'string' ? text : 'The server answered with an error.', data));
    } else if ('result' in message && message.result && typeof message.result === 'object' && !Array.isArray(message.result)) {
      pending.resolve(message.result as Record<string, unknown>);
    } else {
      pending.reject(new Error('The server answered with neither a result nor an error.'));
    }
    return true;
  }

  /** Progress came for `progressToken`: the requests sent with it wait their whole timeout again. */
  progressed(progressToken: unknown): void {
    for (const pending of this.pending.values()) if (pending.progressToken !== undefined && pending.progressToken === progressToken) pending.restartTimer();
  }

  /** The session ended: every request in flight rejects with `reason`, and later ones at once. */
  close(reason: Error): void {
    this.closedReason = reason;
    this.sendMessage = undefined;
    for (const pending of [...this.pending.values()]) pending.reject(reason);
  }

  /** Requests still waiting for their answer. */
  get inFlight(): number {
    return this.pending.size;
  }
}
