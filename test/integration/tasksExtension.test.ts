// Tool calls that run as tasks on 2026-07-28 (the tasks extension, SEP-2663), the way a user reaches them: a tool of
// the tasks-extension fixture called from its row in the Servers view is answered with a task (the server decides),
// which shows in the same Tasks group while it runs, with the server's status message; its result opens in the result
// view, and again from its row after that view was closed; a running one is cancelled from its row; a task that asks
// for input through the task gets it from the same form as any elicitation.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import type { FormFieldPresetQuestion } from '../../src/vscode/dialogs/dialogRouter';
import type { ToolCallOutcome } from '../../src/vscode/tools/toolCommands';
import { activateHost, answerDialogs, fixtureServer, submitCallForm, waitFor, WorkspaceConfig, serversTreeChild, serverTreeRow, type TestedHost } from './testKit';

type TreeNode = unknown;

const NAME = 'tasks-ext';
const webviewTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview);

describe('Tasks on 2026-07-28 (the tasks extension)', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;
  const toolQuestions: ToolConsentQuestion[] = [];
  const toolAnswers: (ConsentAnswer | undefined)[] = [];
  const formFields: FormFieldPresetQuestion[] = [];
  let presets: Record<string, string> = {};

  const child = (parent: TreeNode | undefined, label: RegExp, description?: RegExp) => serversTreeChild(api, parent, label, description);
  const serverRow = () => serverTreeRow(api, NAME);
  const server = (): ServerInfo | undefined => api.getServers().find((s) => s.name === NAME);

  const taskRow = (label: RegExp, description: RegExp) =>
    waitFor(async () => {
      try {
        return await child((await child(await serverRow(), /^Tasks \(\d+\)$/)).node, label, description);
      } catch {
        return undefined;
      }
    }, `a task row ${label} ${description}:\n${api.testing.renderServersTree().join('\n')}`);

  before(async () => {
    api = await activateHost();
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
    await config.writeServers({ ...config.servers(), [NAME]: { command: 'node', args: [fixtureServer('tasks-extension-server.mjs')], env: { FIXTURE_TASK_POLL_MS: '150' } } });
    await api.testing.reloadConfiguration();
    const s = await waitFor(() => server(), `${NAME} configured`);
    if (s.state.kind !== 'running') await api.testing.startServer(s.id);
    await waitFor(() => server()?.state.kind === 'running', `${NAME} running`);
    assert.strictEqual(server()!.protocolVersion, '2026-07-28');
  });

  after(async () => {
    dialogs.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config.restore();
    await api.testing.reloadConfiguration();
  });

  it('a tool called from its row becomes the task the server made: watched in the Tasks group, its result opened, and opened again', async () => {
    const tools = await child(await serverRow(), /^Tools \(\d+\)$/);
    const { node } = await child(tools.node, /^slow-report$/);
    presets = { steps: '8', stepMs: '400' };
    const outcome = vscode.commands.executeCommand('mcpHost.callTool', node) as Thenable<ToolCallOutcome>;
    await submitCallForm(() => formFields.map((f) => f.field.name), ['steps', 'stepMs']);
    // The server's status message, from tasks/get (the extension has no progress on tasks).
    const running = await taskRow(/^slow-report$/, /^running: Step [2-7] of 8$/);
    assert.strictEqual((running.item.iconPath as vscode.ThemeIcon).id, 'sync~spin');
    assert.strictEqual(running.item.contextValue, 'mcpTask.running');
    const { result, html } = await outcome;
    assert.strictEqual(toolQuestions.length, 0, 'the form was the consent');
    assert.ok(result && !result.isError);
    assert.match(html, /<pre>Report ready after 8 steps\.<\/pre>/);
    const done = await taskRow(/^slow-report$/, /^completed$/);
    assert.strictEqual(done.item.contextValue, 'mcpTask.ended');

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => webviewTabs().length === 0, 'no result view open');
    assert.strictEqual(done.item.command?.command, 'mcpHost.openTaskResult');
    const again = (await vscode.commands.executeCommand(done.item.command.command, ...(done.item.command.arguments ?? []))) as string;
    assert.match(again, /<pre>Report ready after 8 steps\.<\/pre>/);
    await waitFor(() => webviewTabs().length === 1, 'the result view open again');
  });

  it('a task that asks for input through the task: waiting in the view, the elicitation form, then its result', async () => {
    const s = server()!;
    toolAnswers.push('once');
    formFields.length = 0;
    presets = { name: 'Ada' };
    const outcome = vscode.commands.executeCommand('mcpHost.callTool', s.id, 'needs-input', {}) as Thenable<ToolCallOutcome>;
    await taskRow(/^needs-input$/, /^waiting for input: Waiting for your name$/);
    await submitCallForm(() => formFields.map((f) => f.field.name), ['name']);
    const { result, html } = await outcome;
    assert.ok(result && !result.isError);
    assert.match(html, /<pre>Hello, Ada\.<\/pre>/);
    await taskRow(/^needs-input$/, /^completed$/);
  });

  it("cancels a running task from its row's Cancel: tasks/cancel reaches the server", async () => {
    const s = server()!;
    toolAnswers.push('once');
    const outcome = vscode.commands.executeCommand('mcpHost.callTool', s.id, 'slow-report', { steps: 200, stepMs: 300 }) as Thenable<ToolCallOutcome | undefined>;
    const running = await taskRow(/^slow-report$/, /^running/);
    await vscode.commands.executeCommand('mcpHost.cancelTask', running.node);
    await taskRow(/^slow-report$/, /^cancelled/);
    assert.strictEqual(await outcome, undefined, 'cancelled: no result view');
    const cancelled = JSON.parse(((await api.testing.callTool(s.id, 'cancelled-tasks')) as { content: { text: string }[] }).content[0].text) as string[];
    assert.strictEqual(cancelled.length, 1, 'tasks/cancel reached the server');
  });
});
