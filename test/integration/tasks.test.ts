// Tool calls that run as tasks (2025-11-25), the way a user reaches them: a task-capable tool of the tasks fixture
// server called from its row in the Servers view runs as a task, its status shows in the view's Tasks group while it
// runs, its result opens like any tool result; a running task is cancelled from its row (the server hears of it);
// and a finished task's result opens again from its row after the result view was closed. In @mcp, a task shows its
// progress and its result; a chat turn that ends first leaves the task running in the view.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import type { FormFieldPresetQuestion } from '../../src/vscode/dialogs/dialogRouter';
import type { ToolCallOutcome } from '../../src/vscode/tools/toolCommands';
import { activateDemoModel, activateHost, answerDialogs, askChat, DEMO_MODEL, fixtureServer, sleep, submitCallForm, transcriptMarkdown, waitFor, WorkspaceConfig, serversTreeChild, serverTreeRow, type TestedHost } from './testKit';

type TreeNode = unknown;

const webviewTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview);

describe('Tasks', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;
  const toolQuestions: ToolConsentQuestion[] = [];
  const toolAnswers: (ConsentAnswer | undefined)[] = [];
  const formFields: FormFieldPresetQuestion[] = [];
  let presets: Record<string, string> = {};

  const child = (parent: TreeNode | undefined, label: RegExp, description?: RegExp) => serversTreeChild(api, parent, label, description);
  const serverRow = () => serverTreeRow(api, 'tasks');
  const server = (): ServerInfo | undefined => api.getServers().find((s) => s.name === 'tasks');

  /** A row of the server's Tasks group, waited for until one matches. */
  const taskRow = (label: RegExp, description: RegExp) =>
    waitFor(async () => {
      try {
        return await child((await child(await serverRow(), /^Tasks \(\d+\)$/)).node, label, description);
      } catch {
        return undefined;
      }
    }, `a task row ${label} ${description}:\n${api.testing.renderServersTree().join('\n')}`);

  const submitForm = (fields: string[]) => submitCallForm(() => formFields.map((f) => f.field.name), fields);

  before(async () => {
    api = await activateHost();
    await activateDemoModel();
    config = await WorkspaceConfig.read();
    dialogs = answerDialogs(api, {
      confirmToolCall: async (q) => {
        toolQuestions.push(q);
        return toolAnswers.shift();
      },
      formFieldPreset: (q) => {
        formFields.push(q);
        return presets[q.field.name];
      },
    });
    await config.writeServers({ ...config.servers(), tasks: { command: 'node', args: [fixtureServer('tasks-server.mjs')], env: { FIXTURE_TASK_POLL_MS: '150' } } });
    await api.testing.reloadConfiguration();
    const s = await waitFor(() => server(), 'tasks configured');
    if (s.state.kind !== 'running') await api.testing.startServer(s.id);
    await waitFor(() => server()?.state.kind === 'running', 'tasks running');
  });

  after(async () => {
    dialogs.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config.restore();
    await api.testing.reloadConfiguration();
  });

  it('runs a tool called from its row as a task: its status in the Tasks group, its result in the result view', async () => {
    const tools = await child(await serverRow(), /^Tools \(\d+\)$/);
    const { node } = await child(tools.node, /^slow-report$/);
    presets = { steps: '8', stepMs: '500' };
    const outcome = vscode.commands.executeCommand('mcpHost.callTool', node) as Thenable<ToolCallOutcome>;
    await submitForm(['steps', 'stepMs']);
    // While it runs, the view shows the task with the server's own words on where it is.
    // The server's progress (its percentage) and its status message.
    const running = await taskRow(/^slow-report$/, /^running (1[3-9]|[2-8]\d)%: Step [2-7] of 8$/);
    assert.strictEqual((running.item.iconPath as vscode.ThemeIcon).id, 'sync~spin');
    assert.strictEqual(running.item.contextValue, 'mcpTask.running');
    assert.match(api.testing.renderServersTree().join('\n'), /Tasks \(1\) — 1 running/);
    const { result, html } = await outcome;
    assert.strictEqual(toolQuestions.length, 0, 'the form was the consent');
    assert.ok(result && !result.isError);
    assert.match(html, /<pre>Report ready after 8 steps\.<\/pre>/);
    await waitFor(() => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputWebview, 'the result in its view');
    const done = await taskRow(/^slow-report$/, /^completed$/);
    assert.strictEqual((done.item.iconPath as vscode.ThemeIcon).id, 'pass');
    assert.strictEqual(done.item.contextValue, 'mcpTask.ended');
  });

  it("cancels a running task from its row's Cancel, and the server hears of it", async () => {
    const s = server()!;
    toolAnswers.push('once');
    const outcome = vscode.commands.executeCommand('mcpHost.callTool', s.id, 'slow-report', { steps: 200, stepMs: 300 }) as Thenable<ToolCallOutcome | undefined>;
    const running = await taskRow(/^slow-report$/, /^running/);
    await vscode.commands.executeCommand('mcpHost.cancelTask', running.node);
    const ended = await taskRow(/^slow-report$/, /^cancelled/);
    assert.strictEqual((ended.item.iconPath as vscode.ThemeIcon).id, 'circle-slash');
    assert.strictEqual(await outcome, undefined, 'cancelled: no result view');
    const cancelled = JSON.parse(((await api.testing.callTool(s.id, 'cancelled-tasks')) as { content: { text: string }[] }).content[0].text) as string[];
    assert.strictEqual(cancelled.length, 1, 'tasks/cancel reached the server');
  });

  const cancelledOnServer = async () =>
    JSON.parse(((await api.testing.callTool(server()!.id, 'cancelled-tasks')) as { content: { text: string }[] }).content[0].text) as string[];

  it("opens a finished task's result again from its row after the result view was closed", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => webviewTabs().length === 0, 'no result view open');
    const done = await taskRow(/^slow-report$/, /^completed$/);
    // A click runs the row's command; the context menu's Open Result runs the same command on the node.
    assert.strictEqual(done.item.command?.command, 'mcpHost.openTaskResult');
    const html = (await vscode.commands.executeCommand('mcpHost.openTaskResult', done.node)) as string;
    assert.match(html, /<pre>Report ready after 8 steps\.<\/pre>/);
    await waitFor(() => webviewTabs().length === 1, 'the result view open again');
    const again = (await vscode.commands.executeCommand(done.item.command.command, ...(done.item.command.arguments ?? []))) as string;
    assert.match(again, /Report ready after 8 steps/);
    await sleep(300);
    assert.strictEqual(webviewTabs().length, 1, 'the same view, not a second one');
  });

  it('in @mcp, a task shows its status messages as progress and its result in the answer', async () => {
    toolAnswers.push('once');
    const t = await askChat(api, '@mcp call tasks.slow-report {"steps": 4, "stepMs": 400}', { model: DEMO_MODEL });
    assert.strictEqual(t.errorMessage, undefined);
    // The progress line is Markdown: the tool's name comes escaped.
    assert.ok(t.parts.some((p) => /^progress: .*slow\\?-report.*Step [1-4] of 4/.test(p)), t.parts.join('\n'));
    assert.match(transcriptMarkdown(t), /Report ready after 4 steps\./);
    await taskRow(/^slow-report$/, /^completed$/);
  });

  it('a chat turn that ends before its task leaves the task running in the view (nothing is cancelled)', async () => {
    const cancelledBefore = (await cancelledOnServer()).length;
    toolAnswers.push('once');
    const t = await askChat(api, '@mcp call tasks.slow-report {"steps": 200, "stepMs": 300}', { model: DEMO_MODEL, wait: false });
    await waitFor(() => t.parts.some((p) => /^progress: .*Step \d+ of 200/.test(p)), 'the task to report in chat');
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    await waitFor(() => t.done, 'the turn to end', 10_000);
    await sleep(1000);
    const row = await taskRow(/^slow-report$/, /^running \d+%: Step \d+ of 200$/);
    assert.strictEqual((await cancelledOnServer()).length, cancelledBefore, 'no tasks/cancel was sent');
    // It can still be cancelled from the view.
    await vscode.commands.executeCommand('mcpHost.cancelTask', row.node);
    await taskRow(/^slow-report$/, /^cancelled/);
    assert.strictEqual((await cancelledOnServer()).length, cancelledBefore + 1);
  });
});
