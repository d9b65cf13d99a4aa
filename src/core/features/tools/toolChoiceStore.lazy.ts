// Where the user's choices for each server's tools are remembered (see toolSwitches): for a workspace's servers in the
// workspace's storage, for the user's own servers in the user's (so they hold in every window). Stored per server id
// as `{ off: [tool names], allOff, on: [tool names], approval, approvalFor }`; each server's choices are one object
// until they change, so that what is made of them (the tool name map) is made again only then.
import type { ConfigScope, ToolApproval } from '../../config/serverDefinition';
import type { KeyValueStore } from '../../host/hostPorts';
import type { ToolChoices } from '../../host/serverInfo';

const KEY = 'mcpHost.toolChoices';
/** Tool names remembered per server at most: as many as one list of a server holds (listBudget's MAX_LIST_ITEMS). */
const MAX_NAMES = 10_000;

interface Stored {
  off?: string[];
  /** The server's checkbox was cleared: every tool is off, the ones it offers later too, but those in `on`. */
  allOff?: boolean;
  on?: string[];
  approval?: ToolApproval;
  /** The server's definition the approval was chosen for (its consentSubject). */
  approvalFor?: string;
}

const names = (list: unknown): Set<string> => new Set(Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : []);

export class ToolChoiceStore {
  private readonly cache = new Map<string, ToolChoices>();

  constructor(
    private readonly stores: { global: KeyValueStore; workspace: KeyValueStore },
    /** A server's choices changed (its id). */
    private readonly changed: (serverId: string) => void,
  ) {}

  private storeOf(scope: Pick<ConfigScope, 'kind'>): KeyValueStore {
    return scope.kind === 'user' ? this.stores.global : this.stores.workspace;
  }

  of(serverId: string, scope: Pick<ConfigScope, 'kind'>): ToolChoices | undefined {
    const key = `${scope.kind}:${serverId}`;
    let choices = this.cache.get(key);
    if (!choices) {
      const stored = this.storeOf(scope).get<Record<string, Stored>>(KEY)?.[serverId];
      const approval = stored?.approval && typeof stored.approvalFor === 'string' ? { approval: stored.approval, approvalFor: stored.approvalFor } : {};
      choices = { off: names(stored?.off), ...(stored?.allOff === true ? { allOff: true, on: names(stored.on) } : {}), ...approval };
      this.cache.set(key, choices);
    }
    return choices;
  }

  /**
   * Switches these tools off (or on again). `'all'` is the server's checkbox: every tool of it, the ones it offers
   * later (notifications/tools/list_changed) too.
   */
  setOff(serverId: string, scope: Pick<ConfigScope, 'kind'>, tools: readonly string[] | 'all', off: boolean): Promise<void> {
    if (tools === 'all') return this.write(serverId, scope, ({ approval, approvalFor }) => ({ approval, approvalFor, ...(off ? { allOff: true } : {}) }));
    const now = this.of(serverId, scope);
    // With the server's checkbox cleared, a tool's checkbox is an exception to it: remembered in `on`.
    const allOff = now?.allOff === true;
    const changed = new Set(allOff ? now.on : now?.off);
    for (const t of tools) if (off !== allOff) changed.add(t);
    else changed.delete(t);
    const list = [...changed].slice(0, MAX_NAMES);
    return this.write(serverId, scope, (s) => (allOff ? { ...s, on: list } : { ...s, off: list }));
  }

  /** The approval chosen for the server as it is defined now (`definition`: its consentSubject). */
  setApproval(serverId: string, scope: Pick<ConfigScope, 'kind'>, approval: ToolApproval | undefined, definition: string): Promise<void> {
    return this.write(serverId, scope, ({ approval: _old, approvalFor: _for, ...rest }) => ({ ...rest, ...(approval ? { approval, approvalFor: definition } : {}) }));
  }

  private async write(serverId: string, scope: Pick<ConfigScope, 'kind'>, change: (s: Stored) => Stored): Promise<void> {
    const store = this.storeOf(scope);
    const all = { ...store.get<Record<string, Stored>>(KEY) };
    all[serverId] = change(all[serverId] ?? {});
    this.cache.delete(`${scope.kind}:${serverId}`);
    await store.update(KEY, all);
    this.cache.delete(`${scope.kind}:${serverId}`);
    this.changed(serverId);
  }
}
