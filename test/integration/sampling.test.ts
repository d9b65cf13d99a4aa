// Sampling in a real VS Code: server-everything's trigger-sampling-request goes through consent (answered through the
// dialog layer) to the test-only fake language model, and the server receives the model's text; a denial reaches the
// server as an error; "MCP Host: Manage Permissions…" revokes a remembered decision.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { SamplingQuestion, SamplingReviewAnswer } from '../../src/core/features/sampling/samplingQuestions';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import { activateFakeLm, activateHost, answerDialogs, everythingOffering, sleep, type FakeLm, type TestedHost } from './testKit';

const messageText = (m: vscode.LanguageModelChatMessage) =>
  m.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

describe('Sampling through consent to a language model', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let lm: FakeLm;
  let everythingId: string;
  let registration: vscode.Disposable;
  const consentQuestions: SamplingQuestion[] = [];
  const consentAnswers: (ConsentAnswer | undefined)[] = [];
  const reviewed: string[] = [];
  const reviewAnswers: (SamplingReviewAnswer | undefined)[] = [];
  const edits: string[] = [];

  before(async () => {
    api = await activateHost();
    lm = await activateFakeLm();
    registration = answerDialogs(api, {
      confirmSampling: async (q) => {
        consentQuestions.push(q);
        return consentAnswers.shift();
      },
      inputText: async (q) => {
        edits.push(q.title);
        return q.value;
      },
      reviewSamplingResponse: async (q) => {
        reviewed.push(q.responseText);
        return reviewAnswers.shift();
      },
    });
    everythingId = await everythingOffering(api, 'trigger-sampling-request', 'sampling');
  });

  after(() => {
    registration?.dispose();
    lm?.reset();
  });

  beforeEach(() => {
    lm.reset();
    consentQuestions.length = consentAnswers.length = reviewed.length = reviewAnswers.length = edits.length = 0;
  });

  const trigger = async (prompt: string) =>
    JSON.stringify(await api.testing.callTool(everythingId, 'trigger-sampling-request', { prompt, maxTokens: 100 }));

  it('allowed once: the fake model answers and the server receives its text', async () => {
    lm.setResponder((messages) => `Paris, said the fake model to: ${messageText(messages[messages.length - 1])}`);
    consentAnswers.push('once');
    const result = await trigger('What is the capital of France?');
    assert.strictEqual(consentQuestions.length, 1);
    assert.strictEqual(consentQuestions[0].serverName, 'everything');
    assert.match(consentQuestions[0].detail, /Model: Fake Model \(mcphost-fake-lm\/fake-model\)/);
    assert.match(consentQuestions[0].detail, /\[user\] Resource trigger-sampling-request context: What is the capital of France\?/);
    assert.strictEqual(consentQuestions[0].modelName, 'Fake Model');
    assert.strictEqual(edits.length, 0, 'one question: no edit box after "Send Once"');
    assert.strictEqual(lm.calls.length, 1);
    const sent = lm.calls[0].messages.map(messageText);
    assert.deepStrictEqual(sent, ['You are a helpful test server.', 'Resource trigger-sampling-request context: What is the capital of France?']);
    assert.deepStrictEqual(reviewed, [], 'and no review of the answer unless turned on');
    assert.match(result, /LLM sampling result:/);
    assert.match(result, /Paris, said the fake model to/);
    assert.match(result, /\\"model\\": \\"fake-model\\"/);
  });

  it('denied: the server gets an error and the model is never called', async () => {
    consentAnswers.push('deny');
    const result = await trigger('Tell me a secret');
    assert.match(result, /"isError":true/);
    assert.match(result, /denied the sampling request/);
    assert.strictEqual(lm.calls.length, 0);
  });

  it('reviews answers when the user turned it on; remembers "always allow" and "stop reviewing", and Manage Permissions revokes one', async () => {
    await vscode.workspace.getConfiguration('mcpHost.sampling').update('reviewAnswers', true, vscode.ConfigurationTarget.Global);
    try {
      consentAnswers.push('always');
      reviewAnswers.push('approve-always');
      await trigger('first');
      assert.match(await trigger('second'), /fake-model: Resource trigger-sampling-request context: second/);
      assert.strictEqual(consentQuestions.length, 1, 'consent remembered');
      assert.strictEqual(reviewed.length, 1, 'review skipped once the user chose so');
      // The list ends with the newest kind of decision present: "stop reviewing" (sampling-review). Up from the
      // first item wraps to it.
      const command = vscode.commands.executeCommand('mcpHost.managePermissions');
      await sleep(1500);
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectPrevious');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await command;
      reviewAnswers.push('reject');
      assert.match(await trigger('third'), /rejected the model's response/);
      assert.strictEqual(reviewed.length, 2, 'responses are reviewed again');
      assert.strictEqual(consentQuestions.length, 1, 'the sampling permission itself was kept');
    } finally {
      await vscode.workspace.getConfiguration('mcpHost.sampling').update('reviewAnswers', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
