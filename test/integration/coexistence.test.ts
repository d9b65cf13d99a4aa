// VS Code's built-in MCP support next to MCP Host (this VS Code has it, on by default): once per workspace a
// notification names the servers both would run; "Let MCP Host Run Them" turns the built-in support off in the
// workspace settings only; the Servers view shows the choice in its first row, whose click changes it back.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateHost, sleep, waitFor, type TestedHost } from './testKit';

const access = () => vscode.workspace.getConfiguration('chat').inspect<string>('mcp.access');

describe("Living beside VS Code's built-in MCP support", function () {
  this.timeout(60_000);
  let api: TestedHost;

  const firstRow = () => api.testing.renderServersTree()[0];

  before(async () => {
    api = await activateHost();
    await waitFor(() => api.getServers().some((s) => s.scope.kind === 'workspace'), 'workspace servers');
    await api.testing.coexistence.reset();
  });

  after(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await api.testing.coexistence.reset();
  });

  it('says once which servers both would run, and "Let MCP Host Run Them" turns the built-in support off in this workspace only', async () => {
    assert.strictEqual(api.testing.coexistence.builtinOn(), true, 'VS Code 1.139 has built-in MCP support, on by default');
    await waitFor(() => /would run them too/.test(firstRow()), 'the row in the Servers view');
    const shown = api.testing.coexistence.shownNotices.length;
    void api.testing.coexistence.offerOnce();
    await waitFor(() => api.testing.coexistence.shownNotices.length === shown + 1, 'the notification');
    const message = api.testing.coexistence.shownNotices[shown];
    for (const name of api.getServers().filter((s) => s.scope.kind === 'workspace').map((s) => s.name)) assert.ok(message.includes(name), `${name} in: ${message}`);
    await sleep(500);
    await vscode.commands.executeCommand('notification.acceptPrimaryAction'); // "Let MCP Host Run Them"
    await waitFor(() => access()?.workspaceValue === 'none', 'the built-in support turned off');
    const setting = access()!;
    assert.strictEqual(setting.workspaceValue, 'none', 'off in the workspace settings');
    assert.strictEqual(setting.globalValue, undefined, 'the user settings untouched');
    assert.strictEqual(api.testing.coexistence.builtinOn(), false);
    await waitFor(() => /^VS Code's built-in MCP: off in this workspace — MCP Host runs the servers$/.test(firstRow()), 'the choice shown');
    await api.testing.coexistence.offerOnce();
    assert.strictEqual(api.testing.coexistence.shownNotices.length, shown + 1, 'said once');
  });

  it('changes the choice back from the Servers view, and remembers "Keep Both"', async () => {
    const nodes = await api.testing.serversTree.getChildren();
    const row = await api.testing.serversTree.getTreeItem(nodes![0]);
    assert.strictEqual(row.command?.command, 'mcpHost.chooseBuiltinMcp');
    const choosing = vscode.commands.executeCommand(row.command.command);
    await sleep(1000);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'); // Turn VS Code's MCP support back on here
    await choosing;
    assert.strictEqual(access()!.workspaceValue, undefined, 'MCP Host\'s setting removed');
    assert.strictEqual(api.testing.coexistence.builtinOn(), true);
    await waitFor(() => /would run them too/.test(firstRow()), 'the row asks again');

    const keeping = vscode.commands.executeCommand('mcpHost.chooseBuiltinMcp');
    await sleep(1000);
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'); // Keep both
    await keeping;
    await waitFor(() => /runs them too — kept both/.test(firstRow()), 'both kept');
    assert.strictEqual(access()!.workspaceValue, undefined);
    const shown = api.testing.coexistence.shownNotices.length;
    await api.testing.coexistence.offerOnce();
    assert.strictEqual(api.testing.coexistence.shownNotices.length, shown, 'a choice made: no notification');
  });

  it("offers the choice again when VS Code's MCP support is off by the user's settings (as in npm run demo)", async () => {
    await api.testing.coexistence.reset();
    await vscode.workspace.getConfiguration('chat').update('mcp.access', 'none', vscode.ConfigurationTarget.Global);
    try {
      assert.strictEqual(api.testing.coexistence.builtinOn(), false);
      const choosing = vscode.commands.executeCommand('mcpHost.chooseBuiltinMcp');
      await sleep(1000);
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'); // Turn VS Code's MCP support on in this workspace
      await choosing;
      assert.strictEqual(access()!.workspaceValue, 'all', 'on in this workspace');
      assert.strictEqual(api.testing.coexistence.builtinOn(), true);
      await waitFor(() => /runs them too — kept both/.test(firstRow()), 'both run, as chosen');

      const again = vscode.commands.executeCommand('mcpHost.chooseBuiltinMcp');
      await sleep(1000);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'); // Let MCP Host run them
      await again;
      assert.strictEqual(access()!.workspaceValue, 'none');
      await waitFor(() => /off in this workspace/.test(firstRow()), 'MCP Host runs them');
    } finally {
      await vscode.workspace.getConfiguration('chat').update('mcp.access', undefined, vscode.ConfigurationTarget.Global);
    }
  });
  it('says so the first time a file both read gets servers after the start, and names the command that changes it later', async () => {
    await api.testing.coexistence.reset();
    assert.strictEqual(api.testing.coexistence.builtinOn(), true);
    const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.mcp.json');
    const shown = api.testing.coexistence.shownNotices.length;
    await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify({ mcpServers: { latecomer: { command: 'node', args: ['--version'] } } })));
    try {
      await waitFor(() => api.getServers().some((s) => s.name === 'latecomer'), 'the new file read');
      await waitFor(() => api.testing.coexistence.shownNotices.length === shown + 1, 'the notification, without a restart');
      const message = api.testing.coexistence.shownNotices[shown];
      assert.match(message, /latecomer/);
      assert.ok(message.includes('"MCP: …"') && message.includes('"MCP Host: …"'), `how to tell them apart, in: ${message}`);
      assert.ok(message.includes("MCP Host: Choose Between MCP Host and VS Code's Built-in MCP…"), `where to choose again, in: ${message}`);
    } finally {
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.workspace.fs.delete(file);
      await waitFor(() => !api.getServers().some((s) => s.name === 'latecomer'), 'the file gone');
      await api.testing.coexistence.reset();
    }
  });
});
