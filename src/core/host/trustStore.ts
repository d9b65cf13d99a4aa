// Remembers trust decisions in the one permission store: "trusted" keyed by a launch plan's hash (launchPlan.ts, what
// the question showed), "do not trust" keyed by the definition as written (trustKey), so a refused definition asks
// nothing on automatic starts whatever its inputs. Any change to what would run is a new plan, asked about again.
import { hashOf } from '../config/definitionHash';
import type { ConfigScope, RawServer } from '../config/types';
import type { PermissionStore } from './permissionStore';

export type TrustDecision = 'trusted' | 'denied';

/** `envFileDigest`: a hash of the env file's contents, so editing the file asks again like editing the definition. */
export function trustKey(scope: Pick<ConfigScope, 'key'>, name: string, raw: RawServer, envFileDigest = ''): string {
  return hashOf({ scope: scope.key, name, raw, ...(envFileDigest ? { envFileDigest } : {}) });
}

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
