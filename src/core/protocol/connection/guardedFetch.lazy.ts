// Every HTTP request of a remote session goes through here: MCP traffic, OAuth discovery, registration and tokens.
// A URL a server hands us (metadata, endpoints) is only contacted over https (http only on this machine, or on the
// configured server's own origin), and one server-sent event may not grow without end.
import type { FetchLike } from '@modelcontextprotocol/client';
import { assertAllowedUrl } from '../auth/refusedUrl.lazy';

/** The largest single server-sent event, like the largest stdio message. */
export const MAX_SSE_EVENT_BYTES = 64 * 1024 * 1024;
/** The largest body of any other reply (a JSON-RPC answer, OAuth metadata, a token response), like one message. */
export const MAX_HTTP_BODY_BYTES = 64 * 1024 * 1024;

export interface GuardedFetchOptions {
  serverUrl: string;
  maxEventBytes?: number;
  maxBodyBytes?: number;
  /** A stream broke a limit: the session should end, with this error as the reason. */
  onViolation(error: Error): void;
  fetch?: FetchLike;
}

export function guardedFetch({ serverUrl, maxEventBytes = MAX_SSE_EVENT_BYTES, maxBodyBytes = MAX_HTTP_BODY_BYTES, onViolation, fetch: inner = fetch }: GuardedFetchOptions): FetchLike {
  return async (url, init) => {
    assertAllowedUrl(url, serverUrl, 'to contact');
    const response = await inner(url, init);
    // A status that may carry no body keeps its own Response (one cannot be built with a body).
    if (!response.body || [101, 204, 205, 304].includes(response.status)) return response;
    // A stream of events may last the whole session (each event capped); any other body is one reply, capped whole.
    const limit = /^text\/event-stream/i.test(response.headers.get('content-type') ?? '') ? eventSizeLimit(maxEventBytes, onViolation) : bodySizeLimit(maxBodyBytes, onViolation);
    return new Response(response.body.pipeThrough(limit), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Counts a reply's bytes; one over the cap errors the stream (whoever reads it, the SDK or OAuth, gets the error). */
function bodySizeLimit(maxBytes: number, onViolation: (error: Error) => void): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.length;
      if (total > maxBytes) {
        const error = new Error(`The server sent a reply over ${Math.round(maxBytes / 1024 / 1024)} MB: the session was ended.`);
        onViolation(error);
        controller.error(error);
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

/** Counts the bytes since the last event boundary (a blank line); an event over the cap errors the stream. */
function eventSizeLimit(maxBytes: number, onViolation: (error: Error) => void): TransformStream<Uint8Array, Uint8Array> {
  let sinceBoundary = 0;
  /** The last byte seen was a newline: a newline now ends an event. */
  let afterNewline = false;
  return new TransformStream({
    transform(chunk, controller) {
      // Jumps from newline to newline: no per-byte work for the bulk of an event.
      for (let pos = 0; pos < chunk.length; ) {
        const newline = chunk.indexOf(0x0a, pos);
        const end = newline === -1 ? chunk.length : newline;
        const length = end - pos - (newline !== -1 && end > pos && chunk[end - 1] === 0x0d ? 1 : 0);
        if (length > 0) {
          afterNewline = false;
          sinceBoundary += length;
        }
        if (sinceBoundary > maxBytes) {
          const error = new Error(`The server sent an event over ${Math.round(maxBytes / 1024 / 1024)} MB: the session was ended.`);
          onViolation(error);
          controller.error(error);
          return;
        }
        if (newline === -1) break;
        if (afterNewline) sinceBoundary = 0;
        afterNewline = true;
        pos = newline + 1;
      }
      controller.enqueue(chunk);
    },
  });
}
