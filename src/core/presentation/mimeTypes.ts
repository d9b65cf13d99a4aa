// MIME types of MCP resources, mapped to what a file on disk would tell an editor: its extension (which picks the
// language and, for binaries, the viewer) and whether its bytes are text.

/** The extension a resource gets when its name has none; the first of each list is the one added. */
const EXTENSIONS: Record<string, string[]> = {
  'text/plain': ['txt'],
  'text/markdown': ['md', 'markdown'],
  'text/x-markdown': ['md', 'markdown'],
  'text/html': ['html', 'htm'],
  'text/css': ['css'],
  'text/csv': ['csv'],
  'text/xml': ['xml'],
  'text/yaml': ['yaml', 'yml'],
  'text/x-yaml': ['yaml', 'yml'],
  'text/javascript': ['js', 'mjs', 'cjs'],
  'text/x-python': ['py'],
  'text/x-typescript': ['ts'],
  'text/x-shellscript': ['sh'],
  'text/x-sh': ['sh'],
  'text/x-rust': ['rs'],
  'text/x-go': ['go'],
  'text/x-java': ['java'],
  'text/x-c': ['c', 'h'],
  'text/x-c++': ['cpp', 'hpp', 'cc'],
  'application/json': ['json'],
  'application/ld+json': ['jsonld', 'json'],
  'application/xml': ['xml'],
  'application/yaml': ['yaml', 'yml'],
  'application/x-yaml': ['yaml', 'yml'],
  'application/javascript': ['js', 'mjs', 'cjs'],
  'application/typescript': ['ts'],
  'application/x-sh': ['sh'],
  'application/sql': ['sql'],
  'application/toml': ['toml'],
  'application/pdf': ['pdf'],
  'application/zip': ['zip'],
  'application/gzip': ['gz'],
  'application/x-tar': ['tar'],
  'application/octet-stream': ['bin'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg', 'jpe'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'image/bmp': ['bmp'],
  'image/x-icon': ['ico'],
  'image/vnd.microsoft.icon': ['ico'],
  'image/avif': ['avif'],
  'image/svg+xml': ['svg'],
  'audio/mpeg': ['mp3'],
  'audio/wav': ['wav'],
  'audio/x-wav': ['wav'],
  'audio/ogg': ['ogg', 'oga'],
  'video/mp4': ['mp4'],
  'video/webm': ['webm'],
};

/**
 * Extensions VS Code opens in a viewer of its own (image, audio and video previews) rather than a text editor: a
 * resource with one of these gets its raw bytes, anything else binary gets a readable notice instead.
 */
const VIEWER_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'jpe', 'gif', 'webp', 'bmp', 'ico', 'avif', 'mp3', 'wav', 'ogg', 'oga', 'mp4', 'webm']);

/** `Text/HTML; charset=utf-8` -> `text/html`. */
export function mimeEssence(mimeType: string | undefined): string | undefined {
  const essence = mimeType?.split(';', 1)[0].trim().toLowerCase();
  return essence || undefined;
}

export function extensionsForMime(mimeType: string | undefined): string[] {
  const essence = mimeEssence(mimeType);
  if (!essence) return [];
  const known = EXTENSIONS[essence];
  if (known) return known;
  if (essence.endsWith('+json')) return ['json'];
  if (essence.endsWith('+xml')) return ['xml'];
  return [];
}

/** Whether content of this MIME type is text (so a `blob` of it can be shown decoded). */
export function isTextMime(mimeType: string | undefined): boolean {
  const essence = mimeEssence(mimeType);
  if (!essence) return false;
  if (essence.startsWith('text/') || essence.endsWith('+json') || essence.endsWith('+xml')) return true;
  const [first] = extensionsForMime(essence);
  return ['json', 'jsonld', 'xml', 'yaml', 'js', 'ts', 'sh', 'sql', 'toml', 'svg'].includes(first ?? '');
}

export function extensionOf(fileName: string): string | undefined {
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(fileName);
  return m ? m[1].toLowerCase() : undefined;
}

/** Whether VS Code shows a file of this name in a viewer of its own (images, audio, video) rather than as text. */
export function opensInViewer(fileName: string): boolean {
  const ext = extensionOf(fileName);
  return ext !== undefined && VIEWER_EXTENSIONS.has(ext);
}
