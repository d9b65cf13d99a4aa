// Receives the browser's redirect after signing in (RFC 8252 §7.3: a loopback redirect for native apps): a listener on
// 127.0.0.1 that answers only requests carrying the `state` of a sign-in in progress, with a page telling the user
// to go back to the editor.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Disposable } from '../../common/events';

const PAGE = (title: string, text: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family: sans-serif; margin: 4em"><h1>${title}</h1><p>${text}</p></body></html>`;

export class LoopbackRedirectReceiver implements Disposable {
  private server: http.Server | undefined;
  private listening: Promise<number> | undefined;
  private readonly waiting = new Map<string, (params: URLSearchParams) => void>();

  /**
   * Starts listening (once): on `preferredPort` when it is free, so the redirect URL stays the same across sessions.
   * A failure is not kept: the next sign-in tries again rather than failing until the window reloads.
   */
  listen(preferredPort?: number): Promise<number> {
    this.listening ??= new Promise<number>((resolve, reject) => {
      const server = http.createServer((req, res) => this.handle(req, res));
      this.server = server;
      const bind = (port: number) => server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
      server.once('error', (e: NodeJS.ErrnoException) => {
        if (preferredPort && e.code === 'EADDRINUSE') {
          server.once('error', reject);
          bind(0);
        } else reject(e);
      });
      bind(preferredPort ?? 0);
    }).catch((e: unknown) => {
      this.listening = undefined;
      throw e;
    });
    return this.listening;
  }

  /** Resolves with the query parameters of the redirect that carries `state`. */
  waitFor(state: string, signal: AbortSignal): Promise<URLSearchParams> {
    return new Promise((resolve, reject) => {
      const abort = () => {
        this.waiting.delete(state);
        reject(new Error('The sign-in was abandoned.'));
      };
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      this.waiting.set(state, (params) => {
        signal.removeEventListener('abort', abort);
        resolve(params);
      });
    });
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const params = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    const state = params.get('state');
    const deliver = state !== null ? this.waiting.get(state) : undefined;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (req.method !== 'GET' || !deliver) {
      res.writeHead(404);
      res.end(PAGE('Nothing to sign in to', 'This sign-in link is not, or no longer, expected by MCP Host. Start the sign-in again from VS Code.'));
      return;
    }
    this.waiting.delete(state!);
    deliver(params);
    const failed = params.has('error');
    res.writeHead(200);
    res.end(
      failed
        ? PAGE('Sign-in did not complete', 'The authorization server did not grant access. You can close this tab and return to VS Code.')
        : PAGE('Signed in', 'You can close this tab and return to VS Code.'),
    );
  }

  dispose(): void {
    this.server?.close();
    this.server?.closeAllConnections();
    this.waiting.clear();
  }
}
