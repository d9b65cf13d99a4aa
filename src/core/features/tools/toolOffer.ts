// Which MCP tools one model request carries. Model APIs take a limited number of tools per request (128 for most;
// `mcpHost.chat.maxToolsPerRequest`). When the tools fit, all go. When they do not, none is dropped: the model gets a
// search tool instead, asks it for what it needs in words, and the best matches (with their input schemas) are offered
// from the next round on, beside the tools of the servers the user named in the request. A found tool is called like
// any other; every MCP tool stays callable by its name, and the user's consent applies as always.
import type { ModelTool } from '../languageModel';
import type { NamedTool, ToolNameMap } from './toolNames';
import { FIELD_LIMITS, ToolSearchIndex } from './toolSearch';
import { capText, DEFAULT_DESCRIPTION_CAP, modelDescription } from './contextBudget';

export const SEARCH_TOOL_NAME = 'search_mcp_tools';
/** Tools a search returns unless the model asks for another number, and at most. */
export const SEARCH_RESULTS = { default: 5, max: 20 } as const;
/** A description the search result carries at most (the rest is cut). */
const DESCRIPTION_LIMIT = 1000;
/** Server names the search tool's description lists at most. */
const LISTED_SERVERS = 60;

/** The definition a model gets: its description cut at the cap (see contextBudget). */
export const toModelTool = (t: NamedTool, descriptionCap: number = DEFAULT_DESCRIPTION_CAP): ModelTool => ({
  name: t.modelName,
  description: modelDescription(t, descriptionCap),
  inputSchema: t.tool.inputSchema,
});

export interface ToolOfferOptions {
  /** Tools one request may carry, in all. */
  maxTools: number;
  /** Of those, taken by tools beyond the MCP servers' (the user's `#tool` references). */
  reserved: number;
  /** Servers the user named in the request: their tools are offered first, without a search. */
  mentionedServers?: readonly string[];
  /**
   * Servers (ids) whose tools are offered through the search to keep the request within the context budget (see
   * contextBudget): the other servers' tools are offered as they are.
   */
  searchedServers?: ReadonlySet<string>;
  /** Characters of a description the model gets at most (the rest is cut with a marker). */
  descriptionCap?: number;
}

export interface SearchOutcome {
  query: string;
  found: NamedTool[];
  /** The search tool's result, as the model reads it. */
  text: string;
}

export class ToolOffer {
  /** Model names of the tools searches found, the latest first. */
  private found: string[] = [];
  private index?: ToolSearchIndex<NamedTool>;
  readonly searchToolName: string;

  constructor(
    private current: ToolNameMap,
    private readonly options: ToolOfferOptions,
  ) {
    let name = SEARCH_TOOL_NAME;
    for (let n = 2; current.lookup(name); n++) name = `${SEARCH_TOOL_NAME}_${n}`;
    this.searchToolName = name;
  }

  get map(): ToolNameMap {
    return this.current;
  }

  /** How many MCP tools a request may carry beside the user's own. */
  private get budget(): number {
    return Math.max(0, this.options.maxTools - this.options.reserved);
  }

  /** More tools than a request carries: the model searches them. */
  private get crowded(): boolean {
    return this.current.tools.length > this.budget;
  }

  /** Some tools are searched: more than a request carries, or servers moved behind the search by the budget. */
  get searching(): boolean {
    const searched = this.options.searchedServers;
    return this.crowded || (!!searched?.size && this.current.tools.some((t) => searched.has(t.serverId)));
  }

  private get cap(): number {
    return this.options.descriptionCap ?? DEFAULT_DESCRIPTION_CAP;
  }

  /**
   * This round's tools: all of them when they fit; else the named servers', the found ones and the search tool — and,
   * when only the budget moved some servers behind the search, every tool of the others.
   */
  tools(): ModelTool[] {
    const all = this.current.tools;
    const cap = this.cap;
    if (!this.searching) return all.map((t) => toModelTool(t, cap));
    const slots = Math.max(0, this.budget - 1);
    const mentioned = new Set(this.options.mentionedServers ?? []);
    const searched = this.crowded ? undefined : this.options.searchedServers;
    const direct = (t: NamedTool) => mentioned.has(t.serverName) || (searched !== undefined && !searched.has(t.serverId));
    const chosen = new Map<string, NamedTool>();
    for (const t of all) if (chosen.size < slots && direct(t)) chosen.set(t.modelName, t);
    for (const name of this.found) {
      const t = this.current.lookup(name);
      if (chosen.size < slots && t) chosen.set(name, t);
    }
    return [...[...chosen.values()].map((t) => toModelTool(t, cap)), this.searchTool(all)];
  }

  /** The same offer without some tools (the model API refused them). */
  without(modelNames: ReadonlySet<string>): void {
    this.current = this.current.without(modelNames);
    this.found = this.found.filter((n) => !modelNames.has(n));
    this.index = undefined;
  }

  isSearch(name: string): boolean {
    return this.searching && name === this.searchToolName;
  }

  /** Runs the model's search: the best matches, offered from the next round on. */
  search(input: Record<string, unknown>): SearchOutcome {
    const query = typeof input.query === 'string' ? input.query.slice(0, FIELD_LIMITS.query) : '';
    if (!query.trim()) return { query, found: [], text: 'Give "query": what the tool should do, in a few words (e.g. "create a GitHub issue").' };
    const asked = typeof input.limit === 'number' && Number.isFinite(input.limit) ? Math.floor(input.limit) : SEARCH_RESULTS.default;
    const limit = Math.min(SEARCH_RESULTS.max, Math.max(1, asked));
    this.index ??= new ToolSearchIndex(this.current.tools);
    const found = this.index.search(query, limit).map((m) => m.item);
    if (!found.length) {
      return { query, found, text: `No MCP tool matches "${query}". Try other words: what the tool does, or the name of its server (${this.serverNames().join(', ')}).` };
    }
    const names = found.map((t) => t.modelName);
    this.found = [...names, ...this.found.filter((n) => !names.includes(n))];
    return { query, found, text: searchResultText(found, 'These tools are now offered to you: call one by its "name" with arguments matching its "inputSchema".', this.cap) };
  }

  private serverNames(): string[] {
    return [...new Set(this.current.tools.map((t) => t.serverName))];
  }

  private searchTool(all: readonly NamedTool[]): ModelTool {
    return searchToolDefinition(this.searchToolName, all.length, this.serverNames());
  }
}

/** The search tool as a request carries it: what it searches (`tools` tools of `servers`) and how to ask. */
export function searchToolDefinition(name: string, tools: number, servers: readonly string[]): ModelTool {
  const listed = servers.slice(0, LISTED_SERVERS).join(', ') + (servers.length > LISTED_SERVERS ? `, and ${servers.length - LISTED_SERVERS} more` : '');
  return {
    name,
    description:
      `Searches the ${tools} tools of the user's MCP servers (${listed}): more than can be offered at once. ` +
      'Describe what you need in a few words (e.g. "create a GitHub issue", "list postgres tables"); the best matching tools come back with ' +
      'their input schemas and are offered to you from then on, to call by name. Search again for other needs.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool should do, and the server if you know it.' },
        limit: { type: 'integer', minimum: 1, maximum: SEARCH_RESULTS.max, description: `How many tools to return (default ${SEARCH_RESULTS.default}).` },
      },
      required: ['query'],
    },
  };
}

/** Tools as a search or list returns them to a model: JSON with each tool's name, server, description and schema. */
export function searchResultText(tools: readonly NamedTool[], note?: string, descriptionCap: number = DEFAULT_DESCRIPTION_CAP): string {
  const cap = Math.min(descriptionCap, DESCRIPTION_LIMIT);
  return JSON.stringify(
    {
      ...(note ? { note } : {}),
      tools: tools.map((t) => ({
        name: t.modelName,
        server: t.serverName,
        tool: t.tool.name,
        ...(t.tool.title ? { title: t.tool.title } : {}),
        ...(t.tool.description ? { description: capText(t.tool.description, cap) } : {}),
        inputSchema: t.tool.inputSchema,
      })),
    },
    null,
    2,
  );
}
