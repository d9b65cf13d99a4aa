// The names MCP tools get when they are offered to a language model. Model APIs accept `^[a-zA-Z0-9_-]{1,64}$`
// and need every name of a request to be unique, while MCP tool names are free text and repeat across servers.
import { createHash } from 'crypto';
import { offersFeatures, type ServerInfo, type Tool } from '../../host/serverInfo';
import { isModelVisible } from './toolUi';
import { consentSubject } from '../consentSubject';
import { switchedOff } from './toolSwitches';

export const MAX_TOOL_NAME_LENGTH = 64;

export interface ToolEntry {
  serverId: string;
  serverName: string;
  /** The server's definition as written (`consentSubject`), which the user's consent to a call is about. */
  consentSubject: string;
  tool: Tool;
}

export interface NamedTool extends ToolEntry {
  /** The name the model sees and calls. */
  modelName: string;
}

const sanitize = (s: string): string => s.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'x';

const shortHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 6);

/** `<server>_<tool>`, made valid; a name too long keeps its start and gets a hash of the whole so it stays distinct. */
export function baseModelToolName(serverName: string, toolName: string, maxLength = MAX_TOOL_NAME_LENGTH): string {
  const name = `${sanitize(serverName)}_${sanitize(toolName)}`;
  if (name.length <= maxLength) return name;
  const hash = shortHash(`${serverName}\u0000${toolName}`);
  return `${name.slice(0, maxLength - hash.length - 1)}_${hash}`;
}

function withSuffix(base: string, n: number, maxLength: number): string {
  const suffix = `_${n}`;
  return base.length + suffix.length <= maxLength ? base + suffix : base.slice(0, maxLength - suffix.length) + suffix;
}

/** One request's tool names, both ways. Built from the servers' lists in their order, so names are stable. */
export interface ToolNameMap {
  readonly tools: NamedTool[];
  /** The MCP tool behind a name the model called. */
  lookup(modelName: string): NamedTool | undefined;
  /** The same map without some tools (e.g. ones the model API rejected); the others keep their names. */
  without(modelNames: ReadonlySet<string>): ToolNameMap;
}

function mapOf(byModelName: ReadonlyMap<string, NamedTool>): ToolNameMap {
  return {
    get tools() {
      return [...byModelName.values()];
    },
    lookup: (modelName) => byModelName.get(modelName),
    without: (modelNames) => mapOf(new Map([...byModelName].filter(([name]) => !modelNames.has(name)))),
  };
}

/** `maxLength`: shorter for a client that puts a prefix of its own before each name (the gateway's clients). */
export function toolNameMap(entries: readonly ToolEntry[], maxLength = MAX_TOOL_NAME_LENGTH): ToolNameMap {
  const byModelName = new Map<string, NamedTool>();
  for (const entry of entries) {
    const base = baseModelToolName(entry.serverName, entry.tool.name, maxLength);
    let name = base;
    for (let n = 2; byModelName.has(name); n++) name = withSuffix(base, n, maxLength);
    byModelName.set(name, { ...entry, modelName: name });
  }
  return mapOf(byModelName);
}

/**
 * What the map of `servers`' tools is made of: per running server its id, name, scope, definition, tool list and the
 * user's switches (all of them: "all off but these" too). Maps made of the very same parts are the same (AgentCalls and
 * the gateway's relay keep the last one).
 */
export const toolMapParts = (servers: readonly ServerInfo[]): readonly unknown[] =>
  servers
    .filter((s) => offersFeatures(s.state))
    .flatMap((s) => [s.id, s.name, s.scope.key, s.definition, s.features.tools, s.toolChoices, s.toolChoices?.off, s.toolChoices?.allOff, s.toolChoices?.on]);

/**
 * Every tool of every running server, except those meant only for their view (MCP Apps `visibility: ["app"]`) and those
 * switched off (by the user or the server's entry): the one list every model surface offers and resolves calls from.
 */
export function toolNameMapOfServers(servers: readonly ServerInfo[], maxLength = MAX_TOOL_NAME_LENGTH): ToolNameMap {
  const running = servers.filter((s) => offersFeatures(s.state));
  return toolNameMap(
    running.flatMap((s) => {
      const subject = consentSubject(s.scope, s.name, s.definition);
      return s.features.tools.filter((t) => isModelVisible(t) && !switchedOff(s, t.name)).map((tool) => ({ serverId: s.id, serverName: s.name, consentSubject: subject, tool }));
    }),
    maxLength,
  );
}
