// Reads an MCP Registry (the official one, or an organisation's sub-registry with the same read API, v0.1):
// `GET /v0.1/servers?search=&cursor=&limit=&version=latest` and `GET /v0.1/servers/{name}/versions/latest`.
// Every answer is size-capped, time-limited and schema-checked; a malformed entry is kept out with its reason.
import { readRegistryServer, type RegistryEntry } from './registryServer';
import { networkErrorCode, networkProblem } from '../../presentation/networkProblem';

export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';
export const MAX_REGISTRY_RESPONSE_BYTES = 4 * 1024 * 1024;
const TIMEOUT_MS = 15_000;
const MAX_CURSOR = 1024;
/** The most redirects followed within the registry's own origin. */
const MAX_REDIRECTS = 5;

export interface RegistryPage {
  entries: RegistryEntry[];
  /** Present when there are more results. */
  nextCursor?: string;
}

/** The registry cannot be used (down, unreachable, or answering garbage): one line for the user. */
export class RegistryError extends Error {
  constructor(
    message: string,
    /** Not reached at all (network, proxy, address), rather than answering wrongly. */
    readonly unreachable = false,
    /** The error as Node gave it (its code), for the log's detail: never shown in a row or a notification. */
    readonly technical?: string,
    /** Why it could not be reached, in words ("its address could not be found (…)"): the pick's row says it. */
    readonly reason?: string,
  ) {
    super(message);
  }
}

export interface RegistryClientOptions {
  fetch?: typeof fetch;
  maxBytes?: number;
  timeoutMs?: number;
}

/** The base URL as a registry address: http(s), without a trailing slash. */
export function registryBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new RegistryError(`"${value.slice(0, 200)}" is not a registry URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RegistryError(`The registry URL must be http or https, not ${url.protocol}`);
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

export class RegistryClient {
  readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly maxBytes: number;
  private readonly timeoutMs: number;

  constructor(baseUrl: string, options: RegistryClientOptions = {}) {
    this.baseUrl = registryBaseUrl(baseUrl);
    this.fetch = options.fetch ?? fetch;
    this.maxBytes = options.maxBytes ?? MAX_REGISTRY_RESPONSE_BYTES;
    this.timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  }

  /** One page of servers matching `text` (their latest versions). */
  async search(text: string, options: { cursor?: string; limit?: number; signal?: AbortSignal } = {}): Promise<RegistryPage> {
    const params = new URLSearchParams();
    if (text.trim()) params.set('search', text.trim().slice(0, 200));
    if (options.cursor) params.set('cursor', options.cursor);
    params.set('limit', String(options.limit ?? 20));
    params.set('version', 'latest');
    const body = await this.get(`/v0.1/servers?${params}`, options.signal);
    if (!isObject(body) || !Array.isArray(body.servers)) throw new RegistryError(`${this.baseUrl} did not answer with a list of servers.`);
    const entries = body.servers.map(entryOf);
    const meta = isObject(body.metadata) ? body.metadata : {};
    const next = meta.nextCursor ?? meta.next_cursor;
    const nextCursor = typeof next === 'string' && next !== '' && next.length <= MAX_CURSOR && entries.length > 0 ? next : undefined;
    return { entries, ...(nextCursor ? { nextCursor } : {}) };
  }

  /** The latest version of one server, by its registry name. */
  async latest(name: string, signal?: AbortSignal): Promise<RegistryEntry> {
    const body = await this.get(`/v0.1/servers/${encodeURIComponent(name)}/versions/latest`, signal, name);
    return entryOf(body);
  }

  private async get(path: string, signal: AbortSignal | undefined, name?: string): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await this.fetchWithinOrigin(`${this.baseUrl}${path}`, signal ? AbortSignal.any([signal, timeout]) : timeout);
    } catch (e) {
      if (signal?.aborted || e instanceof RegistryError) throw e;
      const why = timeout.aborted ? `no answer within ${this.timeoutMs / 1000} s` : networkProblem(networkErrorCode(e));
      throw new RegistryError(`The registry ${this.baseUrl} cannot be reached: ${why}.`, true, causeOf(e), why);
    }
    if (response.status === 404 && name !== undefined) {
      await response.body?.cancel();
      throw new RegistryError(`The registry ${this.baseUrl} has no server "${name.slice(0, 200)}".`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new RegistryError(`The registry ${this.baseUrl} answered ${response.status}${response.statusText ? ` ${response.statusText.slice(0, 80)}` : ''}.`);
    }
    const text = await readCapped(response, this.maxBytes, this.baseUrl);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new RegistryError(`The registry ${this.baseUrl} did not answer with JSON.`);
    }
  }

  /**
   * Fetches `url`, following redirects only within the registry's own origin: a registry that sends us elsewhere (a
   * service on this machine or the local network, another site) is refused before any request goes there.
   */
  private async fetchWithinOrigin(url: string, signal: AbortSignal): Promise<Response> {
    const origin = new URL(this.baseUrl).origin;
    for (let redirects = 0; ; redirects++) {
      const response = await this.fetch(url, { headers: { accept: 'application/json' }, redirect: 'manual', signal });
      if (response.status < 300 || response.status > 399 || response.status === 304) return response;
      await response.body?.cancel();
      const location = response.headers.get('location');
      const target = location === null ? undefined : parseUrl(location, url);
      if (!target) throw new RegistryError(`The registry ${this.baseUrl} answered ${response.status} without a valid address to go to.`);
      if (target.origin !== origin) {
        throw new RegistryError(
          `The registry ${this.baseUrl} tried to send the request to another address (${target.origin}); it was not followed. If the registry moved, set its new address.`,
        );
      }
      if (redirects >= MAX_REDIRECTS) throw new RegistryError(`The registry ${this.baseUrl} redirected more than ${MAX_REDIRECTS} times; the request was given up.`);
      url = target.href;
    }
  }
}

function parseUrl(value: string, base: string): URL | undefined {
  try {
    return new URL(value, base);
  } catch {
    return undefined;
  }
}

function causeOf(e: unknown): string {
  const cause = (e as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? `${cause.code}: ` : '';
  const text = typeof cause?.message === 'string' ? cause.message : (e as Error).message;
  return `${code}${String(text)}`.slice(0, 300);
}

async function readCapped(response: Response, maxBytes: number, baseUrl: string): Promise<string> {
  const tooLarge = () => new RegistryError(`The registry ${baseUrl} sent more than ${Math.round(maxBytes / 1024)} KB; the answer was not read.`);
  const length = Number(response.headers.get('content-length'));
  if (Number.isFinite(length) && length > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A list item or a lookup answer: `{ server, _meta }` (v0.1), or a bare server.json. */
function entryOf(item: unknown): RegistryEntry {
  const wrapped = isObject(item) && isObject(item.server);
  const read = readRegistryServer(wrapped ? (item as { server: unknown }).server : item);
  if (!read.ok) return read;
  const meta = wrapped && isObject((item as Record<string, unknown>)._meta) ? ((item as Record<string, unknown>)._meta as Record<string, unknown>) : {};
  const official = meta['io.modelcontextprotocol.registry/official'];
  const status = isObject(official) && typeof official.status === 'string' ? official.status.slice(0, 40) : undefined;
  const isLatest = isObject(official) && typeof official.isLatest === 'boolean' ? official.isLatest : undefined;
  return { ok: true, server: read.server, ...(status ? { status } : {}), ...(isLatest !== undefined ? { isLatest } : {}) };
}
