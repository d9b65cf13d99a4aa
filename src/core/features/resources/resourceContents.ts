// What `resources/read` returns, turned into what an editor, the clipboard or a saved file gets.
import type { BlobResourceContents, TextResourceContents } from '@modelcontextprotocol/client';
import { isTextMime, opensInViewer } from '../../presentation/mimeTypes';
import { fileNameFor } from './resourceLocation';

/** One part of what `resources/read` returns (also what an embedded resource carries). */
export type ResourceContents = TextResourceContents | BlobResourceContents;

/** How many leading bytes of a binary part its notice shows as hex. */
export const HEX_PREVIEW_BYTES = 256;

const utf8 = new TextEncoder();

export function isBlob(part: ResourceContents): part is BlobResourceContents {
  return typeof (part as { blob?: unknown }).blob === 'string';
}

export function textOf(part: ResourceContents): string | undefined {
  return isBlob(part) ? undefined : part.text;
}

/** A part's bytes: text as UTF-8, a blob base64-decoded. */
export function partBytes(part: ResourceContents): Uint8Array {
  if (isBlob(part)) return Buffer.from(part.blob, 'base64');
  return utf8.encode(textOf(part) ?? '');
}

/** A blob of a text MIME type that is valid UTF-8, decoded; undefined for anything binary. */
function blobAsText(part: BlobResourceContents): string | undefined {
  if (!isTextMime(part.mimeType)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(part.blob, 'base64'));
  } catch {
    return undefined;
  }
}

const groupDigits = (n: number): string => n.toLocaleString('en-US');

/** `00000000  89 50 4e 47 0d 0a 1a 0a  00 00 00 0d 49 48 44 52  |.PNG........IHDR|` */
export function hexDump(bytes: Uint8Array, max = HEX_PREVIEW_BYTES): string {
  const lines: string[] = [];
  const end = Math.min(bytes.length, max);
  for (let offset = 0; offset < end; offset += 16) {
    const row = bytes.subarray(offset, Math.min(offset + 16, end));
    const hexes = [...row].map((b) => b.toString(16).padStart(2, '0'));
    const left = hexes.slice(0, 8).join(' ');
    const right = hexes.slice(8).join(' ');
    const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${left.padEnd(23)}  ${right.padEnd(23)}  |${ascii}|`);
  }
  if (bytes.length > end) lines.push(`… ${groupDigits(bytes.length - end)} more bytes`);
  return lines.join('\n');
}

/** What a text editor shows for binary content: what it is, how big, how to get it, and its first bytes. */
export function binaryNotice(bytes: Uint8Array, mimeType: string | undefined): string {
  return [
    `Binary content (${mimeType || 'unknown type'}), ${groupDigits(bytes.length)} bytes.`,
    'Use "Save As…" on the resource to write it to a file.',
    '',
    hexDump(bytes),
  ].join('\n');
}

function renderPart(part: ResourceContents): string {
  if (!isBlob(part)) return textOf(part) ?? '';
  return blobAsText(part) ?? binaryNotice(partBytes(part), part.mimeType);
}

/**
 * A resource's document. One binary part whose file name has a VS Code viewer (an image) is its raw bytes, so the viewer
 * shows it; everything else is text: text parts as they are, blobs of a text type decoded, other blobs as a notice.
 * Several parts are all shown, each under a header naming its URI and type.
 */
export function renderDocument(contents: readonly ResourceContents[], fileName: string): Uint8Array {
  if (contents.length === 1 && isBlob(contents[0]) && opensInViewer(fileName)) return partBytes(contents[0]);
  return utf8.encode(renderText(contents));
}

/** The text rendering of `renderDocument`, for every case that is not a viewer's raw bytes. */
export function renderText(contents: readonly ResourceContents[]): string {
  if (!contents.length) return 'The server returned no contents for this resource.';
  if (contents.length === 1) return renderPart(contents[0]);
  return contents
    .map((part, i) => {
      const facts = [part.uri, part.mimeType].filter(Boolean).join(' · ');
      return `──── Part ${i + 1} of ${contents.length}: ${facts} ────\n${renderPart(part)}`;
    })
    .join('\n\n');
}

/** The text to copy: text parts (and text blobs) joined; binary parts are counted, not copied. */
export function copyableText(contents: readonly ResourceContents[]): { text: string; binaryParts: number } {
  const texts: string[] = [];
  let binaryParts = 0;
  for (const part of contents) {
    const text = isBlob(part) ? blobAsText(part) : textOf(part);
    if (text === undefined) binaryParts++;
    else texts.push(text);
  }
  return { text: texts.join('\n\n'), binaryParts };
}

/** The bytes "Save As…" writes: a single part exactly as served; several parts as the document shows them. */
export function bytesToSave(contents: readonly ResourceContents[]): Uint8Array {
  return contents.length === 1 ? partBytes(contents[0]) : utf8.encode(renderText(contents));
}

/**
 * The file name read contents open under, so the editor fits what actually came: one binary part of a type with a
 * viewer gets that type's extension; anything shown as text never gets a viewer's extension.
 */
export function documentFileName(uri: string, contents: readonly ResourceContents[], listed: { mimeType?: string; name?: string } = {}): string {
  const single = contents.length === 1 ? contents[0] : undefined;
  const mimeType = single ? (single.mimeType ?? listed.mimeType) : undefined;
  const name = fileNameFor(uri, mimeType, listed.name);
  const raw = single !== undefined && isBlob(single) && opensInViewer(name);
  return raw || !opensInViewer(name) ? name : `${name}.txt`;
}
