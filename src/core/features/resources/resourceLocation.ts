// Where an MCP resource lives as a document: `mcp-host-resource://<server>/<server name>/<file name>?uri=<resource URI>`.
//
// - The authority is the server id, hex-encoded: it keeps the server identity (two servers may serve the same URI and
//   must never share a document), survives authority lowercasing, and decodes without any lookup table, so an editor
//   restored after a reload still knows its server.
// - The path is for people and for the editor: the server's name (the tab shows it when two tabs share a file name)
//   and a file name whose extension picks the language or viewer.
// - The query holds the resource URI exactly, whatever it contains, and marks embedded contents that exist only
//   in memory (they came inside a tool or prompt result and may not be readable from the server).
import { extensionOf, extensionsForMime, opensInViewer } from '../../presentation/mimeTypes';

/** Not `mcp-resource`: VS Code's own MCP support registers that one. */
export const RESOURCE_SCHEME = 'mcp-host-resource';

export interface ResourceLocation {
  serverId: string;
  /** The resource's own URI, as the server gave it. */
  uri: string;
  /** The document's file name: decides the editor's language or viewer. */
  fileName: string;
  /** Set for embedded contents held in memory: their key. */
  embedded?: string;
}

/** The components of a URI (VS Code's `Uri.from` takes them and gives them back unchanged). */
export interface UriParts {
  scheme: string;
  authority: string;
  path: string;
  query: string;
}

const MAX_FILE_NAME = 120;

/** A path segment safe on every platform's Save dialog and in a URI path: no separators, controls or reserved chars. */
export function safeFileName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this replaces
  let safe = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|#%]/g, '_').trim();
  safe = withoutTrailingDotsAndSpaces(safe.replace(/^\.+/, ''));
  if (safe.length > MAX_FILE_NAME) {
    const ext = extensionOf(safe);
    const keep = ext ? ext.length + 1 : 0;
    safe = safe.slice(0, MAX_FILE_NAME - keep) + (ext ? `.${ext}` : '');
  }
  return safe || 'resource';
}

/**
 * Trailing dots and spaces removed (Windows drops them), by a walk from the end: the regex `/[. ]+$/` retries at every
 * dot or space of a long run that does not reach the end, quadratic in a server's name.
 */
function withoutTrailingDotsAndSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === '.' || text[end - 1] === ' ')) end--;
  return text.slice(0, end);
}

/** The last non-empty path segment of a URI, percent-decoded where possible. */
function lastSegment(uri: string): string | undefined {
  const withoutSuffix = uri.replace(/[?#].*$/s, '').replace(/^[a-z][a-z0-9+.-]*:(\/\/[^/]*)?/i, '');
  const segment = withoutSuffix.split('/').filter(Boolean).at(-1);
  if (!segment) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The file name a resource opens under: its URI's last segment when that has an extension, else its name (servers
 * choose names to be shown), plus the extension of its MIME type when it has none. A binary type with a viewer
 * (an image) also gets its own extension when the name suggests another, so it opens in that viewer.
 */
export function fileNameFor(uri: string, mimeType?: string, name?: string): string {
  const segment = lastSegment(uri);
  let base = segment && extensionOf(segment) ? segment : (name?.trim() || segment || 'resource');
  const mimeExtensions = extensionsForMime(mimeType);
  const ext = extensionOf(base);
  if (mimeExtensions.length) {
    const preferred = `x.${mimeExtensions[0]}`;
    const mismatchedViewer = opensInViewer(preferred) && !mimeExtensions.includes(ext ?? '');
    if (!ext || mismatchedViewer) base = `${base}.${mimeExtensions[0]}`;
  }
  return safeFileName(base);
}

const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');

function unhex(text: string): string | undefined {
  if (!/^(?:[0-9a-f]{2})+$/i.test(text)) return undefined;
  return Buffer.from(text, 'hex').toString('utf8');
}

export function toUriParts(location: ResourceLocation, serverName: string): UriParts {
  const query = new URLSearchParams({ uri: location.uri });
  if (location.embedded !== undefined) query.set('embedded', location.embedded);
  return {
    scheme: RESOURCE_SCHEME,
    authority: hex(location.serverId),
    path: `/${safeFileName(serverName)}/${safeFileName(location.fileName)}`,
    query: query.toString(),
  };
}

/** Undefined for anything that is not a well-formed resource document URI. */
export function fromUriParts(parts: UriParts): ResourceLocation | undefined {
  if (parts.scheme !== RESOURCE_SCHEME) return undefined;
  const serverId = unhex(parts.authority);
  const query = new URLSearchParams(parts.query);
  const uri = query.get('uri');
  const fileName = parts.path.split('/').at(-1);
  if (!serverId || uri === null || !fileName) return undefined;
  const embedded = query.get('embedded');
  return { serverId, uri, fileName, ...(embedded === null ? {} : { embedded }) };
}

/** A key for "this resource of this server", whatever document shows it. */
export const resourceKey = (serverId: string, uri: string): string => JSON.stringify([serverId, uri]);
