// A command-line MCP client built from the extension's own core (config parser -> registry -> connection -> client
// features -> OAuth provider) with only the user-facing ports answered headlessly. It connects to one server URL,
// lists its tools, calls each with arguments built from its input schema, and exits: what the MCP conformance
// suite's client scenarios drive.
import type { ConfigScope } from '../config/types';
import { parseMcpConfig } from '../config/mcpConfigParser';
import { AuthStatusStore } from '../auth/authStatus';
import { oauthProviderFactory } from '../auth/oauthProviderFactory';
import type { StaticClient } from '../auth/ports';
import { PermissionStore } from '../host/permissionStore';
import { ServerRegistry } from '../host/serverRegistry';
import { TrustStore } from '../host/trustStore';
import { acceptDefaultsElicitation, declineSampling, headlessInteraction, MemorySecretStore, MemoryStore, streamLogs } from './headlessPorts';
import { argumentsFor } from './toolArguments';

const SERVER_NAME = 'server';
const SCOPE: ConfigScope = { kind: 'user', key: 'headless', label: 'Command line', configPath: '(command line)' };
/** Never listened on: the headless flow reads the code from the authorization endpoint's redirect itself. */
const REDIRECT_URL = 'http://127.0.0.1/callback';

export interface HeadlessRun {
  url: string;
  /** A client registered beforehand (the suite's pre-registration scenario passes one in its context). */
  staticClient?: StaticClient;
  clientMetadataUrl?: string;
  timeoutMs: number;
  write(line: string): void;
}

/** Connects, lists and calls every tool. Resolves with the process exit code: 0 when every step worked. */
export async function runHeadlessClient(run: HeadlessRun): Promise<number> {
  const parsed = parseMcpConfig(JSON.stringify({ servers: { [SERVER_NAME]: { type: 'http', url: run.url } } }));
  const problems = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (problems.length) {
    for (const p of problems) run.write(`error: ${p.message}`);
    return 2;
  }
  const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
  const registry = new ServerRegistry({
    clientInfo: { name: 'mcp-host-headless', version: '0.1.0' },
    logs: streamLogs(run.write),
    trustStore: new TrustStore(permissions),
    trustPrompt: { askTrust: async () => true },
    inputs: { getInput: async () => undefined },
    settings: () => ({ autoStart: false, trustAllServers: true, initializeTimeoutMs: run.timeoutMs, requestTimeoutMs: run.timeoutMs }),
    isWorkspaceTrusted: () => true,
    restartPolicy: { maxCrashes: 1, windowMs: 60_000, baseDelayMs: 60_000, maxDelayMs: 60_000 },
    features: [acceptDefaultsElicitation, declineSampling],
    authProvider: oauthProviderFactory({
      store: new MemorySecretStore(),
      interaction: headlessInteraction(REDIRECT_URL),
      status: new AuthStatusStore(),
      clientName: 'MCP Host (headless)',
      staticClient: async () => run.staticClient,
      clientMetadataUrl: run.clientMetadataUrl,
    }),
  });
  try {
    await registry.updateScope(SCOPE, parsed.servers, parsed.inputs);
    const server = registry.get(`${SCOPE.key}::${SERVER_NAME}`)!;
    await server.start(true);
    const session = server.session;
    if (!session) {
      run.write(`error: not connected: ${server.state.kind === 'error' ? server.state.message : server.state.kind}`);
      return 1;
    }
    let failures = 0;
    for (const tool of registry.servers().find((s) => s.id === server.id)!.features.tools) {
      const args = argumentsFor(tool.inputSchema);
      try {
        const result = await session.callTool({ name: tool.name, arguments: args });
        run.write(`tool ${tool.name}(${JSON.stringify(args)}) -> ${result.isError ? 'error result' : 'ok'}`);
      } catch (e) {
        failures++;
        run.write(`tool ${tool.name}(${JSON.stringify(args)}) failed: ${(e as Error).message}`);
      }
    }
    return failures ? 1 : 0;
  } finally {
    await registry.disposeAsync();
  }
}

/** `[--client-metadata-url URL] [--timeout SECONDS] <server-url>`; MCP_CONFORMANCE_CONTEXT may carry a client id. */
export async function main(argv: string[], env: NodeJS.ProcessEnv, write: (line: string) => void): Promise<number> {
  const args = [...argv];
  let clientMetadataUrl: string | undefined;
  let timeoutMs = 30_000;
  const positional: string[] = [];
  while (args.length) {
    const arg = args.shift()!;
    if (arg === '--client-metadata-url') clientMetadataUrl = args.shift();
    else if (arg === '--timeout') timeoutMs = Number(args.shift()) * 1000;
    else positional.push(arg);
  }
  if (positional.length !== 1 || !Number.isFinite(timeoutMs)) {
    write('usage: conformance-client [--client-metadata-url URL] [--timeout SECONDS] <server-url>');
    return 2;
  }
  let staticClient: StaticClient | undefined;
  if (env.MCP_CONFORMANCE_CONTEXT) {
    const context = JSON.parse(env.MCP_CONFORMANCE_CONTEXT) as { client_id?: unknown; client_secret?: unknown };
    if (typeof context.client_id === 'string') {
      staticClient = { clientId: context.client_id, clientSecret: typeof context.client_secret === 'string' ? context.client_secret : undefined };
    }
  }
  return runHeadlessClient({ url: positional[0], staticClient, clientMetadataUrl, timeoutMs, write });
}
