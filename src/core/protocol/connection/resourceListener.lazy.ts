// Resource subscriptions on the 2026-07-28 wire, where `resources/subscribe` is gone: one `subscriptions/listen`
// stream carries the URIs watched. Adding or removing a URI opens a stream with the new set, then closes the old one
// (no update is lost in between); updates arrive as `notifications/resources/updated` on the stream and reach the
// client's notification handlers as on older servers. A URI the server does not honour is refused like a failed
// `resources/subscribe`; a stream the server drops is opened again once.
import type { Client, McpSubscription } from '@modelcontextprotocol/client';
import type { ServerLog } from '../../common/log';

export class ResourceListener {
  private readonly uris = new Set<string>();
  private current: McpSubscription | undefined;
  /** Changes are applied one after another: each waits for the stream of the one before. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: () => Client | undefined,
    private readonly log: ServerLog,
    /** The session's lifetime: the stream ends with it. */
    private readonly signal: AbortSignal,
  ) {}

  /** Resolves once the server acknowledged a stream with `uri`; rejects when it did not honour it. */
  add(uri: string): Promise<void> {
    if (this.uris.has(uri)) return this.queue;
    this.uris.add(uri);
    return this.apply(uri);
  }

  remove(uri: string): Promise<void> {
    if (!this.uris.delete(uri)) return this.queue;
    return this.apply(undefined);
  }

  private apply(added: string | undefined): Promise<void> {
    const run = this.queue.catch(() => undefined).then(() => this.reopen(added));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async reopen(added: string | undefined): Promise<void> {
    const old = this.current;
    this.current = undefined;
    try {
      if (this.uris.size) {
        const client = this.client();
        if (!client || this.signal.aborted) throw new Error('The session has ended.');
        const subscription = await client.listen({ resourceSubscriptions: [...this.uris] }, { signal: this.signal });
        this.current = subscription;
        this.watchClose(subscription);
        const honored = new Set(subscription.honoredFilter.resourceSubscriptions ?? []);
        const refused = [...this.uris].filter((u) => !honored.has(u));
        for (const u of refused) this.uris.delete(u);
        if (added !== undefined && refused.includes(added)) throw new Error(`The server does not send updates of ${added}.`);
      }
    } finally {
      await old?.close().catch((e: Error) => this.log.debug(`Closing a resource subscription: ${e.message}`));
    }
  }

  /** A stream the server drops (not one we closed) is opened again, once, with the URIs still watched. */
  private watchClose(subscription: McpSubscription) {
    void subscription.closed.then((reason) => {
      if (reason === 'local' || this.current !== subscription || this.signal.aborted) return;
      this.log.warn(`The server ended the resource subscription (${reason}); subscribing again.`);
      this.current = undefined;
      if (this.uris.size) void this.apply(undefined).catch((e: Error) => this.log.warn(`Subscribing again failed: ${e.message}`));
    });
  }
}
