// MCP content as Markdown for people: in chat responses and in the "Run Prompt" document. What servers send is
// shown verbatim inside code fences, so it can never turn into links, HTML or commands.
import type { CallToolResult, ContentBlock, GetPromptResult, ResourceLink } from '@modelcontextprotocol/client';

/** Images up to this size are shown inline as data URIs; bigger ones are described. */
const MAX_INLINE_IMAGE_BYTES = 512 * 1024;

export interface MarkdownOptions {
  /** Where a resource link should lead (e.g. a document URI of the resources provider); undefined shows the raw URI. */
  linkTarget?(link: ResourceLink): string | undefined;
}

/** A code fence longer than any run of backticks in `text`. */
export function fenced(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/**
 * Text safe to put inside Markdown emphasis or link titles: no link, image, HTML or emphasis of its own. `:` and `@`
 * too, so bare URLs and e-mail addresses are not turned into links (GFM does that without any brackets).
 */
export const escapeMarkdown = (text: string): string => text.replace(/[\\`*_{}[\]()#+\-.!|<>~:@]/g, (c) => `\\${c}`);

/**
 * Inline code holding any text on one line: every line ending (`\r` alone too) becomes a space, as a blank line would
 * end the paragraph and leave the rest outside the span, and the fence is longer than any backtick run inside.
 */
export function inlineCode(text: string): string {
  const flat = text.replace(/\r\n?|\n/g, ' ');
  const fence = '`'.repeat(Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

const byteSize = (base64: string): number => Math.floor((base64.replace(/=+$/, '').length * 3) / 4);

function blockToMarkdown(block: ContentBlock, options: MarkdownOptions): string {
  switch (block.type) {
    case 'text':
      return fenced(block.text);
    case 'image':
      return byteSize(block.data) <= MAX_INLINE_IMAGE_BYTES && /^image\/[a-z+.-]+$/i.test(block.mimeType)
        ? `![image](data:${block.mimeType};base64,${block.data})`
        : `*Image (${escapeMarkdown(block.mimeType)}, ${byteSize(block.data)} bytes)*`;
    case 'audio':
      return `*Audio (${escapeMarkdown(block.mimeType)}, ${byteSize(block.data)} bytes)*`;
    case 'resource': {
      const r = block.resource;
      const header = `Resource ${inlineCode(r.uri)}${r.mimeType ? ` (${escapeMarkdown(r.mimeType)})` : ''}`;
      return 'text' in r && typeof r.text === 'string'
        ? `${header}:\n\n${fenced(r.text)}`
        : `${header}: ${byteSize((r as { blob?: string }).blob ?? '')} bytes of binary data`;
    }
    case 'resource_link': {
      const target = options.linkTarget?.(block);
      const title = escapeMarkdown(block.title ?? block.name);
      const where = target ? `[${title}](${target})` : `${title} ${inlineCode(block.uri)}`;
      return `Resource link: ${where}${block.description ? ` — ${escapeMarkdown(block.description)}` : ''}`;
    }
    default:
      return `*Unsupported content of type "${escapeMarkdown(String((block as { type: string }).type))}"*`;
  }
}

export function contentToMarkdown(blocks: readonly ContentBlock[], options: MarkdownOptions = {}): string {
  return blocks.map((b) => blockToMarkdown(b, options)).join('\n\n');
}

/** An expanded prompt, message by message. */
export function promptToMarkdown(result: Pick<GetPromptResult, 'messages' | 'description'>, options: MarkdownOptions = {}): string {
  const parts = result.messages.map((m) => `**${m.role}**\n\n${blockToMarkdown(m.content, options)}`);
  return [result.description ? `*${escapeMarkdown(result.description)}*` : '', ...parts].filter(Boolean).join('\n\n');
}

/** A tool result: its content, then structured content, with an error marked as such. */
export function toolResultToMarkdown(result: CallToolResult, options: MarkdownOptions = {}): string {
  const parts: string[] = [];
  if (result.isError) parts.push('**The tool reported an error.**');
  if (result.content?.length) parts.push(contentToMarkdown(result.content, options));
  if (result.structuredContent !== undefined) parts.push(`Structured content:\n\n${fenced(JSON.stringify(result.structuredContent, null, 2), 'json')}`);
  if (!parts.length) parts.push('*(no content)*');
  return parts.join('\n\n');
}
