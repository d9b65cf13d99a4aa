// Which protocol era each server definition speaks, remembered across restarts and windows. Negotiating 2026-07-28
// starts with a `server/discover` probe; a legacy server that ends its process on that unknown request costs a second
// spawn, and one that never answers it costs the probe's timeout. Remembered per definition hash: a restart or a new
// window connects at once, an edited definition (another command, version or URL) is probed afresh.
import type { KeyValueStore } from './ports';

export type ProtocolEra = 'modern' | 'legacy';

export interface ProtocolVerdict {
  era: ProtocolEra;
  /** The revision negotiated when the verdict was reached. */
  version: string;
  /** When it was reached (ms since the epoch). */
  at: number;
}

const STORAGE_KEY = 'mcpHost.protocolVerdicts';
/** A server remembered as legacy is probed again after this long: an unpinned package (`npx -y pkg`) may upgrade. */
export const LEGACY_VERDICT_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The most definitions remembered; the oldest verdicts go first. */
const MAX_VERDICTS = 200;

export class ProtocolMemory {
  constructor(
    private readonly store: KeyValueStore,
    private readonly now: () => number = Date.now,
  ) {}

  private all(): Record<string, ProtocolVerdict> {
    return this.store.get<Record<string, ProtocolVerdict>>(STORAGE_KEY) ?? {};
  }

  /** The verdict for a definition, unless it is a legacy one past its horizon. */
  get(definitionHash: string): ProtocolVerdict | undefined {
    const verdict = this.all()[definitionHash];
    if (!verdict) return undefined;
    if (verdict.era === 'legacy' && this.now() - verdict.at > LEGACY_VERDICT_TTL_MS) return undefined;
    return verdict;
  }

  /** Records what a successful connection negotiated. An unchanged verdict keeps its date (legacy ones expire). */
  async remember(definitionHash: string, era: ProtocolEra, version: string): Promise<void> {
    const all = this.all();
    const known = this.get(definitionHash);
    if (known && known.era === era && known.version === version) return;
    all[definitionHash] = { era, version, at: this.now() };
    const kept = Object.entries(all)
      .sort(([, a], [, b]) => b.at - a.at)
      .slice(0, MAX_VERDICTS);
    await this.store.update(STORAGE_KEY, Object.fromEntries(kept));
  }

  /** Forgets a definition's verdict (it failed to connect with it): its next start probes again. */
  async forget(definitionHash: string): Promise<void> {
    const all = this.all();
    if (!(definitionHash in all)) return;
    delete all[definitionHash];
    await this.store.update(STORAGE_KEY, Object.keys(all).length ? all : undefined);
  }
}
