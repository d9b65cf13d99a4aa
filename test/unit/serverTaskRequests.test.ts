// Requests a 2025-11-25 server sends as tasks (sampling, elicitation), against the tasks fixture in a real child
// process: the client answers with a task, runs the request through the same feature (consent, model, form), and
// answers the server's tasks/get, tasks/result, tasks/cancel, tasks/list, with notifications/tasks/status.
import * as assert from 'assert';
import type { ServerSession } from '../../src/core/host/serverSession';
import { InteractionQueue } from '../../src/core/host/interactionQueue';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { PermissionStore } from '../../src/core/host/permissionStore';
import type { LanguageModel, LanguageModelCatalog, LanguageModelInfo, ModelRequest } from '../../src/core/features/languageModel';
import type { StandingConsentAnswer } from '../../src/core/features/userQuestions';
import { SamplingFeature, type SamplingSettings } from '../../src/core/features/sampling/samplingFeature.lazy';
import { type SamplingDialogs, type SamplingQuestion, type SamplingReviewAnswer } from '../../src/core/features/sampling/samplingQuestions';
import { ElicitationFeature, type ElicitationUi, type FormRequest } from '../../src/core/features/elicitation/elicitationFeature.lazy';
import type { FormOutcome } from '../../src/core/features/elicitation/form';
import type { ClientFeature } from '../../src/core/host/clientFeature';
import { taskRequestParams } from '../../src/core/protocol/connection/serverTaskRequests.lazy';
import { fixtureServer, waitFor } from './helpers';
import { MemoryStore, createKit, startUserServer, type Kit } from './hostTestKit';

const fakeModel: LanguageModelInfo = { id: 'fake-model', family: 'fake', vendor: 'fake-vendor', name: 'Fake Model', capabilities: { acceptsImages: false, acceptsTools: false } };

/** A language model port that echoes the prompt; `hold` keeps it answering until the request's signal aborts. */
class StubModels implements LanguageModelCatalog {
  requests: ModelRequest[] = [];
  aborted = 0;
  hold = false;
  async list() {
    return [fakeModel];
  }
  async get(info: LanguageModelInfo): Promise<LanguageModel> {
    const stub = { requests: this.requests, hold: () => this.hold, aborted: () => this.aborted++ };
    return {
      info,
      async *send(r: ModelRequest, signal?: AbortSignal) {
        stub.requests.push(r);
        if (stub.hold()) {
          await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
          stub.aborted();
          throw new Error('cancelled');
        }
        const last = r.messages.at(-1)!.parts.find((p) => p.kind === 'text') as { text: string };
        yield { kind: 'text' as const, text: `echo: ${last.text}` };
      },
      countTokens: async (text: string) => Math.ceil(text.length / 4),
    };
  }
}

class StubDialogs implements SamplingDialogs {
  consent: (StandingConsentAnswer | undefined)[] = [];
  asked: SamplingQuestion[] = [];
  /** How long the user takes to answer the consent question (ms). */
  consentDelayMs = 0;
  textAsked = 0;
  async confirmSampling(q: SamplingQuestion) {
    this.asked.push(q);
    if (this.consentDelayMs) await new Promise((resolve) => setTimeout(resolve, this.consentDelayMs));
    return this.consent.shift();
  }
  async reviewSamplingResponse(): Promise<SamplingReviewAnswer | undefined> {
    return 'approve';
  }
  async inputText(q: { value?: string }) {
    this.textAsked++;
    return q.value;
  }
}

class StubUi implements ElicitationUi {
  forms: FormRequest[] = [];
  closedBySignal = 0;
  answer: (r: FormRequest) => Promise<FormOutcome> = async () => ({ action: 'accept', values: { name: 'Ada' } });
  async askForm(r: FormRequest) {
    this.forms.push(r);
    return this.answer(r);
  }
  async confirmOpenUrl() {
    return undefined;
  }
  async openUrl() {
    return false;
  }
}

interface Seen {
  created?: { task: { taskId: string; status: string; ttl: number | null; pollInterval?: number } };
  polled?: string[];
  cancelled?: { status: string };
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  statuses?: string[];
  listed?: string[];
}

describe('requests a server sends as tasks (2025-11-25)', function () {
  this.timeout(60_000);
  let kit: Kit;
  let models: StubModels;
  let dialogs: StubDialogs;
  let ui: StubUi;
  let settings: SamplingSettings;
  let elicitationOn: boolean;

  const features = (): ClientFeature[] => {
    const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    const activeToolCalls = new ActiveToolCalls();
    const queue = new InteractionQueue();
    return [
      new SamplingFeature({ settings: () => settings, models, dialogs, permissions, activeToolCalls, queue, notifyUser: () => undefined, describeContext: () => '' }),
      new ElicitationFeature({ enabled: () => elicitationOn, rateLimitPerMinute: () => 10, ui, permissions, activeToolCalls, queue }),
    ];
  };

  beforeEach(() => {
    models = new StubModels();
    dialogs = new StubDialogs();
    ui = new StubUi();
    settings = { enabled: true, rateLimitPerMinute: 10, maxTokens: 1000, pinnedModels: [], allowedContext: 'none', allowTools: false };
    elicitationOn = true;
    kit = createKit({ features: features() });
  });

  afterEach(async () => kit?.manager.disposeAsync());

  const start = () => startUserServer(kit, 'tasks', fixtureServer('tasks-server.mjs'));
  const call = async (client: ServerSession, name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as { content: { text: string }[] };
    return JSON.parse(result.content[0].text) as Seen;
  };

  it('sampling as a task: a task at once, the user consents, the stub model answers, and tasks/result brings its text', async () => {
    const { client } = await start();
    dialogs.consent.push('once');
    const seen = await call(client, 'sample-as-task', { prompt: 'Summarise the report', maxTokens: 50 });
    assert.ok(seen.created?.task.taskId, `a CreateTaskResult: ${JSON.stringify(seen)}`);
    assert.strictEqual(seen.created!.task.pollInterval, 1000);
    assert.strictEqual(dialogs.asked.length, 1, 'the same consent question as a plain request');
    assert.strictEqual(dialogs.asked[0].serverName, 'tasks');
    assert.match(dialogs.asked[0].detail, /\[user\] Summarise the report/);
    assert.strictEqual(models.requests.length, 1);
    assert.strictEqual(models.requests[0].maxTokens, 50);
    assert.deepStrictEqual(seen.result && { role: seen.result.role, model: seen.result.model, content: seen.result.content }, {
      role: 'assistant',
      model: 'fake-model',
      content: { type: 'text', text: 'echo: Summarise the report' },
    });
    assert.strictEqual(seen.polled?.at(-1), 'completed');
    assert.ok(seen.statuses?.includes('completed'), `the client pushed the status: ${JSON.stringify(seen.statuses)}`);
    assert.deepStrictEqual(seen.listed, ['this:completed'], 'tasks/list lists it');
  });

  it('a declined consent: the task fails and tasks/result carries the error a plain request gets', async () => {
    const { client } = await start();
    dialogs.consent.push('deny');
    const seen = await call(client, 'sample-as-task', { prompt: 'Summarise' });
    assert.ok(seen.created?.task.taskId);
    assert.strictEqual(seen.polled?.at(-1), 'failed');
    assert.deepStrictEqual(seen.error && { code: seen.error.code, message: seen.error.message }, { code: -1, message: 'The user denied the sampling request.' });
    assert.strictEqual(models.requests.length, 0, 'no model is called');
    assert.ok(seen.statuses?.includes('failed'));
  });

  it('the caps of plain requests hold for tasks: maxTokens over the limit fails the task with -32602', async () => {
    const { client } = await start();
    const seen = await call(client, 'sample-as-task', { prompt: 'x', maxTokens: 5000 });
    assert.strictEqual(seen.error?.code, -32602);
    assert.match(seen.error!.message, /maxTokens 5000 exceeds the user's limit of 1000/);
    assert.strictEqual(dialogs.asked.length, 0);
  });

  it("the server's tasks/cancel aborts the model request in flight, and the task ends cancelled", async () => {
    const { client } = await start();
    dialogs.consent.push('always');
    models.hold = true;
    const seen = await call(client, 'sample-as-task', { prompt: 'Take your time', cancelAfterMs: 300 });
    assert.strictEqual(seen.cancelled?.status, 'cancelled', JSON.stringify(seen));
    assert.strictEqual(seen.polled?.at(-1), 'cancelled');
    assert.match(seen.error?.message ?? '', /cancelled/);
    assert.strictEqual(models.requests.length, 1);
    assert.strictEqual(models.aborted, 1, 'the model request was aborted');
    assert.ok(seen.statuses?.includes('cancelled'));
  });

  it('cancelled while the consent dialog is open: once answered, no review dialog follows and no model is asked', async () => {
    const { client } = await start();
    dialogs.consent.push('once');
    dialogs.consentDelayMs = 800;
    const seen = await call(client, 'sample-as-task', { prompt: 'Slow to decide', cancelAfterMs: 200 });
    assert.strictEqual(seen.cancelled?.status, 'cancelled');
    await new Promise((resolve) => setTimeout(resolve, 900));
    assert.strictEqual(dialogs.asked.length, 1);
    assert.strictEqual(dialogs.textAsked, 0, 'the prompt review was not shown');
    assert.strictEqual(models.requests.length, 0, 'no model was asked');
  });

  it('the tasks go with the session: stopping the server aborts the model request a task still runs', async () => {
    const { client } = await start();
    dialogs.consent.push('always');
    models.hold = true;
    const pending = call(client, 'sample-as-task', { prompt: 'Forever' }).catch((e: Error) => e);
    await waitFor(() => models.requests.length === 1, 'the model request', 10_000);
    await kit.manager.disposeAsync();
    await waitFor(() => models.aborted === 1, 'the model request to be aborted', 5_000);
    assert.ok((await pending) instanceof Error, 'the tool call ended with the session');
  });

  it('elicitation as a task: the same form, and the answer comes back through tasks/result', async () => {
    const { client } = await start();
    const seen = await call(client, 'elicit-as-task', { message: 'Who wrote the notes?' });
    assert.ok(seen.created?.task.taskId);
    assert.strictEqual(ui.forms.length, 1);
    assert.strictEqual(ui.forms[0].message, 'Who wrote the notes?');
    assert.deepStrictEqual(ui.forms[0].form.fields.map((f) => f.name), ['name']);
    assert.deepStrictEqual(seen.result && { action: seen.result.action, content: seen.result.content }, { action: 'accept', content: { name: 'Ada' } });
    assert.strictEqual(seen.polled?.at(-1), 'completed');
  });

  it("the server's tasks/cancel closes the open form (its signal aborts)", async () => {
    const { client } = await start();
    ui.answer = (r) =>
      new Promise((resolve) => {
        r.signal.addEventListener('abort', () => {
          ui.closedBySignal++;
          resolve({ action: 'cancel' });
        });
      });
    const seen = await call(client, 'elicit-as-task', { cancelAfterMs: 300 });
    assert.strictEqual(seen.cancelled?.status, 'cancelled');
    assert.strictEqual(ui.closedBySignal, 1);
    assert.strictEqual(seen.polled?.at(-1), 'cancelled');
  });

  it('only on 2025-11-25: an older session gets an error for a request with task, and no task is created', async () => {
    const { client } = await startUserServer(kit, 'tasks', fixtureServer('tasks-server.mjs'), { FIXTURE_PROTOCOL_VERSION: '2025-06-18' });
    const seen = await call(client, 'sample-as-task');
    assert.strictEqual(seen.created, undefined);
    assert.match(seen.error?.message ?? '', /Requests as tasks need protocol 2025-11-25; this session speaks 2025-06-18/);
    assert.strictEqual(dialogs.asked.length, 0, 'nobody was asked');
  });

  it('declares nothing of it on the 2026-07-28 wire (its requests carry the capabilities, without `tasks`)', async () => {
    const { client } = await startUserServer(kit, 'asking', fixtureServer('asking-server.mjs'), { FIXTURE_ERAS: 'modern' });
    assert.strictEqual(kit.manager.servers().find((s) => s.name === 'asking')?.protocolVersion, '2026-07-28');
    const declared = JSON.parse(((await client.callTool({ name: 'capabilities', arguments: {} })) as { content: { text: string }[] }).content[0].text);
    assert.deepStrictEqual(Object.keys(declared).sort(), ['elicitation', 'roots', 'sampling']);
  });

  it('declares tasks.requests only for the features that are on', async () => {
    let { client } = await start();
    assert.deepStrictEqual(await call(client, 'client-tasks-capability'), {
      list: {},
      cancel: {},
      requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
    });
    await kit.manager.disposeAsync();
    settings = { ...settings, enabled: false };
    kit = createKit({ features: features() });
    ({ client } = await start());
    assert.deepStrictEqual(await call(client, 'client-tasks-capability'), { list: {}, cancel: {}, requests: { elicitation: { create: {} } } });
    await kit.manager.disposeAsync();
    elicitationOn = false;
    kit = createKit({ features: features() });
    ({ client } = await start());
    assert.strictEqual(await call(client, 'client-tasks-capability'), null, 'nothing to answer as a task: no tasks capability');
    const seen = await call(client, 'sample-as-task');
    assert.ok(seen.error && !seen.created, 'a request as a task is refused');
  });
});

describe('the params a task answer gets', () => {
  it('are checked against the spec shape, as a plain request is: a malformed request fails with -32602', async () => {
    await assert.rejects(taskRequestParams('sampling/createMessage', { task: { ttl: 1000 }, maxTokens: 10 }), (e: Error & { code?: number }) => {
      assert.strictEqual(e.code, -32602);
      assert.match(e.message, /^Invalid sampling request: /);
      return true;
    });
  });

  it('leave out the task, and give an elicitation its schema as sent (keywords the SDK drops included, for the form to refuse)', async () => {
    const requestedSchema = { type: 'object', properties: { code: { type: 'string', pattern: '^[0-9]+$' } } };
    const params = await taskRequestParams('elicitation/create', { task: { ttl: 1000 }, mode: 'form', message: 'Code?', requestedSchema });
    assert.deepStrictEqual(params, { mode: 'form', message: 'Code?', requestedSchema });
    const sampling = await taskRequestParams('sampling/createMessage', { task: {}, messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 });
    assert.ok(!('task' in sampling));
    assert.strictEqual(sampling.maxTokens, 10);
  });
});
