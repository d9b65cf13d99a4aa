// Where the user's choices for each server's tools are remembered (see toolSwitches): for a workspace's servers in the
// workspace's storage, for the user's own servers in the user's (so they hold in every window). Stored per server id
// as `{ off: [tool names], approval }`; each server's choices are one object until they change, so that what is made
// of them (the tool name map) is made again only then.
import type { ConfigScope, ToolApproval } from '../../config/serverDefinition';
import type { KeyValueStore } from '../../host/hostPorts';
import type { ToolChoices } from '../../host/serverInfo';

const KEY = 'mcpHost.toolChoices';
/** Tool names remembered per server at most (a server with more tools than that is a broken one). */
const MAX_OFF = 5000;

interface Stored {
  off?: string[];
  approval?: ToolApproval;
}

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
      choices = { off: new Set(Array.isArray(stored?.off) ? stored.off.filter((n) => typeof n === 'string') : []), ...(stored?.approval ? { approval: stored.approval } : {}) };
      this.cache.set(key, choices);
    }
    return choices;
  }

  /** Switches these tools off (or on again). */
  setOff(serverId: string, scope: Pick<ConfigScope, 'kind'>, tools: readonly string[], off: boolean): Promise<void> {
    const now = new Set(this.of(serverId, scope)?.off);
    for (const t of tools) if (off) now.add(t);
    else now.delete(t);
    return this.write(serverId, scope, (s) => ({ ...s, off: [...now].slice(0, MAX_OFF) }));
  }

  setApproval(serverId: string, scope: Pick<ConfigScope, 'kind'>, approval: ToolApproval | undefined): Promise<void> {
    return this.write(serverId, scope, ({ approval: _old, ...rest }) => ({ ...rest, ...(approval ? { approval } : {}) }));
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
