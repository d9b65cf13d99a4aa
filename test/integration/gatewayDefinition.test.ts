// The gateway offered to VS Code's own MCP support as a server definition, in a real VS Code (1.139) with that support
// on: while the gateway runs, `vscode.lm.tools` lists each tool of MCP Host's servers as a tool of its own, a call of one
// through `vscode.lm.invokeTool` reaches the server through MCP Host's guarded path (the consent, answered through the
// dialog router, names VS Code's agent) and each server's process runs once, also when VS Code's agent sends a
// request under the coexistence choice "through the gateway" (without it, VS Code 1.139 starts each server of
// .vscode/mcp.json a second time at an agent request); with the gateway off, the definition is gone.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import { activateFakeLm, activateHost, answerDialogs, FAKE_MODEL, fixtureServer, sleep, waitFor, WorkspaceConfig, type TestedHost } from './testKit';
import { processesMarked } from './processes';

const MARK = '--mcphost-gateway-definition-test';
const SERVERS = ['gwdef-alpha', 'gwdef-beta'];

/** VS Code's tools that come from MCP Host's definition (VS Code names them after the server's label). */
const definitionTools = () => vscode.lm.tools.filter((t) => /^mcp_mcp_host_.*gwdef-/.test(t.name));
const textOf = (result: vscode.LanguageModelToolResult) => result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

describe("The gateway as a server of VS Code's own MCP support", function () {
  this.timeout(120_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable | undefined;
  const asked: ToolConsentQuestion[] = [];

  before(async () => {
    api = await activateHost();
    dialogs = answerDialogs(api, { confirmTrust: async () => true, confirmToolCall: async (q) => (asked.push(q), 'once') });
    config = await WorkspaceConfig.read();
    await config.writeServers({
      ...config.servers(),
      'gwdef-alpha': { command: 'node', args: [fixtureServer('basic-server.mjs'), MARK] },
      'gwdef-beta': { command: 'node', args: [fixtureServer('slow-tool-server.mjs'), MARK] },
    });
    await api.testing.reloadConfiguration();
    for (const name of SERVERS) {
      const s = await waitFor(() => api.getServers().find((x) => x.name === name), `${name} configured`);
      if (s.state.kind !== 'running') await api.testing.startServer(s.id);
      await waitFor(() => api.getServers().find((x) => x.name === name)?.state.kind === 'running', `${name} running`, 60_000);
    }
  });

  after(async () => {
    await vscode.commands.executeCommand('mcpHost.stopGateway');
    dialogs?.dispose();
    await config.restore();
    await api.testing.reloadConfiguration();
  });

  it('lists each tool in vscode.lm.tools, calls one through the guarded path naming VS Code\'s agent, each server running once', async () => {
    assert.strictEqual(api.testing.coexistence.builtinOn(), true, "VS Code's MCP support is on");
    assert.deepStrictEqual(definitionTools(), [], 'nothing offered while the gateway is off');
    await vscode.commands.executeCommand('mcpHost.startGateway');
    await waitFor(() => definitionTools().length >= 2, "the gateway's tools in vscode.lm.tools", 30_000);
    const names = definitionTools().map((t) => t.name);
    // VS Code's own name for it: its prefix for the server "MCP Host", then the gateway's `<server>_<tool>`.
    const echo = names.find((n) => n.endsWith('_gwdef-alpha_echo'));
    assert.ok(echo, names.join(', '));
    assert.ok(names.some((n) => /beta_sleep$/.test(n)), names.join(', '));
    await waitFor(() => api.testing.gateway()?.clients().includes("VS Code's agent"), "VS Code's agent shown as connected");

    const before = asked.length;
    const result = await vscode.lm.invokeTool(echo, { input: { text: 'through VS Code' }, toolInvocationToken: undefined });
    assert.strictEqual(textOf(result), 'through VS Code');
    assert.strictEqual(asked.length, before + 1, 'asked once, through the dialog router');
    assert.strictEqual(asked.at(-1)!.caller, "VS Code's agent");
    assert.strictEqual(asked.at(-1)!.serverName, 'gwdef-alpha');

    await sleep(1000);
    const processes = processesMarked(MARK);
    assert.strictEqual(processes.length, SERVERS.length, `one process per server: ${processes.join(', ')}`);
  });

  it("after a stop and start at once (and New Gateway Token), VS Code's agent calls through the gateway again: VS Code is given the new address and token", async () => {
    await vscode.commands.executeCommand('mcpHost.startGateway');
    await waitFor(() => definitionTools().length >= 2, "the gateway's tools in vscode.lm.tools", 30_000);
    await vscode.commands.executeCommand('mcpHost.newGatewayToken');
    // Within the moment VS Code gathers changes in: its list looks the same before and after.
    await vscode.commands.executeCommand('mcpHost.stopGateway');
    await vscode.commands.executeCommand('mcpHost.startGateway');
    const echo = await waitFor(() => definitionTools().find((t) => t.name.endsWith('_gwdef-alpha_echo'))?.name, 'the tools offered again', 30_000);
    // VS Code starts its server again with the new token; until then a call may fail: the user would call again.
    const text = await waitFor(
      async () => {
        try {
          return textOf(await vscode.lm.invokeTool(echo, { input: { text: 'after a new token' }, toolInvocationToken: undefined })) === 'after a new token';
        } catch {
          await sleep(1000);
          return false;
        }
      },
      "VS Code's agent's call through the gateway after the new token",
      30_000,
    );
    assert.ok(text);
  });

  it('the choice "through the gateway": VS Code\'s agent requests start no second copy of the file\'s servers', async () => {
    const lm = await activateFakeLm();
    await api.testing.coexistence.reset();
    const choosing = vscode.commands.executeCommand('mcpHost.chooseBuiltinMcp');
    await sleep(1000);
    for (let i = 0; i < 2; i++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await sleep(300);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'); // through the gateway
    await choosing;
    try {
      assert.strictEqual(vscode.workspace.getConfiguration('chat').inspect('mcp.autostart')?.workspaceValue, 'never', 'VS Code starts no server by itself here');
      assert.strictEqual(vscode.workspace.getConfiguration('mcpHost').inspect('gateway.enabled')?.globalValue, true, 'the gateway turned on');
      assert.strictEqual(api.testing.coexistence.builtinOn(), true, "VS Code's MCP support stays on");
      assert.match(api.testing.renderServersTree()[0], /VS Code's agent uses them through MCP Host/);
      await waitFor(() => definitionTools().length >= 2, "the gateway's tools in vscode.lm.tools", 30_000);

      // An agent request in VS Code's chat: without the choice VS Code starts each server of the file a second time.
      lm.reset();
      lm.setResponder(() => 'fine');
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      void vscode.commands.executeCommand('workbench.action.chat.open', { query: 'hello', mode: 'agent', modelSelector: FAKE_MODEL });
      await waitFor(() => lm.calls.length > 0, 'the model asked', 60_000);
      await sleep(4000);
      const processes = processesMarked(MARK);
      assert.strictEqual(processes.length, SERVERS.length, `one process per server: ${processes.join(', ')}`);
      assert.ok(definitionTools().length >= 2, 'the tools still offered');
    } finally {
      const back = vscode.commands.executeCommand('mcpHost.chooseBuiltinMcp');
      await sleep(1000);
      for (let i = 0; i < 2; i++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await sleep(300);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'); // let VS Code start them too
      await back;
      await vscode.workspace.getConfiguration('mcpHost').update('gateway.enabled', undefined, vscode.ConfigurationTarget.Global);
      await api.testing.coexistence.reset();
    }
    assert.strictEqual(vscode.workspace.getConfiguration('chat').inspect('mcp.autostart')?.workspaceValue, undefined, 'leaving the choice removes its setting');
  });

  it('leaving the choice "through the gateway" gives the workspace back its own chat.mcp.autostart', async () => {
    const chat = () => vscode.workspace.getConfiguration('chat');
    /** Choose Between…, then the item `down` places below the first. */
    const pick = async (down: number) => {
      const choosing = vscode.commands.executeCommand('mcpHost.chooseBuiltinMcp');
      await sleep(1500);
      for (let i = 0; i < down; i++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await sleep(300);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await choosing;
    };
    await api.testing.coexistence.reset();
    await chat().update('mcp.autostart', 'newAndOutdated', vscode.ConfigurationTarget.Workspace); // the repository's file
    try {
      await pick(2); // through the gateway
      assert.strictEqual(chat().inspect('mcp.autostart')?.workspaceValue, 'never', 'VS Code starts no server by itself under the choice');
      await pick(2); // let VS Code's MCP support start them too
      assert.strictEqual(chat().inspect('mcp.autostart')?.workspaceValue, 'newAndOutdated', "the workspace's own value, back");

      // A workspace that had "never" itself keeps it when the choice is left.
      await chat().update('mcp.autostart', 'never', vscode.ConfigurationTarget.Workspace);
      await api.testing.coexistence.reset();
      await pick(2);
      await pick(2);
      assert.strictEqual(chat().inspect('mcp.autostart')?.workspaceValue, 'never', "the workspace's own \"never\" stays");
    } finally {
      await chat().update('mcp.autostart', undefined, vscode.ConfigurationTarget.Workspace);
      await vscode.workspace.getConfiguration('mcpHost').update('gateway.enabled', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('mcpHost.stopGateway');
      await api.testing.coexistence.reset();
    }
  });

  it("a cloned repository's settings.json that turns VS Code's MCP support on against the user's \"none\" gets no gateway offered to it", async () => {
    await api.testing.coexistence.reset();
    await vscode.commands.executeCommand('mcpHost.startGateway');
    await waitFor(() => definitionTools().length >= 2, "the gateway's tools in vscode.lm.tools", 30_000);
    const chat = vscode.workspace.getConfiguration('chat');
    await chat.update('mcp.access', 'none', vscode.ConfigurationTarget.Global); // the user's own setting
    await chat.update('mcp.access', 'all', vscode.ConfigurationTarget.Workspace); // the repository's file
    try {
      assert.strictEqual(vscode.workspace.getConfiguration('chat').get('mcp.access'), 'all', "VS Code's MCP support is on here by the repository's file");
      // VS Code's support is on, so only MCP Host's provider takes the tools away.
      await waitFor(() => definitionTools().length === 0, 'the gateway withdrawn from VS Code in this workspace', 30_000);
      assert.strictEqual(api.testing.gateway()?.clients().includes("VS Code's agent"), false, "VS Code's agent not connected");
    } finally {
      await chat.update('mcp.access', undefined, vscode.ConfigurationTarget.Workspace);
      await chat.update('mcp.access', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('mcpHost.stopGateway');
    }
  });

  it("withdraws the definition when VS Code's MCP support is turned off, offers it again when on, and withdraws it when the gateway stops", async () => {
    await vscode.commands.executeCommand('mcpHost.startGateway');
    await waitFor(() => definitionTools().length >= 2, "the gateway's tools in vscode.lm.tools", 30_000);
    const chat = vscode.workspace.getConfiguration('chat');
    await chat.update('mcp.access', 'none', vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor(() => definitionTools().length === 0, "the tools gone with VS Code's MCP support off", 30_000);
    } finally {
      await chat.update('mcp.access', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor(() => definitionTools().length >= 2, 'the tools back', 30_000);
    await vscode.commands.executeCommand('mcpHost.stopGateway');
    await waitFor(() => definitionTools().length === 0, "the gateway's tools gone from vscode.lm.tools", 30_000);
    assert.strictEqual(processesMarked(MARK).length, SERVERS.length, 'the servers still run in MCP Host');
  });
});
