// What the resource views and commands ask of the host: the servers' resource lists (paged lazily by their
// sessions), reading a resource, and completions for template variables. Errors come out as messages fit for users.
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import type { Event } from '../../common/events';
import { runningSession, ServerNotRunningError, type ServerSession, type ServersChanged, type SessionPort } from '../../host/serverSession';
import { sessionForUse } from '../../host/sessionForUse';
import type { ServerInfo } from '../../host/serverInfo';
import { templateCompleter, type Completer } from './templateCompleter';

export type ResourceContentsList = ReadResourceResult['contents'];

/**
 * JSON-RPC error code of `resources/read` for a URI the server does not know. Newer revisions send -32602 with the URI
 * as data instead; the SDK recognises both as a ResourceNotFoundError.
 */
export const RESOURCE_NOT_FOUND = -32002;
const INVALID_PARAMS = -32602;

/** A read that failed, with a message that says what happened (not found, not running, timed out, the server's error). */
export class ResourceReadError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

/**
 * A `resources/read` miss, as the protocol tells it: -32002 (earlier revisions), or -32602 whose data is exactly the
 * requested `{ uri }` (2026-07-28; the SDK's ResourceNotFoundError is built from the same rule).
 */
function isResourceNotFound(code: unknown, data: unknown): boolean {
  if (code === RESOURCE_NOT_FOUND) return true;
  if (code !== INVALID_PARAMS || typeof data !== 'object' || data === null) return false;
  const keys = Object.keys(data);
  return keys.length === 1 && typeof (data as { uri?: unknown }).uri === 'string';
}

/** The SDK prefixes server errors with "MCP error <code>: "; the code is shown separately. */
const serverMessage = (e: Error): string => e.message.replace(/^MCP error -?\d+:\s*/, '');

export function describeReadError(e: unknown, uri: string): ResourceReadError {
  if (e instanceof ResourceReadError) return e;
  if (e instanceof ServerNotRunningError) return new ResourceReadError(e.message);
  const error = e instanceof Error ? e : new Error(String(e));
  const code = (error as { code?: unknown }).code;
  if (isResourceNotFound(code, (error as { data?: unknown }).data)) return new ResourceReadError(`Resource not found: ${uri}`, RESOURCE_NOT_FOUND);
  if (code === 'REQUEST_TIMEOUT' || /timed out/i.test(error.message)) return new ResourceReadError(`The server did not answer in time when reading ${uri}.`);
  if (code === 'CONNECTION_CLOSED') return new ResourceReadError(`The server closed the connection while reading ${uri}.`);
  return new ResourceReadError(
    typeof code === 'number' ? `${serverMessage(error)} (error ${code})` : serverMessage(error) || 'Reading the resource failed.',
    typeof code === 'number' ? code : undefined,
  );
}

export class ResourceService {
  constructor(private readonly host: SessionPort) {}

  get onDidChangeServers(): Event<ServersChanged> {
    return this.host.onDidChangeServers;
  }

  servers(): ServerInfo[] {
    return this.host.servers();
  }

  server(serverId: string): ServerInfo | undefined {
    return this.host.servers().find((s) => s.id === serverId);
  }

  serverName(serverId: string): string {
    return this.server(serverId)?.name ?? serverId;
  }

  private session(serverId: string): ServerSession | undefined {
    return runningSession(this.host, serverId);
  }

  /** The session for a use (a dormant server starts for it). */
  private async running(serverId: string, use: string): Promise<ServerSession> {
    try {
      return await sessionForUse(this.host, serverId, use);
    } catch (e) {
      throw describeReadError(e, '');
    }
  }

  /** Whether the server has more resources than its connection has loaded. */
  hasMore(serverId: string): boolean {
    return !!this.session(serverId)?.hasMoreResources;
  }

  /** Loads the next page of the server's resources; its features (and the views) then include it. */
  async loadMore(serverId: string): Promise<void> {
    await (await this.running(serverId, 'more of its resources')).loadMoreResources();
  }

  /** Whether the server has more resource templates than its connection has loaded. */
  hasMoreTemplates(serverId: string): boolean {
    return !!this.session(serverId)?.hasMoreResourceTemplates;
  }

  /** Loads the next page of the server's resource templates. */
  async loadMoreTemplates(serverId: string): Promise<void> {
    await (await this.running(serverId, 'more of its resource templates')).loadMoreResourceTemplates();
  }

  /** Reloads the server's resources and templates. */
  async refresh(serverId: string): Promise<void> {
    await (await this.running(serverId, 'a refresh of its resources')).refreshResources();
  }

  /**
   * Waits up to `timeoutMs` for a server that is starting, or not configured yet (the configuration loads after the
   * extension activates, and restored editors ask for their resources right away). A stopped or failed server is not
   * waited for.
   */
  async whenRunning(serverId: string, timeoutMs: number): Promise<void> {
    const waitable = () => {
      const state = this.server(serverId)?.state;
      return state === undefined || state.kind === 'starting';
    };
    if (this.session(serverId) || !waitable()) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const sub = this.host.onDidChangeServers((ids) => {
        if (ids.includes(serverId) && (this.session(serverId) || !waitable())) done();
      });
    });
  }

  /** Reads a resource; rejects with a ResourceReadError. */
  async read(serverId: string, uri: string): Promise<ResourceContentsList> {
    const session = await this.running(serverId, 'a read of a resource');
    try {
      return (await session.readResource(uri)).contents;
    } catch (e) {
      throw describeReadError(e, uri);
    }
  }

  /** Completions for a template's variables on this server (none when it is not running or offers none). */
  completer(serverId: string, uriTemplate: string): Completer {
    const session = this.session(serverId);
    if (!session) return async () => [];
    return templateCompleter(session, uriTemplate, (e) => session.log.debug(`completion/complete failed: ${e.message}`));
  }
}
