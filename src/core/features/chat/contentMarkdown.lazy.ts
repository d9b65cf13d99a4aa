// MCP content as Markdown for people: in chat responses and in the "Run Prompt" document. What servers send is
// shown verbatim inside code fences, or, when it is Markdown, formatted with every link, image and HTML disarmed
// (presentation/safeMarkdown), so it can never turn into links, HTML or commands.
import type { CallToolResult, ContentBlock, GetPromptResult, ResourceLink } from '@modelcontextprotocol/client';
import { escapeMarkdown, fenced, inlineCode, markdownLine } from '../../presentation/serverText';
import { looksLikeMarkdown, safeMarkdown } from '../../presentation/safeMarkdown';

/** Images up to this size are shown inline as data URIs; bigger ones are described. */
const MAX_INLINE_IMAGE_BYTES = 512 * 1024;

export interface MarkdownOptions {
  /** Where a resource link should lead (e.g. a document URI of the resources provider); undefined shows the raw URI. */
  linkTarget?(link: ResourceLink): string | undefined;
}

const byteSize = (base64: string): number => Math.floor((base64.replace(/=+$/, '').length * 3) / 4);

/** Only base64 goes into a data URI: a `)` in the data would end the image and let the rest be Markdown. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function blockToMarkdown(block: ContentBlock, options: MarkdownOptions): string {
  switch (block.type) {
    case 'text':
      // Markdown a tool wrote shows formatted (disarmed: it can link, load or run nothing); other text as written.
      return looksLikeMarkdown(block.text) ? safeMarkdown(block.text) : fenced(block.text);
    case 'image':
      return byteSize(block.data) <= MAX_INLINE_IMAGE_BYTES && /^image\/[a-z+.-]+$/i.test(block.mimeType) && BASE64.test(block.data)
        ? `![image](data:${block.mimeType};base64,${block.data})`
        : `*Image (${markdownLine(block.mimeType)}, ${byteSize(block.data)} bytes)*`;
    case 'audio':
      return `*Audio (${markdownLine(block.mimeType)}, ${byteSize(block.data)} bytes)*`;
    case 'resource': {
      const r = block.resource;
      const header = `Resource ${inlineCode(r.uri)}${r.mimeType ? ` (${markdownLine(r.mimeType)})` : ''}`;
      return 'text' in r && typeof r.text === 'string'
        ? `${header}:\n\n${fenced(r.text)}`
        : `${header}: ${byteSize((r as { blob?: string }).blob ?? '')} bytes of binary data`;
    }
    case 'resource_link': {
      const target = options.linkTarget?.(block);
      const title = markdownLine(block.title ?? block.name);
      const where = target ? `[${title}](${target})` : `${title} ${inlineCode(block.uri)}`;
      return `Resource link: ${where}${block.description ? ` — ${escapeMarkdown(block.description)}` : ''}`;
    }
    default:
      return `*Unsupported content of type "${markdownLine(String((block as { type: string }).type))}"*`;
  }
}

export function contentToMarkdown(blocks: readonly ContentBlock[], options: MarkdownOptions = {}): string {
  return blocks.map((b) => blockToMarkdown(b, options)).join('\n\n');
}

/** An expanded prompt, message by message. */
export function promptToMarkdown(result: Pick<GetPromptResult, 'messages' | 'description'>, options: MarkdownOptions = {}): string {
  const parts = result.messages.map((m) => `**${m.role}**\n\n${blockToMarkdown(m.content, options)}`);
  return [result.description ? `*${markdownLine(result.description)}*` : '', ...parts].filter(Boolean).join('\n\n');
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
