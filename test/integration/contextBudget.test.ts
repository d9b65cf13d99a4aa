// The context budget in a real VS Code: a server's row says what its tools add to a model request, counted with the
// fake model's own countTokens (the model @mcp was asked with); a tool's tooltip says its own size; and a request over
// a small budget (mcpHost.tools.contextBudget) moves the largest server behind the tool search, and says so.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { activateFakeLm, activateHost, answerDialogs, askChat, fixtureServer, serversTreeChild, serverTreeRow, transcriptMarkdown, waitFor, WorkspaceConfig, FAKE_MODEL, type FakeLm, type TestedHost } from './testKit';

/** A size as a row shows it: exact under a thousand, else in thousands with one decimal. */
const shown = (n: number): string => (n < 1000 ? String(n) : `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`);

describe('the context budget in a real VS Code', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let lm: FakeLm;
  let config: WorkspaceConfig;
  let model: vscode.LanguageModelChat;
  let dialogs: vscode.Disposable;

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);
  const offered = () => (lm.calls[0]?.options.tools ?? []).map((t) => t.name);
  /** The tool definitions a request carries for the server, as the model API gets them, counted by the fake model. */
  const counted = async (s: ServerInfo): Promise<{ total: number; byTool: Map<string, number> }> => {
    const byTool = new Map<string, number>();
    for (const t of s.features.tools) {
      const definition = JSON.stringify({ name: `${s.name}_${t.name}`, description: t.description ?? t.title ?? `Tool "${t.name}" of MCP server "${s.name}"`, inputSchema: t.inputSchema });
      byTool.set(t.name, await model.countTokens(definition));
    }
    return { total: [...byTool.values()].reduce((a, b) => a + b, 0), byTool };
  };

  before(async () => {
    api = await activateHost();
    lm = await activateFakeLm();
    dialogs = answerDialogs(api, {});
    [model] = await vscode.lm.selectChatModels({ vendor: FAKE_MODEL.vendor, id: FAKE_MODEL.id });
    assert.ok(model, 'the fake model');
    config = await WorkspaceConfig.read();
    await config.writeServers({
      basic: { command: 'node', args: [fixtureServer('basic-server.mjs')] },
      notion: { command: 'node', args: [fixtureServer('catalogue-server.mjs'), 'notion'] },
      slack: { command: 'node', args: [fixtureServer('catalogue-server.mjs'), 'slack'] },
    });
    for (const name of ['basic', 'notion', 'slack']) {
      await waitFor(() => server(name), `${name} configured`);
      if (server(name)!.state.kind !== 'running' && server(name)!.state.kind !== 'starting') await api.testing.startServer(server(name)!.id);
      await waitFor(() => server(name)?.state.kind === 'running' && server(name)!.features.tools.length > 0, `${name} running`, 30_000);
    }
  });

  after(async () => {
    lm.reset();
    await vscode.workspace.getConfiguration('mcpHost').update('tools.contextBudget', undefined, vscode.ConfigurationTarget.Global);
    // This suite replaced the folder's servers: the next suites expect them running again (everything starts with npx).
    const restored = Object.keys(config.servers());
    await config.restore();
    for (const name of restored) {
      const s = await waitFor(() => server(name), `${name} configured again`, 30_000);
      if (s.state.kind === 'stopped' || s.state.kind === 'blocked' || s.state.kind === 'dormant') await api.testing.startServer(s.id);
    }
    await waitFor(() => restored.every((name) => ['running', 'error'].includes(server(name)?.state.kind ?? '')), 'the folder\'s servers running again', 90_000);
    dialogs.dispose();
  });

  beforeEach(() => lm.reset());

  it("a server's row shows the tokens its tools add to a request, as the picked model counts them; a tool's tooltip its own", async () => {
    // The model @mcp is asked with is the one that counts.
    await askChat(api, '@mcp hello', { model: FAKE_MODEL });
    const basic = server('basic')!;
    const { total, byTool } = await counted(basic);
    const row = await serverTreeRow(api, 'basic');
    // Counted (no "≈" in its tooltip, which says whether the row's figure is an estimate), then the row's figure.
    await waitFor(async () => {
      const item = await api.testing.serversTree.getTreeItem(row as never);
      const hover = await api.testing.serversTree.resolveTreeItem!(item, row as never, new vscode.CancellationTokenSource().token);
      // As rendered: Markdown's escapes ("2\\.1k") left out.
      const text = ((hover?.tooltip as vscode.MarkdownString | undefined)?.value ?? '').replace(/\\(?=[^\\])/g, '');
      return !text.includes('≈') && new RegExp(`\\*\\*In a model request:\\*\\* ${shown(total)} tokens`).test(text);
    }, 'the row counted by the model');
    const description = String((await api.testing.serversTree.getTreeItem(row as never)).description ?? '');
    assert.match(description, new RegExp(`^running · ${shown(total)} tokens$`));
    assert.match(api.testing.renderServersTree().join('\n'), new RegExp(`basic — running · ${shown(total)} tokens`));

    const tools = await serversTreeChild(api, row, /^Tools/);
    const echo = await serversTreeChild(api, tools.node, /^echo$/);
    const resolved = await api.testing.serversTree.resolveTreeItem!(echo.item, echo.node as never, new vscode.CancellationTokenSource().token);
    const tooltip = (resolved?.tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, new RegExp(`\\*\\*In a model request:\\*\\* ${byTool.get('echo')} tokens`));
  });

  it('a request over a small budget moves the largest server behind the tool search, and the response says so', async () => {
    const sizes = new Map<string, number>();
    for (const name of ['basic', 'notion', 'slack']) sizes.set(name, (await counted(server(name)!)).total);
    const [largest] = [...sizes].sort((a, b) => b[1] - a[1])[0];
    const total = [...sizes.values()].reduce((a, b) => a + b, 0);
    const budget = total - 1;
    await vscode.workspace.getConfiguration('mcpHost').update('tools.contextBudget', budget, vscode.ConfigurationTarget.Global);

    const t = await askChat(api, '@mcp hello', { model: FAKE_MODEL });
    assert.strictEqual(t.errorMessage, undefined);
    const markdown = transcriptMarkdown(t).replace(/\\/g, '');
    assert.ok(
      markdown.includes(`1 server's tools are offered through search to stay within the context budget (${budget.toLocaleString('en-US')} tokens): ${largest} (${shown(sizes.get(largest)!)} tokens).`),
      markdown,
    );
    assert.ok(offered().includes('search_mcp_tools'), offered().join(', '));
    assert.deepStrictEqual(offered().filter((n) => n.startsWith(`${largest}_`)), [], 'the largest server is searched');
    for (const other of [...sizes.keys()].filter((n) => n !== largest)) {
      assert.strictEqual(offered().filter((n) => n.startsWith(`${other}_`)).length, server(other)!.features.tools.length, `${other}'s tools all offered`);
    }

    // Within the budget, every tool is offered again and nothing is said.
    await vscode.workspace.getConfiguration('mcpHost').update('tools.contextBudget', total, vscode.ConfigurationTarget.Global);
    lm.reset();
    const again = await askChat(api, '@mcp hello', { model: FAKE_MODEL });
    assert.doesNotMatch(transcriptMarkdown(again), /context budget/);
    assert.ok(!offered().includes('search_mcp_tools'), offered().join(', '));
  });

  it("a server marked always-offered (Claude Code's alwaysLoad) is never moved: the next largest is", async () => {
    const sizes = new Map<string, number>();
    for (const name of ['basic', 'notion', 'slack']) sizes.set(name, (await counted(server(name)!)).total);
    const [[largest], [next]] = [...sizes].sort((a, b) => b[1] - a[1]);
    const entries: Record<string, object> = {
      basic: { command: 'node', args: [fixtureServer('basic-server.mjs')] },
      notion: { command: 'node', args: [fixtureServer('catalogue-server.mjs'), 'notion'] },
      slack: { command: 'node', args: [fixtureServer('catalogue-server.mjs'), 'slack'] },
    };
    entries[largest] = { ...entries[largest], alwaysLoad: true };
    await config.writeServers(entries);
    await waitFor(() => server(largest)?.definition.alwaysOffered === true && server(largest)?.state.kind === 'running' && server(largest)!.features.tools.length > 0, `${largest} always offered, running`, 30_000);
    const total = [...sizes.values()].reduce((a, b) => a + b, 0);
    await vscode.workspace.getConfiguration('mcpHost').update('tools.contextBudget', total - 1, vscode.ConfigurationTarget.Global);
    lm.reset();
    const t = await askChat(api, '@mcp hello', { model: FAKE_MODEL });
    const markdown = transcriptMarkdown(t).replace(/\\/g, '');
    assert.ok(markdown.includes(`1 server's tools are offered through search to stay within the context budget (${(total - 1).toLocaleString('en-US')} tokens): ${next} (`), markdown);
    assert.strictEqual(offered().filter((n) => n.startsWith(`${largest}_`)).length, server(largest)!.features.tools.length, `${largest}'s tools all offered`);
    assert.deepStrictEqual(offered().filter((n) => n.startsWith(`${next}_`)), []);
  });
});
