// Sampling with tools (2025-11-25: `tools` and `toolChoice` in `sampling/createMessage`): the server's tool
// definitions are offered to the model as they are, the model's tool calls go back to the server as `tool_use`
// content with `stopReason: "toolUse"`, and the server sends their results in its next request as `tool_result`
// content. The host runs none of these tools: the server does, with its own.
import { ProtocolErrorCode, type CreateMessageRequestParams, type CreateMessageResult, type SamplingMessage } from '@modelcontextprotocol/client';
import { visibleText } from '../../presentation/serverText';
import { imageFromBase64, type ModelContentPart, type ModelMessage, type ModelPart, type ModelResponsePart, type ModelTool } from '../languageModel';

type Refuse = (code: number, message: string) => never;

/** What model APIs accept as a tool name. */
const MODEL_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_TOOLS = 128;

/** The tools to offer the model and how, or none (no tools, or `toolChoice.mode` "none"). */
export function toolsOfRequest(params: CreateMessageRequestParams, refuse: Refuse): { tools: ModelTool[]; toolMode: 'auto' | 'required' } | undefined {
  const tools = params.tools ?? [];
  const mode = params.toolChoice?.mode ?? 'auto';
  if (!tools.length) {
    if (mode === 'required') refuse(ProtocolErrorCode.InvalidParams, 'toolChoice "required" without tools.');
    return undefined;
  }
  if (tools.length > MAX_TOOLS) refuse(ProtocolErrorCode.InvalidParams, `At most ${MAX_TOOLS} tools per sampling request.`);
  const names = new Set<string>();
  for (const t of tools) {
    if (!MODEL_TOOL_NAME.test(t.name)) refuse(ProtocolErrorCode.InvalidParams, `Tool name ${JSON.stringify(t.name.slice(0, 80))} is not one a model accepts (letters, digits, "_" and "-", at most 64).`);
    if (names.has(t.name)) refuse(ProtocolErrorCode.InvalidParams, `Tool "${t.name}" is offered twice.`);
    names.add(t.name);
  }
  if (mode === 'none') return undefined;
  return { tools: tools.map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema })), toolMode: mode === 'required' ? 'required' : 'auto' };
}

type Block = Exclude<SamplingMessage['content'], unknown[]>;

function contentPart(block: { type: string; text?: string; data?: string; mimeType?: string }, refuse: Refuse): ModelContentPart {
  if (block.type === 'text') return { kind: 'text', text: block.text ?? '' };
  if (block.type === 'image') return imageFromBase64(block.mimeType ?? 'image/png', block.data ?? '');
  return refuse(ProtocolErrorCode.InvalidParams, `${block.type} content is not supported in sampling messages (text and images are).`);
}

/** One sampling message as the model reads it: text, images, the model's earlier tool calls and their results. */
export function toModelMessage(message: SamplingMessage, refuse: Refuse): ModelMessage {
  const blocks = (Array.isArray(message.content) ? message.content : [message.content]) as Block[];
  const parts = blocks.map((b): ModelPart => {
    if (b.type === 'tool_use') return { kind: 'toolCall', callId: b.id, name: b.name, input: b.input };
    if (b.type === 'tool_result') {
      const content = b.content.map((c) => contentPart(c as { type: string }, refuse));
      // A result with only structured content reaches the model as its JSON.
      if (!content.length && b.structuredContent) content.push({ kind: 'text', text: JSON.stringify(b.structuredContent) });
      if (b.isError) content.unshift({ kind: 'text', text: '(The tool reported an error.)' });
      return { kind: 'toolResult', callId: b.toolUseId, content };
    }
    return contentPart(b, refuse);
  });
  return { role: message.role, parts };
}

const asObject = (input: unknown): Record<string, unknown> => {
  if (typeof input === 'string') {
    try {
      return asObject(JSON.parse(input));
    } catch {
      return {};
    }
  }
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
};

/** The model's answer when it called tools: its text, then each call as `tool_use`, stopped for `toolUse`. */
export function toolUseResult(reply: readonly ModelResponsePart[], modelId: string): CreateMessageResult | undefined {
  const calls = reply.filter((p) => p.kind === 'toolCall');
  if (!calls.length) return undefined;
  const text = reply.map((p) => (p.kind === 'text' ? p.text : '')).join('');
  const content = [
    ...(text ? [{ type: 'text' as const, text }] : []),
    ...calls.map((c) => ({ type: 'tool_use' as const, id: c.callId, name: c.name, input: asObject(c.input) })),
  ];
  return { role: 'assistant', model: modelId, stopReason: 'toolUse', content } as unknown as CreateMessageResult;
}

/** The lines the consent dialog adds for a request with tools. */
export function describeTools(params: CreateMessageRequestParams): string[] {
  const tools = params.tools ?? [];
  if (!tools.length) return [];
  const mode = params.toolChoice?.mode ?? 'auto';
  const how = mode === 'none' ? 'not offered (toolChoice "none")' : mode === 'required' ? 'the model must call one' : 'the model may call them';
  return [
    '',
    `Tools the server offers the model (${how}; a call goes back to the server, which runs it):`,
    ...tools.map((t) => `- ${visibleText(t.name)}${t.description ? `: ${visibleText(t.description.split('\n', 1)[0].slice(0, 200))}` : ''}`),
  ];
}

/**
 * What the response review shows of a result: its text, and each tool call with its arguments. The model writes what
 * the server's request led it to, so every character is shown (bidi and control characters as escapes), line by line.
 */
export function describeResult(result: CreateMessageResult): string {
  const blocks = (Array.isArray(result.content) ? result.content : [result.content]) as { type: string; text?: string; mimeType?: string; name?: string; input?: unknown }[];
  const seen = (text: string) => text.split(/\r\n?|\n/).map(visibleText).join('\n');
  return blocks
    .map((b) => (b.type === 'text' ? seen(b.text ?? '') : b.type === 'tool_use' ? `(calls the server's tool "${visibleText(String(b.name))}" with ${visibleText(JSON.stringify(b.input) ?? 'nothing')})` : `(an image, ${visibleText(String(b.mimeType))})`))
    .join('\n');
}
