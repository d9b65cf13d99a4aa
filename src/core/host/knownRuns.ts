// What a server offered at its last run, kept so that a dormant server (one that starts when used) can show it and
// offer its tools without running. Kept per definition: a changed definition has no known run, and starts to be known.
import type { ServerFeatures, ServerInfo } from './serverInfo';

/** Where the known runs are kept (the global Memento): read on activation only to see whether any are. */
export const KNOWN_RUNS_KEY = 'mcpHost.knownRuns';

export interface KnownRun {
  /** When it was recorded (ms since the epoch). */
  at: number;
  features: ServerFeatures;
  instructions?: string;
  capabilities?: ServerInfo['capabilities'];
  serverInfo?: ServerInfo['serverInfo'];
  protocolVersion?: string;
  /** Only its tools were kept (all it offered was too large): its prompts, resources and templates are not known. */
  toolsOnly?: true;
}

/** Where known runs are kept (knownRunStore.lazy.ts, over a persistent store). `definitionKey`: see trustKey. */
export interface KnownRuns {
  get(serverId: string, definitionKey: string): KnownRun | undefined;
  remember(serverId: string, definitionKey: string, run: KnownRun): void;
}
