// The one place every consent decision lives: server trust, tool calls, sampling and elicitation. Each decision
// is kept where it applies (this workspace, or everywhere) and can be reviewed and revoked in one list.
import { Emitter } from '../common/events';
import type { KeyValueStore } from './hostPorts';

export type PermissionKind = 'server-trust' | 'tool' | 'sampling' | 'sampling-review' | 'elicitation';
export type PermissionScope = 'global' | 'workspace';

export interface PermissionRecord {
  kind: PermissionKind;
  /** Identifies the subject within its kind: derived from the server definition as written (see consentSubject), so an edited definition is asked about again. */
  key: string;
  /** What the user recognises in the review list, e.g. `Tool "get-sum" of server "everything"`. */
  label: string;
  /** The decision, e.g. 'trusted' | 'denied' | 'allow' | 'deny' | a model id. */
  decision: string;
  scope: PermissionScope;
  /** When it was decided (ms since epoch). */
  at: number;
  /** Server trust given to run confined (Run Confined), not as defined. */
  confined?: boolean;
}

const STORAGE_KEY = 'mcpHost.permissions';

export class PermissionStore {
  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly stores: Record<PermissionScope, KeyValueStore>) {}

  private records(scope: PermissionScope): PermissionRecord[] {
    return this.stores[scope].get<PermissionRecord[]>(STORAGE_KEY) ?? [];
  }

  /** The decision for a subject; a workspace decision wins over a global one. */
  get(kind: PermissionKind, key: string): PermissionRecord | undefined {
    const match = (r: PermissionRecord) => r.kind === kind && r.key === key;
    return this.records('workspace').find(match) ?? this.records('global').find(match);
  }

  async set(record: Omit<PermissionRecord, 'at'>): Promise<void> {
    for (const scope of ['global', 'workspace'] as const) await this.drop(scope, record.kind, record.key);
    await this.stores[record.scope].update(STORAGE_KEY, [...this.records(record.scope), { ...record, at: Date.now() }]);
    this._onDidChange.fire();
  }

  list(kind?: PermissionKind): PermissionRecord[] {
    const all = [...this.records('workspace'), ...this.records('global')];
    return kind ? all.filter((r) => r.kind === kind) : all;
  }

  async remove(kind: PermissionKind, key: string): Promise<void> {
    for (const scope of ['global', 'workspace'] as const) await this.drop(scope, kind, key);
    this._onDidChange.fire();
  }

  /** Forgets every decision of the given kinds (all kinds when none are given). */
  async reset(...kinds: PermissionKind[]): Promise<number> {
    let removed = 0;
    for (const scope of ['global', 'workspace'] as const) {
      const kept = this.records(scope).filter((r) => kinds.length && !kinds.includes(r.kind));
      removed += this.records(scope).length - kept.length;
      await this.stores[scope].update(STORAGE_KEY, kept.length ? kept : undefined);
    }
    this._onDidChange.fire();
    return removed;
  }

  private async drop(scope: PermissionScope, kind: PermissionKind, key: string) {
    const before = this.records(scope);
    const after = before.filter((r) => !(r.kind === kind && r.key === key));
    if (after.length !== before.length) await this.stores[scope].update(STORAGE_KEY, after.length ? after : undefined);
  }
}
