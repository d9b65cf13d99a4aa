// The gateway's door: what every HTTP request must show before the MCP endpoint reads a byte of its body. The gateway
// listens on 127.0.0.1 only, so what stands between it and other programs is: the `Host` header (a web page that
// rebinds its own domain name to 127.0.0.1 still sends its own name: refused, which defeats DNS rebinding), the
// `Origin` header (any browser page sends one on a cross-origin request: refused whatever it says), an unguessable path
// and a bearer token, compared in constant time. Plain functions: the HTTP server (gatewayHttp.lazy.ts) applies them.
import { createHash, randomBytes, timingSafeEqual } from 'crypto';

/** Caps on everything a client can send or hold. */
export const GATEWAY_LIMITS = {
  /** Bytes of one request body (an MCP message). */
  maxBodyBytes: 4 * 1024 * 1024,
  /** Clients connected at once (2025-era sessions, and 2026-era clients seen lately). */
  maxClients: 32,
  /** Requests one client may have in flight at once; more are refused, not queued. */
  maxConcurrentPerClient: 8,
  /** Characters of a tool, prompt or resource name (or URI) a request may carry. */
  maxNameLength: 512,
  /** Characters of a client's name kept (it is the client's own word). */
  maxClientNameLength: 80,
} as const;

/** Where the gateway listens and what a client must present. */
export interface GatewayAddress {
  port: number;
  /** The endpoint's path, e.g. `/mcp/3f9c…`: unguessable. */
  path: string;
  /** The bearer token. */
  token: string;
  /**
   * A second token, for VS Code's own MCP support alone (the server definition MCP Host offers it): never stored nor
   * shown; a request bearing it comes from VS Code's agent.
   */
  editorToken?: string;
}

/** What the checks read of a request. */
export interface GatewayRequestHead {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}

export type GatewayVerdict = { ok: true; editor?: boolean } | { ok: false; status: number; message: string; headers?: Record<string, string> };

/** A fresh secret: 32 random bytes, URL-safe. */
export const newGatewaySecret = (): string => randomBytes(32).toString('base64url');

/** A fresh endpoint path. */
export const newGatewayPath = (): string => `/mcp/${randomBytes(16).toString('hex')}`;

/** A token we would hand out: 43 URL-safe characters (a stored value of any other shape is replaced). */
export const isGatewaySecret = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);

const header = (head: GatewayRequestHead, name: string): string | undefined => {
  const value = head.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

const digestOf = (text: string): Buffer => createHash('sha256').update(text).digest();

/** The digests of the tokens the gateway expects, made once each rather than at every request (a few tokens a run). */
const expectedDigests = new Map<string, Buffer>();
const expectedDigest = (expected: string): Buffer => {
  let digest = expectedDigests.get(expected);
  if (!digest) {
    if (expectedDigests.size >= 8) expectedDigests.clear();
    expectedDigests.set(expected, (digest = digestOf(expected)));
  }
  return digest;
};

/**
 * Constant-time comparison of two texts of any length (hashed first, so lengths do not leak either). `given` may be its
 * digest already, when it is compared with more than one secret.
 */
export function sameSecret(given: string | { text: string; digest: Buffer }, expected: string): boolean {
  const { text, digest } = typeof given === 'string' ? { text: given, digest: digestOf(given) } : given;
  return timingSafeEqual(digest, expectedDigest(expected)) && text.length === expected.length;
}

/** The `Host` values the gateway answers to: its own address, by number or as localhost. */
export const allowedHosts = (port: number): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];

/**
 * Whether the request may reach the endpoint, and if not, the status and plain words it gets. The order matters: a
 * web page (Origin, foreign Host) is refused before anything about the path or token is said.
 */
export function checkGatewayRequest(address: GatewayAddress, head: GatewayRequestHead): GatewayVerdict {
  const host = header(head, 'host')?.toLowerCase();
  if (!host || !allowedHosts(address.port).includes(host)) {
    return { ok: false, status: 403, message: 'Refused: the MCP Host gateway answers only requests addressed to 127.0.0.1 or localhost on its port.' };
  }
  if (header(head, 'origin') !== undefined) {
    return { ok: false, status: 403, message: 'Refused: the MCP Host gateway does not answer web pages (the request has an Origin header).' };
  }
  const path = (head.url ?? '').split('?', 1)[0];
  if (path !== address.path) return { ok: false, status: 404, message: 'Not found.' };
  if ((head.url ?? '').includes('?')) {
    return { ok: false, status: 400, message: 'Refused: the gateway takes no query string (the token goes in the Authorization header, never in the URL).' };
  }
  const authorization = header(head, 'authorization') ?? '';
  const match = /^Bearer ([^\s]+)$/i.exec(authorization.slice(0, 200));
  const given = match ? { text: match[1], digest: digestOf(match[1]) } : undefined;
  const editor = !!given && !!address.editorToken && sameSecret(given, address.editorToken);
  if (!given || (!editor && !sameSecret(given, address.token))) {
    return {
      ok: false,
      status: 401,
      message: 'Unauthorized: give the gateway token as "Authorization: Bearer <token>" (MCP Host: Connect an Agent… shows it).',
      headers: { 'www-authenticate': 'Bearer realm="mcp-host-gateway"' },
    };
  }
  const length = Number(header(head, 'content-length') ?? 0);
  if (Number.isFinite(length) && length > GATEWAY_LIMITS.maxBodyBytes) return tooLarge();
  return editor ? { ok: true, editor } : { ok: true };
}

export const tooLarge = (): Extract<GatewayVerdict, { ok: false }> => ({ ok: false, status: 413, message: `Refused: a request body is limited to ${GATEWAY_LIMITS.maxBodyBytes} bytes.` });
