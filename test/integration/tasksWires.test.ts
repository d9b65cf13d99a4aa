// Tool calls that run as tasks, the way a user reaches them, on every wire: each scenario runs once per wire
// (2025-11-25 experimental tasks and the 2026-07-28 tasks extension; taskTestKit.ts: the wire descriptors). A tool
// called from its row in the Servers view runs as a task, its status shows in the view's Tasks group while it runs,
// its result opens like any tool result; a running task is cancelled from its row (the server hears of it); a
// finished task's result opens again from its row after the result view was closed. In @mcp, a task shows its
// progress and its result; a chat turn that ends first leaves the task running in the view. What only 2026-07-28 does
// is in tasksExtension.test.ts.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolCallOutcome } from '../../src/vscode/tools/toolCommands';
import { activateDemoModel, askChat, DEMO_MODEL, sleep, transcriptMarkdown, waitFor } from './testKit';
import { experimentalTasks, runningRow, tasksExtension, useTaskServer } from './taskTestKit';

const webviewTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview);

for (const wire of [experimentalTasks, tasksExtension]) {
  describe(`Tasks on ${wire.title}: what every wire does`, function () {
    this.timeout(120_000);
    const under = useTaskServer(wire);
    before(() => activateDemoModel());

    it('runs a tool called from its row as a task: its status in the Tasks group, its result in the result view', async () => {
      const tasksBefore = await under.taskCount();
      const tools = await under.child(await under.serverRow(), /^Tools \(\d+\)$/);
      const { node } = await under.child(tools.node, /^slow-report$/);
      under.presets = { steps: '8', stepMs: '500' };
      const outcome = vscode.commands.executeCommand('mcpHost.callTool', node) as Thenable<ToolCallOutcome>;
      await under.submitForm(['steps', 'stepMs']);
      // While it runs, the view shows the task with the server's own words on where it is (and its percentage, on a
      // wire whose tasks report progress).
      const running = await under.taskRow(/^slow-report$/, runningRow(wire, '(1[3-9]|[2-8]\\d)', 'Step [2-7] of 8'));
      assert.strictEqual((running.item.iconPath as vscode.ThemeIcon).id, 'sync~spin');
      assert.strictEqual(running.item.contextValue, 'mcpTask.running');
      assert.match(under.api.testing.renderServersTree().join('\n'), new RegExp(`Tasks \\(${tasksBefore + 1}\\) — 1 running`));
      const { result, html } = await outcome;
      assert.strictEqual(under.toolQuestions.length, 0, 'the form was the consent');
      assert.ok(result && !result.isError);
      assert.match(html, /<pre>Report ready after 8 steps\.<\/pre>/);
      await waitFor(() => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputWebview, 'the result in its view');
      const done = await under.taskRow(/^slow-report$/, /^completed$/);
      assert.strictEqual((done.item.iconPath as vscode.ThemeIcon).id, 'pass');
      assert.strictEqual(done.item.contextValue, 'mcpTask.ended');
    });

    it("cancels a running task from its row's Cancel: tasks/cancel reaches the server", async () => {
      under.toolAnswers.push('once');
      const outcome = vscode.commands.executeCommand('mcpHost.callTool', under.server()!.id, 'slow-report', { steps: 200, stepMs: 300 }) as Thenable<ToolCallOutcome | undefined>;
      const running = await under.taskRow(/^slow-report$/, /^running/);
      await vscode.commands.executeCommand('mcpHost.cancelTask', running.node);
      const ended = await under.taskRow(/^slow-report$/, /^cancelled/);
      assert.strictEqual((ended.item.iconPath as vscode.ThemeIcon).id, 'circle-slash');
      assert.match((await outcome)!.html, /The tool &quot;slow-report&quot; was cancelled: you cancelled it\./, 'the result view says it was cancelled');
      assert.strictEqual((await under.cancelledOnServer()).length, 1, 'tasks/cancel reached the server');
    });

    it("opens a finished task's result again from its row after the result view was closed", async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await waitFor(() => webviewTabs().length === 0, 'no result view open');
      const done = await under.taskRow(/^slow-report$/, /^completed$/);
      // A click runs the row's command; the context menu's Open Result runs the same command on the node.
      assert.strictEqual(done.item.command?.command, 'mcpHost.openTaskResult');
      const html = (await vscode.commands.executeCommand('mcpHost.openTaskResult', done.node)) as string;
      assert.match(html, /<pre>Report ready after 8 steps\.<\/pre>/);
      await waitFor(() => webviewTabs().length === 1, 'the result view open again');
      const again = (await vscode.commands.executeCommand(done.item.command.command, ...(done.item.command.arguments ?? []))) as string;
      assert.match(again, /<pre>Report ready after 8 steps\.<\/pre>/);
      await sleep(300);
      assert.strictEqual(webviewTabs().length, 1, 'the same view, not a second one');
    });

    it('in @mcp, a task shows its status messages as progress and its result in the answer', async () => {
      under.toolAnswers.push('once');
      const t = await askChat(under.api, `@mcp call ${wire.name}.slow-report {"steps": 4, "stepMs": 400}`, { model: DEMO_MODEL });
      assert.strictEqual(t.errorMessage, undefined);
      // The progress line is Markdown: the tool's name comes escaped.
      assert.ok(t.parts.some((p) => /^progress: .*slow\\?-report.*Step [1-4] of 4/.test(p)), t.parts.join('\n'));
      assert.match(transcriptMarkdown(t), /Report ready after 4 steps\./);
      await under.taskRow(/^slow-report$/, /^completed$/);
    });

    it('a chat turn that ends before its task leaves the task running in the view (nothing is cancelled)', async () => {
      const cancelledBefore = (await under.cancelledOnServer()).length;
      under.toolAnswers.push('once');
      const t = await askChat(under.api, `@mcp call ${wire.name}.slow-report {"steps": 200, "stepMs": 300}`, { model: DEMO_MODEL, wait: false });
      await waitFor(() => t.parts.some((p) => /^progress: .*Step \d+ of 200/.test(p)), 'the task to report in chat');
      await vscode.commands.executeCommand('workbench.action.chat.cancel');
      await waitFor(() => t.done, 'the turn to end', 10_000);
      await sleep(1000);
      const row = await under.taskRow(/^slow-report$/, runningRow(wire, '\\d+', 'Step \\d+ of 200'));
      assert.strictEqual((await under.cancelledOnServer()).length, cancelledBefore, 'no tasks/cancel was sent');
      // It can still be cancelled from the view.
      await vscode.commands.executeCommand('mcpHost.cancelTask', row.node);
      await under.taskRow(/^slow-report$/, /^cancelled/);
      assert.strictEqual((await under.cancelledOnServer()).length, cancelledBefore + 1);
    });
  });
}
