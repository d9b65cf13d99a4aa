// Tool calls that run as tasks, what only 2026-07-28 (the tasks extension, SEP-2663) does, the way a user reaches
// it: a task of the tasks-extension fixture that asks for input through the task waits in the Tasks group, gets its
// answer from the same form as any elicitation (sent back with tasks/update), and completes. What every wire does
// (a task from its row, its result reopened, cancel, @mcp) is in tasksWires.test.ts.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolCallOutcome } from '../../src/vscode/tools/toolCommands';
import { tasksExtension, useTaskServer } from './taskTestKit';

describe(`Tasks on ${tasksExtension.title}: what only it does`, function () {
  this.timeout(120_000);
  const under = useTaskServer(tasksExtension);

  it('a task that asks for input through the task: waiting in the view, the elicitation form, then its result', async () => {
    under.toolAnswers.push('once');
    under.formFields.length = 0;
    under.presets = { name: 'Ada' };
    const outcome = vscode.commands.executeCommand('mcpHost.callTool', under.server()!.id, 'needs-input', {}) as Thenable<ToolCallOutcome>;
    await under.taskRow(/^needs-input$/, /^waiting for input: Waiting for your name$/);
    await under.submitForm(['name']);
    const { result, html } = await outcome;
    assert.ok(result && !result.isError);
    assert.match(html, /<pre>Hello, Ada\.<\/pre>/);
    await under.taskRow(/^needs-input$/, /^completed$/);
  });
});
