// Sampling with tools in a real VS Code: a fixture server's agent loop offers the model its own get_weather tool; the
// consent question lists it, the test-only fake model answers with a tool call (through vscode.lm, given the tool),
// the call goes back to the server, which runs it and asks again with the result, and the model's final text comes
// back — the user reviewing each response, the tool call shown in the review.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { SamplingQuestion, SamplingReviewAnswer } from '../../src/core/features/sampling/samplingQuestions';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import { activateFakeLm, activateHost, answerDialogs, fixtureServer, waitFor, WorkspaceConfig, type FakeLm, type TestedHost } from './testKit';

describe('Sampling with tools', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let lm: FakeLm;
  let config: WorkspaceConfig;
  let registration: vscode.Disposable;
  let serverId: string;
  const consentQuestions: SamplingQuestion[] = [];
  const consentAnswers: (ConsentAnswer | undefined)[] = [];
  const reviewed: string[] = [];
  const reviewAnswers: (SamplingReviewAnswer | undefined)[] = [];

  before(async () => {
    api = await activateHost();
    lm = await activateFakeLm();
    config = await WorkspaceConfig.read();
    registration = answerDialogs(api, {
      confirmSampling: async (q) => {
        consentQuestions.push(q);
        return consentAnswers.shift();
      },
      inputText: async (q) => q.value,
      reviewSamplingResponse: async (q) => {
        reviewed.push(q.responseText);
        return reviewAnswers.shift();
      },
    });
    await config.writeServers({ ...config.servers(), 'weather-agent': { command: 'node', args: [fixtureServer('sampling-tools-server.mjs')] } });
    await api.testing.reloadConfiguration();
    const s = await waitFor(() => api.getServers().find((x) => x.name === 'weather-agent'), 'weather-agent configured');
    if (s.state.kind !== 'running') await api.testing.startServer(s.id);
    await waitFor(() => api.getServer(s.id)?.state.kind === 'running', 'weather-agent running');
    serverId = s.id;
  });

  after(async () => {
    registration?.dispose();
    lm?.reset();
    await config.restore();
    await api.testing.reloadConfiguration();
  });

  it('the model gets the server\'s tool, calls it, and the server runs it and gets the final answer', async () => {
    let round = 0;
    lm.setResponder(() => (round++ === 0 ? [new vscode.LanguageModelToolCallPart('call-1', 'get_weather', { city: 'Paris' })] : 'It is sunny in Paris.'));
    consentAnswers.push('once', 'once');
    const result = JSON.stringify(await api.testing.callTool(serverId, 'weather-agent', { city: 'Paris' }));

    assert.match(consentQuestions[0].detail, /Tools the server offers the model \(the model may call them; a call goes back to the server, which runs it\):\n- get_weather: The current weather of a city\./);
    assert.deepStrictEqual(
      lm.calls.map((c) => (c.options.tools ?? []).map((t) => t.name)),
      [['get_weather'], ['get_weather']],
      'the tool offered to the model in both rounds',
    );
    const second = lm.calls[1].messages;
    assert.ok(
      second.some((m) => m.content.some((p) => p instanceof vscode.LanguageModelToolResultPart && p.callId === 'call-1')),
      'the server\'s result of the call reached the model',
    );
    // One question per request (two rounds, two requests): the answers go back without a review unless it is turned on.
    assert.strictEqual(consentQuestions.length, 2);
    assert.deepStrictEqual(reviewed, []);
    assert.match(result, /calls: get_weather\(\{\\"city\\":\\"Paris\\"\}\) -> sunny, 21 C in Paris \| answer: It is sunny in Paris\./);
  });
});
