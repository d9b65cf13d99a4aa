// Marks kept in two stores at once (see firstStartMarks.ts and sharedStateFile.lazy.ts).
import type { KeyValueStore } from './hostPorts';

/**
 * Marks kept in two stores: the profile's own (as before) and the shared file. A mark is in force if either holds it, so
 * a shared file that cannot be read or written loses nothing the profile knew; writes go to both.
 */
export class EitherStore implements KeyValueStore {
  constructor(private readonly stores: readonly KeyValueStore[]) {}

  get<T>(key: string): T | undefined {
    const lists = this.stores.map((s) => s.get<unknown>(key)).filter(Array.isArray);
    if (!lists.length) return this.stores.map((s) => s.get<T>(key)).find((v) => v !== undefined);
    return [...new Set(lists.flat())] as T;
  }

  async update(key: string, value: unknown): Promise<void> {
    const outcomes = await Promise.allSettled(this.stores.map((s) => s.update(key, value)));
    // The profile's store (the first) must take it; the shared file is a help, not a condition.
    if (outcomes[0]?.status === 'rejected') throw outcomes[0].reason;
  }
}
