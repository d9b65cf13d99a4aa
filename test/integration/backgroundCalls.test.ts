// Long tool calls don't hold the turn, in a real VS Code: with mcpHost.tools.backgroundAfter at 2 s, the fixture's
// `sleep` called by the fake model in @mcp (6 s) ends the turn with a "still running" result, its row appears under
// the server's Tasks with its progress, and Open Task Result shows its result once it finished; one called through
// the agent tool mcpHost_callTool is cancelled from its row, and the server hears notifications/cancelled.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateFakeLm, activateHost, answerDialogs, askChat, serversTreeChild, serverTreeRow, transcriptMarkdown, waitFor, type FakeLm, type TestedHost } from './testKit';

const toolResults = (message: vscode.LanguageModelChatMessage) => message.content.filter((p) => Array.isArray((p as { content?: unknown }).content));
const textOf = (message: vscode.LanguageModelChatMessage) =>
  message.content
    .map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : Array.isArray((p as { content?: unknown }).content) ? (p as { content: unknown[] }).content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join('') : ''))
    .join('\n');

describe('long tool calls go on in the background', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let lm: FakeLm;
  let dialogs: vscode.Disposable;
  const settings = () => vscode.workspace.getConfiguration('mcpHost');

  const slow = () => api.getServers().find((s) => s.name === 'slow');
  /** The newest row of a call of `sleep` under slow's Tasks, once its description matches. */
  const sleepRow = async (description: RegExp, timeoutMs = 15_000) => {
    let last = '';
    try {
      return await waitFor(
        async () => {
          try {
            const tasks = await serversTreeChild(api, await serverTreeRow(api, 'slow'), /^Tasks \(\d+\)$/);
            const [newest] = (await api.testing.serversTree.getChildren(tasks.node as never)) ?? [];
            const item = await api.testing.serversTree.getTreeItem(newest);
            const label = typeof item.label === 'string' ? item.label : item.label?.label;
            last = `${label} — ${String(item.description)}`;
            return label === 'sleep' && description.test(String(item.description ?? '')) && { node: newest as unknown, item };
          } catch (e) {
            last = String(e);
            return undefined;
          }
        },
        `the newest row of sleep ${description}`,
        timeoutMs,
      );
    } catch (e) {
      throw new Error(`${(e as Error).message}; last seen: ${last}\n${api.testing.renderServersTree().join('\n')}`);
    }
  };
  const cancellations = async () => {
    const r = (await api.testing.callTool(slow()!.id, 'cancellations')) as { content: { text: string }[] };
    return JSON.parse(r.content[0].text) as { requestId: unknown; wasRunning: boolean }[];
  };

  before(async () => {
    api = await activateHost();
    lm = await activateFakeLm();
    dialogs = answerDialogs(api, { confirmToolCall: async () => 'once' });
    await settings().update('tools.backgroundAfter', 2, vscode.ConfigurationTarget.Global);
    const server = await waitFor(() => slow(), 'slow configured');
    if (server.state.kind !== 'running' && server.state.kind !== 'starting') await api.testing.startServer(server.id);
    await waitFor(() => slow()?.state.kind === 'running', 'slow running', 30_000);
  });

  after(async () => {
    dialogs.dispose();
    lm.reset();
    await settings().update('tools.backgroundAfter', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("@mcp: the model's turn ends with a still-running result, the call's row shows its progress, and its result opens from the row once done", async () => {
    lm.reset();
    lm.setResponder((messages) =>
      messages.flatMap(toolResults).length ? 'It is still running; I will not wait.' : [new vscode.LanguageModelToolCallPart('bg-1', 'slow_sleep', { ms: 6000 })],
    );
    const t = await askChat(api, '@mcp sleep for six seconds');
    assert.strictEqual(t.errorMessage, undefined);
    // The turn is over while the call still runs.
    const running = await sleepRow(/^running \d+%: sleeping$/, 1000);
    assert.strictEqual(lm.calls.length, 2, 'the model got the result and answered');
    const told = textOf(lm.calls[1].messages.at(-1)!);
    assert.match(told, /The tool "sleep" of the MCP server "slow" is still running: it did not finish within 2 s, so it goes on in the background/);
    assert.match(told, /Its outcome will appear in the MCP Servers view/);
    assert.match(transcriptMarkdown(t), /It is still running; I will not wait\./);

    // The row: running, with the server's progress message, its percentage, and Cancel (its context value).
    assert.strictEqual(running.item.contextValue, 'mcpTask.running');
    assert.strictEqual((running.item.iconPath as vscode.ThemeIcon).id, 'sync~spin');
    const resolved = (await api.testing.serversTree.resolveTreeItem?.(running.item, running.node as never, new vscode.CancellationTokenSource().token)) ?? running.item;
    const tooltip = resolved.tooltip instanceof vscode.MarkdownString ? resolved.tooltip.value : String(resolved.tooltip);
    assert.match(tooltip, /gone on in the background after 2 s/);
    // Once done, Open Task Result shows the result as Call Tool…'s view does.
    const done = await sleepRow(/^completed$/);
    assert.strictEqual(done.item.contextValue, 'mcpTask.ended');
    assert.strictEqual(done.item.command?.command, 'mcpHost.openTaskResult');
    const html = (await vscode.commands.executeCommand('mcpHost.openTaskResult', done.node)) as string;
    assert.match(html, /<pre>slept<\/pre>/);
  });

  it("the agent tool mcpHost_callTool: a second long call goes on in the background, and its row's Cancel stops it on the server", async () => {
    const before = (await cancellations()).length;
    const started = Date.now();
    const result = await vscode.lm.invokeTool('mcpHost_callTool', { input: { server: 'slow', tool: 'sleep', arguments: { ms: 50_000 } }, toolInvocationToken: undefined });
    assert.ok(Date.now() - started < 10_000);
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(text, /"sleep" of the MCP server "slow" is still running/);
    const running = await sleepRow(/^running/);
    await vscode.commands.executeCommand('mcpHost.cancelTask', running.node);
    const ended = await sleepRow(/^cancelled/);
    assert.strictEqual((ended.item.iconPath as vscode.ThemeIcon).id, 'circle-slash');
    const heard = await waitFor(async () => {
      const list = await cancellations();
      return list.length > before && list;
    }, 'the server to hear notifications/cancelled', 5000);
    assert.strictEqual(heard.at(-1)!.wasRunning, true, 'the running sleep was the one cancelled');
  });
});
