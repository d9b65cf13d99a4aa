// Remembers which exact server definitions the user trusted (or refused), keyed by a hash of the definition as
// written: editing a definition makes it a new one, which is asked about again. Kept in the one permission store.
import type { PermissionStore } from './permissionStore';

export type TrustDecision = 'trusted' | 'denied';

export class TrustStore {
  constructor(private readonly permissions: PermissionStore) {}

  get(key: string): TrustDecision | undefined {
    return this.permissions.get('server-trust', key)?.decision as TrustDecision | undefined;
  }

  async set(key: string, decision: TrustDecision, serverName = key): Promise<void> {
    const label = `Run server "${serverName}"`;
    await this.permissions.set({ kind: 'server-trust', key, label, decision, scope: 'global' });
  }

  /** Forgets every decision: each server is asked about again at its next start. */
  async reset(): Promise<void> {
    await this.permissions.reset('server-trust');
  }
}
