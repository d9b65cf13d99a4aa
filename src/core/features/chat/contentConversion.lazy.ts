// MCP content to what a language model reads, and the model's tool calls back to MCP `tools/call` requests.
import type { CallToolResult, ContentBlock, GetPromptResult, ResourceLink } from '@modelcontextprotocol/client';
import { imageFromBase64, type ModelContentPart, type ModelMessage, type ModelPart } from '../languageModel';
import type { NamedTool, ToolNameMap } from '../tools/toolNames';

/** A resource's contents as servers send them: text or base64 `blob` (the SDK types the two apart, or not at all). */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export interface ConversionOptions {
  /** The model takes images as data parts (only in user messages and tool results). */
  images: boolean;
  /** Reads what a resource link points to; undefined (or no resolver) leaves the link as a reference. */
  resolveLink?(link: ResourceLink): Promise<ResourceContents[] | undefined>;
}

const IMAGE_MIME = /^image\/(png|jpe?g|gif|webp|bmp)$/i;

const byteSize = (base64: string): number => Math.floor((base64.replace(/=+$/, '').length * 3) / 4);

/** An embedded, linked or attached resource as a block of context the model can tell apart from the conversation. */
export function contextBlock(contents: ResourceContents, images: boolean): ModelContentPart {
  const mime = contents.mimeType ?? 'application/octet-stream';
  if (typeof contents.text === 'string') {
    return { kind: 'text', text: `<resource uri="${contents.uri}" mimeType="${contents.mimeType ?? 'text/plain'}">\n${contents.text}\n</resource>` };
  }
  const blob = contents.blob ?? '';
  if (images && IMAGE_MIME.test(mime)) return imageFromBase64(mime, blob);
  return { kind: 'text', text: `[Binary resource ${contents.uri} (${mime}, ${byteSize(blob)} bytes) is not included.]` };
}

function linkReference(link: ResourceLink): string {
  const details = [link.mimeType, link.description].filter(Boolean).join(' — ');
  return `[Resource link: ${link.title ?? link.name} <${link.uri}>${details ? ` (${details})` : ''}]`;
}

/** One MCP content block as model parts. */
async function blockToParts(block: ContentBlock, options: ConversionOptions): Promise<ModelContentPart[]> {
  switch (block.type) {
    case 'text':
      return [{ kind: 'text', text: block.text }];
    case 'image':
      return options.images && IMAGE_MIME.test(block.mimeType)
        ? [imageFromBase64(block.mimeType, block.data)]
        : [{ kind: 'text', text: `[Image (${block.mimeType}, ${byteSize(block.data)} bytes): this model does not take images.]` }];
    case 'audio':
      return [{ kind: 'text', text: `[Audio (${block.mimeType}, ${byteSize(block.data)} bytes) is not included: models here do not take audio.]` }];
    case 'resource':
      return [contextBlock(block.resource as ResourceContents, options.images)];
    case 'resource_link': {
      const contents = await options.resolveLink?.(block).catch(() => undefined);
      return contents?.length ? contents.map((c) => contextBlock(c, options.images)) : [{ kind: 'text', text: linkReference(block) }];
    }
    default:
      return [{ kind: 'text', text: `[Unsupported content of type "${(block as { type: string }).type}".]` }];
  }
}

export async function contentToModelParts(blocks: readonly ContentBlock[], options: ConversionOptions): Promise<ModelContentPart[]> {
  return (await Promise.all(blocks.map((b) => blockToParts(b, options)))).flat();
}

/**
 * A prompt's messages as the conversation sent to the model. Consecutive messages of one role are merged (model
 * APIs expect turns to alternate), and assistant turns carry no images (models accept them only from the user).
 */
export async function promptToModelMessages(result: Pick<GetPromptResult, 'messages'>, options: ConversionOptions): Promise<ModelMessage[]> {
  const out: ModelMessage[] = [];
  for (const message of result.messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const parts = await blockToParts(message.content, { ...options, images: options.images && role === 'user' });
    const last = out.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  }
  return out;
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/**
 * A tool's result as the model reads it. `isError` results say so, so the model can react; structured content the
 * server did not also send as text is added as JSON.
 */
export async function toolResultToModel(callId: string, result: CallToolResult, options: ConversionOptions): Promise<ModelPart> {
  const content = await contentToModelParts(result.content ?? [], options);
  const structured = result.structuredContent;
  if (structured !== undefined && !content.some((p) => p.kind === 'text' && sameJson(p.text, structured))) {
    content.push({ kind: 'text', text: `Structured result:\n${JSON.stringify(structured, null, 2)}` });
  }
  if (result.isError) content.unshift({ kind: 'text', text: 'The tool reported an error:' });
  if (!content.length) content.push({ kind: 'text', text: '(The tool returned no content.)' });
  return { kind: 'toolResult', callId, content };
}

/** A tool call that did not run (denied, failed, unknown tool), told to the model as its result. */
export const toolErrorToModel = (callId: string, message: string): ModelPart => ({ kind: 'toolResult', callId, content: [{ kind: 'text', text: message }] });

export type McpToolCall = { ok: true; tool: NamedTool; arguments: Record<string, unknown> } | { ok: false; error: string };

/** The MCP call behind a model's tool call: the original server and tool name, and the input as arguments. */
export function toolCallToMcp(call: { name: string; input: unknown }, names: ToolNameMap): McpToolCall {
  const tool = names.lookup(call.name);
  if (!tool) return { ok: false, error: `There is no tool named "${call.name}".` };
  let input = call.input ?? {};
  // Some models send the arguments as a JSON string rather than an object.
  if (typeof input === 'string') {
    try {
      input = input.trim() ? JSON.parse(input) : {};
    } catch {
      return { ok: false, error: `The input for "${call.name}" is not valid JSON.` };
    }
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, error: `The input for "${call.name}" must be a JSON object.` };
  }
  return { ok: true, tool, arguments: input as Record<string, unknown> };
}

/** A conversation as plain text (to copy, or to put in the chat input): role headings only when both roles speak. */
export function modelMessagesToText(messages: readonly ModelMessage[]): string {
  const bothRoles = new Set(messages.map((m) => m.role)).size > 1;
  return messages
    .map((m) => {
      const text = m.parts
        .map((p) => (p.kind === 'text' ? p.text : p.kind === 'image' ? `[Image (${p.mimeType})]` : ''))
        .filter(Boolean)
        .join('\n\n');
      return bothRoles ? `${m.role === 'user' ? 'User' : 'Assistant'}:\n${text}` : text;
    })
    .join('\n\n');
}
