// The cap on what one list may hold, as the Servers view shows it (issue 40): a server that lists more tools than a
// host keeps gets its first 10,000, and its Tools group reads "incomplete", its hover saying why.
import * as assert from 'assert';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import type * as vscode from 'vscode';
import { activateHost, answerDialogs, fixtureServer, serversTreeChild, serverTreeRow, waitFor, WorkspaceConfig, type TestedHost } from './testKit';

describe('Lists cut at the cap, in the Servers view', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;
  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);

  before(async () => {
    api = await activateHost();
    config = await WorkspaceConfig.read();
    dialogs = answerDialogs(api, { confirmTrust: async () => true });
    const env = { FIXTURE_PAGES: '30', FIXTURE_PAGE_ITEMS: '500', FIXTURE_ITEM_KB: '0' };
    await config.writeServers({ ...config.servers(), flood: { command: 'node', args: [fixtureServer('flood-pages-server.mjs')], env } });
    await api.testing.reloadConfiguration();
    const s = await waitFor(() => server('flood'), 'flood configured');
    if (s.state.kind !== 'running') await api.testing.startServer(s.id);
    await waitFor(() => server('flood')?.features.tools.length, 'flood lists its tools', 60_000);
  });

  after(async () => {
    dialogs?.dispose();
    await config.restore();
    await api.testing.reloadConfiguration();
  });

  it('a server that lists 15,000 tools over 30 pages: the Tools group shows 10,000, reads "incomplete", and its hover says why', async () => {
    const { item } = await serversTreeChild(api, await serverTreeRow(api, 'flood'), /^Tools \(/);
    assert.strictEqual(item.label, 'Tools (10000)');
    assert.strictEqual(item.description, 'incomplete');
    assert.strictEqual(
      item.tooltip,
      "The list of tools is incomplete: only the first 10,000 were kept: the server offers more than the 10,000 items a list may hold.\nFurther pages were refused (see the server's log).",
    );
    const resources = await serversTreeChild(api, await serverTreeRow(api, 'flood'), /^Resources \(/);
    assert.notStrictEqual(resources.item.description, 'incomplete', 'one page of resources is whole so far');
  });
});
