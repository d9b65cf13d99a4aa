// Remembers trust decisions in the one permission store: "trusted" keyed by a launch plan's hash (launchPlan.ts, what
// the question showed), "do not trust" keyed by the definition as written (trustKey.ts), so a refused definition asks
// nothing on automatic starts whatever its inputs. Any change to what would run is a new plan, asked about again.
import type { PermissionStore } from './permissionStore';

export type TrustDecision = 'trusted' | 'denied';

export class TrustStore {
  constructor(private readonly permissions: PermissionStore) {}

  get(key: string): TrustDecision | undefined {
    return this.permissions.get('server-trust', key)?.decision as TrustDecision | undefined;
  }

  /** `confined`: trusted to run confined (Run Confined). */
  async set(key: string, decision: TrustDecision, serverName = key, confined?: true): Promise<void> {
    const label = `Run server "${serverName}"`;
    await this.permissions.set({ kind: 'server-trust', key, label, decision, scope: 'global', confined });
  }

  /** Forgets every decision: each server is asked about again at its next start. */
  async reset(): Promise<void> {
    await this.permissions.reset('server-trust');
  }
}
