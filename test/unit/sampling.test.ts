import * as assert from 'assert';
import type { ServerSession } from '../../src/core/host/serverSession';
import { InteractionQueue } from '../../src/core/host/interactionQueue';
import { RateLimiter } from '../../src/core/common/rateLimiter';
import type { LanguageModel, LanguageModelCatalog, LanguageModelInfo, ModelRequest, ModelResponsePart } from '../../src/core/features/languageModel';
import { modelTraits, selectModel } from '../../src/core/features/sampling/modelSelection.lazy';
import { SamplingFeature, type SamplingSettings } from '../../src/core/features/sampling/samplingFeature.lazy';
import { type SamplingAnswer, type SamplingDialogs, type SamplingQuestion, type SamplingReviewAnswer } from '../../src/core/features/sampling/samplingQuestions';
import { foldForDialog } from '../../src/core/presentation/foldedText';
import { describeServerContext } from '../../src/core/features/sampling/serverContext';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { samplingQuestionText, samplingReviewText } from '../../src/core/features/sampling/samplingQuestionText';
import { everythingServer, fixtureServer } from './helpers';
import { MemoryStore, createKit, startUserServer, type Kit } from './hostTestKit';

const model = (id: string, family = id, vendor = 'v', name = id): LanguageModelInfo => ({
  id,
  family,
  vendor,
  name,
  capabilities: { acceptsImages: true, acceptsTools: true },
});

describe('sampling: model selection', () => {
  const gpt4o = model('gpt-4o', 'gpt-4o', 'copilot', 'GPT-4o');
  const gpt4oMini = model('gpt-4o-mini', 'gpt-4o-mini', 'copilot', 'GPT-4o mini');
  const sonnet = model('claude-3.5-sonnet', 'claude-3.5-sonnet', 'copilot', 'Claude 3.5 Sonnet');
  const haiku = model('claude-3-haiku', 'claude-3-haiku', 'anthropic', 'Claude 3 Haiku');
  const all = [gpt4o, gpt4oMini, sonnet, haiku];

  it('follows hints as substrings of id, family or name, in the server\'s order', () => {
    assert.strictEqual(selectModel(all, { hints: [{ name: 'sonnet' }] }).model, sonnet);
    assert.strictEqual(selectModel(all, { hints: [{ name: 'gemini' }, { name: 'HAIKU' }, { name: 'gpt' }] }).model, haiku, 'first matching hint wins');
    assert.strictEqual(selectModel(all, { hints: [{ name: 'Claude 3 Haiku' }] }).model, haiku, 'display names match too');
    assert.match(selectModel(all, { hints: [{ name: 'sonnet' }] }).reason, /hint "sonnet"/);
  });

  it("breaks ties among a hint's matches by the server's priorities", () => {
    const claude = { hints: [{ name: 'claude' }] };
    assert.strictEqual(selectModel(all, claude).model, sonnet, 'no priorities: first in the editor\'s order');
    assert.strictEqual(selectModel(all, { ...claude, speedPriority: 1 }).model, haiku);
    assert.strictEqual(selectModel(all, { ...claude, costPriority: 0.9, intelligencePriority: 0.1 }).model, haiku);
    assert.strictEqual(selectModel(all, { ...claude, intelligencePriority: 1 }).model, sonnet);
    assert.strictEqual(selectModel(all, { hints: [{ name: 'gpt-4o' }], costPriority: 1 }).model, gpt4oMini);
  });

  it('without a matching hint: pinned model, else priorities, else the default (first) model', () => {
    assert.strictEqual(selectModel(all, undefined).model, gpt4o);
    assert.match(selectModel(all, { hints: [{ name: 'llama' }] }).reason, /default/);
    assert.strictEqual(selectModel(all, { intelligencePriority: 1 }).model, sonnet);
    assert.strictEqual(selectModel(all, { speedPriority: 1 }).model, gpt4oMini);
    assert.strictEqual(selectModel(all, { speedPriority: 1 }, ['claude-3.5-sonnet']).model, sonnet, 'a pin beats priorities');
  });

  it('only offers pinned models when the user pinned some, in the pinned order', () => {
    const pins = ['anthropic/claude-3-haiku', 'gpt-4o'];
    assert.strictEqual(selectModel(all, undefined, pins).model, haiku);
    assert.strictEqual(selectModel(all, { hints: [{ name: 'gpt' }] }, pins).model, gpt4o, 'hints choose among pinned models only');
    assert.strictEqual(selectModel(all, { hints: [{ name: 'sonnet' }] }, pins).model, haiku, 'an unpinned hint match is not used');
    const none = selectModel(all, undefined, ['o1']);
    assert.strictEqual(none.model, undefined);
    assert.match(none.reason, /none of the models allowed for this server \(o1\)/);
  });

  it('reports no model at all', () => {
    const r = selectModel([], { hints: [{ name: 'x' }] });
    assert.strictEqual(r.model, undefined);
    assert.match(r.reason, /no language model is available/);
  });

  it('reads rough traits from model names', () => {
    assert.ok(modelTraits(gpt4oMini).speed > modelTraits(gpt4o).speed);
    assert.ok(modelTraits(sonnet).intelligence > modelTraits(haiku).intelligence);
    assert.ok(modelTraits(haiku).cost < modelTraits(model('claude-opus-4')).cost);
  });
});

describe('sampling: rate limiter', () => {
  it('allows `limit` requests per key in a sliding minute', () => {
    let now = 0;
    const limiter = new RateLimiter(60_000, () => now);
    for (const t of [0, 10_000, 20_000]) {
      now = t;
      assert.ok(limiter.tryAcquire('a', 3).ok);
    }
    now = 30_000;
    assert.deepStrictEqual(limiter.tryAcquire('a', 3), { ok: false, retryAfterMs: 30_000 });
    assert.ok(limiter.tryAcquire('b', 3).ok, 'keys are independent');
    now = 60_000;
    assert.ok(limiter.tryAcquire('a', 3).ok, 'the oldest slot freed up');
    assert.deepStrictEqual(limiter.tryAcquire('a', 3), { ok: false, retryAfterMs: 10_000 }, 'refusals take no slot');
  });
});

class FakeModels implements LanguageModelCatalog {
  available: LanguageModelInfo[] = [model('fake-model', 'fake', 'fake-vendor', 'Fake Model')];
  requests: ModelRequest[] = [];
  reply: (r: ModelRequest) => ModelResponsePart[] = (r) => {
    const last = r.messages.at(-1)!.parts.find((p) => p.kind === 'text') as { text: string };
    return [{ kind: 'text', text: `echo: ${last.text}` }];
  };
  async list() {
    return this.available;
  }
  async get(info: LanguageModelInfo): Promise<LanguageModel> {
    const requests = this.requests;
    const reply = (r: ModelRequest) => this.reply(r);
    return {
      info,
      async *send(r: ModelRequest) {
        requests.push(r);
        yield* reply(r);
      },
      async countTokens(text: string) {
        return Math.ceil(text.length / 4);
      },
    };
  }
}

class FakeDialogs implements SamplingDialogs {
  consent: (SamplingAnswer | undefined)[] = [];
  review: (SamplingReviewAnswer | undefined)[] = [];
  text: ((value: string | undefined) => string | undefined)[] = [];
  consentAsked: SamplingQuestion[] = [];
  reviewAsked: string[] = [];
  textAsked: string[] = [];
  async confirmSampling(q: SamplingQuestion) {
    this.consentAsked.push(q);
    return this.consent.shift();
  }
  async reviewSamplingResponse(q: { responseText: string }) {
    this.reviewAsked.push(q.responseText);
    return this.review.shift();
  }
  async inputText(q: { title: string; value?: string }) {
    this.textAsked.push(q.title);
    return (this.text.shift() ?? ((v) => v))(q.value);
  }
}

describe('sampling: the feature against real servers', function () {
  this.timeout(60_000);
  let kit: Kit;
  let models: FakeModels;
  let dialogs: FakeDialogs;
  let permissions: PermissionStore;
  let settings: SamplingSettings;
  let notices: string[];
  let activeToolCalls: ActiveToolCalls;
  /** The server's tools switched off (in its entry or the Servers view), by name. */
  let switchedOff: Set<string>;

  const start = (name: string, script: string, env: Record<string, string> = {}) => startUserServer(kit, name, script, env);

  beforeEach(() => {
    models = new FakeModels();
    dialogs = new FakeDialogs();
    permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    settings = { enabled: true, rateLimitPerMinute: 10, maxTokens: 1000, pinnedModels: [], allowedContext: 'none', allowTools: true };
    notices = [];
    activeToolCalls = new ActiveToolCalls();
    switchedOff = new Set();
    const feature = new SamplingFeature({
      settings: () => settings,
      models,
      dialogs,
      permissions,
      activeToolCalls,
      queue: new InteractionQueue(),
      notifyUser: (m) => notices.push(m),
      describeContext: (id, scope) => describeServerContext(kit.manager.servers(), id, scope),
      toolSwitchedOff: (definition, tool) => definition.name === 'asking' && switchedOff.has(tool),
    });
    kit = createKit({ features: [feature] });
  });

  afterEach(async () => kit?.manager.disposeAsync());

  const triggerSampling = async (client: ServerSession, prompt = 'hello') =>
    JSON.stringify(await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt, maxTokens: 100 } }));

  it('asks once ("Send Once"): no edit box, no review, and the server gets the model\'s text', async () => {
    const { client } = await start('everything', everythingServer);
    dialogs.consent.push('once');
    const result = await triggerSampling(client);
    assert.strictEqual(dialogs.consentAsked.length + dialogs.textAsked.length + dialogs.reviewAsked.length, 1, 'one question for one request');
    assert.strictEqual(models.requests.length, 1);
    assert.match(result, /echo: Resource trigger-sampling-request context: hello\\+"/);
    // What the user reads: one dialog, each button saying what it does, Escape the same as "Don't Send".
    const shown = samplingQuestionText(dialogs.consentAsked[0]);
    assert.strictEqual(shown.message, 'The MCP server "everything" wants to ask Fake Model something');
    assert.deepStrictEqual(shown.buttons.map((b) => `${b.label} = ${b.answer}`), ['Send Once = once', 'Always Send for This Server = always', 'Edit, Then Send… = edit', "Don't Send = deny"]);
    assert.ok(shown.buttons.length <= 4);
    for (const b of shown.buttons) assert.match(shown.detail, new RegExp(`^${b.label.replace('…', '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\w`, 'm'), `"${b.label}" is explained`);
    assert.match(shown.detail, /The request:\nModel: Fake Model/);
    assert.doesNotMatch(`${shown.message}\n${shown.detail}`, /\b(Deny|Reject|Cancel)\b/);
  });

  it('"Edit, Then Send…": the text is edited, sent, and the answer goes back without another question', async () => {
    const { client } = await start('everything', everythingServer);
    dialogs.consent.push('edit');
    dialogs.text.push((v) => v!.replace('hello', 'hello, edited'));
    const result = await triggerSampling(client);
    assert.strictEqual(dialogs.consentAsked.length, 1);
    assert.strictEqual(dialogs.textAsked.length, 1);
    assert.strictEqual(dialogs.reviewAsked.length, 0);
    const q = dialogs.consentAsked[0];
    assert.strictEqual(q.serverName, 'everything');
    assert.match(q.detail, /Model: Fake Model \(fake-vendor\/fake-model\)/);
    assert.match(q.detail, /max tokens 100, temperature 0.7/);
    assert.match(q.detail, /System prompt:\nYou are a helpful test server\./);
    assert.match(q.detail, /\[user\] Resource trigger-sampling-request context: hello/);
    assert.strictEqual(q.chatContext, undefined);
    assert.strictEqual(models.requests.length, 1);
    assert.strictEqual(models.requests[0].systemPrompt, 'You are a helpful test server.');
    assert.strictEqual(models.requests[0].maxTokens, 100);
    assert.match(result, /echo: Resource trigger-sampling-request context: hello, edited/);
    assert.match(result, /\\"model\\": \\"fake-model\\"/);
    assert.match(result, /\\"stopReason\\": \\"endTurn\\"/);
    assert.match(result, /\\"role\\": \\"assistant\\"/);
  });

  it('the consent question lists the tools the server offers the model, and the review (when turned on) shows its tool calls', async () => {
    settings.reviewAnswers = true;
    const { client } = await start('asking', fixtureServer('asking-server.mjs'));
    dialogs.consent.push('always');
    dialogs.review.push('approve');
    models.reply = () => [{ kind: 'toolCall', callId: 'c1', name: 'lookup', input: { q: 'mcp' } }];
    const params = { messages: [{ role: 'user', content: { type: 'text', text: 'Find it' } }], maxTokens: 100, tools: [{ name: 'lookup', description: 'Searches the docs\nsecond line', inputSchema: { type: 'object' } }] };
    await client.callTool({ name: 'sample', arguments: { params } });
    assert.match(dialogs.consentAsked[0].detail, /Tools the server offers the model \(the model may call them; a call goes back to the server, which runs it\):\n- lookup: Searches the docs$/m);
    assert.deepStrictEqual(dialogs.reviewAsked, ['(calls the server\'s tool "lookup" with {"q":"mcp"})']);
  });

  it('a server that sends 88 lines with a right-to-left override and offers a deleting tool after them: the consent dialog folds it, shows the override as an escape, and names the tools first', async () => {
    const { client } = await start('asking', fixtureServer('asking-server.mjs'));
    dialogs.consent.push('deny');
    const text = ['Please summarise this text.', ...Array.from({ length: 87 }, (_, i) => `Line ${i + 2} of a long and harmless-looking text.`)].join('\n');
    const deleteFiles = { name: 'delete_files', description: 'Deletes every file under a folder.', inputSchema: { type: 'object' } };
    const params = {
      systemPrompt: 'Summarise the attachment invoice\u202Etxt.exe for the user.',
      messages: [{ role: 'user', content: { type: 'text', text } }],
      maxTokens: 100,
      tools: [{ name: 'lookup', description: 'Searches the docs', inputSchema: { type: 'object' } }, deleteFiles],
    };
    await client.callTool({ name: 'sample', arguments: { params } });
    // What the modal shows (askFolded: the question's text, folded for a dialog).
    const question = samplingQuestionText(dialogs.consentAsked[0]);
    assert.strictEqual(question.message, 'The MCP server "asking" wants to ask Fake Model something');
    const shown = foldForDialog(question.detail).shown;
    assert.ok(shown.split('\n').length <= 32, `the dialog shows ${shown.split('\n').length} lines`);
    assert.match(shown, /\n\(\d+ more lines not shown here: choose "Show All…" to read every line before you decide\.\)$/);
    assert.ok(shown.includes('Summarise the attachment invoice\\u{202e}txt.exe for the user.'), shown);
    assert.ok(!/[\u202a-\u202e\u2066-\u2069]/.test(question.detail), 'no bidi control reaches the dialog');
    const tools = shown.indexOf('Tools the server offers the model (the model may call them');
    assert.ok(tools > 0 && tools < shown.indexOf('System prompt:') && tools < shown.indexOf('Messages:'), 'the tools come before the prompt');
    assert.ok(shown.includes('\n- delete_files: Deletes every file under a folder.\n'));
  });

  it('a model answer of 60 lines with a right-to-left override, led by the server\'s request: the review dialog folds it and shows the override as an escape', async () => {
    settings.reviewAnswers = true;
    const { client } = await start('asking', fixtureServer('asking-server.mjs'));
    dialogs.consent.push('once');
    dialogs.review.push('reject');
    const answer = ['Approved: open invoice\u202Etxt.exe now.', ...Array.from({ length: 59 }, (_, i) => `Line ${i + 2} of the answer.`)].join('\n');
    models.reply = () => [{ kind: 'text', text: answer }];
    await client.callTool({ name: 'sample', arguments: { params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say it' } }], maxTokens: 1000 } } });
    // What the modal shows (askFolded: the review's text, folded for a dialog).
    const review = samplingReviewText({ serverName: 'asking', modelName: 'Fake Model', responseText: dialogs.reviewAsked[0] });
    const shown = foldForDialog(review.detail).shown;
    assert.ok(shown.split('\n').length <= 32, `the dialog shows ${shown.split('\n').length} lines`);
    assert.match(shown, /\n\(\d+ more lines not shown here: choose "Show All…" to read every line before you decide\.\)$/);
    assert.ok(shown.includes('Approved: open invoice\\u{202e}txt.exe now.\nLine 2 of the answer.'), shown);
    assert.ok(!/[\u202a-\u202e\u2066-\u2069]/.test(review.detail), 'no bidi control reaches the dialog');
  });

  it('a denied or dismissed request gives the server an error, and no model is called', async () => {
    const { client } = await start('everything', everythingServer);
    dialogs.consent.push('deny', undefined);
    assert.match(await triggerSampling(client), /denied the sampling request/);
    assert.match(await triggerSampling(client), /denied the sampling request/);
    assert.strictEqual(models.requests.length, 0);
    assert.strictEqual(permissions.list().length, 0, 'a denial is not remembered');
  });

  it('a server that floods sampling requests after "Always deny": it gets errors, the user is never asked again, until the decision is revoked', async () => {
    const { subject, client } = await start('everything', everythingServer);
    dialogs.consent.push('never');
    assert.match(await triggerSampling(client), /denied the sampling request/);
    for (let i = 0; i < 3; i++) assert.match(await triggerSampling(client), /denied sampling for this server/);
    assert.strictEqual(dialogs.consentAsked.length, 1, 'asked once');
    assert.strictEqual(models.requests.length, 0);
    assert.strictEqual(permissions.get('sampling', subject)?.decision, 'deny');
    await permissions.reset('sampling');
    dialogs.consent.push('deny');
    await triggerSampling(client);
    assert.strictEqual(dialogs.consentAsked.length, 2, 'asked again once revoked');
  });

  it('"Always allow" is remembered per server in the permission store and skips consent and prompt edit', async () => {
    settings.reviewAnswers = true;
    const { subject, client } = await start('everything', everythingServer);
    dialogs.consent.push('always');
    dialogs.review.push('approve', 'approve');
    await triggerSampling(client, 'one');
    assert.match(await triggerSampling(client, 'two'), /echo: .*two/);
    assert.strictEqual(dialogs.consentAsked.length, 1);
    assert.deepStrictEqual(dialogs.textAsked, [], 'no prompt edit once always allowed');
    assert.strictEqual(dialogs.reviewAsked.length, 2, 'responses are still reviewed when the user asked for it');
    assert.strictEqual(permissions.get('sampling', subject)?.decision, 'allow');
    assert.match(permissions.get('sampling', subject)!.label, /everything/);
  });

  it('asks again, and reviews again, once the server\'s definition was edited under the same name', async () => {
    settings.reviewAnswers = true;
    const first = await start('everything', everythingServer);
    dialogs.consent.push('always');
    dialogs.review.push('approve-always');
    await triggerSampling(first.client);
    const edited = await start('everything', everythingServer, { EDITED: '1' });
    assert.strictEqual(edited.id, first.id, 'same name, same id');
    assert.notStrictEqual(edited.subject, first.subject);
    dialogs.consent.push('deny');
    assert.match(await triggerSampling(edited.client), /denied the sampling request/);
    assert.strictEqual(dialogs.consentAsked.length, 2);
    await permissions.set({ kind: 'sampling', key: edited.subject, label: 'x', decision: 'allow', scope: 'global' });
    dialogs.review.push('approve');
    await triggerSampling(edited.client);
    assert.strictEqual(dialogs.reviewAsked.length, 2, '"stop reviewing" was for the old definition');
  });

  it('response review (turned on): reject sends an error, edit sends the edited text, approve-always stops reviewing', async () => {
    settings.reviewAnswers = true;
    const { subject, client } = await start('everything', everythingServer);
    await permissions.set({ kind: 'sampling', key: subject, label: 'x', decision: 'allow', scope: 'global' });
    dialogs.review.push('reject');
    assert.match(await triggerSampling(client), /rejected the model's response/);
    dialogs.review.push('edit');
    dialogs.text.push(() => 'a better answer');
    assert.match(await triggerSampling(client), /a better answer/);
    dialogs.review.push('approve-always');
    await triggerSampling(client);
    assert.match(await triggerSampling(client, 'unreviewed'), /echo: .*unreviewed/);
    assert.strictEqual(dialogs.reviewAsked.length, 3);
    assert.strictEqual(permissions.get('sampling-review', subject)?.decision, 'skip');
    // What the user reads when reviewing: three buttons, each explained.
    const shown = samplingReviewText({ serverName: 'everything', modelName: 'Fake Model', responseText: 'an answer' });
    assert.deepStrictEqual(shown.buttons.map((b) => b.label), ['Send Answer', 'Edit Answer…', "Don't Send Answer"]);
    assert.match(shown.detail, /^Don't Send Answer: the server is told that you declined\.$/m);
  });

  it('refuses requests over the rate limit or the maxTokens cap with errors, not dialogs', async () => {
    const { subject, client } = await start('everything', everythingServer);
    await permissions.set({ kind: 'sampling', key: subject, label: 'x', decision: 'allow', scope: 'global' });
    await permissions.set({ kind: 'sampling-review', key: subject, label: 'x', decision: 'skip', scope: 'global' });
    settings.rateLimitPerMinute = 2;
    await triggerSampling(client);
    await triggerSampling(client);
    assert.match(await triggerSampling(client), /Rate limit: at most 2 sampling requests per minute/);
    assert.strictEqual(models.requests.length, 2);
    settings.rateLimitPerMinute = 100;
    settings.maxTokens = 50;
    assert.match(await triggerSampling(client), /maxTokens 100 exceeds the user's limit of 50/);
    assert.strictEqual(models.requests.length, 2);
    assert.strictEqual(dialogs.consentAsked.length, 0);
  });

  it('without a model: an error to the server and a message to the user', async () => {
    const { client } = await start('everything', everythingServer);
    models.available = [];
    assert.match(await triggerSampling(client), /No model available: no language model is available/);
    assert.deepStrictEqual(notices, ['MCP server "everything" asked for a language model, but no language model is available.']);
    models.available = [model('gpt-4o')];
    settings.pinnedModels = ['claude-opus'];
    assert.match(await triggerSampling(client), /none of the models allowed for this server \(claude-opus\) is available/);
    assert.strictEqual(notices.length, 2);
    assert.strictEqual(dialogs.consentAsked.length, 0, 'nothing to consent to');
  });

  it('ties a request to the chat request whose tool is running', async () => {
    const { id, client } = await start('everything', everythingServer);
    const end = activeToolCalls.begin({ serverId: id, toolName: 'trigger-sampling-request', origin: 'your chat request "summarize"' });
    dialogs.consent.push('deny');
    await triggerSampling(client);
    end();
    assert.strictEqual(dialogs.consentAsked[0].chatContext, 'It asks this while its tool "trigger-sampling-request" runs, called from your chat request "summarize".');
    assert.match(samplingQuestionText(dialogs.consentAsked[0]).detail, /^It asks this while its tool "trigger-sampling-request" runs, called from your chat request "summarize"\. Nothing is sent to Fake Model unless you choose to/);
  });

  it('does not declare sampling to a server it is turned off for', async () => {
    settings.enabled = false;
    const info = await start('everything', everythingServer);
    const tools = kit.manager.servers().find((s) => s.id === info.id)!.features.tools.map((t) => t.name);
    assert.ok(tools.includes('echo'));
    assert.ok(!tools.includes('trigger-sampling-request'), 'server-everything offers the trigger only when sampling is declared');
  });

  describe('mapping (requests sent by the asking fixture)', () => {
    let client: ServerSession;
    let id: string;
    let subject: string;
    const sample = async (params: object) => {
      const r = (await client.callTool({ name: 'sample', arguments: { params } })) as { content: { text: string }[] };
      return JSON.parse(r.content[0].text) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
    };
    const base = { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 100 };

    beforeEach(async () => {
      ({ id, subject, client } = await start('asking', fixtureServer('asking-server.mjs')));
      await permissions.set({ kind: 'sampling', key: subject, label: 'x', decision: 'allow', scope: 'global' });
      await permissions.set({ kind: 'sampling-review', key: subject, label: 'x', decision: 'skip', scope: 'global' });
    });

    it('declares sampling (with context only when the user allows context)', async () => {
      const declared = async () => JSON.parse(((await client.callTool({ name: 'capabilities', arguments: {} })) as { content: { text: string }[] }).content[0].text);
      assert.deepStrictEqual((await declared()).sampling, { tools: {} });
      settings.allowedContext = 'thisServer';
      settings.allowTools = false;
      await kit.manager.get(id)!.restart();
      client = kit.manager.session(id);
      assert.deepStrictEqual((await declared()).sampling, { context: {} }, 'tools declared only when the user allows them');
    });

    it('cuts at a stop sequence and at maxTokens, with the matching stopReason', async () => {
      models.reply = () => [{ kind: 'text', text: 'one two STOP three' }];
      assert.deepStrictEqual((await sample({ ...base, stopSequences: ['STOP'] })).result, {
        role: 'assistant',
        model: 'fake-model',
        stopReason: 'stopSequence',
        content: { type: 'text', text: 'one two ' },
      });
      models.reply = () => [{ kind: 'text', text: 'x'.repeat(400) }];
      const long = (await sample({ ...base, maxTokens: 10 })).result!;
      assert.strictEqual(long.stopReason, 'maxTokens');
      assert.strictEqual((long.content as { text: string }).text.length, 40);
    });

    it('passes images to the model and maps an image answer', async () => {
      const image = { type: 'image', data: Buffer.from('png-bytes').toString('base64'), mimeType: 'image/png' };
      const bytes = new Uint8Array(Buffer.from('png-bytes'));
      models.reply = () => [{ kind: 'image', data: bytes, mimeType: 'image/png' }];
      const r = await sample({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, image] }] });
      assert.deepStrictEqual(models.requests[0].messages[0].parts[1], { kind: 'image', data: bytes, mimeType: 'image/png' });
      assert.deepStrictEqual(r.result?.content, image);
    });

    it('chooses the model from the hints of the request', async () => {
      models.available = [model('gpt-4o'), model('claude-3-haiku'), model('claude-3.5-sonnet')];
      const r = await sample({ ...base, modelPreferences: { hints: [{ name: 'claude' }], intelligencePriority: 0.9 } });
      assert.strictEqual(r.result?.model, 'claude-3.5-sonnet');
    });

    it('refuses audio content and tool use with -32602', async () => {
      const audio = await sample({ ...base, messages: [{ role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } }] });
      assert.strictEqual(audio.error?.code, -32602);
      assert.match(audio.error!.message, /audio content is not supported/);
      assert.strictEqual(models.requests.length, 0);
    });

    const weather = { name: 'get_weather', description: 'Weather for a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

    it('offers the server\'s tools to the model and sends its tool calls back as tool_use, stopped for toolUse', async () => {
      models.reply = () => [
        { kind: 'text', text: 'Let me look.' },
        { kind: 'toolCall', callId: 'call-1', name: 'get_weather', input: { city: 'Paris' } },
      ];
      const r = await sample({ ...base, tools: [weather], toolChoice: { mode: 'required' } });
      assert.deepStrictEqual(models.requests[0].tools, [{ name: 'get_weather', description: 'Weather for a city', inputSchema: weather.inputSchema }]);
      assert.strictEqual(models.requests[0].toolMode, 'required');
      assert.deepStrictEqual(r.result, {
        role: 'assistant',
        model: 'fake-model',
        stopReason: 'toolUse',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      });
    });

    it('leaves out the tools of the server that are switched off (its entry, the Servers view)', async () => {
      switchedOff.add('get_weather');
      const other = { name: 'get_time', description: 'The time', inputSchema: { type: 'object' } };
      await sample({ ...base, tools: [weather, other] });
      assert.deepStrictEqual(models.requests[0].tools?.map((t) => t.name), ['get_time']);
    });

    it('gives the model the tool results the server sends back, and its answer goes to the server as text', async () => {
      models.reply = () => [{ kind: 'text', text: 'It is sunny in Paris.' }];
      const messages = [
        { role: 'user', content: { type: 'text', text: 'Weather in Paris?' } },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call-1', content: [{ type: 'text', text: 'sunny, 21 C' }] }] },
      ];
      const r = await sample({ ...base, messages, tools: [weather] });
      const sent = models.requests[0].messages;
      assert.deepStrictEqual(sent[1].parts, [{ kind: 'toolCall', callId: 'call-1', name: 'get_weather', input: { city: 'Paris' } }]);
      assert.deepStrictEqual(sent[2].parts, [{ kind: 'toolResult', callId: 'call-1', content: [{ kind: 'text', text: 'sunny, 21 C' }] }]);
      assert.strictEqual(models.requests[0].toolMode, 'auto');
      assert.deepStrictEqual(r.result?.content, { type: 'text', text: 'It is sunny in Paris.' });
      assert.strictEqual(r.result?.stopReason, 'endTurn');
    });

    it('offers no tools for toolChoice "none", and refuses tools the user turned off or a model cannot take', async () => {
      await sample({ ...base, tools: [weather], toolChoice: { mode: 'none' } });
      assert.strictEqual(models.requests[0].tools, undefined);
      const badName = await sample({ ...base, tools: [{ ...weather, name: 'get weather!' }] });
      assert.strictEqual(badName.error?.code, -32602);
      models.available = [{ ...models.available[0], capabilities: { acceptsImages: true, acceptsTools: false } }];
      assert.match((await sample({ ...base, tools: [weather] })).error!.message, /does not take tools/);
      settings.allowTools = false;
      const off = await sample({ ...base, tools: [weather] });
      assert.strictEqual(off.error?.code, -32602);
      assert.match(off.error!.message, /turned off \(setting mcpHost.sampling.allowTools\)/);
      assert.strictEqual(models.requests.length, 1, 'no refused request reached a model');
    });

    it('honours includeContext only as far as the user allows', async () => {
      await sample({ ...base, systemPrompt: 'Be brief.', includeContext: 'allServers' });
      assert.strictEqual(models.requests[0].systemPrompt, 'Be brief.', 'allowedContext "none": nothing added');
      settings.allowedContext = 'thisServer';
      await sample({ ...base, systemPrompt: 'Be brief.', includeContext: 'allServers' });
      assert.match(models.requests[1].systemPrompt!, /^Be brief\.\n\nContext from MCP servers:\nServer "asking" \(asking-server 1\.0\.0\)\n- tool ask: /);
      await sample({ ...base, includeContext: 'none' });
      assert.strictEqual(models.requests[2].systemPrompt, undefined);
    });
  });
});
