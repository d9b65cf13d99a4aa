// Requests a server sends as tasks (2025-11-25), the way a user meets them: a tool of the tasks fixture server, called
// from its row in the Servers view, asks for a completion as a task; the user's sampling consent (the same dialogs as
// a plain request, answered through the dialog layer) lets the test-only fake model answer through vscode.lm, and the
// server, having polled the task and taken its result, returns what it got: the tool's result shows the model's text.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { SamplingQuestion, SamplingReviewAnswer } from '../../src/core/features/sampling/samplingQuestions';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import type { FormFieldPresetQuestion } from '../../src/vscode/dialogs/dialogRouter';
import type { ToolCallOutcome } from '../../src/vscode/tools/toolCommands';
import { activateFakeLm, activateHost, answerDialogs, fixtureServer, submitCallForm, waitFor, WorkspaceConfig, type FakeLm, type TestedHost } from './testKit';

type TreeNode = unknown;
const NAME = 'task-asker';

describe('Requests a server sends as tasks', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let lm: FakeLm;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;
  const consentQuestions: SamplingQuestion[] = [];
  const consentAnswers: (ConsentAnswer | undefined)[] = [];
  const reviewed: string[] = [];
  const reviewAnswers: (SamplingReviewAnswer | undefined)[] = [];
  const formFields: FormFieldPresetQuestion[] = [];
  const presets: Record<string, string> = {};

  const labelOf = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));

  /** The first node under `parent` (the root when undefined) whose label matches, searched `depth` levels down. */
  async function find(parent: TreeNode | undefined, label: RegExp, depth = 1): Promise<TreeNode | undefined> {
    const tree = api.testing.serversTree;
    for (const node of (await tree.getChildren(parent as never)) ?? []) {
      if (label.test(labelOf(await tree.getTreeItem(node)))) return node;
      const below = depth > 1 ? await find(node, label, depth - 1) : undefined;
      if (below) return below;
    }
    return undefined;
  }

  before(async () => {
    api = await activateHost();
    lm = await activateFakeLm();
    config = await WorkspaceConfig.read();
    dialogs = answerDialogs(api, {
      confirmSampling: async (q) => {
        consentQuestions.push(q);
        return consentAnswers.shift();
      },
      inputText: async (q) => q.value,
      reviewSamplingResponse: async (q) => {
        reviewed.push(q.responseText);
        return reviewAnswers.shift();
      },
      formFieldPreset: (q) => {
        formFields.push(q);
        return presets[q.field.name];
      },
    });
    await config.writeServers({ ...config.servers(), [NAME]: { command: 'node', args: [fixtureServer('tasks-server.mjs')] } });
    await api.testing.reloadConfiguration();
    const s = await waitFor(() => api.getServers().find((x) => x.name === NAME), `${NAME} configured`);
    if (s.state.kind !== 'running') await api.testing.startServer(s.id);
    await waitFor(() => api.getServer(s.id)?.state.kind === 'running', `${NAME} running`);
  });

  after(async () => {
    dialogs?.dispose();
    lm?.reset();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config.restore();
    await api.testing.reloadConfiguration();
  });

  it('a tool from the tree whose server samples as a task: consent, the model answers, the server gets the text through tasks/result', async () => {
    lm.reset();
    lm.setResponder(() => 'Three findings, one risk.');
    consentAnswers.push('once');
    const serverRow = await waitFor(() => find(undefined, new RegExp(`^${NAME}$`), 2), `the ${NAME} row`);
    const tools = await waitFor(() => find(serverRow, /^Tools \(\d+\)$/), 'its Tools group');
    const tool = await waitFor(() => find(tools, /^sample-as-task$/), 'the sample-as-task row');
    presets.prompt = 'Summarise the audit notes';
    presets.maxTokens = '80';
    const outcome = vscode.commands.executeCommand('mcpHost.callTool', tool) as Thenable<ToolCallOutcome>;
    await submitCallForm(() => formFields.map((f) => f.field.name), ['prompt', 'maxTokens', 'cancelAfterMs']);
    const { result, html } = await outcome;
    assert.ok(result && !result.isError, JSON.stringify(result));

    // The same consent as a plain request, with what the server asks.
    assert.strictEqual(consentQuestions.length, 1);
    assert.strictEqual(consentQuestions[0].serverName, NAME);
    assert.match(consentQuestions[0].detail, /max tokens 80/);
    assert.match(consentQuestions[0].detail, /\[user\] Summarise the audit notes/);
    assert.deepStrictEqual(reviewed, [], 'one question for the request: the answer is not reviewed unless turned on');
    assert.strictEqual(lm.calls.length, 1, 'the model was asked once');

    // What the server saw: a task at once, followed to its end, and the model's answer through tasks/result.
    const seen = JSON.parse((result.content[0] as { text: string }).text) as {
      created: { task: { taskId: string; status: string } };
      polled: string[];
      result: { role: string; content: { type: string; text: string } };
      statuses: string[];
    };
    assert.ok(seen.created.task.taskId);
    assert.strictEqual(seen.polled.at(-1), 'completed');
    assert.deepStrictEqual({ role: seen.result.role, content: seen.result.content }, { role: 'assistant', content: { type: 'text', text: 'Three findings, one risk.' } });
    assert.ok(seen.statuses.includes('completed'), 'the client told the server the status');
    assert.match(html, /Three findings, one risk\./, 'the result view shows it');
  });
});
