// Live resources: while something watches a resource (an open editor), its server is subscribed to it
// (`resources/subscribe`), and `notifications/resources/updated` is passed on so the watcher re-reads it.
// A client feature: every session gets the notification handler; subscriptions live and die with their session.
import type { ClientFeature, SessionContext } from '../../host/clientFeature';
import { Emitter, type Disposable, type Event } from '../../common/events';
import type { ServerLog } from '../../common/log';
import type { ServersChanged, ServerSession } from '../../host/serverSession';
import { resourceKey } from './resourceLocation';

export interface ResourceUpdate {
  serverId: string;
  uri: string;
}

interface Watch {
  serverId: string;
  uri: string;
  count: number;
}

interface Session {
  session: ServerSession;
  log: ServerLog;
  /** URIs subscribed (or being subscribed) in this session. */
  subscribed: Set<string>;
  /** URIs the server refused to subscribe: not asked again in this session, it would refuse again. */
  refused: Set<string>;
}

export class ResourceSubscriptions implements ClientFeature, Disposable {
  private readonly watches = new Map<string, Watch>();
  /** The latest session of each server; a session that ended is removed. */
  private readonly sessions = new Map<string, Session>();
  private readonly disposables: Disposable[] = [];

  private readonly _onDidUpdate = new Emitter<ResourceUpdate>();
  /** The server says a resource changed (only sent for resources it is subscribed to). */
  readonly onDidUpdate = this._onDidUpdate.event;
  private readonly _onDidChangeSubscriptions = new Emitter<void>();
  readonly onDidChangeSubscriptions = this._onDidChangeSubscriptions.event;


  capabilities() {
    // Subscriptions are a server capability the client uses; the client declares nothing for them.
    return {};
  }

  install({ definition, handlers, session: serverSession, log }: SessionContext): Disposable {
    const serverId = definition.id;
    const session: Session = { session: serverSession, log, subscribed: new Set(), refused: new Set() };
    this.sessions.set(serverId, session);
    handlers.setNotificationHandler('notifications/resources/updated', (n) => {
      log.debug(`Resource updated: ${n.params.uri}`);
      this._onDidUpdate.fire({ serverId, uri: n.params.uri });
    });
    return {
      dispose: () => {
        // The session ended (server stopped or crashed): its subscriptions ended with it.
        if (this.sessions.get(serverId) !== session) return;
        this.sessions.delete(serverId);
        if (session.subscribed.size) this._onDidChangeSubscriptions.fire();
      },
    };
  }

  /**
   * Subscribes new sessions to what is watched once they are ready: give it an event that fires when servers change
   * state (the server manager's). Sessions are installed before they connect, when the server's capabilities are unknown.
   */
  follow(onDidChangeServers: Event<ServersChanged>): Disposable {
    const sub = onDidChangeServers((ids) => {
      for (const serverId of ids) if (this.sessions.has(serverId)) this.sync(serverId);
    });
    this.disposables.push(sub);
    return sub;
  }

  /** The server's session while it is connected; a crashed session may linger until the next one is installed. */
  private live(serverId: string): Session | undefined {
    const session = this.sessions.get(serverId);
    return session?.session.isOpen ? session : undefined;
  }

  /** Whether the server's current session can subscribe (it is connected and declared `resources.subscribe`). */
  canSubscribe(serverId: string): boolean {
    return !!this.live(serverId)?.session.capabilities.resources?.subscribe;
  }

  isSubscribed(serverId: string, uri: string): boolean {
    return !!this.live(serverId)?.subscribed.has(uri);
  }

  /** Every subscription currently held by a connected session. */
  subscriptions(): ResourceUpdate[] {
    return [...this.sessions.keys()].flatMap((serverId) => [...(this.live(serverId)?.subscribed ?? [])].map((uri) => ({ serverId, uri })));
  }

  /** Keeps the resource subscribed while the result is not disposed; watches of the same resource share one subscription. */
  watch(serverId: string, uri: string): Disposable {
    const key = resourceKey(serverId, uri);
    const watch = this.watches.get(key) ?? { serverId, uri, count: 0 };
    watch.count++;
    this.watches.set(key, watch);
    this.sync(serverId);
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        if (--watch.count > 0) return;
        this.watches.delete(key);
        void this.unsubscribe(serverId, uri);
      },
    };
  }

  /** Subscribes the server's session to every watched resource it is not subscribed to yet. */
  private sync(serverId: string) {
    const session = this.live(serverId);
    if (!session || !this.canSubscribe(serverId)) return;
    for (const w of this.watches.values()) {
      if (w.serverId !== serverId || session.subscribed.has(w.uri) || session.refused.has(w.uri)) continue;
      session.subscribed.add(w.uri);
      this._onDidChangeSubscriptions.fire();
      session.session.subscribeResource(w.uri).then(
        () => session.log.debug(`Subscribed to ${w.uri}`),
        (e: Error) => {
          session.log.warn(`Subscribing to ${w.uri} failed: ${e.message}`);
          session.refused.add(w.uri);
          if (session.subscribed.delete(w.uri)) this._onDidChangeSubscriptions.fire();
        },
      );
    }
  }

  private async unsubscribe(serverId: string, uri: string) {
    const session = this.live(serverId);
    session?.refused.delete(uri);
    if (!session?.subscribed.delete(uri)) return;
    this._onDidChangeSubscriptions.fire();
    try {
      await session.session.unsubscribeResource(uri);
      session.log.debug(`Unsubscribed from ${uri}`);
    } catch (e) {
      session.log.debug(`Unsubscribing from ${uri} failed: ${(e as Error).message}`);
    }
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this._onDidUpdate.dispose();
    this._onDidChangeSubscriptions.dispose();
  }
}
