// What the resource views and commands ask of the host: the servers' resource lists (paged lazily by their
// connections), reading a resource, and completions for template variables. Errors come out as messages fit for users.
import { ResourceNotFoundError, type ReadResourceResult } from '@modelcontextprotocol/client';
import type { Event } from '../../host/events';
import type { ServerLog } from '../../host/ports';
import type { ServerConnection } from '../../host/serverConnection';
import type { ServerInfo } from '../../host/types';
import { templateCompleter, type Completer } from './resourceTemplateForm';

export type ResourceContentsList = ReadResourceResult['contents'];

/** The part of the server registry resources need. */
export interface ResourceHost {
  servers(): ServerInfo[];
  get(serverId: string): { readonly activeConnection: ServerConnection | undefined; readonly state: ServerInfo['state']; readonly log: ServerLog } | undefined;
  readonly onDidChangeServers: Event<void>;
}

/**
 * JSON-RPC error code of `resources/read` for a URI the server does not know. Newer revisions send -32602 with the URI
 * as data instead; the SDK recognises both as a ResourceNotFoundError.
 */
export const RESOURCE_NOT_FOUND = -32002;

/** A read that failed, with a message that says what happened (not found, not running, timed out, the server's error). */
export class ResourceReadError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

/** The SDK prefixes server errors with "MCP error <code>: "; the code is shown separately. */
const serverMessage = (e: Error): string => e.message.replace(/^MCP error -?\d+:\s*/, '');

export function describeReadError(e: unknown, uri: string): ResourceReadError {
  if (e instanceof ResourceReadError) return e;
  const error = e instanceof Error ? e : new Error(String(e));
  const code = (error as { code?: unknown }).code;
  if (error instanceof ResourceNotFoundError || code === RESOURCE_NOT_FOUND) return new ResourceReadError(`Resource not found: ${uri}`, RESOURCE_NOT_FOUND);
  if (code === 'REQUEST_TIMEOUT' || /timed out/i.test(error.message)) return new ResourceReadError(`The server did not answer in time when reading ${uri}.`);
  if (code === 'CONNECTION_CLOSED') return new ResourceReadError(`The server closed the connection while reading ${uri}.`);
  return new ResourceReadError(
    typeof code === 'number' ? `${serverMessage(error)} (error ${code})` : serverMessage(error) || 'Reading the resource failed.',
    typeof code === 'number' ? code : undefined,
  );
}

export class ResourceService {
  constructor(private readonly host: ResourceHost) {}

  get onDidChangeServers(): Event<void> {
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

  private connection(serverId: string): ServerConnection | undefined {
    const c = this.host.get(serverId)?.activeConnection;
    return c?.sdkClient ? c : undefined;
  }

  private running(serverId: string): ServerConnection {
    const c = this.connection(serverId);
    if (!c) throw new ResourceReadError(`The MCP server "${this.serverName(serverId)}" is not running.`);
    return c;
  }

  /** Whether the server has more resources than its connection has loaded. */
  hasMore(serverId: string): boolean {
    return this.connection(serverId)?.resourcesNextCursor !== undefined;
  }

  /** Loads the next page of the server's resources; its features (and the views) then include it. */
  async loadMore(serverId: string): Promise<void> {
    await this.running(serverId).loadMoreResources();
  }

  /** Reloads the server's resources and templates. */
  async refresh(serverId: string): Promise<void> {
    await this.running(serverId).refreshResources();
  }

  /**
   * Waits up to `timeoutMs` for a server that is starting, or not configured yet (the configuration loads after the
   * extension activates, and restored editors ask for their resources right away). A stopped or failed server is not
   * waited for.
   */
  async whenRunning(serverId: string, timeoutMs: number): Promise<void> {
    const waitable = () => {
      const state = this.host.get(serverId)?.state;
      return state === undefined || state.kind === 'starting';
    };
    if (this.connection(serverId) || !waitable()) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const sub = this.host.onDidChangeServers(() => {
        if (this.connection(serverId) || !waitable()) done();
      });
    });
  }

  /** Reads a resource; rejects with a ResourceReadError. */
  async read(serverId: string, uri: string): Promise<ResourceContentsList> {
    const connection = this.running(serverId);
    try {
      // Not cached by the SDK: what is shown must be what the server has now.
      const result = await connection.sdkClient!.readResource({ uri }, { ...connection.requestOptions(), cacheMode: 'bypass' });
      return result.contents;
    } catch (e) {
      throw describeReadError(e, uri);
    }
  }

  /** Completions for a template's variables on this server (none when it is not running or offers none). */
  completer(serverId: string, uriTemplate: string): Completer {
    const connection = this.connection(serverId);
    if (!connection) return async () => [];
    return templateCompleter(connection.sdkClient!, uriTemplate, {
      timeoutMs: connection.requestOptions().timeout,
      onError: (e) => this.host.get(serverId)?.log.debug(`completion/complete failed: ${e.message}`),
    });
  }
}
