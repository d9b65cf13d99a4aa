// A confined server in a real VS Code: the trust question says what confined means, the Servers view shows it runs
// confined, a write outside its allowances is refused and reaches the view and a notification, and "Allow and Restart"
// writes the rule into mcp.json (comments kept) so that the restarted server may write there.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { SandboxQuestion, TrustQuestion } from '../../src/vscode/dialogs/dialogRouter';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { activateHost, answerDialogs, fixtureServer, waitFor, WorkspaceConfig, type TestedHost } from './testKit';
import { describeState, serverIcon } from '../../src/core/presentation/serverPresentation';

describe('confined servers in a real VS Code', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let outside: string;
  const trustQuestions: TrustQuestion[] = [];
  const sandboxQuestions: SandboxQuestion[] = [];
  let dialogs: { dispose(): void } | undefined;

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);
  const text = (r: unknown) => ((r as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('');

  before(async () => {
    api = await activateHost();
    dialogs = answerDialogs(api, {
      confirmTrust: async (q) => (trustQuestions.push(q), true),
      confirmSandbox: async (q) => (sandboxQuestions.push(q), q.kind === 'denial'),
    });
    config = await WorkspaceConfig.read();
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-int-outside-')));
  });
  after(async () => {
    dialogs?.dispose();
    await config.restore();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('runs confined, shows it, reports a denied write with Allow and Restart, which writes the rule and lets it write', async () => {
    const target = path.join(outside, 'out.txt');
    await config.write(`{
  // a confined probe
  "servers": { "probe": { "command": "node", "args": [${JSON.stringify(fixtureServer('sandbox-probe-server.mjs'))}], "sandboxEnabled": true } }
}
`);
    const running = await waitFor(() => server('probe')?.state.kind === 'running' && server('probe'), 'the confined probe running', 60_000);
    assert.strictEqual(running.confined, true);
    const question = trustQuestions.find((q) => q.serverName === 'probe');
    assert.ok(question, 'trust was asked');
    assert.match(question.detail, /Confined: writes only .* \(never git, editor or shell settings there\), its own package cache and a temporary folder/);
    assert.match(question.detail, /Confined: network only to registry\.npmjs\.org; no port of this machine/);
    // The row stays short (its lock icon says confined); its tooltip's first line says it in words.
    await waitFor(() => api.testing.renderServersTree().some((l) => /probe — running · (7 tools|≈?[\d.]+k? tokens)$/.test(l)), 'the row');
    assert.strictEqual(serverIcon(server('probe')!).id, 'lock');
    assert.strictEqual(describeState(server('probe')!), 'running · 7 tools · confined');

    // A file not there yet: the sandbox allows only what exists, and never a folder above it, so no rule is offered.
    const absent = path.join(outside, 'absent.txt');
    assert.match(text(await api.testing.callTool(running.id, 'write', { path: absent, text: 'x' })), /EROFS|EACCES|EPERM/);
    const none = await waitFor(() => sandboxQuestions.find((q) => q.kind === 'denial' && q.denied === `writing ${absent}`), 'the first denial notification');
    assert.ok(none.kind === 'denial' && none.rule === undefined && /did not exist when the server started/.test(none.refused ?? ''), JSON.stringify(none));
    // A file that is there: the rule is exactly that file.
    fs.writeFileSync(target, 'before');
    const refused = await api.testing.callTool(running.id, 'write', { path: target, text: 'x' });
    assert.match(text(refused), /EROFS|EACCES|EPERM/);
    assert.strictEqual(fs.readFileSync(target, 'utf8'), 'before');
    const asked = await waitFor(() => sandboxQuestions.find((q) => q.kind === 'denial' && q.denied === `writing ${target}`), 'the denial notification');
    assert.ok(asked.kind === 'denial');
    assert.strictEqual(asked.rule, `${JSON.stringify(target)} in sandbox.filesystem.allowWrite`);
    await waitFor(() => api.testing.renderServersTree().some((l) => /probe — running · 2 denied( · ≈?[\d.]+k? tokens)?$/.test(l)), 'the row counts the denials');

    // Allow and Restart: the rule in mcp.json, the comment kept; the server restarts with it and may write there.
    const written = await waitFor(() => {
      const t = new TextDecoder().decode(fs.readFileSync(config.uri.fsPath));
      return t.includes('"allowWrite"') && t;
    }, 'the rule in mcp.json');
    assert.ok(written.includes('// a confined probe'), written);
    assert.ok(written.includes(JSON.stringify(target)), written);
    // Running again: a new process (while it stops, the old state still reads running, without a pid).
    const restarted = await waitFor(() => server('probe')?.state.kind === 'running' && server('probe')!.pid !== undefined && server('probe')!.pid !== running.pid && server('probe'), 'the probe restarted', 60_000);
    assert.strictEqual(text(await api.testing.callTool(restarted.id, 'write', { path: target, text: 'allowed' })), 'written');
    assert.strictEqual(fs.readFileSync(target, 'utf8'), 'allowed');
  });
});
