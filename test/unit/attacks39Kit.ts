// The world of the issue 39 attacks (attacks39*.test.ts): a throwaway home folder with a workspace folder in it, the
// user's PATH and the extension's storage, a hostile server started confined (bubblewrap, the product's own plan and
// launcher), then the unconfined program the user (or VS Code, or MCP Host) runs later, and a marker file that says
// whether anything planted ran.
import * as assert from 'assert';
import { spawnSync, type SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { emptySandboxConfig, type SandboxConfig } from '../../src/core/config/sandboxConfig';
import type { RawServer, ResolvedServer } from '../../src/core/config/serverDefinition';
import { describeSandbox } from '../../src/core/presentation/describeLaunchPlan';
import { planLaunch } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { sandboxSupport } from '../../src/core/protocol/launch/sandboxRuntime.lazy';
import { fixtureServer } from './helpers';
import { createKit, entry, serverState, waitForState, workspaceScope, type Kit } from './hostTestKit';

export const probe = fixtureServer('sandbox-probe-server.mjs');
export const text = (r: { content?: unknown }) => ((r.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');
export type Call = (name: string, args: Record<string, unknown>) => Promise<{ content?: unknown; isError?: boolean }>;

export interface World {
  root: string;
  home: string;
  ws: string;
  bin: string;
  storage: string;
  marker: string;
  kit: Kit | undefined;
  /** Where this test's throwaway folder is: the system temp dir, or /var/tmp for a test whose name says "outside the temp dir". */
  base: string;
  /** The user's own environment: its home folder, and PATH as the user's programs have it. */
  userEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
  git(cwd: string, ...args: string[]): SpawnSyncReturns<string>;
  /** A shell command that, run by anything unconfined, leaves the marker. */
  planted(): string;
  ran(): boolean;
  /** The workspace folder made a repository with one commit. */
  repository(): void;
  confined(options?: { cwd?: string; sandbox?: SandboxConfig }): RawServer;
  newKit(): Kit;
  /** The probe, confined (default rules unless told), in the workspace folder, planned as the extension plans it. */
  startConfined(options?: { cwd?: string; sandbox?: SandboxConfig }): Promise<Call>;
  callOf(name: string): Promise<Call>;
  /** What the trust question says a confined start of the probe with these rules may do (its first screen). */
  confinedQuestion(sandbox: SandboxConfig): Promise<string>;
  run(call: Call, script: string, cwd?: string): Promise<{ status: number; stdout: string; stderr: string }>;
  /** Ends every server of the test (as the user closing the window would). */
  stop(): Promise<void>;
}

/** Registers the hooks of an attack suite in the current describe; the world's fields are this test's. */
export function attackWorld(): World {
  const w = { kit: undefined, base: os.tmpdir() } as World;
  before(function () {
    const support = sandboxSupport();
    assert.ok(support.ok, `this machine cannot confine: ${support.ok ? '' : support.reason} (run scripts/ensure-sandbox-tools.sh)`);
  });
  beforeEach(function () {
    w.base = /outside the temp dir/.test(this.currentTest?.title ?? '') && fs.existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir();
    w.root = fs.realpathSync(fs.mkdtempSync(path.join(w.base, 'mcphost-attack39-')));
    w.home = path.join(w.root, 'home');
    w.ws = path.join(w.home, 'ws');
    w.bin = path.join(w.root, 'bin');
    w.storage = path.join(w.home, '.config', 'Code', 'User', 'globalStorage', 'mcp-host.mcp-host');
    w.marker = path.join(w.root, 'PLANTED-CODE-RAN');
    fs.mkdirSync(w.ws, { recursive: true });
    fs.mkdirSync(w.bin);
    fs.mkdirSync(w.storage, { recursive: true });
    fs.writeFileSync(path.join(w.storage, 'mcp.json'), '{ "servers": {} }\n');
    fs.writeFileSync(path.join(w.ws, 'README.md'), 'hello\n');
  });
  afterEach(async () => {
    await w.stop();
    fs.rmSync(w.root, { recursive: true, force: true });
  });

  w.userEnv = (extra = {}) => ({ ...process.env, HOME: w.home, PATH: [w.bin, process.env.PATH].join(':'), GIT_CONFIG_NOSYSTEM: '1', XDG_CONFIG_HOME: '', npm_config_update_notifier: 'false', npm_config_cache: path.join(w.home, '.npm'), ...extra });
  w.git = (cwd, ...args) => spawnSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.com', ...args], { cwd, env: w.userEnv(), encoding: 'utf8' });
  w.planted = () => `touch ${w.marker}`;
  w.ran = () => fs.existsSync(w.marker);
  w.repository = () => {
    for (const args of [['init', '-q'], ['add', '.'], ['commit', '-q', '-m', 'first']]) assert.strictEqual(w.git(w.ws, ...args).status, 0, args.join(' '));
  };
  w.confined = (options = {}) => ({ type: 'stdio', command: process.execPath, args: [probe], env: {}, ...(options.cwd ? { cwd: options.cwd } : {}), sandboxEnabled: true, sandbox: options.sandbox ?? emptySandboxConfig() });
  w.newKit = () => {
    const storageOf = { sandboxStorage: w.storage };
    return createKit({ environment: w.userEnv(), planLaunch: (source) => planLaunch({ ...source, ...storageOf }) });
  };
  w.startConfined = async (options = {}) => {
    w.kit = w.newKit();
    await w.kit.update(workspaceScope(w.ws), [entry('hostile', w.confined(options))], []);
    return w.callOf('hostile');
  };
  w.callOf = async (name) => {
    const kit = w.kit!;
    const info = await waitForState(kit, name, 'running', 60_000).catch((e: Error) => {
      throw new Error(`${e.message}: ${JSON.stringify(serverState(kit, name)?.state)}\n${kit.log(name).text}`);
    });
    assert.strictEqual(info.confined, true);
    return (tool, args) => kit.manager.session(info.id).callTool({ name: tool, arguments: args }) as Promise<{ content?: unknown; isError?: boolean }>;
  };
  w.confinedQuestion = async (sandbox) => {
    const server = w.confined({ sandbox });
    const planned = await planLaunch({ scope: workspaceScope(w.ws), name: 'hostile', raw: server, resolved: server as ResolvedServer, shown: server as ResolvedServer, hostEnv: w.userEnv(), sandboxStorage: w.storage });
    if (!planned.ok || planned.plan.kind !== 'stdio') throw new Error(JSON.stringify(planned));
    return describeSandbox(planned.plan.sandbox).join('\n');
  };
  w.run = async (call, script, cwd = w.ws) => JSON.parse(text(await call('run', { command: 'sh', args: ['-c', script], cwd }))) as { status: number; stdout: string; stderr: string };
  w.stop = async () => {
    await w.kit?.manager.disposeAsync();
    w.kit = undefined;
  };
  return w;
}
