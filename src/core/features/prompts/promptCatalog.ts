// Every prompt of every running server, and how a `server.prompt` name finds one of them.
import { offersFeatures, type Prompt, type ServerInfo } from '../../host/serverInfo';
import { inlineCode, markdownLine } from '../../presentation/serverText';
import { quoteArgument } from './promptArguments';

export interface PromptEntry {
  serverId: string;
  serverName: string;
  /** Where the server is configured (folder name or "User"), to tell apart servers of the same name. */
  scopeLabel: string;
  prompt: Prompt;
}

export function listPrompts(servers: readonly ServerInfo[]): PromptEntry[] {
  return servers
    .filter((s) => offersFeatures(s.state))
    .flatMap((s) => s.features.prompts.map((prompt) => ({ serverId: s.id, serverName: s.name, scopeLabel: s.scope.label, prompt })));
}

/** How the user names a prompt in `/prompt`: `server.prompt`, quoted when the name needs it. */
export const promptCommandName = (e: Pick<PromptEntry, 'serverName' | 'prompt'>): string => quoteArgument(`${e.serverName}.${e.prompt.name}`);

export type PromptLookup = { ok: true; entry: PromptEntry } | { ok: false; message: string };

/**
 * Finds `server.prompt` (server and prompt names may themselves contain dots) or a bare `prompt` that exactly one
 * running server offers. When nothing matches, the message lists what exists, in Markdown: names servers chose are
 * escaped or in code spans, what the user typed is quoted as typed.
 */
export function findPrompt(target: string, servers: readonly ServerInfo[]): PromptLookup {
  const prompts = listPrompts(servers);
  const matches = prompts.filter((e) => target === `${e.serverName}.${e.prompt.name}`);
  if (matches.length) return { ok: true, entry: matches[0] };
  const bare = prompts.filter((e) => e.prompt.name === target);
  if (bare.length === 1) return { ok: true, entry: bare[0] };
  if (bare.length > 1) {
    return { ok: false, message: `Several servers have a prompt "${target}": use ${bare.map((e) => inlineCode(promptCommandName(e))).join(' or ')}.` };
  }
  return { ok: false, message: notFoundMessage(target, servers, prompts) };
}

function notFoundMessage(target: string, servers: readonly ServerInfo[], prompts: PromptEntry[]): string {
  const running = servers.filter((s) => s.state.kind === 'running');
  const server = [...servers].sort((a, b) => b.name.length - a.name.length).find((s) => target.startsWith(`${s.name}.`));
  if (server && !offersFeatures(server.state)) {
    return `Server "${markdownLine(server.name)}" is ${server.state.kind}: start it to use its prompts.`;
  }
  if (server) {
    const names = server.features.prompts.map((p) => inlineCode(p.name));
    return names.length
      ? `Server "${markdownLine(server.name)}" has no prompt "${target.slice(server.name.length + 1)}". Its prompts: ${names.join(', ')}.`
      : `Server "${markdownLine(server.name)}" has no prompts.`;
  }
  if (!running.length) return 'No MCP server is running.';
  if (!prompts.length) return `No running server has prompts (running: ${running.map((s) => markdownLine(s.name)).join(', ')}).`;
  const prefix = target.includes('.') ? `No server "${target.slice(0, target.indexOf('.'))}"` : `No prompt "${target}"`;
  return `${prefix}. Available prompts: ${prompts.map((e) => inlineCode(promptCommandName(e))).join(', ')}.`;
}
