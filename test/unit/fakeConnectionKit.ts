// Servers of this process, for host and feature tests that need no process: the official SDK's McpServer, reached
// over its InMemoryTransport by the host's own connection (handshake, feature lists, requests, events) with a launcher
// of the test's instead of a child process. Launch, sandbox and transport tests keep real processes.
import { fromJsonSchema, InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import type { ConnectionFactory } from '../../src/core/host/connectionPort';
import type { HostSettings, ServerManagerDeps } from '../../src/core/host/serverManager';
import type { Handshake, Launcher } from '../../src/core/protocol/connection/launcher.lazy';
import { ServerConnection } from '../../src/core/protocol/serverConnection.lazy';
import { createKit, entry, stdio, type Kit } from './hostTestKit';

/** Makes a fresh server for each start of the definition named so. */
export type ServerMaker = () => McpServer;

/** The definition of an in-memory server: any stdio command that exists (node), never run. */
export const inMemory = (name: string) => entry(name, stdio(process.execPath, ['--in-memory', name]));

class InMemoryLauncher implements Launcher {
  private server: McpServer | undefined;
  readonly pid = undefined;
  readonly spawnedPid = undefined;
  readonly recentOutput: readonly string[] = [];
  readonly exitMessage = 'The in-memory server closed its transport.';

  constructor(private readonly make: ServerMaker) {}

  async connect(handshake: Handshake): Promise<void> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    this.server = this.make();
    await this.server.connect(serverSide);
    await handshake(clientSide);
  }

  async stop(closeTransport: () => Promise<void>): Promise<void> {
    await closeTransport();
    await this.server?.close();
  }

  secrets(): readonly string[] {
    return [];
  }

  /** The server of the current start (a test may close it, as a crash would end a process). */
  get current(): McpServer | undefined {
    return this.server;
  }
}

/** The connection factory of in-memory servers, by definition name; a name with no maker fails the start. */
export function inMemoryConnections(makers: Record<string, ServerMaker>): ConnectionFactory & { servers: Map<string, McpServer> } {
  const servers = new Map<string, McpServer>();
  const factory: ConnectionFactory = (definition, log, secrets, options, events) => {
    const make = makers[definition.name];
    if (!make) throw new Error(`no in-memory server named "${definition.name}"`);
    const launcher = new InMemoryLauncher(() => {
      const server = make();
      servers.set(definition.name, server);
      return server;
    });
    return new ServerConnection(definition, log, secrets, options, events, undefined, () => launcher);
  };
  return Object.assign(factory, { servers });
}

export interface FakeKit extends Kit {
  /** The server each definition's latest start made. */
  servers: Map<string, McpServer>;
}

/** A host test kit whose servers are the given in-memory ones (use `inMemory(name)` entries). */
export function createFakeKit(makers: Record<string, ServerMaker>, overrides: Partial<ServerManagerDeps> = {}, settings: Partial<HostSettings> = {}): FakeKit {
  const connections = inMemoryConnections(makers);
  return Object.assign(createKit({ createConnection: connections, ...overrides }, settings), { servers: connections.servers });
}

/** A server with the given name and tools, each taking a `text` and answering with its own name and arguments. */
export function toolServer(name: string, tools: string[]): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  const inputSchema = fromJsonSchema({ type: 'object', properties: { text: { type: 'string' } } });
  for (const tool of tools) server.registerTool(tool, { description: `The ${tool} tool of ${name}.`, inputSchema }, async (args: unknown) => ({ content: [{ type: 'text' as const, text: `${tool} ${JSON.stringify(args)}` }] }));
  return server;
}
