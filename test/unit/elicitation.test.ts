import * as assert from 'assert';
import type { ServerSession } from '../../src/core/host/serverSession';
import { ElicitationFeature, type ElicitationUi, type FormRequest, type UrlRequest } from '../../src/core/features/elicitation/elicitationFeature.lazy';
import { defaultsOf } from '../../src/core/features/elicitation/formModel.lazy';
import { type FormOutcome } from '../../src/core/features/elicitation/form';
import { InteractionQueue } from '../../src/core/host/interactionQueue';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { everythingServer, fixtureServer, sleep } from './helpers';
import { MemoryStore, createKit, startUserServer, type Kit } from './hostTestKit';

class FakeUi implements ElicitationUi {
  forms: FormRequest[] = [];
  urls: UrlRequest[] = [];
  opened: string[] = [];
  answer: (r: FormRequest) => FormOutcome | Promise<FormOutcome> = () => ({ action: 'cancel' });
  urlAnswer: boolean | undefined = undefined;
  async askForm(r: FormRequest) {
    this.forms.push(r);
    return this.answer(r);
  }
  async confirmOpenUrl(r: UrlRequest) {
    this.urls.push(r);
    return this.urlAnswer;
  }
  async openUrl(url: string) {
    this.opened.push(url);
    return true;
  }
}

describe('elicitation against real servers', function () {
  this.timeout(60_000);
  let kit: Kit;
  let ui: FakeUi;
  let permissions: PermissionStore;
  let enabled: boolean;
  let rateLimit: number;
  let activeToolCalls: ActiveToolCalls;

  beforeEach(() => {
    ui = new FakeUi();
    permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    enabled = true;
    rateLimit = 10;
    activeToolCalls = new ActiveToolCalls();
    const feature = new ElicitationFeature({
      enabled: () => enabled,
      rateLimitPerMinute: () => rateLimit,
      ui,
      permissions,
      activeToolCalls,
      queue: new InteractionQueue(),
    });
    kit = createKit({ features: [feature] });
  });

  afterEach(async () => kit?.manager.disposeAsync());

  const start = (name: string, script: string, env: Record<string, string> = {}) => startUserServer(kit, name, script, env);

  const text = (r: unknown) => (r as { content: { text: string }[] }).content.map((c) => c.text).join('\n');
  const trigger = async (client: ServerSession) => text(await client.callTool({ name: 'trigger-elicitation-request', arguments: {} }));

  it('accept: the form is built from the requested schema and the server receives the values', async () => {
    const { client } = await start('everything', everythingServer);
    ui.answer = (r) => ({ action: 'accept', values: { ...defaultsOf(r.form), name: 'Ada Lovelace', check: true, integer: 7 } });
    const result = await trigger(client);
    const form = ui.forms[0];
    assert.strictEqual(form.serverName, 'everything');
    assert.strictEqual(form.message, 'Please provide inputs for the following fields:');
    assert.strictEqual(form.form.fields.length, 13);
    assert.deepStrictEqual(
      form.form.fields.filter((f) => f.required).map((f) => f.name),
      ['name'],
    );
    assert.match(result, /✅ User provided the requested information!/);
    assert.match(result, /- Name: Ada Lovelace/);
    assert.match(result, /- Agreed to terms: true/);
    assert.match(result, /- Favorite Integer: 7/);
    assert.match(result, /- Favorite Number: 3.14/);
    const raw = JSON.parse(result.slice(result.indexOf('Raw result: ') + 'Raw result: '.length));
    assert.deepStrictEqual(raw.content.titledMultipleSelectEnum, ['fish-1']);
    assert.strictEqual(raw.action, 'accept');
  });

  it('decline and cancel reach the server as such, without content', async () => {
    const { client } = await start('everything', everythingServer);
    ui.answer = () => ({ action: 'decline' });
    const declined = await trigger(client);
    assert.match(declined, /❌ User declined/);
    assert.doesNotMatch(declined, /"content"/);
    ui.answer = () => ({ action: 'cancel' });
    assert.match(await trigger(client), /⚠️ User cancelled/);
    assert.strictEqual(permissions.list().length, 0);
  });

  it('"decline and stop asking" is remembered: later requests are declined without a form', async () => {
    const { subject, client } = await start('everything', everythingServer);
    ui.answer = () => ({ action: 'decline', always: true });
    await trigger(client);
    assert.strictEqual(permissions.get('elicitation', subject)?.decision, 'deny');
    assert.match(await trigger(client), /❌ User declined/);
    assert.strictEqual(ui.forms.length, 1);
    await permissions.remove('elicitation', subject);
    ui.answer = () => ({ action: 'cancel' });
    assert.match(await trigger(client), /cancelled/);
    assert.strictEqual(ui.forms.length, 2, 'asked again once revoked');
  });

  it('a decision about a server is about its definition: an edited one is asked again', async () => {
    const first = await start('everything', everythingServer);
    ui.answer = () => ({ action: 'decline', always: true });
    await trigger(first.client);
    const edited = await start('everything', everythingServer, { EDITED: '1' });
    assert.notStrictEqual(edited.subject, first.subject);
    ui.answer = () => ({ action: 'cancel' });
    assert.match(await trigger(edited.client), /cancelled/);
    assert.strictEqual(ui.forms.length, 2);
  });

  it('an answer that breaks the schema never reaches the server', async () => {
    const { client } = await start('everything', everythingServer);
    ui.answer = (r) => ({ action: 'accept', values: { ...defaultsOf(r.form), name: 'Ada', integer: 1000 } });
    assert.match(await trigger(client), /invalid answer: Integer must be at most 100/);
  });

  it('names the chat request whose tool is running', async () => {
    const { id, client } = await start('everything', everythingServer);
    const end = activeToolCalls.begin({ serverId: id, toolName: 'trigger-elicitation-request', origin: 'your chat request "fill the form"' });
    await trigger(client);
    end();
    assert.strictEqual(ui.forms[0].chatContext, 'It asks this while its tool "trigger-elicitation-request" runs, called from your chat request "fill the form".');
  });

  it('shows one form at a time', async () => {
    const { client } = await start('everything', everythingServer);
    let open = 0;
    let maxOpen = 0;
    ui.answer = async () => {
      maxOpen = Math.max(maxOpen, ++open);
      await sleep(200);
      open--;
      return { action: 'cancel' };
    };
    await Promise.all([trigger(client), trigger(client), trigger(client)]);
    assert.strictEqual(ui.forms.length, 3);
    assert.strictEqual(maxOpen, 1);
  });

  it('URL mode: shows the domain, opens only after the user agreed; decline and cancel distinct', async () => {
    const { client, tools } = await start('everything', everythingServer);
    assert.ok(tools.includes('trigger-url-elicitation'), 'URL mode is declared');
    const open = async () =>
      text(await client.callTool({ name: 'trigger-url-elicitation', arguments: { url: 'https://login.example.com/device?code=42', message: 'Sign in' } }));
    ui.urlAnswer = false;
    assert.match(await open(), /declined to open the URL/);
    ui.urlAnswer = undefined;
    assert.match(await open(), /cancelled the URL elicitation/);
    assert.deepStrictEqual(ui.opened, [], 'nothing opened without consent');
    ui.urlAnswer = true;
    assert.match(await open(), /completed the URL elicitation/);
    assert.deepStrictEqual(ui.opened, ['https://login.example.com/device?code=42']);
    assert.deepStrictEqual(
      ui.urls.map((u) => [u.serverName, u.domain, u.message]),
      Array(3).fill(['everything', 'login.example.com', 'Sign in']),
    );
  });

  describe('requests only a misbehaving server sends (asking fixture)', () => {
    let client: ServerSession;
    const ask = async (params: object) => JSON.parse(text(await client.callTool({ name: 'ask', arguments: { params } })));

    beforeEach(async () => {
      ({ client } = await start('asking', fixtureServer('asking-server.mjs')));
    });

    it('declares form and URL mode', async () => {
      const caps = JSON.parse(text(await client.callTool({ name: 'capabilities', arguments: {} })));
      assert.deepStrictEqual(caps.elicitation, { form: {}, url: {} });
    });

    it('answers a schema outside the allowed subset with -32602 and never shows it', async () => {
      const schemas = [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] },
        { type: 'object', properties: { a: { type: 'string', enum: ['x'], enumNames: ['X', 'Y'] } } },
        { type: 'object', properties: { a: { type: 'string', minLength: 5, maxLength: 1 } } },
        { type: 'object', properties: { address: { type: 'object', properties: { street: { type: 'string' } } } } },
        { type: 'object', properties: { a: { type: 'string', format: 'hostname' } } },
        { type: 'object', properties: { zip: { type: 'string', pattern: '^[0-9]{5}$' } } },
      ];
      for (const requestedSchema of schemas) {
        const r = await ask({ message: 'Tell me', requestedSchema });
        assert.strictEqual(r.error?.code, -32602, JSON.stringify(r));
      }
      assert.match((await ask({ message: 'm', requestedSchema: schemas[0] })).error.message, /Unsupported requestedSchema: "required" names "b"/);
      assert.match((await ask({ message: 'm', requestedSchema: schemas[5] })).error.message, /Property "zip": "pattern" is not supported/);
      assert.strictEqual(ui.forms.length, 0);
    });

    it('refuses URLs that are not http(s) with -32602', async () => {
      for (const url of ['command:workbench.action.terminal.new', 'file:///etc/passwd', 'vscode://settings']) {
        const r = await ask({ mode: 'url', message: 'Open this', url, elicitationId: 'e1' });
        assert.strictEqual(r.error?.code, -32602, url);
        assert.match(r.error.message, /Only http and https URLs/);
      }
      assert.strictEqual(ui.urls.length, 0);
    });

    it('answers requests beyond the rate limit with an error instead of a form or a URL prompt', async () => {
      rateLimit = 2;
      ui.answer = () => ({ action: 'accept', values: {} });
      const form = { message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } };
      assert.strictEqual((await ask(form)).result?.action, 'accept');
      assert.strictEqual((await ask({ mode: 'url', message: 'Open', url: 'https://example.com/', elicitationId: 'e1' })).result?.action, 'cancel');
      for (const params of [form, { mode: 'url', message: 'Open', url: 'https://example.com/', elicitationId: 'e2' }]) {
        const r = await ask(params);
        assert.strictEqual(r.error?.code, -32000, JSON.stringify(r));
        assert.match(r.error.message, /at most 2 elicitation requests per minute \(setting mcpHost\.elicitation\.rateLimit\); retry in \d+ s/);
      }
      assert.strictEqual(ui.forms.length, 1);
      assert.strictEqual(ui.urls.length, 1);
    });

    it('keeps answers to secret-looking fields out of the traced log; other answers stay readable', async () => {
      kit.log('asking').setLevel('trace');
      ui.answer = () => ({ action: 'accept', values: { apiKey: 'sk-typed-by-user-42', user: 'alice-visible' } });
      const requestedSchema = { type: 'object', properties: { apiKey: { type: 'string' }, user: { type: 'string' } } };
      const r = await ask({ message: 'Credentials', requestedSchema });
      assert.strictEqual(r.result?.content?.apiKey, 'sk-typed-by-user-42', 'the server still receives the value');
      assert.deepStrictEqual(
        ui.forms[0].form.fields.map((f) => [f.name, f.secretLike]),
        [
          ['apiKey', true],
          ['user', false],
        ],
      );
      const log = kit.log('asking').text;
      assert.match(log, /▶ .*"apiKey":"••••••"/, 'the response is traced, masked');
      assert.ok(!log.includes('sk-typed-by-user-42'), 'not in the response, nor where the server echoes it');
      assert.ok(log.includes('alice-visible'));
    });

    it('accepts an empty form as a plain confirmation', async () => {
      ui.answer = () => ({ action: 'accept', values: {} });
      assert.deepStrictEqual((await ask({ message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } })).result, {
        action: 'accept',
        content: {},
      });
    });
  });

  it('does not declare elicitation to a server it is turned off for', async () => {
    enabled = false;
    const { tools } = await start('everything', everythingServer);
    assert.ok(tools.includes('echo'));
    assert.ok(!tools.includes('trigger-elicitation-request'));
    assert.ok(!tools.includes('trigger-url-elicitation'));
  });
});
