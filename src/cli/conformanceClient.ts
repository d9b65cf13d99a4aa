// A command-line MCP client built from the extension's own core (config parser -> server manager -> connection -> client
// features -> OAuth provider) with only the user-facing ports answered headlessly. It connects to one server URL,
// lists its tools, calls each with arguments built from its input schema, and exits: what the MCP conformance
// suite's client scenarios drive.
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { ConfigScope, RemoteAuthConfig } from '../core/config/serverDefinition';
import { parseMcpConfig } from '../core/config/mcpConfigParser';
import { AuthStatusStore } from '../core/auth/authStatus';
import { oauthProviderFactory } from '../core/protocol/auth/oauthProviderFactory.lazy';
import type { StaticClient } from '../core/auth/authPorts';
import { createCoreHost } from '../core/createCoreHost';
import { planLaunch } from '../core/protocol/launch/launchPlanner.lazy';
import { readEnvFile } from '../core/config/envFile.lazy';
import { createConnection } from '../core/protocol/serverConnection.lazy';
import { acceptDefaultsElicitation, declineSampling, headlessInteraction, MemorySecretStore, MemoryStore, streamLogs } from './headlessPorts';
import { argumentsFor } from './toolArguments';
import type { Skill, Tool } from '../core/host/serverInfo';
import type { ServerSession } from '../core/host/serverSession';

const SERVER_NAME = 'server';
const SCOPE: ConfigScope = { kind: 'user', key: 'headless', label: 'Command line', configPath: '(command line)' };
/** Never listened on: the headless flow reads the code from the authorization endpoint's redirect itself. */
const REDIRECT_URL = 'http://127.0.0.1/callback';

/** A tool call a scenario asks for by name, with its arguments (MCP_CONFORMANCE_CONTEXT's `toolCalls`). */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface HeadlessRun {
  url: string;
  /**
   * A machine-to-machine or enterprise flow instead of the browser sign-in, as `auth` in mcp.json, secrets included:
   * they reach the configuration as `${env:…}` references, like a user's would.
   */
  auth?: RemoteAuthConfig;
  /** The calls to make instead of calling every tool with arguments from its schema. */
  toolCalls?: ToolCall[];
  /**
   * Load every listed skill as a model would on demand: its `SKILL.md` (verified), then, only if that passed, each
   * other listed file. Without it skills are listed and never read (a host reads no skill file ahead of need).
   */
  loadSkills?: boolean;
  /** A client registered beforehand (the suite's pre-registration scenario passes one in its context). */
  staticClient?: StaticClient;
  clientMetadataUrl?: string;
  timeoutMs: number;
  write(line: string): void;
}

/** Connects, lists and calls every tool. Resolves with the process exit code: 0 when every step worked. */
export async function runHeadlessClient(run: HeadlessRun): Promise<number> {
  const environment: Record<string, string | undefined> = { ...process.env };
  const auth = run.auth && secretsAsReferences(run.auth, environment);
  const parsed = parseMcpConfig(JSON.stringify({ servers: { [SERVER_NAME]: { type: 'http', url: run.url, ...(auth ? { auth } : {}) } } }));
  const problems = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (problems.length) {
    for (const p of problems) run.write(`error: ${p.message}`);
    return 2;
  }
  const { manager } = createCoreHost({
    clientInfo: { name: 'mcp-host-headless', version: '0.1.0' },
    createConnection,
    readEnvFile,
    planLaunch,
    logs: streamLogs(run.write),
    stores: { global: new MemoryStore(), workspace: new MemoryStore() },
    trustPrompt: { askTrust: async () => true },
    inputs: { getInput: async () => undefined },
    settings: () => ({ autoStart: false, trustAllServers: true, initializeTimeoutMs: run.timeoutMs, requestTimeoutMs: run.timeoutMs }),
    isWorkspaceTrusted: () => true,
    environment,
    restartPolicy: { maxCrashes: 1, windowMs: 60_000, baseDelayMs: 60_000, maxDelayMs: 60_000 },
    features: () => [acceptDefaultsElicitation, declineSampling],
    authProvider: oauthProviderFactory({
      store: new MemorySecretStore(),
      interaction: headlessInteraction(REDIRECT_URL),
      status: new AuthStatusStore(),
      clientName: 'MCP Host (headless)',
      staticClient: async () => run.staticClient,
      clientMetadataUrl: run.clientMetadataUrl,
      // DPoP-bound tokens wherever the authorization server offers them.
      dpop: 'auto',
    }),
  });
  try {
    await manager.updateScope(SCOPE, parsed.servers, parsed.inputs);
    const server = manager.get(`${SCOPE.key}::${SERVER_NAME}`)!;
    await server.start(true);
    const session = server.session;
    if (!session) {
      run.write(`error: not connected: ${server.state.kind === 'error' ? server.state.message : server.state.kind}`);
      return 1;
    }
    let failures = 0;
    const tools = manager.servers().find((s) => s.id === server.id)!.features.tools;
    const calls = run.toolCalls ?? tools.map((tool) => ({ name: tool.name, arguments: argumentsForTool(tool, tools) }));
    for (const { name, arguments: args } of calls) {
      const tool = tools.find((t) => t.name === name) ?? { name };
      try {
        const result = await session.callTool({ name: tool.name, arguments: args });
        run.write(`tool ${tool.name}(${JSON.stringify(args)}) -> ${result.isError ? 'error result' : 'ok'}`);
      } catch (e) {
        // A server that lists tools but answers tools/call with "method not found" offers nothing to call: its
        // refusal is reported, and is not this client failing.
        if (e instanceof ProtocolError && e.code === ProtocolErrorCode.MethodNotFound) {
          run.write(`tool ${tool.name}: the server does not implement tools/call (${e.message})`);
          continue;
        }
        failures++;
        run.write(`tool ${tool.name}(${JSON.stringify(args)}) failed: ${(e as Error).message}`);
      }
    }
    const skills = manager.servers().find((s) => s.id === server.id)!.features.skills ?? [];
    for (const skill of skills) {
      run.write(`skill ${skill.frontmatter.name}: ${skill.uri}`);
      if (run.loadSkills) await loadSkill(session, skill, run.write);
    }
    return failures ? 1 : 0;
  } finally {
    await manager.disposeAsync();
  }
}

/**
 * Loads one skill: its `SKILL.md`, verified; a file that fails verification is not used, and a `SKILL.md` that fails
 * means the skill is not loaded at all (none of its other files is read). A refusal is the check working, not a failure.
 */
async function loadSkill(session: ServerSession, skill: Skill, write: (line: string) => void): Promise<void> {
  try {
    await session.readSkillFile(skill);
  } catch (e) {
    write(`skill ${skill.frontmatter.name} not loaded: ${(e as Error).message}`);
    return;
  }
  const files = skill.resources === 'dynamic' ? [] : skill.resources.filter((r) => r.uri !== skill.uri);
  for (const file of files) {
    try {
      await session.readSkillFile(skill, file.uri);
      write(`skill ${skill.frontmatter.name}: read ${file.uri}`);
    } catch (e) {
      write(`skill ${skill.frontmatter.name}: ${file.uri} not used: ${(e as Error).message}`);
    }
  }
}

/** The auth block as a user writes it: each secret moved into `environment` and referenced as `${env:…}`. */
function secretsAsReferences(auth: RemoteAuthConfig, environment: Record<string, string | undefined>): RemoteAuthConfig {
  const ref = (name: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    environment[`MCP_HOST_${name}`] = value;
    return `\${env:MCP_HOST_${name}}`;
  };
  return {
    ...auth,
    ...(auth.clientSecret !== undefined ? { clientSecret: ref('CLIENT_SECRET', auth.clientSecret) } : {}),
    ...(auth.privateKey !== undefined ? { privateKey: ref('PRIVATE_KEY', auth.privateKey) } : {}),
    ...(auth.assertion !== undefined ? { assertion: ref('ASSERTION', auth.assertion) } : {}),
    ...(auth.idp ? { idp: { ...auth.idp, idToken: ref('IDP_ID_TOKEN', auth.idp.idToken)!, ...(auth.idp.clientSecret !== undefined ? { clientSecret: ref('IDP_CLIENT_SECRET', auth.idp.clientSecret) } : {}) } } : {}),
  };
}

/** The flow a scenario's MCP_CONFORMANCE_CONTEXT asks for (the suite names the grant by the scenario). */
function authFromContext(context: Record<string, unknown>, scenario: string | undefined): RemoteAuthConfig | undefined {
  const str = (k: string) => (typeof context[k] === 'string' ? (context[k] as string) : undefined);
  const clientId = str('client_id');
  if (!clientId) return undefined;
  // Workload identity federation: the workload's JWT (the suite's, signed for its authorization server) as the assertion.
  if (str('valid_jwt')) return { type: 'jwtBearer', clientId, assertion: str('valid_jwt') };
  if (str('private_key_pem')) return { type: 'privateKeyJwt', clientId, privateKey: str('private_key_pem'), algorithm: str('signing_algorithm') ?? 'ES256' };
  if (str('idp_id_token')) {
    return {
      type: 'crossAppAccess',
      clientId,
      clientSecret: str('client_secret'),
      idp: { clientId: str('idp_client_id') ?? '', idToken: str('idp_id_token')!, clientSecret: str('idp_client_secret'), issuer: str('idp_issuer'), tokenEndpoint: str('idp_token_endpoint') },
    };
  }
  if (str('client_secret') && scenario?.startsWith('auth/client-credentials')) return { type: 'clientCredentials', clientId, clientSecret: str('client_secret') };
  return undefined;
}

/**
 * Arguments for one tool. A tool that asks for another tool's input schema, verbatim (the suite's JSON Schema echo:
 * a `schema` object "the inputSchema the client observed for <tool>"), gets that schema as this client holds it: it
 * shows that schemas reach callers unaltered. Every other tool gets arguments built from its schema.
 */
function argumentsForTool(tool: Tool, tools: readonly Tool[]): Record<string, unknown> {
  const property = (tool.inputSchema.properties as Record<string, { type?: unknown; description?: unknown }> | undefined)?.schema;
  const named = typeof property?.description === 'string' ? /inputSchema .*? for (\S+?)[,.]/.exec(property.description)?.[1] : undefined;
  const echoed = named && property?.type === 'object' ? tools.find((t) => t.name === named) : undefined;
  return echoed ? { schema: echoed.inputSchema } : argumentsFor(tool.inputSchema);
}

/** `[--client-metadata-url URL] [--timeout SECONDS] [--load-skills] <server-url>`; MCP_CONFORMANCE_CONTEXT may carry a client id. */
export async function main(argv: string[], env: NodeJS.ProcessEnv, write: (line: string) => void): Promise<number> {
  const args = [...argv];
  let clientMetadataUrl: string | undefined;
  let timeoutMs = 30_000;
  let loadSkillsFlag = false;
  const positional: string[] = [];
  while (args.length) {
    const arg = args.shift()!;
    if (arg === '--client-metadata-url') clientMetadataUrl = args.shift();
    else if (arg === '--timeout') timeoutMs = Number(args.shift()) * 1000;
    else if (arg === '--load-skills') loadSkillsFlag = true;
    else positional.push(arg);
  }
  if (positional.length !== 1 || !Number.isFinite(timeoutMs)) {
    write('usage: conformance-client [--client-metadata-url URL] [--timeout SECONDS] [--load-skills] <server-url>');
    return 2;
  }
  let staticClient: StaticClient | undefined;
  let toolCalls: ToolCall[] | undefined;
  let auth: RemoteAuthConfig | undefined;
  if (env.MCP_CONFORMANCE_CONTEXT) {
    const context = JSON.parse(env.MCP_CONFORMANCE_CONTEXT) as { client_id?: unknown; client_secret?: unknown; toolCalls?: unknown };
    auth = authFromContext(context, env.MCP_CONFORMANCE_SCENARIO);
    if (!auth && typeof context.client_id === 'string') {
      staticClient = { clientId: context.client_id, clientSecret: typeof context.client_secret === 'string' ? context.client_secret : undefined };
    }
    if (Array.isArray(context.toolCalls)) {
      toolCalls = context.toolCalls.filter(
        (c): c is ToolCall => typeof c === 'object' && c !== null && typeof (c as ToolCall).name === 'string' && typeof (c as ToolCall).arguments === 'object',
      );
    }
  }
  // The skills verification scenarios serve a tampered skill and check that loading it stops at its SKILL.md: they
  // need a skill loaded, as a model's request would; every other run only lists skills.
  const loadSkills = loadSkillsFlag || /^sep-2640-client-verify-/.test(env.MCP_CONFORMANCE_SCENARIO ?? '');
  return runHeadlessClient({ url: positional[0], staticClient, clientMetadataUrl, timeoutMs, toolCalls, auth, loadSkills, write });
}
