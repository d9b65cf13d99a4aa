// The Markdown of @mcp's listings (`/prompts`, `/tools`, `/resources`), with links that run a prompt, call a tool or
// attach a resource. Chat renders it trusted for our own commands so that these links work: every text a server chose
// (names, titles, descriptions, URIs, MIME types) is escaped on one line or in a one-line code span, so none can
// become a link.
import type { ServerInfo } from '../../host/serverInfo';
import { firstLine, inlineCode, markdownLine } from '../../presentation/serverText';
import { promptCommandName, type PromptEntry } from '../prompts/promptCatalog';
import { CommandIds } from '../../common/commandIds';
import { toolLabel } from '../../presentation/serverPresentation';

/**
 * Opens chat with an `@mcp` query, as `workbench.action.chat.open` would. Links use this instead of VS Code's command:
 * a link that reached VS Code's would send any text to any participant, ours sends only `@mcp /prompt…` (see
 * {@link linkedChatQuery}).
 */

/** The query of a {@link CommandIds.openChat} link's argument, if it is one our listings write: run or list prompts. */
export function linkedChatQuery(arg: unknown): string | undefined {
  const query = (arg as { query?: unknown } | undefined)?.query;
  return typeof query === 'string' && /^@mcp \/prompts?( |$)/.test(query) ? query : undefined;
}

/**
 * `[title](command:id?args)`. The arguments are percent-encoded JSON with `(` and `)` encoded too (encodeURIComponent
 * keeps them): a `)` in a server's name would otherwise end the link early and cut its arguments.
 */
export function commandLink(title: string, command: string, ...args: unknown[]): string {
  const query = encodeURIComponent(JSON.stringify(args)).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `[${markdownLine(title)}](command:${command}?${query})`;
}

/** `/prompts`: every prompt under its server, each with a link that runs it in chat. */
export function promptsListing(entries: readonly PromptEntry[]): string {
  const lines: string[] = [];
  let server: string | undefined;
  for (const e of entries) {
    if (e.serverName !== server) {
      server = e.serverName;
      lines.push(`### ${markdownLine(server)}`);
    }
    const args = (e.prompt.arguments ?? []).map((a) => `${markdownLine(a.name)}${a.required ? '\\*' : ''}`).join(', ');
    const run = commandLink(`Run ${promptCommandName(e)}`, CommandIds.openChat, { query: `@mcp /prompt ${promptCommandName(e)}` });
    const description = e.prompt.description ? ` — ${markdownLine(e.prompt.description)}` : '';
    lines.push(`- **${markdownLine(e.prompt.title ?? e.prompt.name)}** ${inlineCode(e.prompt.name)}${description}${args ? ` (arguments: ${args})` : ''} · ${run}`);
  }
  return lines.join('\n\n');
}

/** `/tools`: every tool of the running servers, each with a link that calls it outside the model (its form asks the arguments). */
export function toolsListing(running: readonly ServerInfo[]): string {
  const lines: string[] = [];
  for (const s of running) {
    lines.push(`### ${markdownLine(s.name)}`);
    if (!s.features.tools.length) lines.push('No tools.');
    for (const t of s.features.tools) {
      const hints = [t.annotations?.readOnlyHint ? 'read-only' : '', t.annotations?.destructiveHint && !t.annotations.readOnlyHint ? 'destructive' : '']
        .filter(Boolean)
        .join(', ');
      const description = t.description ? ` — ${markdownLine(firstLine(t.description))}` : '';
      const call = commandLink(`Call ${t.name}…`, CommandIds.callTool, s.id, t.name);
      lines.push(`- **${markdownLine(toolLabel(t))}** ${inlineCode(t.name)}${hints ? ` *(${hints})*` : ''}${description} · ${call}`);
    }
  }
  lines.push('Ask in plain words (`@mcp …`) and the model calls these tools itself, after you allow each call.');
  return lines.join('\n\n');
}

/** `/resources`: every resource of the running servers, each with a link that attaches it to the next request. */
export function resourcesListing(running: readonly ServerInfo[], attachCommand: string): string {
  const lines: string[] = [];
  for (const s of running) {
    lines.push(`### ${markdownLine(s.name)}`);
    const { resources, resourceTemplates } = s.features;
    if (!resources.length && !resourceTemplates.length) lines.push('No resources.');
    for (const r of resources) {
      const label = r.title ?? r.name;
      const attach = commandLink(`Attach ${label}`, attachCommand, s.id, r.uri);
      lines.push(`- **${markdownLine(label)}** ${inlineCode(r.uri)}${r.mimeType ? ` *(${markdownLine(r.mimeType)})*` : ''} · ${attach}`);
    }
    for (const t of resourceTemplates) lines.push(`- Template **${markdownLine(t.title ?? t.name)}** ${inlineCode(t.uriTemplate)}`);
  }
  lines.push('Attached resources go with your next `@mcp` question.');
  return lines.join('\n\n');
}
