// fetch for a server reached through a Unix socket or a Windows named pipe (`unix:` and `pipe:` URLs, as VS Code
// writes them): requests to the socket's stand-in origin go over the socket with Node's http client; any other URL
// (a sign-in's metadata elsewhere) goes to the network as usual. The reply's body is streamed, so SSE works.
import * as http from 'http';
import { Readable } from 'stream';
import type { FetchLike } from '@modelcontextprotocol/client';
import { SOCKET_ORIGIN } from '../../config/socketAddress.lazy';

export function socketFetch(socketPath: string, network: FetchLike = fetch): FetchLike {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== SOCKET_ORIGIN) return network(input, init);
    const request = new Request(url, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const outgoing = http.request({ socketPath, path: `${url.pathname}${url.search}`, method: request.method, headers: { ...headers, host: 'localhost' }, signal: init?.signal ?? undefined }, (incoming) => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (Array.isArray(value)) value.forEach((v) => responseHeaders.append(name, v));
          else if (value !== undefined) responseHeaders.set(name, value);
        }
        const status = incoming.statusCode ?? 0;
        if (status < 200 || status > 599) {
          incoming.destroy();
          return reject(new Error(`The server on ${socketPath} answered with the HTTP status ${status}.`));
        }
        const noBody = request.method === 'HEAD' || [101, 204, 205, 304].includes(status);
        if (noBody) incoming.resume();
        resolve(new Response(noBody ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), { status, statusText: incoming.statusMessage ?? '', headers: responseHeaders }));
      });
      outgoing.on('error', (e: NodeJS.ErrnoException) => reject(e.code === 'ENOENT' || e.code === 'ECONNREFUSED' ? new Error(`Nothing listens on ${socketPath} (${e.code}).`) : e));
      outgoing.end(body);
    });
  };
}
