// "MCP: Reset Server Trust" in a real VS Code asks first, through the dialogs tests answer, saying how many servers
// will ask again; "Keep" forgets nothing, "Forget" makes the server ask at its next start.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ResetTrustQuestion } from '../../src/core/presentation/permissionRows';
import { resetTrustQuestionText } from '../../src/core/presentation/permissionRows';
import { activateHost, answerDialogs, fixtureServer, waitFor, WorkspaceConfig, type TestedHost } from './testKit';

describe('Reset Server Trust asks first', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable | undefined;
  const trustAsked: string[] = [];
  const resetAsked: ResetTrustQuestion[] = [];
  const resetAnswers: (boolean | undefined)[] = [];
  const probe = () => api.getServers().find((s) => s.name === 'reset-probe');

  before(async () => {
    api = await activateHost();
    dialogs = answerDialogs(api, {
      confirmTrust: async (q) => (trustAsked.push(q.serverName), true),
      confirmResetTrust: async (q) => (resetAsked.push(q), resetAnswers.shift()),
    });
    config = await WorkspaceConfig.read();
    await config.writeServers({ ...config.servers(), 'reset-probe': { command: 'node', args: [fixtureServer('basic-server.mjs')] } });
    await api.testing.reloadConfiguration();
    const s = await waitFor(() => probe(), 'reset-probe configured');
    if (s.state.kind !== 'running') await api.testing.startServer(s.id);
    await waitFor(() => probe()?.state.kind === 'running', 'reset-probe running', 60_000);
  });

  after(async () => {
    dialogs?.dispose();
    await config.restore();
    await api.testing.reloadConfiguration();
  });

  const restart = async () => {
    const id = probe()!.id;
    await api.testing.stopServer(id);
    await api.testing.startServer(id);
  };

  it('asks, saying how many servers will ask again; Keep forgets nothing, Forget makes the server ask at its next start', async () => {
    resetAnswers.push(false);
    await vscode.commands.executeCommand('mcpHost.resetServerTrust');
    assert.strictEqual(resetAsked.length, 1, 'asked before anything is forgotten');
    const shown = resetTrustQuestionText(resetAsked[0]);
    assert.ok(resetAsked[0].servers >= 1, `${resetAsked[0].servers} servers`);
    assert.match(shown.message, /^Forget whether you trusted \d+ MCP servers?\?$/);
    assert.match(shown.detail, /will ask again before (it starts|they start) next/);
    assert.deepStrictEqual(shown.buttons.map((b) => b.label), [`Forget Trust of ${resetAsked[0].servers} MCP server${resetAsked[0].servers === 1 ? '' : 's'}`, 'Keep']);

    const askedBefore = trustAsked.length;
    await restart();
    await waitFor(() => probe()?.state.kind === 'running', 'running again');
    assert.strictEqual(trustAsked.length, askedBefore, 'Keep: still trusted, not asked');

    resetAnswers.push(true);
    await vscode.commands.executeCommand('mcpHost.resetServerTrust');
    assert.strictEqual(resetAsked.length, 2);
    await restart();
    await waitFor(() => trustAsked.length > askedBefore, 'the trust question again');
    assert.strictEqual(trustAsked[trustAsked.length - 1], 'reset-probe');
  });
});
