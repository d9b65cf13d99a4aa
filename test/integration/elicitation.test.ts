// Elicitation in a real VS Code: server-everything's trigger-elicitation-request answered through the real
// multi-step quick input (quick picks driven with the workbench's own commands; text fields accept preset values),
// and decline, cancel and URL-mode decisions reaching the server as such.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { FormFieldPresetQuestion, UrlQuestion } from '../../src/vscode/dialogs/dialogRouter';
import { activateHost, answerDialogs, everythingOffering, sleep, waitFor, type TestedHost } from './testKit';

const run = (command: string) => vscode.commands.executeCommand(command);
const accept = () => run('workbench.action.acceptSelectedQuickOpenItem');
const next = () => run('workbench.action.quickOpenSelectNext');
const previous = () => run('workbench.action.quickOpenSelectPrevious');
const text = (r: unknown) => (r as { content: { text: string }[] }).content.map((c) => c.text).join('\n');

describe('Elicitation through the quick-input form', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let everythingId: string;
  let registration: vscode.Disposable;
  /** Field steps in the order the form showed them. */
  const shown: string[] = [];
  let presets: Record<string, string> = {};
  const urlQuestions: UrlQuestion[] = [];
  let urlAnswer: boolean | undefined;

  /** Waits until the form shows the step of `field` (its first visit asks for a preset), then lets it render. */
  const atStep = async (field: string) => {
    await waitFor(() => shown.includes(field), `the form to show "${field}"`);
    await sleep(300);
  };

  /** Accepts the value each step starts with (its preset or default), in order. */
  const acceptSteps = async (...fields: string[]) => {
    for (const field of fields) {
      await atStep(field);
      await accept();
    }
  };

  before(async () => {
    api = await activateHost();
    registration = answerDialogs(api, {
      formFieldPreset: (q: FormFieldPresetQuestion) => {
        shown.push(q.field.name);
        return presets[q.field.name];
      },
      confirmOpenUrl: async (q) => {
        urlQuestions.push(q);
        return urlAnswer;
      },
    });
    everythingId = await everythingOffering(api, 'trigger-elicitation-request', 'elicitation');
  });

  after(() => registration?.dispose());

  beforeEach(() => {
    shown.length = 0;
    presets = {};
  });

  const trigger = () => api.testing.callTool(everythingId, 'trigger-elicitation-request', {}).then(text);

  it('accept: every step driven for real, reviewed, and the server receives the values', async () => {
    presets = { name: 'Ada Lovelace', email: 'ada@example.com', homepage: 'https://ada.example.org', birthdate: '1815-12-10' };
    const result = trigger();
    await acceptSteps('name');
    await atStep('check');
    // Optional yes/no without a default starts on "No answer": two up is "Yes".
    await previous();
    await previous();
    await accept();
    await acceptSteps('firstLine', 'email', 'homepage', 'birthdate', 'integer', 'number');
    await atStep('untitledSingleSelectEnum');
    await next();
    await accept();
    await acceptSteps('untitledMultipleSelectEnum', 'titledSingleSelectEnum', 'titledMultipleSelectEnum', 'legacyTitledEnum');
    await sleep(800);
    await accept(); // the review step: "Submit" is active
    const answer = await result;
    assert.match(answer, /✅ User provided the requested information!/);
    for (const line of [
      '- Name: Ada Lovelace',
      '- Agreed to terms: true',
      '- Email: ada@example.com',
      '- Homepage: https://ada.example.org',
      '- Birthdate: 1815-12-10',
      '- Favorite Integer: 42',
      '- Favorite Number: 3.14',
    ])
      assert.ok(answer.includes(line), `${line} in ${answer}`);
    const raw = JSON.parse(answer.slice(answer.indexOf('Raw result: ') + 'Raw result: '.length));
    assert.deepStrictEqual(raw.content, {
      name: 'Ada Lovelace',
      check: true,
      firstLine: 'It was a dark and stormy night.',
      email: 'ada@example.com',
      homepage: 'https://ada.example.org',
      birthdate: '1815-12-10',
      integer: 42,
      number: 3.14,
      untitledSingleSelectEnum: 'Rachel',
      untitledMultipleSelectEnum: ['Guitar'],
      titledSingleSelectEnum: 'hero-1',
      titledMultipleSelectEnum: ['fish-1'],
      legacyTitledEnum: 'pet-1',
    });
  });

  it('a required field without an answer cannot be skipped', async () => {
    const result = trigger();
    await acceptSteps('name');
    await sleep(800);
    assert.deepStrictEqual(shown, ['name'], 'still on the required field');
    await run('workbench.action.closeQuickOpen');
    assert.match(await result, /⚠️ User cancelled/);
  });

  it('the explicit Decline item declines', async () => {
    presets = { name: 'Ada' };
    const result = trigger();
    await acceptSteps('name');
    await atStep('check');
    // Yes, No, No answer (active), separator, Decline.
    await next();
    await accept();
    const answer = await result;
    assert.match(answer, /❌ User declined to provide the requested information/);
    assert.doesNotMatch(answer, /"content"/);
  });

  it('Escape cancels', async () => {
    const result = trigger();
    await atStep('name');
    await run('workbench.action.closeQuickOpen');
    assert.match(await result, /⚠️ User cancelled the elicitation dialog/);
  });

  it('URL mode: the question names the domain, and declining or dismissing reaches the server', async () => {
    const open = () =>
      api.testing.callTool(everythingId, 'trigger-url-elicitation', { url: 'https://auth.example.com/device?code=7', message: 'Finish signing in' }).then(text);
    urlAnswer = false;
    assert.match(await open(), /❌ User declined to open the URL/);
    urlAnswer = undefined;
    assert.match(await open(), /⚠️ User cancelled the URL elicitation/);
    assert.deepStrictEqual(
      urlQuestions.map((q) => [q.serverName, q.domain, q.url, q.message]),
      Array(2).fill(['everything', 'auth.example.com', 'https://auth.example.com/device?code=7', 'Finish signing in']),
    );
  });
});
