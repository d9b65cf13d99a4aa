import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { emptySandboxConfig, type SandboxConfig } from '../../src/core/config/sandboxConfig';
import type { RawServer } from '../../src/core/config/serverDefinition';
import { serverChanges } from '../../src/core/presentation/serverPresentation';
import { sandboxSupport } from '../../src/core/protocol/launch/sandboxRuntime.lazy';
import { createConnection } from '../../src/core/protocol/serverConnection.lazy';
import { everythingServer, fixtureServer, repoRoot, runMcpHost, waitFor } from './helpers';
import { createKit, entry, serverState, waitForState, workspaceScope, type Kit } from './hostTestKit';

const probe = fixtureServer('sandbox-probe-server.mjs');
const confined = (args: string[], sandbox: SandboxConfig = emptySandboxConfig()): RawServer => ({ type: 'stdio', command: process.execPath, args, env: {}, sandboxEnabled: true, sandbox });
const text = (r: { content?: unknown }) => ((r.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');

/**
 * Real processes in the real sandbox (bubblewrap, socat and ripgrep from Debian, installed by the test setup): what a
 * confined server may not do is refused, what it may do works.
 */
describe('confined servers run in the sandbox runtime (real processes)', function () {
  this.timeout(60_000);
  let kit: Kit;
  let ws: string;
  let secretDir: string;
  let outside: string;
  let listener: net.Server;
  let port: number;

  before(function () {
    const support = sandboxSupport();
    // Not a skip: the setup (scripts/ensure-sandbox-tools.sh, run by `npm test`) installs what the sandbox needs.
    assert.ok(support.ok, `this machine cannot confine: ${support.ok ? '' : support.reason} (run scripts/ensure-sandbox-tools.sh)`);
  });

  beforeEach(async () => {
    // The workspace and a secret under the home folder (hidden unless allowed); a folder outside both.
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.homedir(), '.mcphost-sandbox-ws-')));
    secretDir = fs.realpathSync(fs.mkdtempSync(path.join(os.homedir(), '.mcphost-sandbox-secret-')));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-sandbox-outside-')));
    fs.writeFileSync(path.join(secretDir, 'id_rsa'), 'PRIVATE KEY');
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'workspace notes');
    listener = net.createServer((s) => s.on('error', () => {}).end('hello from the host')).listen(0, '127.0.0.1');
    await new Promise((r) => listener.once('listening', r));
    port = (listener.address() as net.AddressInfo).port;
    kit = createKit();
  });
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    listener?.close();
    for (const d of [ws, secretDir, outside]) fs.rmSync(d, { recursive: true, force: true });
  });

  const startProbe = async (server: RawServer) => {
    await kit.update(workspaceScope(ws), [entry('probe', server)], []);
    const info = await waitForState(kit, 'probe', 'running', 30_000);
    return (name: string, args: Record<string, unknown>) => kit.manager.session(info.id).callTool({ name, arguments: args });
  };

  it('refuses reading under the home folder, writing outside its folders and connecting to a port of this machine; its allowed work succeeds', async () => {
    const call = await startProbe(confined([probe]));
    // Refused.
    const secret = await call('read', { path: path.join(secretDir, 'id_rsa') });
    assert.ok(secret.isError && !text(secret).includes('PRIVATE KEY'), text(secret));
    const written = await call('write', { path: path.join(outside, 'out.txt'), text: 'x' });
    assert.ok(written.isError, text(written));
    assert.match(text(written), /EROFS|EACCES|EPERM/);
    assert.ok(!fs.existsSync(path.join(outside, 'out.txt')));
    const connected = await call('connect', { host: '127.0.0.1', port });
    assert.ok(connected.isError, `reached the host's port ${port}: ${text(connected)}`);
    // Allowed: its working directory (the workspace folder, under the home folder), its private temp dir.
    assert.strictEqual(text(await call('read', { path: path.join(ws, 'notes.txt') })), 'workspace notes');
    assert.strictEqual(text(await call('write', { path: path.join(ws, 'made.txt'), text: 'made' })), 'written');
    assert.strictEqual(fs.readFileSync(path.join(ws, 'made.txt'), 'utf8'), 'made');
    const { tmpdir } = JSON.parse(text(await call('env', {})));
    assert.match(tmpdir, /mcp-host-sandbox-/);
    assert.strictEqual(text(await call('write', { path: path.join(tmpdir, 't.txt'), text: 't' })), 'written');
    // The denials are in the log, each saying what was refused.
    const log = await waitFor(() => kit.log('probe').text.includes(`The sandbox denied writing ${path.join(outside, 'out.txt')}`) && kit.log('probe').text, 'the denial in the log', 5000);
    assert.match(log, /Confined \(sandbox runtime\)/);
    assert.strictEqual(serverState(kit, 'probe')?.confined, true);
    // Reported by the runtime; a file not there yet has no rule (the sandbox allows only what exists, and never a folder above).
    const denied = serverState(kit, 'probe')?.sandboxDenials?.find((d) => d.kind === 'write');
    assert.deepStrictEqual({ ...denied, refused: undefined }, { kind: 'write', path: path.join(outside, 'out.txt'), refused: undefined });
    assert.match(denied?.refused ?? '', /did not exist when the server started/);
    // The Servers view redraws the server whose denials grew (the change names it): the snapshot it holds keeps the ones it showed.
    const shown = serverState(kit, 'probe')!;
    const named = new Set<string>();
    const listening = kit.manager.onDidChangeServers((ids) => ids.forEach((id) => named.add(id)));
    const second = path.join(outside, 'second.txt');
    assert.ok((await call('write', { path: second, text: 'x' })).isError);
    const grown = await waitFor(() => serverState(kit, 'probe')?.sandboxDenials?.some((d) => d.kind === 'write' && d.path === second) && serverState(kit, 'probe'), 'the second denial', 5000);
    listening.dispose();
    assert.ok(!shown.sandboxDenials?.some((d) => d.kind === 'write' && d.path === second), 'the shown snapshot keeps what it showed');
    assert.deepStrictEqual([...named], [shown.id]);
    assert.deepStrictEqual(serverChanges(new Map([[shown.id, shown]]), new Map([[grown.id, grown]]), named).changed.map((s) => s.name), ['probe']);
    assert.ok(!log.includes('[SandboxDebug]') && !log.includes('allowedHosts'), 'the runtime\'s own chatter stays out of the log');
  });

  it('the same probes unconfined all succeed (so the refusals above are the sandbox\'s)', async () => {
    const call = await startProbe({ type: 'stdio', command: process.execPath, args: [probe], env: {} });
    assert.strictEqual(text(await call('read', { path: path.join(secretDir, 'id_rsa') })), 'PRIVATE KEY');
    assert.strictEqual(text(await call('write', { path: path.join(outside, 'out.txt'), text: 'x' })), 'written');
    assert.strictEqual(text(await call('connect', { host: '127.0.0.1', port })), 'connected');
  });

  it('allowWrite and denyRead of the file\'s block are applied', async () => {
    fs.writeFileSync(path.join(ws, '.env'), 'TOKEN=1');
    const sandbox = emptySandboxConfig();
    sandbox.filesystem.allowWrite.push(outside);
    sandbox.filesystem.denyRead.push(path.join(ws, '.env'));
    const call = await startProbe(confined([probe], sandbox));
    assert.strictEqual(text(await call('write', { path: path.join(outside, 'out.txt'), text: 'x' })), 'written');
    const env = await call('read', { path: path.join(ws, '.env') });
    assert.ok(env.isError && !text(env).includes('TOKEN'), text(env));
  });

  it('a host not allowed is refused by the sandbox\'s proxy and reported as a network denial, with the exact host as its rule', async () => {
    const call = await startProbe(confined([probe]));
    const r = await call('fetch', { url: 'http://blocked.example.invalid/' });
    assert.ok(r.isError || text(r) === 'HTTP 403', text(r));
    await waitFor(() => kit.log('probe').text.includes('The sandbox denied connecting to blocked.example.invalid:80'), 'the network denial', 10_000);
    assert.deepStrictEqual(serverState(kit, 'probe')?.sandboxDenials, [{ kind: 'network', host: 'blocked.example.invalid', port: 80, allow: 'blocked.example.invalid' }]);
  });

  it('server-everything runs confined with the defaults and answers its ordinary calls', async () => {
    const call = await startProbe(confined([everythingServer]));
    assert.match(text(await call('echo', { message: 'confined hello' })), /confined hello/);
    assert.ok(serverState(kit, 'probe')?.features.tools.length);
  });

  it('server-filesystem runs confined with the defaults: lists, reads and writes its root', async () => {
    const fsServer = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
    const call = await startProbe(confined([fsServer, ws]));
    assert.match(text(await call('list_directory', { path: ws })), /notes\.txt/);
    assert.match(text(await call('read_text_file', { path: path.join(ws, 'notes.txt') })), /workspace notes/);
    assert.match(text(await call('write_file', { path: path.join(ws, 'new.txt'), content: 'from fs' })), /Successfully wrote/);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'new.txt'), 'utf8'), 'from fs');
  });

  it('a git server runs confined: it reads the repository\'s state and commits; an unconfined git sees the commit, and runs as before', async () => {
    const git = (...args: string[]) => spawnSync('git', args, { cwd: ws, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@example.com', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@example.com' } });
    for (const args of [['init', '-q'], ['add', 'notes.txt'], ['commit', '-q', '-m', 'first']]) assert.strictEqual(git(...args).status, 0);
    const call = await startProbe(confined([fixtureServer('git-server.mjs')]));
    // Its own git lists the repository's files only (not the sandbox's placeholders of absent protected files).
    assert.strictEqual(text(await call('status', {})), '');
    const committed = await call('commit', { path: 'from-server.txt', text: 'committed confined', message: 'from the confined git server' });
    assert.ok(!committed.isError, text(committed));
    assert.match(text(await call('log', {})), /from the confined git server[\s\S]*first/);
    await kit.manager.disposeAsync();
    const log = git('log', '--oneline');
    assert.strictEqual(log.status, 0, log.stderr);
    assert.match(log.stdout, /from the confined git server/);
    assert.strictEqual(git('status', '--porcelain').stdout, '');
  });

  it('where the sandbox cannot run, the server is not started, with the reason; it never runs unconfined by itself', async () => {
    // A PATH without bubblewrap, socat or ripgrep (the server's command is an absolute path).
    const k = createKit({ environment: { ...process.env, PATH: outside } });
    try {
      await k.update(workspaceScope(ws), [entry('probe', confined([probe]))], []);
      const info = await waitFor(() => { const s = serverState(k, 'probe'); return s && s.state.kind !== 'starting' && s.state.kind !== 'stopped' && s; }, 'the start to end', 15_000);
      assert.strictEqual(info.state.kind, 'error', JSON.stringify(info.state) + k.log('probe').text);
      const message = info.state.kind === 'error' ? info.state.message : '';
      assert.match(message, /cannot confine it\. The sandbox needs bubblewrap \(bwrap\), socat, ripgrep \(rg\), not found on the PATH/);
      assert.strictEqual(info.pid, undefined);
    } finally {
      await k.manager.disposeAsync();
    }
    assert.deepStrictEqual(sandboxSupport('win32'), { ok: false, reason: 'Windows cannot confine an MCP server (the sandbox runs on Linux and macOS).' });
  });

  it('the mcp-host command line runs a confined server confined: a write outside is refused, the trust question says confined', async () => {
    fs.mkdirSync(path.join(ws, '.vscode'));
    fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers: { probe: { command: process.execPath, args: [probe], sandboxEnabled: true } } }));
    // Its user mcp.json (and so the confined servers' own caches beside it) in the test's folder, not the real one.
    const run = (args: string[], answers: string[]) => runMcpHost(ws, args, answers, { ...process.env, MCP_HOST_USER_CONFIG: path.join(outside, 'user', 'mcp.json') });
    const refused = await run(['call', 'probe', 'write', JSON.stringify({ path: path.join(outside, 'cli.txt'), text: 'x' })], ['y', 'y']);
    assert.match(refused.stderr, /Confined: writes only /);
    assert.match(refused.stdout + refused.stderr, /EROFS/);
    assert.strictEqual(refused.code, 1);
    assert.ok(!fs.existsSync(path.join(outside, 'cli.txt')));
    const allowed = await run(['--yes', 'call', 'probe', 'write', JSON.stringify({ path: path.join(ws, 'cli.txt'), text: 'x' })], []);
    assert.strictEqual(allowed.code, 0, allowed.stderr);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'cli.txt'), 'utf8'), 'x');
  });

  it('"Run Unconfined" is asked with the reason; only a yes runs it, unconfined, and says so in the log', async () => {
    for (const answer of [false, true]) {
      const asked: string[] = [];
      const k = createKit({
        environment: { ...process.env, PATH: outside },
        createConnection: (d, log, secrets, options, events) => createConnection(d, log, secrets, { ...options, runUnconfined: async (_d, reason) => (asked.push(reason), answer) }, events),
      });
      try {
        await k.update(workspaceScope(ws), [entry('probe', confined([probe]))], []);
        const info = await waitFor(() => { const s = serverState(k, 'probe'); return s && (s.state.kind === 'running' || s.state.kind === 'error') && s; }, 'the start to end', 15_000);
        assert.deepStrictEqual(asked, ['The sandbox needs bubblewrap (bwrap), socat, ripgrep (rg), not found on the PATH. Install them: sudo apt-get install bubblewrap socat ripgrep (or your distribution\'s packages).']);
        assert.strictEqual(info.state.kind, answer ? 'running' : 'error');
        if (answer) {
          assert.strictEqual(info.confined, undefined, 'not confined');
          assert.match(k.log('probe').text, /Running unconfined, as you chose: The sandbox needs bubblewrap/);
          const r = await k.manager.session(info.id).callTool({ name: 'read', arguments: { path: path.join(secretDir, 'id_rsa') } });
          assert.strictEqual(text(r), 'PRIVATE KEY');
        }
      } finally {
        await k.manager.disposeAsync();
      }
    }
  });
});
