// `mcp-host`: the extension's core on the command line. The servers of an mcp.json, run by the same server manager,
// connection, OAuth provider and client features as in VS Code; what the extension asks in dialogs (trust, inputs,
// tool consent, sampling, elicitation, sign-in) is asked on the terminal instead.
import * as path from 'node:path';
import * as fs from 'node:fs';
import { AuthStatusStore } from '../core/auth/authStatus';
import { LoopbackRedirectReceiver } from '../core/protocol/auth/loopbackRedirect.lazy';
import { oauthProviderFactory } from '../core/protocol/auth/oauthProviderFactory.lazy';
import { parseMcpConfig } from '../core/config/mcpConfigParser';
import type { ConfigScope, InputDefinition } from '../core/config/serverDefinition';
import { describeDefinition } from '../core/presentation/describeDefinition';
import { ElicitationFeature, type ElicitationUi } from '../core/features/elicitation/elicitationFeature.lazy';
import type { FormField, FormOutcome } from '../core/features/elicitation/form';
import type { LanguageModel, LanguageModelCatalog, LanguageModelInfo, ModelRequest } from '../core/features/languageModel';
import { SamplingFeature } from '../core/features/sampling/samplingFeature.lazy';
import { type SamplingDialogs } from '../core/features/sampling/samplingQuestions';
import { ToolTasks } from '../core/features/tasks/toolTasks.lazy';
import { checkToolOutput } from '../core/features/tools/toolOutputCheck.lazy';
import { ToolCaller } from '../core/features/tools/toolCaller';
import { ToolConsent } from '../core/features/tools/toolConsent';
import type { ConsentAnswer } from '../core/features/userQuestions';
import type { ActiveToolCalls } from '../core/features/tools/activeToolCalls';
import { createCoreHost } from '../core/createCoreHost';
import type { PermissionStore } from '../core/host/permissionStore';
import type { ServerManager } from '../core/host/serverManager';
import type { ServerInfo } from '../core/host/serverInfo';
import { planLaunch } from '../core/protocol/launch/launchPlanner.lazy';
import { readEnvFile } from '../core/config/envFile.lazy';
import { createConnection } from '../core/protocol/serverConnection.lazy';
import { MemorySecretStore, MemoryStore, streamLogs } from './headlessPorts';
import { parseArgs, USAGE, type CliOptions } from './cliArguments';
import { runRegistryCommand, userConfigPath } from './registryCommands';
import { serveGateway } from './gatewayCommand';

/** Where the CLI talks: questions and messages on stderr, answers read from stdin, results on stdout. */
export interface Terminal {
  /** Asks and reads one line; undefined once the input has ended. `secret`: the answer is not echoed. */
  ask(question: string, options?: { secret?: boolean }): Promise<string | undefined>;
  /** A message for the user (stderr). */
  say(line: string): void;
  /** The command's result (stdout). */
  print(text: string): void;
  /** A person at a terminal on stdin (not a pipe): `add` asks the required values. */
  interactive?: boolean;
}

const yesNo = async (terminal: Terminal, question: string): Promise<boolean | undefined> => {
  const answer = await terminal.ask(`${question} [y/N] `);
  return answer === undefined ? undefined : /^y(es)?$/i.test(answer.trim());
};

/** Runs one command; resolves with the exit code (0 ok, 1 failed, 2 bad usage or configuration). */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, cwd: string, terminal: Terminal): Promise<number> {
  const options = parseArgs(argv);
  if (typeof options === 'string') {
    terminal.say(options);
    return 2;
  }
  const [first, ...rest] = options.command;
  if (first === 'search' || first === 'add') {
    const registryOptions = { ...options, user: options.user === true, askInput: (input: InputDefinition) => askInput(terminal, input) };
    return runRegistryCommand(first, rest, registryOptions, env, cwd, terminal);
  }
  const configPath = options.config
    ? path.resolve(cwd, options.config)
    : [path.join(cwd, '.vscode', 'mcp.json'), path.join(cwd, 'mcp.json'), path.join(cwd, '.mcp.json')].find((p) => fs.existsSync(p));
  if (!configPath || !fs.existsSync(configPath)) {
    terminal.say(`No mcp.json found${options.config ? ` at ${options.config}` : ` in ${cwd}/.vscode or ${cwd}`}.`);
    return 2;
  }
  const portable = path.basename(configPath) === '.mcp.json';
  const parsed = parseMcpConfig(fs.readFileSync(configPath, 'utf8'), { portable });
  for (const d of parsed.diagnostics) terminal.say(`${configPath}: ${d.severity}: ${d.message}`);
  if (parsed.diagnostics.some((d) => d.severity === 'error')) return 2;

  const folder = path.basename(path.dirname(configPath)) === '.vscode' ? path.dirname(path.dirname(configPath)) : path.dirname(configPath);
  const scope: ConfigScope = { kind: 'workspace', key: `cli:${configPath}`, label: path.basename(folder), folderPath: folder, configPath, ...(portable ? { dialect: 'mcpServers' as const } : {}) };
  const redirect = new LoopbackRedirectReceiver();
  const logs = streamLogs((line) => (options.verbose || /\] \[error\] /.test(line) ? terminal.say(line) : undefined), options.verbose ? 'debug' : 'info');
  const { manager, permissions, activeToolCalls, setFolders } = createCoreHost({
    clientInfo: { name: 'mcp-host-cli', version: '0.1.0' },
    createConnection,
    // Confined servers' own package caches: beside the user's mcp.json, as in VS Code.
    readEnvFile,
    planLaunch: (source) => planLaunch({ ...source, sandboxStorage: path.dirname(userConfigPath(env)) }),
    logs,
    stores: { global: new MemoryStore(), workspace: new MemoryStore() },
    trustPrompt: {
      // Asked through the interaction queue by the host already: one question at a time.
      askTrust: (d, facts) => (options.yes ? Promise.resolve(true) : yesNo(terminal, `Run server "${d.name}"?\n${describeDefinition(d.raw, facts)}\n`)),
    },
    inputs: { getInput: (_scope, input, interactive) => (interactive ? askInput(terminal, input) : Promise.resolve(undefined)) },
    settings: () => ({ autoStart: false, trustAllServers: false, initializeTimeoutMs: 30_000, requestTimeoutMs: 60_000 }),
    isWorkspaceTrusted: () => true,
    environment: env,
    restartPolicy: { maxCrashes: 1, windowMs: 60_000, baseDelayMs: 60_000, maxDelayMs: 60_000 },
    features: ({ permissions, activeToolCalls, interactions }) => [
      new SamplingFeature({
        settings: () => ({ enabled: true, rateLimitPerMinute: 10, maxTokens: 4096, pinnedModels: [], allowedContext: 'none', allowTools: false }),
        models: new TerminalModel(terminal),
        dialogs: terminalSamplingDialogs(terminal),
        permissions,
        activeToolCalls,
        queue: interactions,
        notifyUser: (m) => terminal.say(m),
        describeContext: () => '',
      }),
      new ElicitationFeature({ enabled: () => true, rateLimitPerMinute: () => 10, ui: terminalElicitation(terminal), permissions, activeToolCalls, queue: interactions }),
    ],
    authProvider: oauthProviderFactory({
      store: new MemorySecretStore(),
      status: new AuthStatusStore(),
      clientName: 'MCP Host (command line)',
      interaction: {
        redirectUrl: async () => `http://127.0.0.1:${await redirect.listen()}/callback`,
        confirmSignIn: (r) => (options.yes ? Promise.resolve(true) : yesNo(terminal, `Sign in to "${r.serverName}" at ${r.authorizationServer}?`)),
        authorize: (url, signal) => {
          terminal.say(`Open this address in your browser to sign in:\n  ${url.href}`);
          return redirect.waitFor(url.searchParams.get('state') ?? '', signal);
        },
      },
    }),
  });
  setFolders([{ name: path.basename(folder), fsPath: folder }]);
  try {
    await manager.updateScope(scope, parsed.servers, parsed.inputs);
    if (first === 'gateway') return await serveGateway({ manager, permissions, activeToolCalls, yes: options.yes, env, yesNo: (q) => yesNo(terminal, q), say: (l) => terminal.say(l), print: (t) => terminal.print(t) }, options.port);
    return await runCommand(options, manager, scope, terminal, permissions, activeToolCalls);
  } finally {
    await manager.disposeAsync();
    redirect.dispose();
  }
}

async function runCommand(
  options: CliOptions,
  manager: ServerManager,
  scope: ConfigScope,
  terminal: Terminal,
  permissions: PermissionStore,
  activeToolCalls: ActiveToolCalls,
): Promise<number> {
  const [command, serverName, ...rest] = options.command;
  const output = (value: unknown, text: () => string) => terminal.print(options.json ? JSON.stringify(value, null, 2) : text());
  const start = async (name: string): Promise<ServerInfo | undefined> => {
    const server = manager.get(`${scope.key}::${name}`);
    if (!server) {
      terminal.say(`No server "${name}" in the configuration: ${manager.servers().map((s) => s.name).join(', ') || 'none'}.`);
      return undefined;
    }
    await server.start(true);
    const info = manager.servers().find((s) => s.id === server.id)!;
    if (info.state.kind !== 'running') terminal.say(`"${name}" is ${info.state.kind}${'message' in info.state && info.state.message ? `: ${info.state.message}` : ''}`);
    return info.state.kind === 'running' ? info : undefined;
  };
  const json = (text: string | undefined): Record<string, unknown> | undefined => {
    if (text === undefined) return {};
    try {
      const value = JSON.parse(text) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // fall through
    }
    terminal.say(`Arguments must be a JSON object, not ${text}`);
    return undefined;
  };

  switch (command) {
    case 'list': {
      for (const s of manager.servers()) await start(s.name);
      const servers = manager.servers().map((s) => ({
        name: s.name,
        state: s.state.kind,
        ...('message' in s.state && s.state.message ? { message: s.state.message } : {}),
        protocolVersion: s.protocolVersion,
        server: s.serverInfo,
        tools: s.features.tools.length,
        prompts: s.features.prompts.length,
        resources: s.features.resources.length,
      }));
      output(servers, () =>
        servers
          .map((s) => `${s.name}  ${s.state}${s.protocolVersion ? `  protocol ${s.protocolVersion}` : ''}  ${s.tools} tools, ${s.prompts} prompts, ${s.resources} resources${s.message ? `\n  ${s.message}` : ''}`)
          .join('\n'),
      );
      return servers.every((s) => s.state === 'running') ? 0 : 1;
    }
    case 'tools':
    case 'prompts':
    case 'resources': {
      const info = serverName && (await start(serverName));
      if (!info) return serverName ? 1 : usage(terminal);
      const f = info.features;
      const list = command === 'tools' ? f.tools : command === 'prompts' ? f.prompts : { resources: f.resources, resourceTemplates: f.resourceTemplates };
      output(list, () =>
        command === 'resources'
          ? [...f.resources.map((r) => `${r.uri}  ${r.name}`), ...f.resourceTemplates.map((t) => `${t.uriTemplate}  ${t.name} (template)`)].join('\n')
          : (list as { name: string; description?: string }[]).map((x) => `${x.name}${x.description ? `  ${x.description.split('\n')[0]}` : ''}`).join('\n'),
      );
      return 0;
    }
    case 'call': {
      const [toolName, argsText] = rest;
      const info = serverName && toolName ? await start(serverName) : undefined;
      if (!info) return serverName && toolName ? 1 : usage(terminal);
      const tool = info.features.tools.find((t) => t.name === toolName);
      const args = json(argsText);
      if (!tool || !args) {
        if (!tool) terminal.say(`"${serverName}" has no tool "${toolName}": ${info.features.tools.map((t) => t.name).join(', ')}.`);
        return 1;
      }
      const consent = new ToolConsent({
        permissions,
        autoAllowReadOnly: () => false,
        ask: async (q) => {
          if (options.yes) return 'once';
          terminal.say(`Call tool "${q.toolName}" of server "${q.serverName}"${q.destructive ? ' (may change things)' : ''} with:\n${q.argumentsJson}`);
          return (await yesNo(terminal, 'Allow?')) ? 'once' : 'deny';
        },
      });
      // A tool that runs as a task (2025-11-25) is followed to its end, its result printed like any other.
      const tasks = new ToolTasks({ checkResult: checkToolOutput });
      const outcome = await new ToolCaller(manager, activeToolCalls, consent, tasks).call({ serverId: info.id, tool, arguments: args, origin: 'the mcp-host command line' });
      if (!outcome.ran) {
        terminal.say('The call was not allowed.');
        return 1;
      }
      const { result } = outcome;
      output(result, () => contentText(result.content) + (result.structuredContent !== undefined ? `\n${JSON.stringify(result.structuredContent, null, 2)}` : ''));
      return result.isError ? 1 : 0;
    }
    case 'prompt': {
      const [name, argsText] = rest;
      const info = serverName && name ? await start(serverName) : undefined;
      const args = json(argsText);
      if (!info || !args) return serverName && name ? 1 : usage(terminal);
      const result = await manager.session(info.id).getPrompt(name, Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)])));
      output(result, () => result.messages.map((m) => `[${m.role}] ${contentText([m.content])}`).join('\n\n'));
      return 0;
    }
    case 'read': {
      const [uri] = rest;
      const info = serverName && uri ? await start(serverName) : undefined;
      if (!info) return serverName && uri ? 1 : usage(terminal);
      const result = await manager.session(info.id).readResource(uri);
      output(result, () => result.contents.map((c) => ('text' in c ? c.text : `(${c.mimeType ?? 'binary'}, ${Buffer.from(String(c.blob), 'base64').length} bytes)`)).join('\n'));
      return 0;
    }
    default:
      return usage(terminal);
  }
}

function usage(terminal: Terminal): number {
  terminal.say(USAGE);
  return 2;
}

function contentText(content: readonly unknown[]): string {
  return content
    .map((c) => {
      const block = c as { type: string; text?: string; mimeType?: string; uri?: string; resource?: { uri: string; text?: string } };
      if (block.type === 'text') return block.text ?? '';
      if (block.type === 'resource_link') return `(resource link ${block.uri})`;
      if (block.type === 'resource') return block.resource?.text ?? `(resource ${block.resource?.uri})`;
      return `(${block.type}${block.mimeType ? ` ${block.mimeType}` : ''})`;
    })
    .join('\n');
}

async function askInput(terminal: Terminal, input: InputDefinition): Promise<string | undefined> {
  // A VS Code command's value: there is no VS Code here (resolution says so before any input is asked).
  if (input.type === 'command') return undefined;
  if (input.type === 'pickString') {
    terminal.say(`${input.description}:\n${input.options.map((o, i) => `  ${i + 1}. ${o}`).join('\n')}`);
    const answer = await terminal.ask(`Choose 1-${input.options.length}${input.default ? ` [${input.default}]` : ''}: `);
    if (answer === undefined) return undefined;
    if (!answer.trim()) return input.default;
    return input.options[Number(answer) - 1] ?? (input.options.includes(answer.trim()) ? answer.trim() : undefined);
  }
  const answer = await terminal.ask(`${input.description}${input.default ? ` [${input.default}]` : ''}: `, { secret: input.password });
  return answer === undefined ? undefined : answer || input.default || answer;
}

/** Sampling without a model on the command line: the user writes the answer the server gets. */
class TerminalModel implements LanguageModelCatalog {
  private readonly info: LanguageModelInfo = { id: 'you', family: 'terminal', vendor: 'mcp-host', name: 'you, on the terminal', capabilities: { acceptsImages: false, acceptsTools: false } };

  constructor(private readonly terminal: Terminal) {}

  async list() {
    return [this.info];
  }

  async get(): Promise<LanguageModel> {
    const terminal = this.terminal;
    return {
      info: this.info,
      async *send(_request: ModelRequest) {
        const answer = await terminal.ask('Write the answer the server receives (one line): ');
        yield { kind: 'text' as const, text: answer ?? '' };
      },
      countTokens: async (text: string) => Math.ceil(text.length / 4),
    };
  }
}

function terminalSamplingDialogs(terminal: Terminal): SamplingDialogs {
  return {
    async confirmSampling(q): Promise<ConsentAnswer | undefined> {
      terminal.say(`Server "${q.serverName}" asks for a completion:\n${q.detail}`);
      const allowed = await yesNo(terminal, 'Allow?');
      return allowed === undefined ? undefined : allowed ? 'once' : 'deny';
    },
    // The answer is the user's own: nothing to review.
    reviewSamplingResponse: async () => 'approve',
    inputText: async (q) => {
      const answer = await terminal.ask(`${q.title} (empty: as shown)\n${q.value ?? ''}\n> `, { secret: q.password });
      return answer === undefined ? undefined : answer || q.value;
    },
  };
}

function terminalElicitation(terminal: Terminal): ElicitationUi {
  return {
    async askForm(request): Promise<FormOutcome> {
      terminal.say(`Server "${request.serverName}" asks: ${request.message}`);
      const values: Record<string, unknown> = {};
      for (const field of request.form.fields) {
        for (;;) {
          const answer = await terminal.ask(fieldQuestion(field), { secret: field.secretLike });
          if (answer === undefined) return { action: 'cancel' };
          if (answer.trim() === '!decline') return { action: 'decline' };
          const value = fieldValue(field, answer);
          if (value.ok) {
            if (value.value !== undefined) values[field.name] = value.value;
            break;
          }
          terminal.say(value.error);
        }
      }
      const submit = await yesNo(terminal, `Send ${JSON.stringify(values)} to "${request.serverName}"?`);
      return submit === undefined ? { action: 'cancel' } : submit ? { action: 'accept', values } : { action: 'decline' };
    },
    async confirmOpenUrl(request) {
      terminal.say(`Server "${request.serverName}" asks you to open ${request.url} (${request.domain}): ${request.message}`);
      return yesNo(terminal, 'Open it?');
    },
    async openUrl(url) {
      terminal.say(`Open this address in your browser:\n  ${url}`);
      return true;
    },
  };
}

function fieldQuestion(field: FormField): string {
  const kind = field.kind === 'enum' || field.kind === 'multi-enum' ? ` (${field.options?.map((o) => o.value).join(' | ')})` : ` (${field.kind})`;
  const fallback = field.default !== undefined ? ` [${Array.isArray(field.default) ? field.default.join(',') : String(field.default)}]` : '';
  return `${field.title ?? field.name}${field.required ? ' *' : ''}${kind}${fallback}: `;
}

function fieldValue(field: FormField, answer: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const text = answer.trim();
  if (!text) return field.default !== undefined ? { ok: true, value: field.default } : field.required ? { ok: false, error: 'This field is required.' } : { ok: true, value: undefined };
  switch (field.kind) {
    case 'boolean':
      return /^(y|yes|true)$/i.test(text) ? { ok: true, value: true } : /^(n|no|false)$/i.test(text) ? { ok: true, value: false } : { ok: false, error: 'Answer yes or no.' };
    case 'number':
    case 'integer': {
      const n = Number(text);
      return Number.isFinite(n) && (field.kind === 'number' || Number.isInteger(n)) ? { ok: true, value: n } : { ok: false, error: `Not ${field.kind === 'integer' ? 'a whole number' : 'a number'}.` };
    }
    case 'multi-enum':
      return { ok: true, value: text.split(',').map((v) => v.trim()) };
    default:
      return { ok: true, value: text };
  }
}
