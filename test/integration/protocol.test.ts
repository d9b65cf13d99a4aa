// Protocol currency in the real extension host: a 2026-07-28 server and a 2025-11-25 one side by side, the probe's
// verdict remembered across a restart, a silent server found by the idle ping and restarted, and a 400 from a server
// shown as itself.
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { serverTooltip } from '../../src/core/presentation/serverPresentation';
import { activateHost, answerDialogs, fixtureServer, waitFor, WorkspaceConfig, type TestedHost } from './testKit';

describe('protocol revisions, health and transport errors in a real VS Code', function () {
  this.timeout(90_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;
  let dir: string;

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);
  const inState = (name: string, kind: string, timeoutMs?: number) => waitFor(() => server(name)?.state.kind === kind && server(name), `${name} ${kind}`, timeoutMs);
  const asking = (env: Record<string, string>) => ({ command: 'node', args: [fixtureServer('asking-server.mjs')], env });
  const spawns = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').length : 0);

  before(async () => {
    api = await activateHost();
    dialogs = answerDialogs(api, {});
    config = await WorkspaceConfig.read();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-protocol-it-'));
  });

  after(async () => {
    await config.restore();
    for (const key of ['ping.interval', 'ping.timeout']) await vscode.workspace.getConfiguration('mcpHost').update(key, undefined, vscode.ConfigurationTarget.Global);
    dialogs.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs a 2026-07-28 server and a 2025-11-25 server side by side, each with its revision in the tooltip', async () => {
    await config.writeServers({ modern: asking({ FIXTURE_ERAS: 'modern' }), legacy: asking({ FIXTURE_ERAS: 'legacy' }) });
    const modern = await inState('modern', 'running');
    const legacy = await inState('legacy', 'running');
    assert.strictEqual(modern.protocolVersion, '2026-07-28');
    assert.strictEqual(legacy.protocolVersion, '2025-11-25');
    // Markdown, escaped: 2026\-07\-28.
    assert.match(serverTooltip(modern), /\*\*Protocol:\*\* 2026\\-07\\-28/);
    assert.match(serverTooltip(legacy), /\*\*Protocol:\*\* 2025\\-11\\-25/);
    assert.strictEqual(modern.features.tools.length, 4);
    // A 2026-07-28 server asks for roots inside its result (input_required): answered with the workspace folders.
    const roots = JSON.parse(((await api.testing.callTool(modern.id, 'roots')) as { content: { text: string }[] }).content[0].text);
    assert.strictEqual(roots.era, 'modern');
    assert.deepStrictEqual(
      roots.result.roots.map((r: { uri: string }) => r.uri),
      vscode.workspace.workspaceFolders!.map((f) => f.uri.toString()),
    );
  });

  it('spawns a legacy server that exits on the probe twice the first time, and once after a restart', async () => {
    const log = path.join(dir, 'exits.spawns');
    await config.writeServers({ exits: asking({ FIXTURE_EXIT_ON_UNKNOWN_FIRST: '1', FIXTURE_SPAWN_LOG: log }) });
    const first = await inState('exits', 'running');
    assert.strictEqual(first.protocolVersion, '2025-11-25');
    assert.strictEqual(spawns(log), 2, 'the probe cost a second spawn');
    await vscode.commands.executeCommand('mcpHost.restartServer', first.id);
    await waitFor(() => server('exits')?.state.kind === 'running' && server('exits')!.pid !== first.pid, 'restarted');
    assert.strictEqual(spawns(log), 3, 'the restart spawned once: the verdict was remembered');
  });

  it('finds a server that stops answering by ping, and restarts it', async () => {
    for (const key of ['ping.interval', 'ping.timeout']) await vscode.workspace.getConfiguration('mcpHost').update(key, 1, vscode.ConfigurationTarget.Global);
    const log = path.join(dir, 'deaf.spawns');
    await config.writeServers({ deaf: asking({ FIXTURE_DEAF_AFTER_MS: '2500', FIXTURE_SPAWN_LOG: log }) });
    await inState('deaf', 'running');
    const failed = await waitFor(() => server('deaf')?.state.kind === 'error' && server('deaf'), 'the ping failed', 20_000);
    assert.match((failed.state as { message: string }).message, /did not answer ping within 1 s — restarting in/);
    await waitFor(() => spawns(log) >= 2 && server('deaf')?.state.kind === 'running', 'restarted by the policy', 20_000);
  });

  it('shows a 400 from a Streamable HTTP server as itself', async () => {
    const refusing = http.createServer((req, res) => {
      req.resume();
      res.writeHead(req.method === 'POST' ? 400 : 405, { 'content-type': 'text/plain' }).end('Unsupported protocol version');
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/mcp`;
      await config.writeServers({ refusing: { type: 'http', url } });
      const failed = await inState('refusing', 'error');
      assert.match((failed.state as { message: string }).message, /answered HTTP 400 Bad Request: Unsupported protocol version/);
    } finally {
      refusing.close();
    }
  });
});
