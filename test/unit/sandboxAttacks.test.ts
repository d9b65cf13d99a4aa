// Issue 39, as an attacker would try it: a hostile server started confined with the default rules (or a hostile
// repository's rules) tries to leave behind what programs outside its sandbox later run or obey. Each test is one
// attack, with the real sandbox (bubblewrap), real git and npx, in throwaway folders: the server tries, then the
// unconfined program runs as the user would run it, and a marker file says whether anything planted ran.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { emptySandboxConfig, type SandboxConfig } from '../../src/core/config/sandboxConfig';
import type { RawServer } from '../../src/core/config/serverDefinition';
import { planLaunch } from '../../src/core/protocol/launch/launchPlanner.lazy';
import type { StdioLaunchPlan } from '../../src/core/config/launchPlan';
import { foldForDialog } from '../../src/core/presentation/foldedText';
import { describeLaunchPlan, describeRunsWhere, describeSandbox } from '../../src/core/presentation/describeLaunchPlan';
import { trustQuestionText } from '../../src/core/presentation/trustQuestionText';
import { buildStdioPlan } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { addSandboxRule, withSandboxEnabled, withSandboxRule } from '../../src/core/protocol/launch/sandboxRuleEdit.lazy';
import { sandboxSupport } from '../../src/core/protocol/launch/sandboxRuntime.lazy';
import { fixtureServer, waitFor } from './helpers';
import { createKit, entry, serverState, waitForState, workspaceScope, type Kit } from './hostTestKit';

const probe = fixtureServer('sandbox-probe-server.mjs');
const text = (r: { content?: unknown }) => ((r.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');

/** The protected set docs/trust-and-security.md lists: in every folder a confined server may write (and those above it that it may). */
const PROTECTED = {
  files: ['.mcp.json', '.gitmodules', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', '.envrc', '.exrc', '.vimrc', '.nvimrc', '.nvim.lua', 'commondir'],
  /** Read from the home folder only (never writable): protected where they are. */
  homeFiles: ['.gitconfig', '.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.ripgreprc'],
  folders: ['.vscode', '.idea', '.github', '.devcontainer', '.claude', '.cursor', '.husky', '.cargo', 'node_modules', 'node_modules/.bin', '.venv', '.venv/bin'],
  gitFiles: ['config', 'config.worktree', 'commondir', 'gitdir'],
  gitFolders: ['hooks', 'info', 'modules', 'worktrees'],
};
const PLANTED = 'planted by a confined server';

/** What a server would write to plant something in `dir`: each protected file, a file in each protected folder and in `.git`. */
function protectedTargets(dir: string): string[] {
  const dotGit = path.join(dir, '.git');
  const git = fs.existsSync(dotGit) ? [...PROTECTED.gitFiles.map((f) => path.join(dotGit, f)), ...PROTECTED.gitFolders.map((f) => path.join(dotGit, f, 'planted'))] : [path.join(dotGit, 'config'), path.join(dotGit, 'HEAD')];
  const home = PROTECTED.homeFiles.map((f) => path.join(dir, f)).filter((f) => fs.existsSync(f));
  return [...PROTECTED.files.map((f) => path.join(dir, f)), ...home, ...PROTECTED.folders.map((f) => path.join(dir, f, 'planted')), ...git];
}

const allowing = (...allowWrite: string[]): SandboxConfig => {
  const config = emptySandboxConfig();
  config.filesystem.allowWrite.push(...allowWrite);
  return config;
};

describe('issue 39: a confined server never plants what later runs unconfined (real sandbox, real git and npx)', function () {
  this.timeout(120_000);
  let root: string;
  let home: string;
  let ws: string;
  let bin: string;
  let storage: string;
  let marker: string;
  let kit: Kit | undefined;

  before(function () {
    const support = sandboxSupport();
    assert.ok(support.ok, `this machine cannot confine: ${support.ok ? '' : support.reason} (run scripts/ensure-sandbox-tools.sh)`);
  });

  /** The user's own environment: its home folder, and PATH as the user's programs have it. */
  const userEnv = (extraPath: string[] = []) => ({ ...process.env, HOME: home, PATH: [...extraPath, bin, process.env.PATH].join(':'), GIT_CONFIG_NOSYSTEM: '1', npm_config_update_notifier: 'false', npm_config_cache: path.join(home, '.npm') });
  const git = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, env: userEnv(), encoding: 'utf8' });
  /** A command that, run by anything unconfined, leaves the marker. */
  const plantedCommand = () => `touch ${marker}`;
  const ran = () => fs.existsSync(marker);

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-attack-')));
    home = path.join(root, 'home');
    ws = path.join(home, 'ws');
    bin = path.join(root, 'bin');
    storage = path.join(home, '.config', 'Code', 'User', 'globalStorage', 'mcp-host.mcp-host');
    marker = path.join(root, 'PLANTED-CODE-RAN');
    fs.mkdirSync(path.join(ws, 'sub'), { recursive: true });
    fs.mkdirSync(bin);
    fs.mkdirSync(storage, { recursive: true });
    fs.writeFileSync(path.join(storage, 'mcp.json'), '{ "servers": {} }\n');
    fs.writeFileSync(path.join(ws, 'README.md'), 'hello\n');
    for (const args of [['init', '-q'], ['-c', 'user.name=u', '-c', 'user.email=u@example.com', 'add', '.'], ['-c', 'user.name=u', '-c', 'user.email=u@example.com', 'commit', '-q', '-m', 'first']]) assert.strictEqual(git(ws, ...args).status, 0);
  });
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    kit = undefined;
    fs.rmSync(root, { recursive: true, force: true });
  });

  /** A runner of that name (uvx, pnpm) on the user's PATH that runs the probe: the defaults are planned for it. */
  const runner = (dir: string, name: string): string => {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, name);
    fs.writeFileSync(file, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(probe)} "$@"\n`, { mode: 0o755 });
    return file;
  };

  /** The probe, confined, in the workspace (or `cwd`), planned as the extension plans it (its storage, the user's PATH). */
  async function startConfined(options: { cwd?: string; sandbox?: SandboxConfig; command?: string; extraPath?: string[] } = {}) {
    const environment = userEnv(options.extraPath);
    // As createHost hands it to the planner (an object, so this test also runs where the planner knew no storage).
    const storageOf = { sandboxStorage: storage };
    kit = createKit({ environment, planLaunch: (source) => planLaunch({ ...source, ...storageOf }) });
    const server: RawServer = { type: 'stdio', command: options.command ?? process.execPath, args: options.command ? [] : [probe], env: {}, ...(options.cwd ? { cwd: options.cwd } : {}), sandboxEnabled: true, sandbox: options.sandbox ?? emptySandboxConfig() };
    await kit.update(workspaceScope(ws), [entry('hostile', server)], []);
    const info = await waitForState(kit, 'hostile', 'running', 60_000).catch((e: Error) => {
      throw new Error(`${e.message}: ${JSON.stringify(serverState(kit!, 'hostile')?.state)}\n${kit!.log('hostile').text}`);
    });
    assert.strictEqual(info.confined, true);
    return (name: string, args: Record<string, unknown>) => kit!.manager.session(info.id).callTool({ name, arguments: args });
  }

  it('git metadata: .git/commondir pointed at a copy whose config sets core.fsmonitor (default rules, cwd = the workspace folder); an unconfined git status runs nothing of it', async () => {
    const call = await startConfined();
    // A copy of the repository, its config running a command on every `git status`, and the repository pointed at it.
    await call('run', { command: 'cp', args: ['-r', '.git', '.common'], cwd: ws });
    assert.ok(fs.existsSync(path.join(ws, '.common', 'objects')), 'the copy was made');
    await call('write', { path: path.join(ws, '.common', 'config'), text: `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "${plantedCommand()}; false"\n` });
    await call('write', { path: path.join(ws, '.git', 'commondir'), text: '../.common\n' });
    // Nor by putting the copy in the repository's place.
    const moved = JSON.parse(text(await call('run', { command: 'sh', args: ['-c', 'mv .git .moved && mv .common .git'], cwd: ws })));
    assert.notStrictEqual(moved.status, 0, 'the repository was moved aside');
    await kit!.manager.disposeAsync();
    const status = git(ws, 'status', '--porcelain');
    assert.ok(!ran(), 'core.fsmonitor of the planted copy ran');
    assert.strictEqual(status.status, 0, status.stderr);
  });

  it('git metadata: with cwd in a subfolder and the workspace folder in allowWrite, the root\'s .vscode/mcp.json, .mcp.json, .git/config and .git/hooks are not writable; an unconfined git status runs nothing of it', async () => {
    const call = await startConfined({ cwd: path.join(ws, 'sub'), sandbox: allowing(ws) });
    const config = fs.readFileSync(path.join(ws, '.git', 'config'), 'utf8');
    const targets = {
      [path.join(ws, '.vscode', 'mcp.json')]: '{ "servers": { "evil": { "command": "sh", "args": ["-c", "touch x"] } } }',
      [path.join(ws, '.mcp.json')]: '{ "mcpServers": { "evil": { "command": "sh" } } }',
      [path.join(ws, '.git', 'config')]: `${config}[core]\n\tfsmonitor = "${plantedCommand()}; false"\n`,
      [path.join(ws, '.git', 'hooks', 'post-checkout')]: `#!/bin/sh\n${plantedCommand()}\n`,
    };
    for (const [target, content] of Object.entries(targets)) {
      const r = await call('write', { path: target, text: content, parents: true, mode: 0o755 });
      assert.ok(r.isError, `${target} was writable: ${text(r)}`);
    }
    // Its own folder it may still write.
    assert.strictEqual(text(await call('write', { path: path.join(ws, 'sub', 'notes.txt'), text: 'ok' })), 'written');
    await kit!.manager.disposeAsync();
    assert.strictEqual(fs.readFileSync(path.join(ws, '.git', 'config'), 'utf8'), config);
    for (const target of Object.keys(targets)) assert.ok(!fs.existsSync(target) || !fs.readFileSync(target, 'utf8').includes('touch'), target);
    assert.strictEqual(git(ws, 'status', '--porcelain').status, 0);
    assert.strictEqual(git(ws, 'checkout', '-q', '-b', 'other').status, 0);
    assert.ok(!ran(), 'a planted git setting or hook ran');
  });

  it('every protected path refuses the confined server, from the working directory, from a subfolder, and through allowWrite of the workspace', async () => {
    const inWs = allowing(ws);
    // Shell files where a repository keeps them (they are protected where they are).
    for (const dir of [ws, path.join(ws, 'sub')]) for (const f of PROTECTED.homeFiles) fs.writeFileSync(path.join(dir, f), '# mine\n');
    for (const [cwd, sandbox, dirs] of [[ws, emptySandboxConfig(), [ws]], [path.join(ws, 'sub'), emptySandboxConfig(), [path.join(ws, 'sub')]], [path.join(ws, 'sub'), inWs, [ws, path.join(ws, 'sub')]]] as const) {
      const call = await startConfined({ cwd, sandbox });
      const targets = dirs.flatMap(protectedTargets);
      const writable: string[] = [];
      for (const target of targets) if (!(await call('write', { path: target, text: PLANTED, parents: true })).isError) writable.push(target);
      assert.strictEqual(text(await call('write', { path: path.join(cwd, 'ordinary.txt'), text: 'ok' })), 'written', 'its own files it still writes');
      await kit!.manager.disposeAsync();
      kit = undefined;
      assert.deepStrictEqual(writable, [], `writable from ${cwd}`);
      assert.deepStrictEqual(targets.filter((t) => fs.existsSync(t) && fs.statSync(t).isFile() && fs.readFileSync(t, 'utf8') === PLANTED), []);
    }
    assert.strictEqual(git(ws, 'status', '--porcelain').status, 0);
  });

  it('runner caches: a package planted under ~/.npm/_npx does not run on the next unconfined npx -y of that package', async () => {
    // The user ran this package with npx before: it is in npx's cache.
    const pkg = path.join(root, 'pkg');
    fs.mkdirSync(pkg);
    fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'hello-mcp-test', version: '1.0.0', bin: { 'hello-mcp-test': 'bin.js' } }));
    fs.writeFileSync(path.join(pkg, 'bin.js'), '#!/usr/bin/env node\nconsole.log("hello genuine")\n', { mode: 0o755 });
    assert.strictEqual(spawnSync('npm', ['pack', '--silent'], { cwd: pkg, env: userEnv() }).status, 0);
    const spec = `file:${path.join(pkg, 'hello-mcp-test-1.0.0.tgz')}`;
    const npx = () => spawnSync('npx', ['-y', spec], { cwd: root, env: userEnv(), encoding: 'utf8' });
    assert.match(npx().stdout, /hello genuine/);
    const npxDir = path.join(home, '.npm', '_npx');
    const [key] = fs.readdirSync(npxDir);
    const planted = path.join(npxDir, key, 'node_modules', 'hello-mcp-test', 'bin.js');
    assert.ok(fs.existsSync(planted));

    // A confined server run by node (npm's runner: its defaults once made ~/.npm writable) rewrites it.
    const call = await startConfined();
    await call('write', { path: planted, text: `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(marker)}, "x")\n`, parents: true });
    const { env } = JSON.parse(text(await call('env', {})));
    await kit!.manager.disposeAsync();
    assert.match(npx().stdout, /hello genuine/);
    assert.ok(!ran(), 'the planted package ran');
    // It has a cache of its own, in the extension's storage.
    assert.ok(typeof env.npm_config_cache === 'string' && env.npm_config_cache.startsWith(path.join(storage, 'sandbox')), JSON.stringify(env));
  });

  it('runner caches: a tool planted under ~/.local/share/uv/tools does not run from ~/.local/bin (uvx)', async () => {
    const tool = path.join(home, '.local', 'share', 'uv', 'tools', 'mytool', 'bin', 'mytool');
    fs.mkdirSync(path.dirname(tool), { recursive: true });
    fs.writeFileSync(tool, '#!/bin/sh\necho genuine\n', { mode: 0o755 });
    fs.mkdirSync(path.join(home, '.local', 'bin'), { recursive: true });
    fs.symlinkSync(tool, path.join(home, '.local', 'bin', 'mytool'));
    runner(bin, 'uvx');
    const call = await startConfined({ command: 'uvx' });
    await call('write', { path: tool, text: `#!/bin/sh\n${plantedCommand()}\n`, parents: true, mode: 0o755 });
    const { env } = JSON.parse(text(await call('env', {})));
    await kit!.manager.disposeAsync();
    const r = spawnSync('mytool', [], { env: userEnv([path.join(home, '.local', 'bin')]), encoding: 'utf8' });
    assert.match(r.stdout, /genuine/);
    assert.ok(!ran(), 'the planted tool ran');
    assert.ok(String(env.UV_TOOL_DIR).startsWith(path.join(storage, 'sandbox')), JSON.stringify(env));
  });

  it('runner caches: a git planted in pnpm\'s global bin folder (on PATH) does not shadow the real one', async () => {
    const pnpmHome = path.join(home, '.local', 'share', 'pnpm');
    fs.mkdirSync(pnpmHome, { recursive: true });
    runner(bin, 'pnpm');
    const call = await startConfined({ command: 'pnpm' });
    await call('write', { path: path.join(pnpmHome, 'git'), text: `#!/bin/sh\n${plantedCommand()}\n`, mode: 0o755 });
    await kit!.manager.disposeAsync();
    const r = spawnSync('git', ['--version'], { env: userEnv([pnpmHome]), encoding: 'utf8' });
    assert.match(r.stdout, /git version/);
    assert.ok(!ran(), 'the planted git ran');
  });

  it('denials the server writes itself: forged EROFS and [SandboxDebug] lines are no denials; a real refusal offers exactly its path or host, never / or an ancestor, nor the extension\'s storage', async () => {
    const call = await startConfined();
    await call('say', { text: "Error: EROFS: read-only file system, open '/mcp-cache-dir/index.db'" });
    await call('say', { text: `Error: EROFS: read-only file system, open '${path.join(storage, 'mcp.json')}'` });
    await call('say', { text: '[SandboxDebug] Connection blocked to localhost:6379' });
    // Real attempts: a folder that does not exist at /, the extension's storage, a port of this machine.
    assert.ok((await call('write', { path: '/mcp-cache-dir/index.db', text: 'x', parents: true })).isError);
    await call('write', { path: path.join(storage, 'mcp.json'), text: '{ "servers": { "evil": { "command": "sh" } } }' });
    await call('fetch', { url: 'http://localhost:6379/' });
    const denials = await waitFor(() => {
      const list = serverState(kit!, 'hostile')?.sandboxDenials ?? [];
      return list.some((d) => d.kind === 'network') && list.some((d) => d.kind === 'write') && list;
    }, 'the runtime\'s denials', 10_000);
    // What "Allow and Restart" would write: never / or an ancestor of what was refused, never the storage.
    let file = '{ "servers": { "hostile": { "command": "node", "sandboxEnabled": true } } }';
    for (const d of denials) file = withSandboxRule(file, d);
    const rules = parseMcpConfig(file).servers[0].server;
    assert.ok(rules.type === 'stdio');
    const allowWrite = rules.sandbox?.filesystem.allowWrite ?? [];
    for (const p of allowWrite) assert.ok(!['/', home, storage, path.dirname(storage)].includes(p) && !denials.some((d) => d.kind === 'write' && d.path.startsWith(`${p}/`)), `an ancestor was offered: ${p}`);
    assert.ok(!allowWrite.some((p) => p.startsWith(storage)), `the storage was offered: ${allowWrite.join(', ')}`);
    assert.deepStrictEqual(rules.sandbox?.network.allowedDomains, ['localhost:6379']);
    assert.strictEqual(fs.readFileSync(path.join(storage, 'mcp.json'), 'utf8'), '{ "servers": {} }\n');
  });

  it('a runner installed two folders under home (~/.cargo/bin/uvx) makes only its own folder readable, never ~/.cargo (credentials.toml)', async () => {
    fs.mkdirSync(path.join(home, '.cargo'), { recursive: true });
    fs.writeFileSync(path.join(home, '.cargo', 'credentials.toml'), '[registry]\ntoken = "secret-cargo-token"\n');
    runner(path.join(home, '.cargo', 'bin'), 'uvx');
    const call = await startConfined({ command: 'uvx', extraPath: [path.join(home, '.cargo', 'bin')] });
    const r = await call('read', { path: path.join(home, '.cargo', 'credentials.toml') });
    assert.ok(r.isError && !text(r).includes('secret-cargo-token'), text(r));
  });

  it('the parser refuses the domain patterns the runtime refuses (*.localhost, *.com, a name without a dot)', () => {
    const parsed = parseMcpConfig('{ "servers": {}, "sandbox": { "network": { "allowedDomains": ["*.localhost", "*.com", "example", "localhost:6379", "*.example.com", "[::1]:8080"] } } }');
    assert.deepStrictEqual(parsed.diagnostics.map((d) => d.code), ['invalid-sandbox-domain', 'invalid-sandbox-domain', 'invalid-sandbox-domain']);
  });

  it('a start the runtime refuses (*.localhost), or that ends at once, leaves no settings folder behind', async () => {
    const leftovers = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('mcp-host-sandbox-')).length;
    const before = leftovers();
    const refused = emptySandboxConfig();
    refused.network.allowedDomains.push('*.localhost');
    kit = createKit({ environment: userEnv(), restartPolicy: { maxCrashes: 1, windowMs: 60_000, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const server = (args: string[], sandbox = emptySandboxConfig()): RawServer => ({ type: 'stdio', command: process.execPath, args, env: {}, sandboxEnabled: true, sandbox });
    await kit.update(workspaceScope(ws), [entry('refused', server([probe], refused)), entry('ends', server(['-e', 'process.exit(3)']))], []);
    for (const name of ['refused', 'ends']) await waitFor(() => ['error', 'blocked'].includes(serverState(kit!, name)?.state.kind ?? ''), `${name}: the start failed`, 30_000);
    await waitFor(() => leftovers() === before, 'its settings folder removed', 5000).catch(() => undefined);
    assert.strictEqual(leftovers(), before, 'a settings folder was left in the temp directory');
  });
});

describe('issue 39: the question and the file, as a new user meets them', () => {
  const home = '/home/ada';
  const folder = '/home/ada/proj';
  const plan = (command: string, allowedDomains: string[] = [], changes = 0): StdioLaunchPlan => {
    const sandbox = emptySandboxConfig();
    sandbox.network.allowedDomains.push(...allowedDomains);
    const env: Record<string, string> = {};
    for (let i = 0; i < changes; i++) env[`SETTING_${i}`] = `value ${i}`;
    return buildStdioPlan({
      scope: { folderPath: folder },
      resolved: { type: 'stdio', command, args: ['-y', 'some-server'], env, sandboxEnabled: true, sandbox },
      shown: { type: 'stdio', command, args: ['-y', 'some-server'], env, sandboxEnabled: true, sandbox },
      hostEnv: { PATH: '/usr/bin', HOME: home },
      platform: 'linux',
      isExecutable: (f) => f === `/usr/bin/${command}`,
      home,
    });
  };

  it('allowedDomains: ["localhost"] is said as "may connect to ports on this machine", never "no port of this machine"', () => {
    const every = describeSandbox(plan('npx', ['localhost']).sandbox).join('\n');
    assert.ok(every.includes('network only to registry.npmjs.org; may connect to every port on this machine'), every);
    assert.ok(!every.includes('no port of this machine'), every);
    const one = describeSandbox(plan('mytool', ['localhost:6379']).sandbox).join('\n');
    assert.ok(one.includes('Confined: no other network; may connect to port 6379 on this machine'), one);
  });

  it('the question reads "no network" where there is none, never "network only to no host"', () => {
    const lines = describeSandbox(plan('mytool').sandbox);
    assert.ok(lines.includes('Confined: no network'), lines.join('\n'));
    assert.ok(!lines.join('\n').includes('no host'), lines.join('\n'));
  });

  it('Enter on the trust question (Run Confined) writes only "sandboxEnabled": the one-line args array is not rewrapped', () => {
    const text = '{\n  "servers": {\n    "fs": {\n      "command": "npx",\n      "args": ["-y", "@modelcontextprotocol/server-filesystem", "${workspaceFolder}"]\n    },\n    "one": { "command": "node", "args": ["a.js", "--flag"] } // mine\n  }\n}\n';
    const fs1 = withSandboxEnabled(text, 'fs');
    assert.strictEqual(fs1, text.replace('      "command": "npx",', '      "sandboxEnabled": true,\n      "command": "npx",'));
    const one = withSandboxEnabled(text, 'one');
    assert.strictEqual(one, text.replace('{ "command": "node"', '{ "sandboxEnabled": true, "command": "node"'));
    assert.strictEqual(withSandboxEnabled(text.replace('"command": "node"', '"sandboxEnabled": false, "command": "node"'), 'one'), one);
  });

  it('the trust question stays short in its first screen: what runs, where, and what confined allows, in plain words, without temporary paths', () => {
    const p = plan('npx', [], 40);
    const q = trustQuestionText({ serverName: 'docs', source: 'proj/.vscode/mcp.json', detail: describeLaunchPlan(p), what: describeRunsWhere(p), confined: { allows: describeSandbox(p.sandbox) } });
    const first = foldForDialog(q.detail).shown;
    for (const words of ['Command: npx -y some-server', 'Working directory: /home/ada/proj', 'Run Confined: it runs in a sandbox', 'reads the system and ~/proj', 'its own package cache and a temporary folder', 'network only to registry.npmjs.org', 'Trust: it runs as defined']) assert.ok(first.includes(words), `${words} is not on the first screen:\n${first}`);
    assert.ok(!/\/\.npm|mcp-host-sandbox|\/tmp\/|\.cache\//.test(first), first);
  });

  it('two "Allow and Restart" answers in the same tick keep both rules', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-rules-'));
    try {
      const file = path.join(dir, 'mcp.json');
      fs.writeFileSync(file, '{ "servers": { "s": { "command": "node", "sandboxEnabled": true } } }\n');
      await Promise.all([addSandboxRule(file, { kind: 'write', path: '/srv/a', allow: '/srv/a' }), addSandboxRule(file, { kind: 'network', host: 'api.example.com', port: 443, allow: 'api.example.com' }), addSandboxRule(file, { kind: 'write', path: '/srv/b', allow: '/srv/b' })]);
      const server = parseMcpConfig(fs.readFileSync(file, 'utf8')).servers[0].server;
      assert.ok(server.type === 'stdio');
      assert.deepStrictEqual(server.sandbox?.filesystem.allowWrite, ['/srv/a', '/srv/b']);
      assert.deepStrictEqual(server.sandbox?.network.allowedDomains, ['api.example.com']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
