// Which protocol era each server definition speaks, remembered across restarts and windows. Negotiating 2026-07-28
// starts with a `server/discover` probe; a legacy server that ends its process on that unknown request costs a second
// spawn, and one that never answers it costs the probe's timeout. Remembered per definition hash: a restart or a new
// window connects at once, an edited definition (another command, version or URL) is probed afresh.
import type { KeyValueStore } from './hostPorts';

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
  /** Changes not yet stored (null: forgotten). They are written once per tick, however many servers connected in it. */
  private readonly pending = new Map<string, ProtocolVerdict | null>();
  private writing: Promise<void> | undefined;

  constructor(
    private readonly store: KeyValueStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** What is stored, which other windows may have changed meanwhile. */
  private stored(): Record<string, ProtocolVerdict> {
    return this.store.get<Record<string, ProtocolVerdict>>(STORAGE_KEY) ?? {};
  }

  /** The verdict for a definition, unless it is a legacy one past its horizon. */
  get(definitionHash: string): ProtocolVerdict | undefined {
    const verdict = this.pending.has(definitionHash) ? this.pending.get(definitionHash) : this.stored()[definitionHash];
    if (!verdict) return undefined;
    if (verdict.era === 'legacy' && this.now() - verdict.at > LEGACY_VERDICT_TTL_MS) return undefined;
    return verdict;
  }

  /**
   * Records what a successful connection negotiated. An unchanged verdict keeps its date (legacy ones expire). Resolves
   * once stored; a start need not wait for that.
   */
  remember(definitionHash: string, era: ProtocolEra, version: string): Promise<void> {
    const known = this.get(definitionHash);
    if (known && known.era === era && known.version === version) return Promise.resolve();
    this.pending.set(definitionHash, { era, version, at: this.now() });
    return this.write();
  }

  /** Forgets a definition's verdict (it failed to connect with it): its next start probes again. */
  forget(definitionHash: string): Promise<void> {
    if (!this.get(definitionHash) && !(definitionHash in this.stored())) return Promise.resolve();
    this.pending.set(definitionHash, null);
    return this.write();
  }

  /** One write of the changes made in this tick: 50 servers connecting at once write the map once, not 50 times. */
  private write(): Promise<void> {
    return (this.writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.writing = undefined;
      const all = { ...this.stored() };
      for (const [hash, verdict] of this.pending) {
        if (verdict) all[hash] = verdict;
        else delete all[hash];
      }
      this.pending.clear();
      const kept = Object.entries(all)
        .sort(([, a], [, b]) => b.at - a.at)
        .slice(0, MAX_VERDICTS);
      return this.store.update(STORAGE_KEY, kept.length ? Object.fromEntries(kept) : undefined);
    }));
  }
}

/** One memory per store, so the verdicts of servers connecting together are written together. */
const memories = new WeakMap<KeyValueStore, ProtocolMemory>();

export function protocolMemoryOf(store: KeyValueStore): ProtocolMemory {
  let memory = memories.get(store);
  if (!memory) memories.set(store, (memory = new ProtocolMemory(store)));
  return memory;
}
