// What the gateway offers and where each request goes: the tools of the running (so trusted) servers, and of dormant ones
// (known from their last run, started by their first use), under the names
// every model surface uses (`<server>_<tool>`, the user's switches applied: toolNameMapOfServers), their prompts
// under `<server>_<prompt>` and their resources by URI. A tools/call goes through the one guarded path (ToolCaller),
// consent naming the client; prompts and resources through the session port. No SDK here: the HTTP part
// (gatewayHttp.lazy.ts) turns these into MCP answers.
import type { CallToolResult, GetPromptResult, Progress, Prompt, ReadResourceResult, Resource, Tool } from '@modelcontextprotocol/client';
import { offersFeatures, type ServerInfo, type ResourceTemplate } from '../../host/serverInfo';
import { sessionForUse } from '../../host/sessionForUse';
import type { SessionPort } from '../../host/serverSession';
import type { ConsentContext, GuardedCallOutcome, ToolCall } from '../tools/toolCaller';
import { baseModelToolName, toolMapParts, toolNameMapOfServers, type ToolNameMap } from '../tools/toolNames';
import { switchedOff, switchedOffMessage } from '../tools/toolSwitches';
import { plainText, truncate } from '../../presentation/serverText';
import { GATEWAY_LIMITS } from './gatewayRequestCheck';

/** The one guarded tool call path (ToolCaller), as the gateway uses it. */
export interface GuardedCaller {
  call(call: ToolCall, context?: ConsentContext): Promise<GuardedCallOutcome>;
}

export interface GatewayRelayDeps {
  sessions: SessionPort;
  caller: GuardedCaller;
}

/** Who sends a request: the client's name as shown to the user (see clientLabel). */
export interface GatewayCaller {
  name: string;
}

export interface RelayOptions {
  signal?: AbortSignal;
  onProgress?(progress: Progress): void;
}

/** A request the gateway refuses: its words go back to the client as the error. */
export class GatewayRequestError extends Error {}

/**
 * The longest tool name the gateway gives. Its clients put their own prefix before each name and cut the whole at 64
 * characters: VS Code 1.139 `mcp_`, at most 13 characters of the server's label and `_` (`mcp_mcp_host_gate_`, 18), so a
 * longer name would lose its end there (where a long name's hash is) and two tools could get one name in VS Code's
 * tool picker and confirmations. Claude Code's `mcp__mcp-host__` (15) fits too.
 */
export const GATEWAY_TOOL_NAME_LENGTH = 64 - 18;

/** Characters of a tool's title as the gateway gives it. */
const GATEWAY_TITLE_LENGTH = 200;

/** The servers whose offer is known: running, or dormant (known from their last run; started by their first use). */
const offering = (servers: readonly ServerInfo[]) => servers.filter((s) => offersFeatures(s.state));

const checkName = (what: string, name: unknown): string => {
  if (typeof name !== 'string' || !name) throw new GatewayRequestError(`Give the ${what}.`);
  if (name.length > GATEWAY_LIMITS.maxNameLength) throw new GatewayRequestError(`The ${what} is longer than ${GATEWAY_LIMITS.maxNameLength} characters: no such thing here.`);
  return name;
};

interface NamedPrompt {
  name: string;
  serverId: string;
  prompt: Prompt;
}

export class GatewayRelay {
  /** The last tool name map, with what it was made of: every call resolves its tool in it (2,000 tools: a few ms). */
  private lastMap: { parts: readonly unknown[]; map: ToolNameMap } | undefined;

  constructor(private readonly deps: GatewayRelayDeps) {}

  /** The gateway's tool names of `servers`, made again only when a running server, its definition or its tools changed. */
  private toolMap(servers: readonly ServerInfo[]): ToolNameMap {
    const parts = toolMapParts(servers);
    const last = this.lastMap;
    if (last && last.parts.length === parts.length && last.parts.every((p, i) => p === parts[i])) return last.map;
    const map = toolNameMapOfServers(servers, GATEWAY_TOOL_NAME_LENGTH);
    this.lastMap = { parts, map };
    return map;
  }

  /**
   * The tools offered, named `<server>_<tool>`: a tool switched off, or meant only for its view, is not there. Each
   * title starts with its server's name (the user's): a client shows every tool of the gateway under one server (VS
   * Code's picker and confirmations: "MCP Host", by the title), where a server's own title could pass for another's.
   */
  tools(): Tool[] {
    return this.toolMap(this.deps.sessions.servers()).tools.map((t) => {
      const title = truncate(`${plainText(t.serverName)}: ${plainText(t.tool.annotations?.title || t.tool.title || t.tool.name)}`, GATEWAY_TITLE_LENGTH);
      return {
        title,
        name: t.modelName,
        description: t.tool.description ?? `Tool "${plainText(t.tool.name)}" of MCP server "${plainText(t.serverName)}"`,
        inputSchema: t.tool.inputSchema,
        ...(t.tool.outputSchema ? { outputSchema: t.tool.outputSchema } : {}),
        annotations: { ...t.tool.annotations, title },
      };
    });
  }

  /** Calls a tool by its gateway name, through the one guarded path: the user's consent names the client. */
  async callTool(client: GatewayCaller, name: unknown, args: unknown, options: RelayOptions = {}): Promise<CallToolResult> {
    const wanted = checkName('tool name', name);
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) throw new GatewayRequestError('"arguments" must be a JSON object.');
    const servers = this.deps.sessions.servers();
    const tool = this.toolMap(servers).lookup(wanted);
    if (!tool) throw new GatewayRequestError(this.offMessage(servers, wanted) ?? `No MCP tool is named "${wanted}" here: list the tools for their names.`);
    const outcome = await this.deps.caller.call(
      { serverId: tool.serverId, tool: tool.tool, arguments: (args ?? {}) as Record<string, unknown>, origin: `${client.name} (through the gateway)`, signal: options.signal, onProgress: options.onProgress, mayBackground: true },
      { caller: client.name },
    );
    if (!outcome.ran) return { isError: true, content: [{ type: 'text', text: `The user did not allow this call of ${tool.tool.name} (${tool.serverName}). Do not retry it.` }] };
    return outcome.result;
  }

  /** The prompts offered, named `<server>_<prompt>`. */
  prompts(): Prompt[] {
    return this.namedPrompts().map(({ name, prompt }) => ({ ...prompt, name }));
  }

  async getPrompt(name: unknown, args: unknown, options: RelayOptions = {}): Promise<GetPromptResult> {
    const wanted = checkName('prompt name', name);
    const found = this.namedPrompts().find((p) => p.name === wanted);
    if (!found) throw new GatewayRequestError(`No MCP prompt is named "${wanted}" here: list the prompts for their names.`);
    const given = args && typeof args === 'object' && !Array.isArray(args) ? Object.fromEntries(Object.entries(args).filter(([, v]) => typeof v === 'string')) : {};
    const session = await sessionForUse(this.deps.sessions, found.serverId, `the prompt ${found.prompt.name}`, options.signal);
    return session.getPrompt(found.prompt.name, given as Record<string, string>, { signal: options.signal });
  }

  /** Every running or dormant server's resources, by their own URIs (the first server that lists a URI answers for it). */
  resources(): Resource[] {
    const seen = new Set<string>();
    const out: Resource[] = [];
    for (const s of offering(this.deps.sessions.servers())) {
      for (const r of s.features.resources) {
        if (seen.has(r.uri)) continue;
        seen.add(r.uri);
        out.push(r);
      }
    }
    return out;
  }

  resourceTemplates(): ResourceTemplate[] {
    return offering(this.deps.sessions.servers()).flatMap((s) => s.features.resourceTemplates);
  }

  async readResource(uri: unknown, options: RelayOptions = {}): Promise<ReadResourceResult> {
    const wanted = checkName('resource URI', uri);
    const servers = offering(this.deps.sessions.servers());
    // A listed resource first; else the server of a template whose fixed start the URI has.
    const owner =
      servers.find((s) => s.features.resources.some((r) => r.uri === wanted)) ??
      servers.find((s) => s.features.resourceTemplates.some((t) => {
        const start = t.uriTemplate.split('{', 1)[0];
        return start.length > 0 && wanted.startsWith(start);
      }));
    if (!owner) throw new GatewayRequestError(`No MCP server here offers the resource "${wanted}".`);
    const session = await sessionForUse(this.deps.sessions, owner.id, 'a read of a resource', options.signal);
    return session.readResource(wanted, { signal: options.signal });
  }

  /** What the lists are made of, to tell clients when one changed. */
  listsKey(): string {
    return JSON.stringify([this.tools().map((t) => [t.name, t.description, t.inputSchema]), this.prompts().map((p) => p.name), this.resources().map((r) => r.uri)]);
  }

  private namedPrompts(): NamedPrompt[] {
    const named: NamedPrompt[] = [];
    const taken = new Set<string>();
    for (const s of offering(this.deps.sessions.servers())) {
      for (const prompt of s.features.prompts) {
        const base = baseModelToolName(s.name, prompt.name);
        let name = base;
        for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
        taken.add(name);
        named.push({ name, serverId: s.id, prompt });
      }
    }
    return named;
  }

  /** Why a name that would be a tool's is not offered: it is switched off. */
  private offMessage(servers: readonly ServerInfo[], wanted: string): string | undefined {
    for (const s of offering(servers)) {
      for (const t of s.features.tools) {
        const why = baseModelToolName(s.name, t.name, GATEWAY_TOOL_NAME_LENGTH) === wanted ? switchedOff(s, t.name) : undefined;
        if (why) return `${switchedOffMessage(s.name, t.name, why)} Do not retry it.`;
      }
    }
    return undefined;
  }
}
