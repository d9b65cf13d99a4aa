// What prompts and tools need from the host: the servers, and the live session of a running one.
import type { ServerConnection } from '../../host/serverConnection';
import type { ServerInfo } from '../../host/types';

export interface ServerSessions {
  servers(): ServerInfo[];
  get(serverId: string): { readonly activeConnection: ServerConnection | undefined } | undefined;
}

/** Thrown when a server is asked for something while it is not running (it stopped, or was removed). */
export class ServerNotRunningError extends Error {
  constructor(readonly serverName: string) {
    super(`MCP server "${serverName}" is not running.`);
  }
}

/** The live session of a server, or a ServerNotRunningError naming it. */
export function sessionOf(sessions: ServerSessions, serverId: string): ServerConnection {
  const connection = sessions.get(serverId)?.activeConnection;
  if (connection?.sdkClient) return connection;
  const name = sessions.servers().find((s) => s.id === serverId)?.name ?? serverId;
  throw new ServerNotRunningError(name);
}
