// A dormant server's start ahead of its use (an agent's call VS Code is about to confirm, see AgentCalls) asks the
// user nothing: its preparation refuses to (serverPreparation's `unasked`), and so does its connection, through the
// options made here: a sign-in, or the question whether to run it unconfined, fails that start instead, and the server
// stays dormant; the use's own start asks, as always. And one such start at a time per server: a flood of prepared
// calls (never confirmed) queues one start, not one per call.

import type { ConnectionOptions } from './connectionPort';

/**
 * The connection options of a start ahead of its use, which refuse every question while `starting` (once it runs, a
 * sign-in its use needs is asked as always); `wouldAsk` once one was refused.
 */
export function askingNothing(options: ConnectionOptions, starting: () => boolean): { readonly options: ConnectionOptions; readonly wouldAsk: boolean } {
  const early = { wouldAsk: false, options: { ...options, refuseToAsk: () => starting() && (early.wouldAsk = true) } };
  return early;
}

/** The starts ahead of a use under way, per server: another prepare of the same server's tool joins the one there. */
export class EarlyStarts<Server> {
  private readonly pending = new Map<Server, Promise<void>>();

  start(server: Server, wake: () => Promise<void>): Promise<void> {
    let started = this.pending.get(server);
    if (!started) {
      started = wake().finally(() => this.pending.delete(server));
      this.pending.set(server, started);
    }
    return started;
  }
}
