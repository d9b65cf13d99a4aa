// What a tool result shows a person, block by block: text as text (JSON text pretty-printed), images and audio with
// their decoded size, resource links to open, embedded resources, structured content, and whether the tool said it
// failed. Pure data: the VS Code layer renders it.
import type { CallToolResult, ContentBlock, ResourceLink } from '@modelcontextprotocol/client';

export type ResultBlock =
  | { kind: 'text'; text: string }
  /** Text that parsed as JSON, pretty-printed. */
  | { kind: 'json'; json: string }
  | { kind: 'image' | 'audio'; mimeType: string; base64: string; bytes: number; displayable: boolean }
  | { kind: 'resourceLink'; link: ResourceLink }
  | { kind: 'resource'; uri: string; mimeType?: string; text?: string; bytes?: number }
  | { kind: 'unsupported'; type: string };

export interface ToolResultView {
  isError: boolean;
  blocks: ResultBlock[];
  /** `structuredContent`, pretty-printed, when the tool returned it. */
  structured?: string;
}

/** Only well-formed base64 goes into a data URI. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MEDIA_TYPE = /^(image|audio)\/[a-z0-9][a-z0-9+.-]*$/i;

/** Bytes encoded by a base64 string (whitespace ignored): what a user means by an image's size. */
export function base64Bytes(base64: string): number {
  const clean = base64.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** `0 bytes`, `512 bytes`, `1.5 KB`, `2.0 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function prettyJson(text: string): string | undefined {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return undefined;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return undefined;
  }
}

function block(content: ContentBlock): ResultBlock {
  switch (content.type) {
    case 'text': {
      const json = prettyJson(content.text);
      return json === undefined ? { kind: 'text', text: content.text } : { kind: 'json', json };
    }
    case 'image':
    case 'audio': {
      const base64 = content.data.replace(/\s+/g, '');
      const displayable = MEDIA_TYPE.test(content.mimeType) && content.mimeType.toLowerCase().startsWith(content.type) && BASE64.test(base64);
      return { kind: content.type, mimeType: content.mimeType, base64, bytes: base64Bytes(base64), displayable };
    }
    case 'resource_link':
      return { kind: 'resourceLink', link: content };
    case 'resource': {
      const r = content.resource;
      return 'text' in r && typeof r.text === 'string'
        ? { kind: 'resource', uri: r.uri, mimeType: r.mimeType, text: r.text }
        : { kind: 'resource', uri: r.uri, mimeType: r.mimeType, bytes: base64Bytes(String((r as { blob?: unknown }).blob ?? '')) };
    }
    default:
      return { kind: 'unsupported', type: String((content as { type?: unknown }).type) };
  }
}

export function toolResultView(result: CallToolResult): ToolResultView {
  return {
    isError: result.isError === true,
    blocks: (result.content ?? []).map(block),
    structured: result.structuredContent === undefined ? undefined : JSON.stringify(result.structuredContent, null, 2),
  };
}
