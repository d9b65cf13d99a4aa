// An open resource of a 2026-07-28 server refreshes on its own: the server (built with the official server SDK) has
// no `resources/subscribe`; MCP Host follows the open document's URI on a `subscriptions/listen` stream, and the
// server's update reloads the editor.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateHost, answerDialogs, fixtureServer, waitFor, WorkspaceConfig, type TestedHost } from './testKit';

const URI = 'counter://value';

describe('Live resources on 2026-07-28', function () {
  this.timeout(90_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;

  before(async () => {
    api = await activateHost();
    dialogs = answerDialogs(api, {});
    config = await WorkspaceConfig.read();
    await config.writeServers({ ...config.servers(), listen: { command: 'node', args: [fixtureServer('listen-server.mjs')] } });
    await api.testing.reloadConfiguration();
    const s = await waitFor(() => api.getServers().find((x) => x.name === 'listen'), 'listen configured');
    if (s.state.kind !== 'running') await api.testing.startServer(s.id);
    await waitFor(() => api.getServer(s.id)?.state.kind === 'running', 'listen running');
  });

  after(async () => {
    dialogs.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config.restore();
    await api.testing.reloadConfiguration();
  });

  it('reloads the open editor when the server says the resource changed', async () => {
    const server = api.getServers().find((x) => x.name === 'listen')!;
    assert.strictEqual(server.protocolVersion, '2026-07-28');
    await vscode.commands.executeCommand('mcpHost.openResource', server.id, URI);
    const doc = await waitFor(
      () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'mcp-host-resource' && new URLSearchParams(d.uri.query).get('uri') === URI),
      'the resource open',
    );
    const before = Number(/count: (\d+)/.exec(doc.getText())![1]);
    await waitFor(() => api.testing.resources.subscriptions().some((s) => s.serverId === server.id && s.uri === URI), 'followed on a listen stream');
    // The stream is acknowledged shortly after the subscription shows: a bump before that would go unheard, so bump
    // until one is heard (each bump is one update; the editor is never reloaded by anything else).
    const count = () => Number(/count: (\d+)/.exec(doc.getText())?.[1] ?? -1);
    for (let i = 0; i < 10 && count() === before; i++) {
      await api.testing.callTool(server.id, 'bump', {});
      await waitFor(() => count() > before, 'the editor to follow the update', 1_000).catch(() => undefined);
    }
    assert.ok(count() > before, `the editor followed the update (${doc.getText()})`);
  });
});
