// Servers asking the client for input in both eras, through the same features: a 2025-11-25 server sends
// `roots/list`, `sampling/createMessage` and `elicitation/create` requests; a 2026-07-28 server answers the tool call
// with an `input_required` result (SEP-2322) that the client fulfils with the same handlers, dialogs, permissions and
// rate limits, then retries. The asking fixture relays exactly what it got back.
import * as assert from 'assert';
import { ElicitationFeature, type ElicitationUi, type FormRequest, type UrlRequest } from '../../src/core/features/elicitation/elicitationFeature.lazy';
import type { FormOutcome } from '../../src/core/features/elicitation/form';
import type { LanguageModel, LanguageModelCatalog, LanguageModelInfo, ModelRequest } from '../../src/core/features/languageModel';
import { SamplingFeature, type SamplingSettings } from '../../src/core/features/sampling/samplingFeature.lazy';
import { type SamplingDialogs } from '../../src/core/features/sampling/samplingQuestions';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import { MAX_INPUT_ROUNDS } from '../../src/core/protocol/connection/handshake.lazy';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { InteractionQueue } from '../../src/core/host/interactionQueue';
import { PermissionStore } from '../../src/core/host/permissionStore';
import type { ServerSession } from '../../src/core/host/serverSession';
import { fixtureServer } from './helpers';
import { MemoryStore, createKit, startUserServer, type Kit } from './hostTestKit';

const fakeModel: LanguageModelInfo = { id: 'fake-model', family: 'fake', vendor: 'fake-vendor', name: 'Fake Model', capabilities: { acceptsImages: true, acceptsTools: true } };

class Models implements LanguageModelCatalog {
  requests: ModelRequest[] = [];
  async list() {
    return [fakeModel];
  }
  async get(info: LanguageModelInfo): Promise<LanguageModel> {
    const requests = this.requests;
    return {
      info,
      async *send(r: ModelRequest) {
        requests.push(r);
        const last = r.messages.at(-1)!.parts.find((p) => p.kind === 'text') as { text: string };
        yield { kind: 'text' as const, text: `echo: ${last.text}` };
      },
      countTokens: async (text: string) => Math.ceil(text.length / 4),
    };
  }
}

class Dialogs implements SamplingDialogs {
  consent: (ConsentAnswer | undefined)[] = [];
  consentAsked = 0;
  async confirmSampling() {
    this.consentAsked++;
    return this.consent.shift();
  }
  async reviewSamplingResponse() {
    return 'approve' as const;
  }
  async inputText(q: { value?: string }) {
    return q.value;
  }
}

class Ui implements ElicitationUi {
  forms: FormRequest[] = [];
  urls: UrlRequest[] = [];
  opened: string[] = [];
  answer: (r: FormRequest) => FormOutcome = () => ({ action: 'cancel' });
  async askForm(r: FormRequest) {
    this.forms.push(r);
    return this.answer(r);
  }
  async confirmOpenUrl(r: UrlRequest) {
    this.urls.push(r);
    return true;
  }
  async openUrl(url: string) {
    this.opened.push(url);
    return true;
  }
}

for (const era of ['2025-11-25', '2026-07-28'] as const) {
  const modern = era === '2026-07-28';

  describe(`servers asking for input at ${era}${modern ? ' (input_required)' : ' (server requests)'}`, function () {
    this.timeout(60_000);
    let kit: Kit;
    let ui: Ui;
    let dialogs: Dialogs;
    let models: Models;
    let elicitationRate: number;
    let samplingEnabled: boolean;
    let client: ServerSession;

    const text = (r: unknown) => (r as { content: { text: string }[] }).content.map((c) => c.text).join('\n');
    const call = async (name: string, params?: object) => JSON.parse(text(await client.callTool({ name, arguments: params ? { params } : {} })));

    const start = async (env: Record<string, string> = {}) => {
      const started = await startUserServer(kit, 'asking', fixtureServer('asking-server.mjs'), { FIXTURE_ERAS: modern ? 'modern' : 'legacy', ...env });
      client = started.client;
      assert.strictEqual(kit.manager.servers()[0].protocolVersion, era);
    };

    beforeEach(() => {
      ui = new Ui();
      dialogs = new Dialogs();
      models = new Models();
      elicitationRate = 10;
      samplingEnabled = true;
      const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
      const activeToolCalls = new ActiveToolCalls();
      const queue = new InteractionQueue();
      const samplingSettings = (): SamplingSettings => ({ enabled: samplingEnabled, rateLimitPerMinute: 10, maxTokens: 1000, pinnedModels: [], allowedContext: 'none', allowTools: false });
      kit = createKit({
        features: [
          new SamplingFeature({ settings: samplingSettings, models, dialogs, permissions, activeToolCalls, queue, notifyUser: () => undefined, describeContext: () => '' }),
          new ElicitationFeature({ enabled: () => true, rateLimitPerMinute: () => elicitationRate, ui, permissions, activeToolCalls, queue }),
        ],
      });
    });

    afterEach(async () => kit?.manager.disposeAsync());

    it('roots: the workspace folders', async () => {
      kit.manager.setRoots([{ uri: 'file:///work/project', name: 'project' }]);
      await start();
      const r = await call('roots');
      assert.deepStrictEqual(r.result, { roots: [{ uri: 'file:///work/project', name: 'project' }] });
      assert.strictEqual(r.era, modern ? 'modern' : 'legacy');
    });

    it('sampling: consent, then the model answers', async () => {
      await start();
      dialogs.consent.push('once');
      const r = await call('sample', { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 50 });
      assert.strictEqual(dialogs.consentAsked, 1);
      assert.strictEqual(models.requests.length, 1);
      assert.deepStrictEqual(r.result.content, { type: 'text', text: 'echo: hi' });
      assert.strictEqual(r.result.model, 'fake-model');
    });

    it('form elicitation: the form is shown and the server gets the values', async () => {
      await start();
      ui.answer = () => ({ action: 'accept', values: { name: 'Ada' } });
      const requestedSchema = { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] };
      const r = await call('ask', { mode: 'form', message: 'Who are you?', requestedSchema });
      assert.strictEqual(ui.forms.length, 1);
      assert.strictEqual(ui.forms[0].message, 'Who are you?');
      assert.strictEqual(ui.forms[0].serverName, 'asking');
      assert.deepStrictEqual(r.result, { action: 'accept', content: { name: 'Ada' } });
    });

    it('URL elicitation: the URL is confirmed and opened', async () => {
      await start();
      const r = await call('ask', { mode: 'url', message: 'Sign in there', url: 'https://login.example.com/start', elicitationId: 'e1' });
      assert.strictEqual(ui.urls.length, 1);
      assert.deepStrictEqual(ui.opened, ['https://login.example.com/start']);
      assert.strictEqual(r.result.action, 'accept');
    });

    it('the same rate limit: a question beyond it is refused without a dialog', async () => {
      elicitationRate = 1;
      await start();
      ui.answer = () => ({ action: 'accept', values: {} });
      const params = { mode: 'form', message: 'Again?', requestedSchema: { type: 'object', properties: {} } };
      await call('ask', params);
      if (modern) {
        // The question arrives inside the tool call's result: its refusal fails the call, with the limit's reason.
        await assert.rejects(() => client.callTool({ name: 'ask', arguments: { params } }), /rate limit|too many/i);
      } else {
        const refused = await call('ask', params);
        assert.match(refused.error.message, /rate limit|too many/i);
      }
      assert.strictEqual(ui.forms.length, 1);
    });

    it('sampling turned off for the server: no dialog, and the server cannot get a completion', async () => {
      samplingEnabled = false;
      await start();
      const params = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 50 };
      if (modern) await assert.rejects(() => client.callTool({ name: 'sample', arguments: { params } }));
      else assert.ok((await call('sample', params)).error, 'the server got an error');
      assert.strictEqual(dialogs.consentAsked, 0);
      assert.strictEqual(models.requests.length, 0);
    });

    if (modern) {
      it('several rounds: each question answered, then the result', async () => {
        await start({ FIXTURE_ASK_ROUNDS: '3' });
        ui.answer = () => ({ action: 'accept', values: { ok: true } });
        const r = await call('ask', { mode: 'form', message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
        assert.strictEqual(r.rounds, 3);
        assert.strictEqual(ui.forms.length, 3);
      });

      it(`a server that never stops asking is stopped after ${MAX_INPUT_ROUNDS} rounds`, async () => {
        await start({ FIXTURE_ASK_ROUNDS: '1000' });
        elicitationRate = 1000;
        ui.answer = () => ({ action: 'accept', values: {} });
        const params = { mode: 'form', message: 'Again?', requestedSchema: { type: 'object', properties: {} } };
        await assert.rejects(() => client.callTool({ name: 'ask', arguments: { params } }), new RegExp(`after ${MAX_INPUT_ROUNDS} rounds`));
        assert.strictEqual(ui.forms.length, MAX_INPUT_ROUNDS);
      });
    }
  });
}
