// A server's snapshot (ServerInfo) for every surface, from what its ManagedServer holds. A dormant server's lists,
// instructions and capabilities are those of its last run (`known`).
import type { ConfigScope, RawServerEntry } from '../config/serverDefinition';
import type { SandboxDenial } from '../config/sandboxDenial';
import type { Connection } from './connectionPort';
import type { KnownRun } from './knownRuns';
import type { ServerFeatures, ServerInfo, ServerState, ToolChoices } from './serverInfo';

export interface SnapshotParts {
  id: string;
  entry: RawServerEntry;
  scope: ConfigScope;
  state: ServerState;
  /** The running session's connection, if it runs. */
  connection: Connection | undefined;
  /** The lists shown when it does not run and none are known. */
  noFeatures: ServerFeatures;
  crashCount: number;
  pid: number | undefined;
  denials: readonly SandboxDenial[];
  toolChoices: ToolChoices | undefined;
  startedFor: string | undefined;
  known: KnownRun | undefined;
  extra?: Pick<ServerInfo, 'auth'>;
}

export function serverSnapshot(p: SnapshotParts): ServerInfo {
  const c = p.connection;
  const shown: ServerInfo = {
    id: p.id,
    name: p.entry.name,
    scope: p.scope,
    definition: p.entry.server,
    state: p.state,
    protocolVersion: c?.protocolVersion,
    serverInfo: c?.serverVersion,
    capabilities: c?.capabilities,
    instructions: c?.instructions,
    features: c ? c.features : p.noFeatures,
    crashCount: p.crashCount,
    pid: p.pid,
    ...(c?.confined ? { confined: true } : {}),
    ...(p.denials.length ? { sandboxDenials: p.denials } : {}),
    toolChoices: p.toolChoices,
    ...(c && p.startedFor ? { startedFor: p.startedFor } : {}),
    ...p.extra,
  };
  if (!p.known) return shown;
  const { features, instructions, capabilities, serverInfo, protocolVersion, at, toolsOnly } = p.known;
  return { ...shown, features, instructions, capabilities, serverInfo, protocolVersion, knownFrom: at, ...(toolsOnly ? { knownToolsOnly: true } : {}) };
}
