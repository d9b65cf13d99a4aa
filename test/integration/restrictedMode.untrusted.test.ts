// Restricted Mode (this pass runs with Workspace Trust enabled and the workspace not trusted): no workspace server
// starts, and the MCP view says why in its first row, which offers Manage Workspace Trust; nothing is silent.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { pageQuery, pageRequest } from './pageRequests';
import { activateHost, sleep, waitFor, type TestedHost } from './testKit';

describe('Restricted Mode', function () {
  this.timeout(60_000);
  let api: TestedHost;

  before(async () => {
    api = await activateHost();
  });

  it('starts no workspace server and says why, with Manage Workspace Trust, in the Servers view', async () => {
    assert.strictEqual(vscode.workspace.isTrusted, false, 'this pass runs in Restricted Mode');
    const servers = await waitFor(() => {
      const s = api.getServers().filter((x) => x.scope.kind === 'workspace');
      return s.length >= 5 && s;
    }, 'the workspace servers');
    for (const s of servers) {
      assert.deepStrictEqual(s.state.kind === 'blocked' && s.state.reason, 'restricted', `${s.name}: ${JSON.stringify(s.state)}`);
      assert.strictEqual(s.pid, undefined, `${s.name} has no process`);
    }
    const nodes = (await api.testing.serversTree.getChildren()) ?? [];
    const first = await api.testing.serversTree.getTreeItem(nodes[0]);
    assert.strictEqual(first.label, `Restricted Mode: this workspace's ${servers.length} servers do not start`);
    assert.strictEqual(first.description, 'Manage Workspace Trust');
    assert.strictEqual(first.command?.command, 'workbench.trust.manage');
    const lines = api.testing.renderServersTree();
    assert.ok(lines.some((l) => /^everything — restricted mode$/.test(l)), lines.join('\n'));
  });

  it('opens Workspace Trust from that row, and from the explanation under a server', async () => {
    const nodes = (await api.testing.serversTree.getChildren()) ?? [];
    const first = await api.testing.serversTree.getTreeItem(nodes[0]);
    await vscode.commands.executeCommand(first.command!.command);
    await waitFor(() => vscode.window.tabGroups.activeTabGroup.activeTab?.label === 'Workspace Trust', 'the Workspace Trust editor');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const everything = nodes.find((n) => (n as { info?: { name: string } }).info?.name === 'everything');
    assert.ok(everything, 'everything in the view');
    const [explanation] = (await api.testing.serversTree.getChildren(everything as never)) ?? [];
    const item = await api.testing.serversTree.getTreeItem(explanation);
    assert.strictEqual(item.command?.command, 'workbench.trust.manage');
  });

  it('says "restricted mode" in the Resources view too, whose row under a server opens Workspace Trust', async () => {
    const lines = await waitFor(() => {
      const l = api.testing.resources.renderTree();
      return l.some((x) => /^everything — /.test(x)) && l;
    }, 'everything in the Resources view');
    assert.ok(lines.some((l) => /^everything — restricted mode\b/.test(l)), lines.join('\n'));
    const provider = api.testing.resources.provider as vscode.TreeDataProvider<unknown>;
    for (const node of (await provider.getChildren()) ?? []) {
      const item = await provider.getTreeItem(node);
      if (item.label !== 'everything') continue;
      const [message] = (await provider.getChildren(node)) ?? [];
      assert.strictEqual((await provider.getTreeItem(message)).command?.command, 'workbench.trust.manage');
      return;
    }
    assert.fail('everything not in the Resources view');
  });

  it('lists Get Started with MCP Host in "Welcome: Open Walkthrough…" (the demo starts here)', async () => {
    const text = async () => (await pageQuery<string>('.quick-input-widget', 'return element.innerText;')).join('\n');
    await pageRequest({ action: 'press', key: 'F1' });
    await sleep(500);
    await pageRequest({ action: 'type', text: 'Welcome: Open Walkthrough' });
    await sleep(1000);
    await pageRequest({ action: 'press', key: 'Enter' });
    const listed = await waitFor(async () => /Get Started with MCP Host/.test(await text()), 'the walkthrough listed', 15_000).catch(async (e) => {
      throw new Error(`${(e as Error).message}: ${await text()}`);
    });
    assert.ok(listed);
    await pageRequest({ action: 'press', key: 'Escape' });
  });
});
