// "Run Confined" in a real VS Code: the trust question of a workspace server that is not set to run confined offers it
// first, saying what confined allows that server; chosen, the server runs confined at once (a read under the home
// folder is refused), mcp.json says so ("sandboxEnabled": true, comments kept), its tooltip and the public API say it
// is confined, and a restart runs it confined without asking again.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TrustManyQuestion, TrustQuestion } from '../../src/vscode/dialogs/dialogRouter';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { serverIcon, serverTooltip } from '../../src/core/presentation/serverPresentation';
import { trustManyQuestionText, trustQuestionText } from '../../src/core/presentation/trustQuestionText';
import { activateHost, answerDialogs, fixtureServer, sleep, waitFor, WorkspaceConfig, type TestedHost } from './testKit';

describe('Run Confined in the trust question, in a real VS Code', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let secretDir: string;
  const trustQuestions: TrustQuestion[] = [];
  let dialogs: { dispose(): void } | undefined;

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);
  const text = (r: unknown) => ((r as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('');

  before(async () => {
    api = await activateHost();
    dialogs = answerDialogs(api, {
      // The user reads the question and chooses its first button.
      confirmTrust: async (q) => {
        trustQuestions.push(q);
        return trustQuestionText(q).buttons[0].answer;
      },
    });
    config = await WorkspaceConfig.read();
    // A secret under the home folder the extension host runs with (the sandbox hides it).
    secretDir = fs.realpathSync(fs.mkdtempSync(path.join(os.homedir(), '.mcphost-int-secret-')));
    fs.writeFileSync(path.join(secretDir, 'id_rsa'), 'PRIVATE KEY');
  });
  after(async () => {
    dialogs?.dispose();
    await config.restore();
    fs.rmSync(secretDir, { recursive: true, force: true });
  });

  it('offers Run Confined first; chosen, it runs confined, mcp.json says so, the tooltip and API too, and a restart does not ask again', async () => {
    await config.write(`{
  // an unconfined probe
  "servers": { "guarded": { "command": "node", "args": [${JSON.stringify(fixtureServer('sandbox-probe-server.mjs'))}] } }
}
`);
    const running = await waitFor(() => server('guarded')?.state.kind === 'running' && server('guarded')!.pid !== undefined && server('guarded'), 'the probe running', 60_000);
    const asked = trustQuestions.filter((q) => q.serverName === 'guarded');
    assert.strictEqual(asked.length, 1);
    const rendered = trustQuestionText(asked[0]);
    assert.deepStrictEqual(
      rendered.buttons.map((b) => b.label),
      ['Run Confined', 'Trust', 'Do Not Trust'],
    );
    // What confined means for this server: its folder writable, node's runner's registry only, the home folder hidden.
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const shown = folder.startsWith(`${os.homedir()}/`) ? `~${folder.slice(os.homedir().length)}` : folder;
    assert.ok(rendered.detail.includes(`• writes only ${shown} (never git, editor or shell settings there), its own package cache and a temporary folder`), rendered.detail);
    assert.ok(/• reads the system(?: and [^\n]*)?, not (?:the rest of )?your home folder/.test(rendered.detail), rendered.detail);
    // The first screen of the dialog: what runs, where, and what confined allows, before the plan in full.
    assert.ok(rendered.detail.indexOf('Run Confined: it runs in a sandbox') < rendered.detail.indexOf('In full, as defined:'), rendered.detail);
    assert.ok(rendered.detail.includes('• network only to registry.npmjs.org; no port of this machine'), rendered.detail);
    assert.ok(rendered.detail.includes('"sandboxEnabled": true is written into its entry in mcp.json'), rendered.detail);

    // Confined: the secret under the home folder is refused.
    assert.strictEqual(running.confined, true);
    const refused = await api.testing.callTool(running.id, 'read', { path: path.join(secretDir, 'id_rsa') });
    assert.ok(!text(refused).includes('PRIVATE KEY'), text(refused));
    // The file says what runs, its comment kept.
    const written = await waitFor(() => {
      const t = new TextDecoder().decode(fs.readFileSync(config.uri.fsPath));
      return t.includes('"sandboxEnabled": true') && t;
    }, 'sandboxEnabled in mcp.json');
    assert.ok(written.includes('// an unconfined probe'), written);
    // The row, its tooltip and the public API say confined; the file's reload left it running (the same process).
    await waitFor(() => api.testing.renderServersTree().some((l) => /guarded — running · (7 tools|≈?[\d.]+k? tokens)$/.test(l)), 'the row');
    assert.strictEqual(serverIcon(server('guarded')!).id, 'lock', 'the row shows confined by its icon');
    await api.testing.reloadConfiguration();
    const after = server('guarded')!;
    assert.strictEqual(after.pid, running.pid);
    assert.match(serverTooltip(after), /running · 7 tools · confined/);
    assert.strictEqual(api.getServer(running.id)?.confined, true);

    // Restarted from the command a user runs: confined again, and not asked again.
    await vscode.commands.executeCommand('mcpHost.restartServer', running.id);
    const restarted = await waitFor(() => server('guarded')?.state.kind === 'running' && server('guarded')!.pid !== undefined && server('guarded')!.pid !== running.pid && server('guarded'), 'the probe restarted', 60_000);
    assert.strictEqual(restarted.confined, true);
    assert.ok(!text(await api.testing.callTool(restarted.id, 'read', { path: path.join(secretDir, 'id_rsa') })).includes('PRIVATE KEY'));
    assert.strictEqual(trustQuestions.filter((q) => q.serverName === 'guarded').length, 1, 'asked once');
  });

  it('several new servers: Run All Confined comes first; Choose Which to Run… can run the checked ones confined', async () => {
    const manyQuestions: TrustManyQuestion[] = [];
    const answering = answerDialogs(api, { confirmTrustMany: async (q) => (manyQuestions.push(q), 'choose') });
    try {
      const probe = JSON.stringify(fixtureServer('sandbox-probe-server.mjs'));
      await config.write(`{
  "servers": {
    "one": { "command": "node", "args": [${probe}, "one"] },
    "two": { "command": "node", "args": [${probe}, "two"] }
  }
}
`);
      await waitFor(() => manyQuestions.length === 1, 'one question for the two');
      const rendered = trustManyQuestionText(manyQuestions[0]);
      assert.deepStrictEqual(
        rendered.buttons.map((b) => b.label),
        ['Run All 2 Confined', 'Trust and Run All 2', 'Choose Which to Run…', 'Run None'],
      );
      assert.match(rendered.detail, /• one: [^]*?\n {2}If confined: reads the system/);
      // The pick: check "one", then the last item, "Run the checked servers confined".
      await sleep(1500);
      for (const command of ['quickInput.next', 'quickInput.toggleCheckbox', 'quickInput.next', 'quickInput.next', 'quickInput.toggleCheckbox', 'quickInput.accept']) {
        await vscode.commands.executeCommand(command);
        await sleep(200);
      }
      const one = await waitFor(() => server('one')?.state.kind === 'running' && server('one'), 'one running', 60_000);
      assert.strictEqual(one.confined, true);
      const two = await waitFor(() => server('two')?.state.kind === 'blocked' && server('two'), 'two not trusted');
      assert.strictEqual(two.state.kind === 'blocked' && two.state.reason, 'untrusted');
      const written = await waitFor(() => {
        const t = new TextDecoder().decode(fs.readFileSync(config.uri.fsPath));
        return t.includes('"sandboxEnabled": true') && t;
      }, 'sandboxEnabled in mcp.json');
      // Only in the entry of "one".
      assert.strictEqual(written.split('"sandboxEnabled"').length, 2, written);
      assert.ok(written.indexOf('"sandboxEnabled"') < written.indexOf('"two"'), written);
    } finally {
      answering.dispose();
    }
  });
});
