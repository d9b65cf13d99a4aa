// Remembers which exact server definitions the user trusted (or refused), keyed by a hash of the definition as
// written: editing a definition makes it a new one, which is asked about again.
import { hashOf } from '../config/definitionHash';
import type { ConfigScope, RawServer } from '../config/types';
import type { KeyValueStore } from './ports';

export type TrustDecision = 'trusted' | 'denied';

const KEY = 'mcpHost.serverTrust';

export function trustKey(scope: Pick<ConfigScope, 'key'>, name: string, raw: RawServer): string {
  return hashOf({ scope: scope.key, name, raw });
}

export class TrustStore {
  constructor(private readonly storage: KeyValueStore) {}

  private all(): Record<string, TrustDecision> {
    return this.storage.get<Record<string, TrustDecision>>(KEY) ?? {};
  }

  get(key: string): TrustDecision | undefined {
    return this.all()[key];
  }

  async set(key: string, decision: TrustDecision): Promise<void> {
    await this.storage.update(KEY, { ...this.all(), [key]: decision });
  }

  /** Forgets every decision: each server is asked about again at its next start. */
  async reset(): Promise<void> {
    await this.storage.update(KEY, undefined);
  }

  get size(): number {
    return Object.keys(this.all()).length;
  }
}
