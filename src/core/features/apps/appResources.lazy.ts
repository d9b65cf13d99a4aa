// A view's HTML: read from its server with `resources/read` once per session and URI (later results of the same
// tool reuse it; a restarted server is a new session and is read again), checked before anything renders it: the
// declared MIME type, text or base64 content, a size limit, and the sandbox its `_meta.ui` declares.
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import type { ServerSession } from '../../host/serverSession';
import { APP_HTML_MIME_TYPE } from './appMeta';
import { appSandboxFrom, type AppSandbox } from './appSandbox.lazy';

/** The largest view accepted: bundled single-file views are typically well under 1 MB. */
export const MAX_APP_HTML_BYTES = 5 * 1024 * 1024;

export type AppResource = { ok: true; uri: string; html: string; sandbox: AppSandbox } | { ok: false; uri: string; message: string };

const sameMimeType = (a: string | undefined): boolean => (a ?? '').replace(/\s+/g, '').toLowerCase() === APP_HTML_MIME_TYPE;

/** Checks one `resources/read` result; never throws. */
export function appResourceFrom(uri: string, result: ReadResourceResult, maxBytes = MAX_APP_HTML_BYTES): AppResource {
  const contents = result.contents ?? [];
  const content = contents.find((c) => c.uri === uri) ?? contents[0];
  if (!content) return { ok: false, uri, message: 'the server returned no content for it' };
  if (!sameMimeType(content.mimeType)) {
    return { ok: false, uri, message: `its type is ${content.mimeType ? `"${content.mimeType}"` : 'not given'}, not "${APP_HTML_MIME_TYPE}"` };
  }
  let html: string;
  if ('text' in content && typeof content.text === 'string') {
    if (Buffer.byteLength(content.text, 'utf8') > maxBytes) return { ok: false, uri, message: tooLarge(Buffer.byteLength(content.text, 'utf8'), maxBytes) };
    html = content.text;
  } else if ('blob' in content && typeof content.blob === 'string') {
    // Base64 is 4/3 of the bytes it carries: refuse before decoding what is far too large.
    if (content.blob.length > Math.ceil((maxBytes * 4) / 3) + 4) return { ok: false, uri, message: tooLarge(Math.floor((content.blob.length * 3) / 4), maxBytes) };
    html = Buffer.from(content.blob, 'base64').toString('utf8');
  } else {
    return { ok: false, uri, message: 'it has neither text nor blob content' };
  }
  if (!html.trim()) return { ok: false, uri, message: 'it is empty' };
  return { ok: true, uri, html, sandbox: appSandboxFrom(content._meta) };
}

const tooLarge = (bytes: number, max: number): string =>
  `it is ${(bytes / 1024 / 1024).toFixed(1)} MB, more than the ${(max / 1024 / 1024).toFixed(0)} MB a view may have`;

/** Reads each view once per session and URI; a failed read is not kept, so opening the view again retries it. */
export class AppResourceCache {
  private readonly bySession = new WeakMap<ServerSession, Map<string, Promise<AppResource>>>();

  constructor(private readonly maxBytes = MAX_APP_HTML_BYTES) {}

  load(session: ServerSession, uri: string): Promise<AppResource> {
    let cache = this.bySession.get(session);
    if (!cache) this.bySession.set(session, (cache = new Map()));
    const cached = cache.get(uri);
    if (cached) return cached;
    const loading = session.readResource(uri).then(
      (result) => appResourceFrom(uri, result, this.maxBytes),
      (e: Error): AppResource => ({ ok: false, uri, message: `reading it failed: ${e?.message ?? String(e)}` }),
    );
    cache.set(uri, loading);
    void loading.then((r) => {
      if (!r.ok && cache.get(uri) === loading) cache.delete(uri);
    });
    return loading;
  }
}
