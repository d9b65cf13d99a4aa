// MCP tools for every agent: two stable tools any chat agent can call (VS Code's agent mode, another extension's
// participant) — one lists the tools of the running servers, the other calls one by server and name. VS Code needs
// every language model tool declared in the package, so the MCP tools themselves, which come and go, are reached
// through these two. Pure logic: what the list says, and which MCP tool a call means.
import { offersFeatures, type ServerInfo } from '../../host/serverInfo';
import { type NamedTool, type ToolNameMap, toolNameMapOfServers } from './toolNames';
import { switchedOff, switchedOffMessage } from './toolSwitches';
import { capText, DEFAULT_DESCRIPTION_CAP } from './contextBudget';

export const LIST_TOOLS_TOOL = 'mcpHost_listTools';
export const CALL_TOOL_TOOL = 'mcpHost_callTool';
/** Told to the model after the result of a tool with a view (MCP Apps): the user sees it, the model does not. */
export const VIEW_OPENED_NOTE =
  '[MCP Host] This tool has an interactive view (MCP App). It now shows this result to the user in an editor tab beside the chat, where they can interact with it. You do not see the view itself.';

export interface ListToolsInput {
  /** Only this server's tools. */
  server?: unknown;
  /** Only the tools that best match these words, best first (see toolListSearch). */
  query?: unknown;
  /** With a query: how many tools. */
  limit?: unknown;
}

export interface CallToolInput {
  /** The server's name, as in mcp.json. */
  server?: unknown;
  /** The tool's name on that server. */
  tool?: unknown;
  /** Or the unique name the list gives (`<server>_<tool>`), for servers of the same name in two folders. */
  name?: unknown;
  arguments?: unknown;
}

/** What the model reads: every tool of the running servers with what it takes, as JSON. */
export function toolListForModel(servers: readonly ServerInfo[], input: ListToolsInput = {}, descriptionCap: number = DEFAULT_DESCRIPTION_CAP): string {
  const wanted = typeof input.server === 'string' && input.server ? input.server : undefined;
  const tools = toolNameMapOfServers(servers).tools.filter((t) => !wanted || t.serverName === wanted);
  if (!tools.length) {
    const running = servers.filter((s) => s.state.kind === 'running').map((s) => s.name);
    return wanted
      ? `No running MCP server "${wanted}" offers tools. Running servers: ${running.join(', ') || 'none'}.`
      : 'No running MCP server offers tools. The user configures servers in .vscode/mcp.json and starts them in the MCP view.';
  }
  return toolsJson(tools, descriptionCap);
}

/** Tools as the model reads them: JSON with each tool's unique name, server, tool name, description and schema. */
/** Descriptions are cut at `descriptionCap` characters, with a marker (see contextBudget). */
export function toolsJson(tools: readonly NamedTool[], descriptionCap: number = DEFAULT_DESCRIPTION_CAP): string {
  return JSON.stringify(toolEntries(tools, descriptionCap), null, 2);
}

/** Each tool as the list gives it: its unique name, server, tool name, description (cut) and schema. */
export const toolEntries = (tools: readonly NamedTool[], descriptionCap: number): object[] =>
  tools.map((t) => ({
    name: t.modelName,
    server: t.serverName,
    tool: t.tool.name,
    ...(t.tool.title ? { title: t.tool.title } : {}),
    ...(t.tool.description ? { description: capText(t.tool.description, descriptionCap) } : {}),
    inputSchema: t.tool.inputSchema,
    ...(t.tool.annotations?.readOnlyHint === true ? { readOnly: true } : {}),
  }));

export type ResolvedCall = { ok: true; tool: NamedTool; arguments: Record<string, unknown> } | { ok: false; message: string };

/** The MCP tool a call means, with its arguments; or why it means none, in words the model can act on. */
/** `mapOf`: how the tools' names are made (a caller that keeps the last map passes its own). */
export function resolveToolCall(servers: readonly ServerInfo[], input: CallToolInput, mapOf: (servers: readonly ServerInfo[]) => ToolNameMap = toolNameMapOfServers): ResolvedCall {
  const args = input.arguments ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { ok: false, message: '"arguments" must be a JSON object.' };
  const map = mapOf(servers);
  const running = [...new Set(map.tools.map((t) => t.serverName))];
  let matches: NamedTool[];
  if (typeof input.name === 'string' && input.name) {
    const found = map.lookup(input.name);
    matches = found ? [found] : [];
    if (!found) return { ok: false, message: `No MCP tool is named "${input.name}". Call ${LIST_TOOLS_TOOL} for the names.` };
  } else {
    if (typeof input.server !== 'string' || typeof input.tool !== 'string') {
      return { ok: false, message: `Give "server" and "tool" (or the "name" ${LIST_TOOLS_TOOL} lists).` };
    }
    const { server, tool } = input;
    const ofServer = map.tools.filter((t) => t.serverName === server);
    if (!ofServer.length && offTool(servers, server, tool)) return { ok: false, message: `${offTool(servers, server, tool)} Do not retry it.` };
    if (!ofServer.length) return { ok: false, message: `No running MCP server "${server}" offers tools. Running servers with tools: ${running.join(', ') || 'none'}.` };
    matches = ofServer.filter((t) => t.tool.name === tool);
    const off = matches.length ? undefined : offTool(servers, server, tool);
    if (off) return { ok: false, message: `${off} Do not retry it.` };
    if (!matches.length) {
      return { ok: false, message: `MCP server "${server}" has no tool "${tool}". Its tools: ${ofServer.map((t) => t.tool.name).join(', ')}.` };
    }
    if (matches.length > 1) {
      return { ok: false, message: `Several running servers are named "${server}" (in different folders): give the "name" instead, one of ${matches.map((t) => t.modelName).join(', ')}.` };
    }
  }
  return { ok: true, tool: matches[0], arguments: args as Record<string, unknown> };
}

/** Why a running server's tool is not in the list: it is switched off (see toolSwitches); undefined when it is not. */
function offTool(servers: readonly ServerInfo[], server: string, tool: string): string | undefined {
  for (const s of servers) {
    const why = s.name === server && offersFeatures(s.state) && s.features.tools.some((t) => t.name === tool) ? switchedOff(s, tool) : undefined;
    if (why) return switchedOffMessage(server, tool, why);
  }
  return undefined;
}
