// Entries MCP Host wrote into the user's files for the user (Import Servers…, the registry's Install for User): the user
// saw a preview of the entry, not what it will run. Each such entry asks the trust question at its first start, as a
// workspace's entries do; once trusted (or refused and then trusted), it runs as the user's other entries.
import type { KeyValueStore } from './hostPorts';

const STORAGE_KEY = 'mcpHost.firstStartMarks';
/** Marks kept at most (the newest): an import of thousands of entries is not expected. */
const MAX_MARKS = 5000;

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

  /** Marks entries just written into the file `scopeKey` (before the file is read again, so their first start asks). */
  async mark(scopeKey: string, names: readonly string[]): Promise<void> {
    const added = names.map((n) => markOf(scopeKey, n));
    const kept = this.marks().filter((m) => !added.includes(m));
    await this.store.update(STORAGE_KEY, [...kept, ...added].slice(-MAX_MARKS));
  }

  /** The entry was trusted: it runs as the user's other entries from now on. */
  async clear(scopeKey: string, name: string): Promise<void> {
    const mark = markOf(scopeKey, name);
    const marks = this.marks();
    if (marks.includes(mark)) await this.store.update(STORAGE_KEY, marks.filter((m) => m !== mark));
  }
}
