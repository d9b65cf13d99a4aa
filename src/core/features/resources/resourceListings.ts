// What the Resources view shows per server, and which servers changed since it last looked: so a list_changed of
// one server refreshes that server's subtree only, and a server that went down keeps showing what it had (greyed).
import type { ServerInfo } from '../../host/serverInfo';
import type { ListingStatus, ServerListing } from '../../presentation/resourcePresentation';

export type { ListingStatus, ServerListing } from '../../presentation/resourcePresentation';

export interface ListingChanges {
  /** Servers were added, removed or reordered, or a folder renamed: the whole view must be rebuilt. */
  structure: boolean;
  /** Servers whose subtree changed. */
  servers: string[];
}

function statusOf(info: ServerInfo): { status: ListingStatus; reason?: string } {
  switch (info.state.kind) {
    case 'running': {
      const { resources, resourceTemplates } = info.features;
      return { status: info.capabilities?.resources || resources.length || resourceTemplates.length ? 'running' : 'no-resources' };
    }
    case 'starting':
      return { status: 'starting' };
    case 'dormant':
      // The resources of its last run are listed; reading one starts it.
      return { status: 'running' };
    case 'error':
      return { status: 'down', reason: info.state.message };
    case 'blocked':
      return { status: 'down', reason: info.state.message };
    case 'stopped':
      return { status: 'down', reason: info.state.reason };
  }
}

export class ResourceListings {
  private listings = new Map<string, ServerListing>();
  private order: string[] = [];

  constructor(
    private readonly hasMore: (serverId: string) => boolean,
    private readonly hasMoreTemplates: (serverId: string) => boolean = () => false,
  ) {}

  /**
   * Takes a new snapshot of the servers and says what changed. `changedIds`: the servers the server manager said
   * changed since the last update, the only ones looked at again (absent: all of them).
   */
  update(servers: ServerInfo[], changedIds?: ReadonlySet<string>): ListingChanges {
    const next = new Map<string, ServerListing>();
    const changed: string[] = [];
    // A server's folder renamed: the folder rows are made again.
    let rescoped = false;
    for (const server of servers) {
      const previous = this.listings.get(server.id);
      if (previous && changedIds && !changedIds.has(server.id)) {
        next.set(server.id, previous);
        continue;
      }
      if (previous && previous.server.scope !== server.scope) rescoped = true;
      const { status, reason } = statusOf(server);
      const live = status === 'running';
      const listing: ServerListing = {
        server,
        status,
        reason,
        // A server that is not running shows the last items it had; a running one what its connection loaded.
        resources: live ? server.features.resources : (previous?.resources ?? []),
        templates: live ? server.features.resourceTemplates : (previous?.templates ?? []),
        hasMore: live && this.hasMore(server.id),
        hasMoreTemplates: live && this.hasMoreTemplates(server.id),
      };
      next.set(server.id, listing);
      if (!previous || differs(previous, listing)) changed.push(server.id);
    }
    const order = servers.map((s) => s.id);
    const structure = rescoped || order.length !== this.order.length || order.some((id, i) => id !== this.order[i]);
    this.listings = next;
    this.order = order;
    return { structure, servers: changed };
  }

  get(serverId: string): ServerListing | undefined {
    return this.listings.get(serverId);
  }

  all(): ServerListing[] {
    return this.order.map((id) => this.listings.get(id)!);
  }
}

function differs(a: ServerListing, b: ServerListing): boolean {
  return (
    a.status !== b.status ||
    a.reason !== b.reason ||
    a.resources !== b.resources ||
    a.templates !== b.templates ||
    a.hasMore !== b.hasMore ||
    a.hasMoreTemplates !== b.hasMoreTemplates ||
    a.server.name !== b.server.name ||
    a.server.serverInfo?.icons !== b.server.serverInfo?.icons
  );
}
