// Plain-Node stand-ins for the ports the VS Code layer implements, so the host runs against real servers in tests.
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { spawn, type ChildProcess } from 'child_process';
import type { ConfigScope, InputDefinition, RawServer, RawServerEntry } from '../../src/core/config/serverDefinition';
import { Emitter } from '../../src/core/common/events';
import type { InputProvider, KeyValueStore, TrustPrompt } from '../../src/core/host/hostPorts';
import type { LogLevelName, ServerLog } from '../../src/core/common/log';
import { consentSubject } from '../../src/core/features/consentSubject';
import { ServerManager, type HostSettings, type ServerManagerDeps } from '../../src/core/host/serverManager';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { planLaunch } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { readEnvFile } from '../../src/core/config/envFile.lazy';
import { createConnection } from '../../src/core/protocol/serverConnection.lazy';
import { TrustStore } from '../../src/core/host/trustStore';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { repoRoot, waitFor } from './helpers';
import { TrustQuestions } from '../../src/core/host/trustQuestions.lazy';
import { KnownRunStore } from '../../src/core/host/knownRunStore.lazy';

export class MemoryStore implements KeyValueStore {
  private data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  async update(key: string, value: unknown) {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, value);
  }
}

export class MemoryLog implements ServerLog {
  lines: string[] = [];
  logLevel: LogLevelName = 'info';
  private readonly levelChanged = new Emitter<LogLevelName>();
  readonly onDidChangeLogLevel = this.levelChanged.event;
  trace = (m: string) => this.lines.push(`[trace] ${m}`);
  debug = (m: string) => this.lines.push(`[debug] ${m}`);
  info = (m: string) => this.lines.push(`[info] ${m}`);
  warn = (m: string) => this.lines.push(`[warn] ${m}`);
  error = (m: string) => this.lines.push(`[error] ${m}`);
  setLevel(level: LogLevelName) {
    this.logLevel = level;
    this.levelChanged.fire(level);
  }
  dispose() {}
  get text() {
    return this.lines.join('\n');
  }
}

export const workspaceScope = (folderPath = repoRoot, key = 'file:///ws'): ConfigScope => ({
  kind: 'workspace',
  key,
  label: 'ws',
  folderPath,
  configPath: `${folderPath}/.vscode/mcp.json`,
});

export const userScope: ConfigScope = { kind: 'user', key: 'user', label: 'User', configPath: '/dev/null' };

export const stdio = (command: string, args: string[] = [], env: Record<string, string | null> = {}): RawServer => ({
  type: 'stdio',
  command,
  args,
  env,
});

export const entry = (name: string, server: RawServer): RawServerEntry => ({ name, server, nameSpan: { offset: 0, length: 0 } });

export interface Kit {
  manager: ServerManager;
  logs: Map<string, MemoryLog>;
  trustAnswers: (boolean | undefined)[];
  trustAsked: string[];
  inputAnswers: Map<string, string | undefined>;
  inputAsked: string[];
  settings: HostSettings;
  trustStore: TrustStore;
  workspaceTrusted: boolean;
  log(name: string): MemoryLog;
  /** Applies a scope's configuration and waits for the starts it causes. */
  update(...args: Parameters<ServerManager['updateScope']>): Promise<void>;
}

/** The extension's storage of the tests (confined servers' own package caches), gone when the tests end. */
let testStorage: string | undefined;
function sandboxStorage(): string {
  if (!testStorage) {
    const made = (testStorage = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-test-storage-')));
    process.once('exit', () => fs.rmSync(made, { recursive: true, force: true }));
  }
  return testStorage;
}

export function createKit(overrides: Partial<ServerManagerDeps> = {}, settings: Partial<HostSettings> = {}, store = new MemoryStore()): Kit {
  const kit = {
    logs: new Map<string, MemoryLog>(),
    trustAnswers: [] as (boolean | undefined)[],
    trustAsked: [] as string[],
    inputAnswers: new Map<string, string | undefined>(),
    inputAsked: [] as string[],
    settings: { autoStart: true, trustAllServers: true, initializeTimeoutMs: 10_000, requestTimeoutMs: 10_000, ...settings },
    trustStore: new TrustStore(new PermissionStore({ global: store, workspace: new MemoryStore() })),
    workspaceTrusted: true,
  } as Kit;
  const trustPrompt: TrustPrompt = {
    askTrust: async (d) => {
      kit.trustAsked.push(d.name);
      return kit.trustAnswers.shift();
    },
  };
  const stored = new Map<string, string>();
  const inputs: InputProvider = {
    getInput: async (scopeKey, input: InputDefinition, interactive) => {
      const key = `${scopeKey}:${input.id}`;
      if (stored.has(key)) return stored.get(key);
      if (!interactive) return undefined;
      kit.inputAsked.push(input.id);
      const v = kit.inputAnswers.get(input.id);
      if (v !== undefined) stored.set(key, v);
      return v;
    },
  };
  kit.manager = new ServerManager({
    clientInfo: { name: 'mcp-host-tests', version: '0.0.0' },
    createConnection,
    readEnvFile,
    planLaunch: (source) => planLaunch({ sandboxStorage: sandboxStorage(), ...source }),
    logs: {
      create: (_id, name) => {
        const log = kit.logs.get(name) ?? new MemoryLog();
        kit.logs.set(name, log);
        return log;
      },
    },
    trustStore: kit.trustStore,
    trustPrompt,
    // As VS Code asks them (a folder's servers together); the command line's one-at-a-time is its own test.
    trustQuestions: (prompt, dialogs) => new TrustQuestions(prompt, dialogs),
    inputs,
    settings: () => kit.settings,
    isWorkspaceTrusted: () => kit.workspaceTrusted,
    restartPolicy: { maxCrashes: 3, windowMs: 60_000, baseDelayMs: 50, maxDelayMs: 200 },
    shutdownStageMs: 500,
    ...overrides,
  });
  kit.update = async (...args) => {
    await kit.manager.updateScope(...args);
    await kit.manager.idle();
  };
  kit.log = (name) => {
    if (!kit.logs.has(name)) kit.logs.set(name, new MemoryLog());
    return kit.logs.get(name)!;
  };
  return kit;
}

export const serverState = (kit: Kit, name: string) => kit.manager.servers().find((s) => s.name === name);

/** What a blocked server waits for (reason and message); undefined in any other state. */
export const blockOf = (info: ServerInfo | undefined) => (info?.state.kind === 'blocked' ? info.state : undefined);

export const waitForState = (kit: Kit, name: string, kind: string, timeoutMs = 15_000) =>
  waitFor(() => serverState(kit, name)?.state.kind === kind && serverState(kit, name), `${name} to be ${kind}`, timeoutMs);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Starts server-everything in an HTTP mode on a free loopback port; resolves once it accepts connections. */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse'): Promise<{ port: number; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [`${repoRoot}/node_modules/@modelcontextprotocol/server-everything/dist/index.js`, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitFor(() =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      }), `server-everything ${mode} on port ${port}`, 15_000
  );
  return { port, process: child };
}

/** Runs a user-level stdio server and returns what feature tests need: its id, consent subject, client and tools. */
export async function startUserServer(kit: Kit, name: string, script: string, env: Record<string, string> = {}) {
  await kit.update(userScope, [entry(name, stdio(process.execPath, [script], env))], []);
  const info = await waitForState(kit, name, 'running');
  return {
    id: info.id,
    /** What the user's decisions about this server are remembered for. */
    subject: consentSubject(info.scope, info.name, info.definition),
    client: kit.manager.session(info.id),
    tools: info.features.tools.map((t) => t.name),
  };
}

/**
 * A window whose known runs (dormant servers) are kept in `store`, as the global Memento keeps them across windows;
 * written at once (no save delay). The kit is pushed to `kits`, which the test disposes.
 */
export function windowWithKnownRuns(kits: Kit[], store: MemoryStore, settings: Partial<HostSettings>, deps: Partial<ServerManagerDeps> = {}, log: string[] = []): { kit: Kit; knownRuns: KnownRunStore } {
  const knownRuns = new KnownRunStore(store, (m) => log.push(m), undefined, 0);
  const kit = createKit({ knownRuns, ...deps }, settings);
  kits.push(kit);
  return { kit, knownRuns };
}
