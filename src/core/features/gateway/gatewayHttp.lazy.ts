// The gateway's HTTP server: a Streamable HTTP MCP endpoint on 127.0.0.1 (a random port unless one is asked for),
// made with the official SDK's server package. Every request passes the door first (gatewayRequestCheck: Host,
// Origin, path, bearer token, body size); then 2026-07-28 requests go to the SDK's per-request handler and 2025-era
// ones to a session of their own (one SDK transport and server per client, from its `initialize`). Each answer comes
// from the relay (gatewayRelay); the clients and their caps are kept in gatewayClients. Stopping ends every session,
// every stream and every socket, and closes the port. Loaded on demand (the SDK is in it).
import { randomUUID } from 'crypto';
import * as http from 'http';
import {
  createMcpHandler,
  isLegacyRequest,
  Server,
  WebStandardStreamableHTTPServerTransport,
  type CallToolResult,
  type AuthInfo,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { GatewayClients, type GatewayClient } from './gatewayClients';
import { GatewayRequestError, type GatewayRelay } from './gatewayRelay';
import { checkGatewayRequest, GATEWAY_LIMITS, tooLarge, type GatewayAddress, type GatewayVerdict } from './gatewayRequestCheck';

export interface GatewayOptions {
  relay: GatewayRelay;
  /** Fires when the servers (so maybe the lists) changed: clients are told. */
  onDidChangeServers(listener: () => void): { dispose(): void };
  /** The endpoint's path and token (kept by the caller: secret storage in VS Code). */
  path: string;
  token: string;
  /** The token of the definition offered to VS Code: its holder is VS Code's agent (see GatewayAddress). */
  editorToken?: string;
  /** 0 or absent: a free port. */
  port?: number;
  version: string;
  /** What happened, for the log: never a token, never a request's body. */
  log?(message: string): void;
}

export interface RunningGateway {
  readonly address: GatewayAddress;
  /** The endpoint's URL (no secret in it but the path). */
  readonly url: string;
  readonly clients: GatewayClients;
  /**
   * Ends a client: a 2025-era client's session and its streams (its next request is refused: it must connect again);
   * a 2026-era client, which has no session, is only forgotten (listed again at its next request). False when no such
   * client is connected.
   */
  disconnect(key: string): boolean;
  /** Ends every client's session and stream, and closes the port. */
  stop(): Promise<void>;
}

interface LegacySession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  /** Begun with VS Code's token: only that token may go on with it (and no other token may use VS Code's). */
  editor: boolean;
}

/** The client id handlers see for a request bearing the editor's token. */
const EDITOR_CLIENT = 'vscode-agent';

/** Requests in flight at once over the whole gateway, whoever sends them: beyond it, 503. */
const MAX_REQUESTS_IN_FLIGHT = GATEWAY_LIMITS.maxClients * GATEWAY_LIMITS.maxConcurrentPerClient;

/** A 2025-era session with no request for this long is ended (its client can connect again). */
const LEGACY_SESSION_IDLE_MS = 60 * 60_000;

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const { relay } = options;
  const log = options.log ?? (() => undefined);
  const clients = new GatewayClients();
  const sessions = new Map<string, LegacySession>();
  let inFlight = 0;
  let stopping = false;

  /** Who sends a request: the 2025-era session's client, or the 2026-era client named in the request. */
  const clientOf = (server: Server, ctx: ServerContext): GatewayClient => {
    const name = server.getClientVersion()?.name;
    if (ctx.sessionId) {
      const known = clients.list().find((c) => c.key === ctx.sessionId);
      if (known) return known;
    }
    const editor = ctx.http?.authInfo?.clientId === EDITOR_CLIENT;
    const admitted = clients.admit(ctx.sessionId ?? `modern:${editor ? EDITOR_CLIENT : `:${typeof name === 'string' ? name : ''}`}`, name, ctx.sessionId ? 'legacy' : 'modern', editor);
    if (!admitted.ok) throw new GatewayRequestError(admitted.message);
    return admitted.client;
  };

  /** Runs one request of a client within its cap; a refusal or a relay error goes back as the client's error. */
  const guarded = async <T>(server: Server, ctx: ServerContext, work: (client: GatewayClient) => Promise<T>): Promise<T> => {
    const client = clientOf(server, ctx);
    const begun = clients.begin(client);
    if (!begun.ok) throw new Error(begun.message);
    try {
      return await work(client);
    } finally {
      begun.end();
    }
  };

  const progressOf = (ctx: ServerContext) => {
    const token = ctx.mcpReq._meta?.progressToken;
    if (token === undefined) return undefined;
    return (p: { progress: number; total?: number; message?: string }) => {
      ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: p.progress, ...(p.total === undefined ? {} : { total: p.total }), ...(p.message === undefined ? {} : { message: p.message }) } }).catch(() => undefined);
    };
  };

  const makeServer = (): Server => {
    const server = new Server(
      { name: 'mcp-host-gateway', title: 'MCP Host gateway', version: options.version },
      {
        capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } },
        instructions: "The tools, prompts and resources of the MCP servers running in the user's editor (MCP Host). Tools are named <server>_<tool>; the user approves calls.",
      },
    );
    server.setRequestHandler('tools/list', (_request, ctx) => guarded(server, ctx, async () => ({ tools: relay.tools() })));
    server.setRequestHandler('tools/call', (request, ctx) =>
      guarded(server, ctx, async (client): Promise<CallToolResult> => {
        try {
          return await relay.callTool(client, request.params.name, request.params.arguments, { signal: ctx.mcpReq.signal, onProgress: progressOf(ctx) });
        } catch (e) {
          // A refused or failed call is the tool's error, in words the agent can act on.
          if (ctx.mcpReq.signal.aborted) throw e;
          return { isError: true, content: [{ type: 'text', text: e instanceof Error ? e.message : String(e) }] };
        }
      }),
    );
    server.setRequestHandler('prompts/list', (_request, ctx) => guarded(server, ctx, async () => ({ prompts: relay.prompts() })));
    server.setRequestHandler('prompts/get', (request, ctx) => guarded(server, ctx, () => relay.getPrompt(request.params.name, request.params.arguments, { signal: ctx.mcpReq.signal })));
    server.setRequestHandler('resources/list', (_request, ctx) => guarded(server, ctx, async () => ({ resources: relay.resources() })));
    server.setRequestHandler('resources/templates/list', (_request, ctx) => guarded(server, ctx, async () => ({ resourceTemplates: relay.resourceTemplates() })));
    server.setRequestHandler('resources/read', (request, ctx) => guarded(server, ctx, () => relay.readResource(request.params.uri, { signal: ctx.mcpReq.signal })));
    return server;
  };

  const modern = createMcpHandler(() => makeServer(), { legacy: 'reject', onerror: (e) => log(`Gateway: ${e.message}`) });

  /** A 2025-era request: to its session, or a new session for an `initialize`. */
  const legacy = async (request: Request, parsedBody: unknown, authInfo: AuthInfo): Promise<Response> => {
    const sessionId = request.headers.get('mcp-session-id');
    const editor = authInfo.clientId === EDITOR_CLIENT;
    if (sessionId) {
      const session = sessions.get(sessionId);
      if (!session) return jsonRpcError(404, 'Session not found: it ended (the gateway was stopped or restarted). Connect again.');
      // A session is its client's: one begun with one token is not continued with the other (a program with the
      // gateway token that learnt VS Code's session id would otherwise be asked about as VS Code's agent).
      if (session.editor !== editor) return jsonRpcError(403, 'Refused: this session was begun with another token. Connect again with your own.');
      return session.transport.handleRequest(request, { parsedBody, authInfo });
    }
    if (request.method !== 'POST') return jsonRpcError(400, 'Bad request: no session (send initialize first).');
    if (sessions.size >= GATEWAY_LIMITS.maxClients) return jsonRpcError(503, `Refused: the MCP Host gateway already has ${GATEWAY_LIMITS.maxClients} clients connected, its most.`);
    const server = makeServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: GATEWAY_LIMITS.maxBodyBytes,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, editor });
        const admitted = clients.admit(id, undefined, 'legacy', editor);
        if (!admitted.ok) void transport.close();
      },
      onsessionclosed: (id) => endSession(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) endSession(transport.sessionId);
    };
    // Its name is known once its initialize is answered.
    server.oninitialized = () => {
      const client = transport.sessionId ? clients.named(transport.sessionId, server.getClientVersion()?.name, editor) : undefined;
      if (client) log(`Gateway: ${client.name} connected.`);
    };
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody, authInfo });
  };

  const endSession = (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    const name = clients.list().find((c) => c.key === id)?.name;
    clients.remove(id);
    if (name) log(`Gateway: ${name} disconnected.`);
    void session.server.close().catch(() => undefined);
  };

  const httpServer = http.createServer((req, res) => {
    void serve(req, res).catch((e: unknown) => {
      log(`Gateway: a request failed: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The gateway failed to answer.');
      else res.destroy();
    });
  });
  httpServer.headersTimeout = 10_000;
  httpServer.requestTimeout = 0;
  httpServer.maxHeadersCount = 100;
  // Sockets at once, authenticated or not: a local process cannot hold the extension host's sockets without end.
  httpServer.maxConnections = 4 * MAX_REQUESTS_IN_FLIGHT;

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const verdict = stopping ? ({ ok: false, status: 503, message: 'The MCP Host gateway is stopping.' } as GatewayVerdict) : checkGatewayRequest(address, req);
    if (!verdict.ok) return refuse(res, verdict);
    if (inFlight >= MAX_REQUESTS_IN_FLIGHT) return refuse(res, { ok: false, status: 503, message: 'Refused: the MCP Host gateway has too many requests running. Try again shortly.' });
    inFlight++;
    try {
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      if (body === 'too large') return refuse(res, tooLarge());
      // A request of a known 2025-era session is that session's (2026-07-28 has no sessions): no need for the SDK to
      // classify it first, nor for an abort signal, which only the SDK's 2026-07-28 serving reads.
      const ofSession = sessions.has(String(req.headers['mcp-session-id']));
      const request = toWebRequest(req, ofSession ? undefined : res);
      let parsedBody: unknown;
      try {
        parsedBody = body?.length ? JSON.parse(body.toString('utf8')) : undefined;
      } catch {
        return refuse(res, { ok: false, status: 400, message: 'Refused: the body is not JSON.' });
      }
      // Which token it bore, for the handlers (never the token itself): VS Code's agent, or any other client.
      const authInfo: AuthInfo = { token: '', clientId: verdict.editor ? EDITOR_CLIENT : 'agent', scopes: [] };
      const response = ofSession || (await isLegacyRequest(request, parsedBody)) ? await legacy(request, parsedBody, authInfo) : await modern.fetch(request, { parsedBody, authInfo });
      await pump(response, res);
    } finally {
      inFlight--;
    }
  };

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, '127.0.0.1', () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const port = (httpServer.address() as { port: number }).port;
  const address: GatewayAddress = { port, path: options.path, token: options.token, editorToken: options.editorToken };
  const url = `http://127.0.0.1:${port}${options.path}`;
  log(`Gateway: listening on 127.0.0.1:${port}.`);

  // The lists changed: sessions are told; the 2026-era listen streams too.
  let lastLists = relay.listsKey();
  const watching = options.onDidChangeServers(() => {
    const lists = relay.listsKey();
    if (lists === lastLists) return;
    lastLists = lists;
    for (const { server } of sessions.values()) {
      void server.sendToolListChanged().catch(() => undefined);
      void server.sendPromptListChanged().catch(() => undefined);
      void server.sendResourceListChanged().catch(() => undefined);
    }
    modern.notify.toolsChanged();
    modern.notify.promptsChanged();
    modern.notify.resourcesChanged();
  });

  // A 2025-era client that went away without ending its session (no DELETE) is forgotten once idle long enough.
  const sweep = setInterval(() => {
    for (const id of sessions.keys()) {
      const client = clients.list().find((c) => c.key === id);
      if (!client || (client.inFlight === 0 && Date.now() - client.lastSeen > LEGACY_SESSION_IDLE_MS)) endSession(id);
    }
  }, 60_000);
  sweep.unref();

  return {
    address,
    url,
    clients,
    disconnect(key) {
      if (!clients.list().some((c) => c.key === key)) return false;
      const session = sessions.get(key);
      if (session) {
        endSession(key);
        void session.transport.close().catch(() => undefined);
      } else clients.remove(key);
      return true;
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      clearInterval(sweep);
      watching.dispose();
      const ending = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(ending.flatMap(({ transport, server }) => [transport.close(), server.close()]));
      // 2026-era requests and listen streams in flight are aborted; then every socket is closed, idle or not.
      await modern.close().catch(() => undefined);
      clients.clear();
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections();
      await closed;
      clients.dispose();
      log('Gateway: stopped; every client was disconnected.');
    },
  };
}

function refuse(res: http.ServerResponse, verdict: Extract<GatewayVerdict, { ok: false }>): void {
  res.writeHead(verdict.status, { 'content-type': 'text/plain; charset=utf-8', ...(verdict.headers ?? {}) }).end(verdict.message);
}

function jsonRpcError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), { status, headers: { 'content-type': 'application/json' } });
}

/** The body, or 'too large' as soon as it passes the cap (the rest is not read). */
function readBody(req: http.IncomingMessage): Promise<Buffer | 'too large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > GATEWAY_LIMITS.maxBodyBytes) {
        req.removeAllListeners('data');
        req.resume();
        resolve('too large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The web Request the SDK reads: without the body, which it is given already parsed (copying it in costs per request).
 * With `res`, its signal aborts when the client goes away before the answer ends.
 */
function toWebRequest(req: http.IncomingMessage, res: http.ServerResponse | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const url = `http://${req.headers.host}${req.url ?? '/'}`;
  if (!res) return new Request(url, { method: req.method, headers });
  // The SDK ends the exchange when the client goes away. 'close' comes after every answer too: aborting then would make
  // an error and wake the abort listeners for nothing, on every request.
  const abort = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  return new Request(url, { method: req.method, headers, signal: abort.signal });
}

/**
 * How long a stream's headers wait for its first event. An answer ready by then goes out as one write, headers and
 * all (each write wakes the client's process: two per answer cost both sides); a slower one's headers go alone then,
 * since a client waits for them before the first event, which may come much later.
 */
const HEADERS_WAIT_MS = 20;

/** Writes a web Response (JSON or an SSE stream) to Node's response; a client that goes away cancels the stream. */
async function pump(response: Response, res: http.ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  // (`headersSent` is no guide: it is true from writeHead on, before anything is written.)
  const headersAlone = setTimeout(() => {
    if (!res.destroyed && !res.writableEnded) res.flushHeaders();
  }, HEADERS_WAIT_MS);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      clearTimeout(headersAlone);
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
    }
  } catch {
    // The stream ended under us (the client went away, or the gateway stopped).
  } finally {
    clearTimeout(headersAlone);
  }
  res.end();
}
