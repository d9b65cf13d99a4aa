// The known runs of dormant servers (./knownRuns.ts), kept in a persistent store (VS Code's global Memento). What is
// read back is untrusted like any input: each entry's shape is checked, and an entry (or a store) that is not what
// this module writes is ignored with a log line, never trusted and never a crash. Sizes are capped per server and in
// all; the oldest entries go first. Writes are batched: a server's lists can change often while it runs.
import type { KeyValueStore } from './hostPorts';
import { KNOWN_RUNS_KEY, type KnownRun, type KnownRuns } from './knownRuns';
import type { ServerFeatures } from './serverInfo';

export interface KnownRunLimits {
  /** Characters of one server's entry (as JSON); a bigger one keeps its tools only, or is not kept. */
  perServer: number;
  /** Characters of all entries together. */
  total: number;
  /** How many servers are kept. */
  servers: number;
}

export const DEFAULT_KNOWN_RUN_LIMITS: KnownRunLimits = { perServer: 512 * 1024, total: 8 * 1024 * 1024, servers: 500 };

interface Entry {
  key: string;
  run: KnownRun;
  size: number;
}

interface Stored {
  version: 1;
  servers: Record<string, { key: string; run: KnownRun }>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, max = 100_000): v is string => typeof v === 'string' && v.length <= max;
const listOf = (v: unknown, valid: (item: Record<string, unknown>) => boolean): boolean => Array.isArray(v) && v.length <= 100_000 && v.every((i) => isObject(i) && valid(i));

/** The run if `value` has the shape this module writes; undefined otherwise. */
export function validKnownRun(value: unknown): KnownRun | undefined {
  if (!isObject(value) || typeof value.at !== 'number' || !Number.isFinite(value.at) || !isObject(value.features)) return undefined;
  const f = value.features;
  const named = (i: Record<string, unknown>) => isText(i.name, 10_000);
  const valid =
    listOf(f.tools, (t) => named(t) && isObject(t.inputSchema)) &&
    listOf(f.prompts, (p) => named(p) && (p.arguments === undefined || listOf(p.arguments, named))) &&
    listOf(f.resources, (r) => named(r) && isText(r.uri)) &&
    listOf(f.resourceTemplates, (r) => named(r) && isText(r.uriTemplate)) &&
    (f.skills === undefined || listOf(f.skills, (s) => isText(s.uri) && isObject(s.frontmatter) && isText(s.frontmatter.name) && (s.resources === undefined || Array.isArray(s.resources)))) &&
    (value.instructions === undefined || isText(value.instructions, 1_000_000)) &&
    (value.capabilities === undefined || isObject(value.capabilities)) &&
    (value.serverInfo === undefined || (isObject(value.serverInfo) && isText(value.serverInfo.name) && isText(value.serverInfo.version))) &&
    (value.protocolVersion === undefined || isText(value.protocolVersion, 100));
  if (!valid) return undefined;
  const features: ServerFeatures = {
    tools: f.tools as ServerFeatures['tools'],
    prompts: f.prompts as ServerFeatures['prompts'],
    resources: f.resources as ServerFeatures['resources'],
    resourceTemplates: f.resourceTemplates as ServerFeatures['resourceTemplates'],
    ...(f.skills ? { skills: f.skills as ServerFeatures['skills'] } : {}),
  };
  return {
    at: value.at,
    features,
    ...(value.instructions !== undefined ? { instructions: value.instructions as string } : {}),
    ...(value.capabilities !== undefined ? { capabilities: value.capabilities as KnownRun['capabilities'] } : {}),
    ...(value.serverInfo !== undefined ? { serverInfo: value.serverInfo as KnownRun['serverInfo'] } : {}),
    ...(value.protocolVersion !== undefined ? { protocolVersion: value.protocolVersion as string } : {}),
    ...(value.toolsOnly === true ? { toolsOnly: true } : {}),
  };
}

/** What is kept of a run: its lists (not what this window alone knows: failures, incomplete marks). */
function kept(run: KnownRun, toolsOnly = false): KnownRun {
  const { tools, prompts, resources, resourceTemplates, skills } = run.features;
  const features: ServerFeatures = toolsOnly ? { tools, prompts: [], resources: [], resourceTemplates: [] } : { tools, prompts, resources, resourceTemplates, ...(skills ? { skills } : {}) };
  return { ...run, features, ...(toolsOnly ? { toolsOnly: true } : {}) };
}

/** A burst of changes postpones the write by the save delay each time, up to this many delays in all. */
const MAX_SAVE_WAITS = 5;

export class KnownRunStore implements KnownRuns {
  private entries: Map<string, Entry> | undefined;
  private readonly pending = new Map<string, { key: string; run: KnownRun }>();
  private saveTimer: NodeJS.Timeout | undefined;
  /** When the oldest change not yet written came (see scheduleSave). */
  private firstUnsavedAt: number | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: KeyValueStore,
    private readonly log: (message: string) => void,
    private readonly limits: KnownRunLimits = DEFAULT_KNOWN_RUN_LIMITS,
    private readonly saveDelayMs = 2000,
  ) {}

  get(serverId: string, definitionKey: string): KnownRun | undefined {
    const pending = this.pending.get(serverId);
    if (pending) return pending.key === definitionKey ? pending.run : undefined;
    const entry = this.load().get(serverId);
    return entry?.key === definitionKey ? entry.run : undefined;
  }

  /** Kept at the next save: a running server's lists may change often, and only the latest is worth writing. */
  remember(serverId: string, definitionKey: string, run: KnownRun): void {
    this.pending.set(serverId, { key: definitionKey, run });
    this.scheduleSave();
  }

  private commit(serverId: string, definitionKey: string, run: KnownRun): void {
    const entries = this.load();
    // A copy: the live lists of a session must not be changed by, nor change, what is kept.
    let text = JSON.stringify(kept(run));
    if (text.length > this.limits.perServer) text = JSON.stringify(kept(run, true));
    entries.delete(serverId);
    if (text.length > this.limits.perServer) {
      this.log(`What ${serverId} offers is too large to be kept (${text.length} characters): it starts at each window.`);
    } else {
      entries.set(serverId, { key: definitionKey, run: JSON.parse(text) as KnownRun, size: text.length });
    }
    // Oldest first out: a Map iterates in insertion order, and a remembered server was just put last.
    let total = [...entries.values()].reduce((sum, e) => sum + e.size, 0);
    for (const [id, entry] of entries) {
      if (total <= this.limits.total && entries.size <= this.limits.servers) break;
      entries.delete(id);
      total -= entry.size;
    }
  }

  /** Writes what is pending now (tests, and when the window closes). */
  flush(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      this.firstUnsavedAt = undefined;
      this.saving = this.saving.then(() => this.save());
    }
    return this.saving;
  }

  /**
   * Written once the changes have settled for the delay: 50 servers starting over a few seconds are written once,
   * after the burst, not during it (each write serializes every known run), but never later than MAX_SAVE_WAITS delays
   * after the first change (a server whose lists change without end is written anyway).
   */
  private scheduleSave() {
    const now = Date.now();
    this.firstUnsavedAt ??= now;
    if (this.saveTimer) {
      if (now - this.firstUnsavedAt >= MAX_SAVE_WAITS * this.saveDelayMs) return;
      clearTimeout(this.saveTimer);
    }
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.firstUnsavedAt = undefined;
      this.saving = this.saving.then(() => this.save());
    }, this.saveDelayMs);
    this.saveTimer.unref?.();
  }

  private async save(): Promise<void> {
    for (const [id, { key, run }] of this.pending) this.commit(id, key, run);
    this.pending.clear();
    const servers: Stored['servers'] = {};
    for (const [id, { key, run }] of this.load()) servers[id] = { key, run };
    try {
      await this.store.update(KNOWN_RUNS_KEY, { version: 1, servers } satisfies Stored);
    } catch (e) {
      this.log(`Could not keep what servers offer for dormant starts: ${(e as Error).message}`);
    }
  }

  private load(): Map<string, Entry> {
    if (this.entries) return this.entries;
    const entries = (this.entries = new Map<string, Entry>());
    let stored: unknown;
    try {
      stored = this.store.get<unknown>(KNOWN_RUNS_KEY);
    } catch (e) {
      this.log(`The servers known from their last run could not be read (${(e as Error).message}): they start to be known again.`);
      return entries;
    }
    if (stored === undefined) return entries;
    if (!isObject(stored) || stored.version !== 1 || !isObject(stored.servers)) {
      this.log('The servers known from their last run were stored in a form this version does not read: ignored, they start to be known again.');
      return entries;
    }
    let ignored = 0;
    const byAge: [string, Entry][] = [];
    for (const [id, value] of Object.entries(stored.servers)) {
      const run = isObject(value) && isText(value.key, 1000) ? validKnownRun(value.run) : undefined;
      if (!run || !isObject(value)) {
        ignored++;
        continue;
      }
      const size = JSON.stringify(run).length;
      if (size > this.limits.perServer) {
        ignored++;
        continue;
      }
      byAge.push([id, { key: value.key as string, run, size }]);
    }
    // The newest within the caps, in age order (oldest first, as remember keeps them).
    let total = 0;
    const newestFirst = byAge.sort((a, b) => b[1].run.at - a[1].run.at).filter(([, e]) => (total += e.size) <= this.limits.total).slice(0, this.limits.servers);
    for (const [id, entry] of newestFirst.reverse()) entries.set(id, entry);
    if (ignored) this.log(`${ignored} stored server entr${ignored === 1 ? 'y' : 'ies'} known from a last run did not have the expected form: ignored.`);
    return entries;
  }
}
