// `mcpHost_listTools` with many tools: with a query, only the best matches (the tool search), best first; without a
// query or server, beyond the tools a request carries, a count per server and how to ask, rather than thousands of
// schemas. Used by lazy code (the agent tools' calls).
import type { ServerInfo } from '../../host/serverInfo';
import { LIST_TOOLS_TOOL, toolEntries, toolsJson, type ListToolsInput } from './agentTools';
import { toolNameMapOfServers, type NamedTool } from './toolNames';
import { rankTools } from './toolSearch';
import { budgetNote, DEFAULT_DESCRIPTION_CAP, serverOffers, serversOverBudget, tokensText, type TokenSize } from './contextBudget';

/** The context budget of a plain list: past it, the largest servers' tools are left to a query (see contextBudget). */
export interface ListBudget {
  /** Tokens the listed definitions may take. */
  tokens: number;
  descriptionCap: number;
  sizeOf(t: NamedTool): TokenSize;
}

/** Tools a list with a query gives unless asked for another number, and at most. */
export const LIST_QUERY_RESULTS = { default: 10, max: 50 } as const;

/** The list for a query, or the overview of too many tools; undefined when the plain list (toolListForModel) fits. */
export function searchedToolList(servers: readonly ServerInfo[], input: ListToolsInput, maxTools: number, budget?: ListBudget): string | undefined {
  const cap = budget?.descriptionCap ?? DEFAULT_DESCRIPTION_CAP;
  const wanted = typeof input.server === 'string' && input.server ? input.server : undefined;
  const query = typeof input.query === 'string' && input.query.trim() ? input.query : undefined;
  const tools = toolNameMapOfServers(servers).tools.filter((t) => !wanted || t.serverName === wanted);
  if (!tools.length) return undefined;
  if (query) {
    const asked = typeof input.limit === 'number' && Number.isFinite(input.limit) ? Math.floor(input.limit) : LIST_QUERY_RESULTS.default;
    const found = rankTools(tools, query, Math.min(LIST_QUERY_RESULTS.max, Math.max(1, asked)));
    return found.length ? toolsJson(found, cap) : `No MCP tool matches "${query.slice(0, 200)}". Try other words: what the tool does, or its server's name.`;
  }
  if (wanted) return undefined;
  if (tools.length <= maxTools) return budget && overBudget(servers, tools, budget);
  const counts = new Map<string, number>();
  for (const t of tools) counts.set(t.serverName, (counts.get(t.serverName) ?? 0) + 1);
  return JSON.stringify(
    {
      note: `The running MCP servers offer ${tools.length} tools, too many to list with their schemas. Call ${LIST_TOOLS_TOOL} again with a "query" (what the tool should do) for the best matches, or with a "server".`,
      servers: [...counts].map(([server, count]) => ({ server, tools: count })),
    },
    null,
    2,
  );
}

/** The list within the budget: the other servers' tools in full, the largest ones' by count, to ask for by query. */
function overBudget(servers: readonly ServerInfo[], tools: readonly NamedTool[], budget: ListBudget): string | undefined {
  const always = new Set(servers.filter((s) => s.definition.alwaysOffered).map((s) => s.id));
  const moved = serversOverBudget(serverOffers(tools, budget.sizeOf, (id) => always.has(id)), budget.tokens);
  if (!moved.length) return undefined;
  const movedIds = new Set(moved.map((o) => o.serverId));
  return JSON.stringify(
    {
      note: `${budgetNote(moved, budget.tokens)} Call ${LIST_TOOLS_TOOL} with a "query" (what the tool should do) for their best matching tools, or with a "server" for all of its tools.`,
      searchedServers: moved.map((o) => ({ server: o.serverName, tools: o.tools, size: tokensText(o) })),
      tools: toolEntries(tools.filter((t) => !movedIds.has(t.serverId)), budget.descriptionCap),
    },
    null,
    2,
  );
}
