// Entries MCP Host wrote into the user's files for the user (Import Servers…, the registry's Install for User): the user
// saw a preview of the entry, not what it will run. Each such entry asks the trust question at its first start, as a
// workspace's entries do; once trusted (or refused and then trusted), it runs as the user's other entries.
import type { KeyValueStore } from './hostPorts';

const STORAGE_KEY = 'mcpHost.firstStartMarks';
/** Marks kept at most: an import of thousands of entries is not expected. None is ever dropped for a new one. */
export const MAX_MARKS = 5000;

/** The marks would exceed MAX_MARKS: nothing is written, so that no entry written for the user runs unasked. */
export class FirstStartMarksFullError extends Error {
  constructor(waiting: number, adding: number) {
    super(`${waiting} servers written for you already wait to be trusted at their first start; ${adding} more would exceed ${MAX_MARKS}: start and trust some of them first`);
  }
}

const markOf = (scopeKey: string, name: string): string => JSON.stringify([scopeKey, name]);

export class FirstStartMarks {
  constructor(private readonly store: KeyValueStore) {}

  private marks(): string[] {
    const stored = this.store.get<unknown>(STORAGE_KEY);
    return Array.isArray(stored) ? stored.filter((m): m is string => typeof m === 'string') : [];
  }

  /** Whether the entry `name` of the file `scopeKey` was written for the user and not yet trusted. */
  has(scopeKey: string, name: string): boolean {
    return this.marks().includes(markOf(scopeKey, name));
  }

  /** Marks entries about to be written into the file `scopeKey` (so their first start asks); throws FirstStartMarksFullError, marking none, past MAX_MARKS. */
  async mark(scopeKey: string, names: readonly string[]): Promise<void> {
    const added = new Set(names.map((n) => markOf(scopeKey, n)));
    const kept = this.marks().filter((m) => !added.has(m));
    if (kept.length + added.size > MAX_MARKS) throw new FirstStartMarksFullError(kept.length, added.size);
    await this.store.update(STORAGE_KEY, [...kept, ...added]);
  }

  /** The entry was trusted: it runs as the user's other entries from now on. */
  async clear(scopeKey: string, name: string): Promise<void> {
    const mark = markOf(scopeKey, name);
    const marks = this.marks();
    if (marks.includes(mark)) await this.store.update(STORAGE_KEY, marks.filter((m) => m !== mark));
  }
}
