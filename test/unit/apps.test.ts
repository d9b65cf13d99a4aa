// MCP Apps, the parts that run without VS Code: what a tool's `_meta.ui` says, the capability declared to servers,
// the sandbox policy built from a view's declaration, reading views once per session, and the host side of the bridge
// (ext-apps' AppBridge) answering a real ext-apps App over an in-memory channel.
import * as assert from 'assert';
import { InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };
import { isModelVisible, toolUi } from '../../src/core/features/tools/toolUi';
import { AppResourceCache, appResourceFrom } from '../../src/core/features/apps/appResources.lazy';
import { allowAttribute, appContentSecurityPolicy, appSandboxFrom, cspOrigin, hostContentSecurityPolicy, withContentSecurityPolicy } from '../../src/core/features/apps/appSandbox.lazy';
import { createAppsFeature } from '../../src/core/features/apps/appsFeature';
import { checkedStyles, themeKind, themeStyles } from '../../src/core/features/apps/appStyles';
import { boundedHeight, MAX_VIEW_HEIGHT, MIN_VIEW_HEIGHT, openableLink, startAppViewHost, type AppViewHost } from '../../src/core/features/apps/appViewHost.lazy';
import {
  describeRate,
  TokenBucket,
  VIEW_DIALOG_RATE,
  VIEW_LOG_RATE,
  VIEW_RATE_LIMITED_CODE,
  VIEW_TOOL_CALL_RATE,
  ViewRateLimit,
  ViewRateLimitedError,
} from '../../src/core/features/apps/viewRateLimits.lazy';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolConsent, type ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import { toolNameMapOfServers } from '../../src/core/features/tools/toolNames';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { emptyFeatures, type ServerInfo, type Tool } from '../../src/core/host/serverInfo';
import { fixtureServer, waitFor } from './helpers';
import { createKit, entry, MemoryLog, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

const tool = (name: string, _meta?: Record<string, unknown>): Tool => ({ name, inputSchema: { type: 'object', properties: {} }, ...(_meta ? { _meta } : {}) });

describe('MCP Apps: tool metadata', () => {
  it('reads the view of a tool from _meta.ui.resourceUri, or from the deprecated flat key', () => {
    assert.strictEqual(toolUi(tool('a', { ui: { resourceUri: 'ui://s/view.html' } })).resourceUri, 'ui://s/view.html');
    assert.strictEqual(toolUi(tool('b', { 'ui/resourceUri': 'ui://s/old.html' })).resourceUri, 'ui://s/old.html');
    assert.strictEqual(toolUi(tool('c', { ui: { resourceUri: 'ui://new' }, 'ui/resourceUri': 'ui://old' })).resourceUri, 'ui://new', 'the nested key wins');
  });

  it('ignores a view that is not a ui:// resource, and metadata of the wrong shape', () => {
    for (const meta of [{ ui: { resourceUri: 'https://evil.example/x.html' } }, { ui: { resourceUri: 42 } }, { ui: 'ui://x' }, { ui: null }, undefined]) {
      assert.strictEqual(toolUi(tool('t', meta as Record<string, unknown>)).resourceUri, undefined, JSON.stringify(meta));
    }
  });

  it('reads visibility: both by default, and only what a well-formed list says', () => {
    assert.deepStrictEqual(toolUi(tool('t')), { resourceUri: undefined, modelVisible: true, appCallable: true });
    const app = toolUi(tool('t', { ui: { visibility: ['app'] } }));
    assert.deepStrictEqual([app.modelVisible, app.appCallable], [false, true]);
    const model = toolUi(tool('t', { ui: { visibility: ['model'] } }));
    assert.deepStrictEqual([model.modelVisible, model.appCallable], [true, false]);
    const none = toolUi(tool('t', { ui: { visibility: [] } }));
    assert.deepStrictEqual([none.modelVisible, none.appCallable], [false, false]);
    const malformed = toolUi(tool('t', { ui: { visibility: 'app' } }));
    assert.deepStrictEqual([malformed.modelVisible, malformed.appCallable], [true, true], 'not a list: the default');
  });

  it('never offers a tool meant only for its view to a language model', () => {
    const server: ServerInfo = {
      id: 'ws::apps',
      name: 'apps',
      scope: workspaceScope(),
      definition: stdio('node', ['apps.js']),
      state: { kind: 'running' },
      features: { ...emptyFeatures(), tools: [tool('shown'), tool('app-only', { ui: { visibility: ['app'] } }), tool('both', { ui: { visibility: ['model', 'app'] } })] },
      crashCount: 0,
    };
    assert.deepStrictEqual(
      toolNameMapOfServers([server]).tools.map((t) => t.tool.name),
      ['shown', 'both'],
    );
    assert.strictEqual(isModelVisible(tool('x', { ui: { visibility: ['app'] } })), false);
  });
});

describe('MCP Apps: the sandbox of a view', () => {
  it('accepts only plain https/wss origins (http only on this machine), normalised', () => {
    assert.strictEqual(cspOrigin('https://API.Example.com'), 'https://api.example.com');
    assert.strictEqual(cspOrigin('https://*.cdn.example.com:8443/'), 'https://*.cdn.example.com:8443');
    assert.strictEqual(cspOrigin('wss://live.example.com'), 'wss://live.example.com');
    assert.strictEqual(cspOrigin('http://localhost:5173'), 'http://localhost:5173');
    assert.strictEqual(cspOrigin('http://127.0.0.1:3000'), 'http://127.0.0.1:3000');
    for (const bad of [
      'http://example.com',
      'https://a.example.com; script-src *',
      "'unsafe-eval'",
      '*',
      'https://*',
      'data:',
      'javascript:alert(1)',
      'https://example.com/path',
      'https://exa mple.com',
      'https://example.com:99999',
      'https://user@example.com',
      'ftp://example.com',
    ]) {
      assert.strictEqual(cspOrigin(bad), undefined, bad);
    }
  });

  it('builds the spec’s restrictive policy when nothing is declared: no network, no frames, no plugins', () => {
    const sandbox = appSandboxFrom(undefined);
    const policy = appContentSecurityPolicy(sandbox.csp);
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /connect-src 'none'/);
    assert.match(policy, /frame-src 'none'/);
    assert.match(policy, /object-src 'none'/);
    assert.match(policy, /script-src 'unsafe-inline'(;|$)/);
    assert.doesNotMatch(policy, /'self'|\*|unsafe-eval|https?:/, 'nothing reaches a server, not even the webview’s own origin');
    assert.deepStrictEqual(sandbox.permissions, []);
  });

  it('widens the policy by exactly the declared origins, and refuses the rest with a reason', () => {
    const sandbox = appSandboxFrom({
      ui: {
        csp: {
          connectDomains: ['https://api.example.com', 'https://evil.example; script-src *', '*'],
          resourceDomains: ['https://cdn.example.com', 42],
          frameDomains: ['https://www.youtube.com'],
        },
        permissions: { camera: {}, clipboardWrite: {}, bogus: {}, microphone: true },
      },
    });
    assert.deepStrictEqual(sandbox.csp, {
      connectDomains: ['https://api.example.com'],
      resourceDomains: ['https://cdn.example.com'],
      frameDomains: ['https://www.youtube.com'],
      baseUriDomains: [],
    });
    assert.strictEqual(sandbox.refused.length, 3, sandbox.refused.join('\n'));
    const policy = appContentSecurityPolicy(sandbox.csp);
    assert.match(policy, /connect-src https:\/\/api\.example\.com;/);
    assert.match(policy, /script-src 'unsafe-inline' https:\/\/cdn\.example\.com;/);
    assert.match(policy, /img-src data: blob: https:\/\/cdn\.example\.com;/);
    assert.match(policy, /frame-src https:\/\/www\.youtube\.com;/);
    assert.doesNotMatch(policy, /evil/);
    assert.deepStrictEqual(sandbox.permissions, ['camera', 'clipboardWrite'], 'only known permissions, declared as objects');
    assert.strictEqual(allowAttribute(sandbox.permissions), 'camera; clipboard-write');
  });

  it('bounds the webview by the same origins plus only its own script source', () => {
    const csp = appSandboxFrom({ ui: { csp: { connectDomains: ['https://api.example.com'] } } }).csp;
    const host = hostContentSecurityPolicy(csp, 'https://webview.example');
    assert.match(host, /script-src https:\/\/webview\.example 'unsafe-inline';/);
    assert.match(host, /connect-src https:\/\/api\.example\.com;/);
    assert.match(host, /frame-src 'none'/, 'the view’s frame can never be navigated away');
  });

  it('puts the policy before anything of the view, after its doctype, and escapes it as an attribute', () => {
    const policy = `default-src 'none'; x "y" <z>`;
    const withDoctype = withContentSecurityPolicy('<!DOCTYPE html><html><head><script>1</script>', policy);
    assert.ok(withDoctype.startsWith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src \'none\'; x &quot;y&quot; &lt;z&gt;">'), withDoctype);
    assert.ok(withContentSecurityPolicy('<script>1</script>', policy).startsWith('<meta http-equiv="Content-Security-Policy"'));
  });
});

describe('MCP Apps: views from a real server', function () {
  this.timeout(30_000);
  let kit: Kit;
  const caps = async (k: Kit, name: string) => {
    const id = k.manager.servers().find((s) => s.name === name)!.id;
    const r = await k.manager.session(id).callTool({ name: 'stats', arguments: {} });
    return JSON.parse((r.content[0] as { text: string }).text) as { reads: Record<string, number>; appCalls: unknown[]; extensions: unknown };
  };

  before(async () => {
    kit = createKit({ features: [createAppsFeature()] });
    await kit.update(workspaceScope(), [entry('apps', stdio(process.execPath, [fixtureServer('app-server.mjs')]))], []);
    await waitForState(kit, 'apps', 'running');
  });

  after(() => kit.manager.disposeAsync());

  it('declares the extension with the MIME type it renders, so the server attaches its views', async () => {
    assert.deepStrictEqual((await caps(kit, 'apps')).extensions, { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
    const tools = kit.manager.servers().find((s) => s.name === 'apps')!.features.tools;
    assert.strictEqual(toolUi(tools.find((t) => t.name === 'show-hostile')!).resourceUri, 'ui://fixture/hostile.html');
  });

  it('declares nothing where no view can be shown (no apps feature), and the server sends no views', async () => {
    const bare = createKit();
    try {
      await bare.update(workspaceScope(), [entry('apps', stdio(process.execPath, [fixtureServer('app-server.mjs')]))], []);
      await waitForState(bare, 'apps', 'running');
      assert.strictEqual((await caps(bare, 'apps')).extensions, null);
      const tools = bare.manager.servers().find((s) => s.name === 'apps')!.features.tools;
      assert.ok(tools.every((t) => toolUi(t).resourceUri === undefined));
    } finally {
      await bare.manager.disposeAsync();
    }
  });

  it('reads a view once per session and URI, and explains a broken, mistyped or oversized one', async () => {
    const id = kit.manager.servers().find((s) => s.name === 'apps')!.id;
    const session = kit.manager.session(id);
    const cache = new AppResourceCache();
    const [a, b] = await Promise.all([cache.load(session, 'ui://fixture/hostile.html'), cache.load(session, 'ui://fixture/hostile.html')]);
    const again = await cache.load(session, 'ui://fixture/hostile.html');
    assert.ok(a.ok && b === a && again === a);
    assert.strictEqual((await caps(kit, 'apps')).reads['ui://fixture/hostile.html'], 1, 'read once');
    assert.ok(a.ok && /Hostile view/.test(a.html));
    assert.ok(a.ok && a.sandbox.csp.connectDomains.join() === 'https://api.example.com' && a.sandbox.refused.length === 2);

    const missing = await cache.load(session, 'ui://fixture/missing.html');
    assert.ok(!missing.ok && /reading it failed: .*not found/i.test(missing.message), JSON.stringify(missing));
    const wrongType = await cache.load(session, 'ui://fixture/wrong-type.html');
    assert.ok(!wrongType.ok && /type is "text\/html", not "text\/html;profile=mcp-app"/.test(wrongType.message), JSON.stringify(wrongType));
    const big = await cache.load(session, 'ui://fixture/big.html');
    assert.ok(!big.ok && /6\.0 MB, more than the 5 MB/.test(big.message), JSON.stringify(big));
    const blob = await cache.load(session, 'ui://fixture/blob.html');
    assert.ok(blob.ok && blob.html.includes('from a blob'));
    await cache.load(session, 'ui://fixture/missing.html');
    assert.strictEqual((await caps(kit, 'apps')).reads['ui://fixture/missing.html'], 2, 'a failed read is tried again next time');
  });

  it('refuses contents without text or blob, and empty ones', () => {
    const uri = 'ui://x';
    assert.match((appResourceFrom(uri, { contents: [] }) as { message: string }).message, /no content/);
    assert.match((appResourceFrom(uri, { contents: [{ uri, mimeType: 'text/html;profile=mcp-app', text: '  ' }] }) as { message: string }).message, /empty/);
  });
});

describe('MCP Apps: the host side of a view (AppBridge) answering a real ext-apps App', function () {
  this.timeout(30_000);
  let kit: Kit;
  let serverId: string;
  let asked: ToolConsentQuestion[];
  let answers: (ConsentAnswer | undefined)[];
  let links: { url: string; domain: string; serverName: string; toolName: string }[];
  let linkAnswer: boolean | undefined;
  let opened: string[];
  let messages: string[];
  let inChat: string[];
  let heights: number[];
  /** The rate limits' clock: time passes only when a test says so. */
  let clock = 0;
  let host: AppViewHost | undefined;
  const log = new MemoryLog();
  const result: CallToolResult = { content: [{ type: 'text', text: 'the result' }], structuredContent: { n: 1 } };
  const context: McpUiHostContext = { theme: 'dark', locale: 'en-US', displayMode: 'inline', availableDisplayModes: ['inline'] };

  before(async () => {
    kit = createKit({ features: [createAppsFeature()] });
    await kit.update(workspaceScope(), [entry('apps', stdio(process.execPath, [fixtureServer('app-server.mjs')]))], []);
    await waitForState(kit, 'apps', 'running');
    serverId = kit.manager.servers().find((s) => s.name === 'apps')!.id;
  });

  after(() => kit.manager.disposeAsync());

  async function connectView() {
    asked = [];
    answers = [];
    links = [];
    opened = [];
    messages = [];
    inChat = [];
    heights = [];
    clock = 0;
    log.lines.length = 0;
    linkAnswer = undefined;
    const server = kit.manager.servers().find((s) => s.id === serverId)!;
    const consent = new ToolConsent({
      permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }),
      ask: async (q) => {
        asked.push(q);
        return answers.shift();
      },
      autoAllowReadOnly: () => false,
    });
    const [viewSide, hostSide] = InMemoryTransport.createLinkedPair();
    const received: { input?: unknown; result?: unknown; context?: unknown } = {};
    host = await startAppViewHost({
      transport: hostSide,
      serverId,
      serverName: 'apps',
      tools: () => kit.manager.servers().find((s) => s.id === serverId)!.features.tools,
      call: { tool: server.features.tools.find((t) => t.name === 'show-hostile')!, arguments: { city: 'Paris' }, result },
      sandbox: appSandboxFrom(undefined),
      caller: new ToolCaller(kit.manager, new ActiveToolCalls(), consent),
      hostInfo: { name: 'mcp-host-tests', version: '0' },
      hostContext: context,
      confirmOpenLink: async (q) => {
        links.push(q);
        return linkAnswer;
      },
      openExternal: async (url) => {
        opened.push(url);
        return true;
      },
      confirmMessage: async (q) => {
        messages.push(q.text);
        return true;
      },
      putInChat: async (text) => {
        inChat.push(text);
      },
      resize: (h) => heights.push(h),
      log,
      now: () => clock,
    });
    const { App } = await import('@modelcontextprotocol/ext-apps');
    const app = new App({ name: 'test-view', version: '1' }, {}, { autoResize: false });
    app.ontoolinput = (p) => (received.input = p.arguments);
    app.ontoolresult = (p) => (received.result = p);
    app.onhostcontextchanged = (p) => (received.context = p);
    await app.connect(viewSide);
    await host.initialized;
    return { app, received };
  }

  afterEach(async () => {
    await host?.teardown();
    host = undefined;
  });

  it('gives the view the host context, then the tool’s input and result once it is initialized', async () => {
    const { app, received } = await connectView();
    assert.strictEqual(app.getHostContext()?.theme, 'dark');
    assert.strictEqual(app.getHostContext()?.locale, 'en-US');
    await waitFor(() => received.result, 'the tool result', 5000);
    assert.deepStrictEqual(received.input, { city: 'Paris' });
    assert.deepStrictEqual(received.result, result);
    host!.setHostContext({ ...context, theme: 'light' });
    await waitFor(() => received.context, 'a context change', 5000);
    assert.deepStrictEqual(received.context, { theme: 'light' }, 'only what changed');
  });

  it('runs a tool the view calls through consent naming the server and the view, on the view’s own server', async () => {
    const { app } = await connectView();
    answers.push('once');
    const r = await app.callServerTool({ name: 'record-app-call', arguments: { n: 1 } });
    assert.deepStrictEqual(r.content, [{ type: 'text', text: 'recorded' }]);
    assert.strictEqual(asked.length, 1);
    assert.strictEqual(asked[0].serverName, 'apps');
    assert.strictEqual(asked[0].toolName, 'record-app-call');
    assert.strictEqual(asked[0].requestedBy, 'the view of tool "show-hostile"');

    answers.push('deny');
    await assert.rejects(app.callServerTool({ name: 'record-app-call', arguments: { n: 2 } }), /did not allow/);
    const stats = await kit.manager.session(serverId).callTool({ name: 'stats', arguments: {} });
    assert.match((stats.content[0] as { text: string }).text, /"appCalls":\[\{"n":1\}\]/, 'the denied call never reached the server');
  });

  it('refuses tools the view may not call, and tools its server does not have, without asking', async () => {
    const { app } = await connectView();
    await assert.rejects(app.callServerTool({ name: 'model-only', arguments: {} }), /not callable from a view/);
    await assert.rejects(app.callServerTool({ name: 'no-such-tool', arguments: {} }), /has no tool/);
    assert.strictEqual(asked.length, 0);
  });

  it('opens only https links, only after the user agreed', async () => {
    const { app } = await connectView();
    for (const url of ['http://example.com/', 'javascript:alert(1)', 'file:///etc/passwd', 'command:workbench.action.quit', 'vscode://x', 'not a url']) {
      assert.strictEqual((await app.openLink({ url })).isError, true, url);
    }
    assert.strictEqual(links.length, 0, 'refused without a dialog');
    linkAnswer = false;
    assert.strictEqual((await app.openLink({ url: 'https://example.com/page' })).isError, true);
    linkAnswer = true;
    assert.strictEqual((await app.openLink({ url: 'https://example.com/page' })).isError, undefined);
    assert.deepStrictEqual(links.map((l) => [l.url, l.domain, l.serverName, l.toolName]), [
      ['https://example.com/page', 'example.com', 'apps', 'show-hostile'],
      ['https://example.com/page', 'example.com', 'apps', 'show-hostile'],
    ]);
    assert.deepStrictEqual(opened, ['https://example.com/page'], 'only the agreed link opened');
  });

  it('shows a message before it goes into the chat input', async () => {
    const { app } = await connectView();
    const r = await app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'hello from the view' }] });
    assert.strictEqual(r.isError, undefined);
    assert.deepStrictEqual(messages, ['hello from the view']);
    assert.deepStrictEqual(inChat, ['hello from the view']);
  });

  it('refuses tool calls over the rate with a JSON-RPC error, before they reach consent or the server, logging once', async () => {
    const { app } = await connectView();
    answers.push('always');
    const outcomes: unknown[] = [];
    for (let n = 1; n <= VIEW_TOOL_CALL_RATE.burst + 5; n++) {
      outcomes.push(await app.callServerTool({ name: 'record-app-call', arguments: { rate: n } }).then(() => 'ok', (e: Error & { code?: number }) => e));
    }
    assert.deepStrictEqual(outcomes.slice(0, VIEW_TOOL_CALL_RATE.burst), Array(VIEW_TOOL_CALL_RATE.burst).fill('ok'));
    for (const refused of outcomes.slice(VIEW_TOOL_CALL_RATE.burst) as (Error & { code?: number })[]) {
      assert.strictEqual(refused.code, VIEW_RATE_LIMITED_CODE);
      assert.match(refused.message, /Too many tool calls: a view may make 10 tool calls at once, then 2 a second/);
    }
    assert.strictEqual(asked.length, 1, 'one question (the "always"); refused calls never reached consent');
    const recorded = async () => {
      const stats = await kit.manager.session(serverId).callTool({ name: 'stats', arguments: {} });
      return (JSON.parse((stats.content[0] as { text: string }).text) as { appCalls: { rate?: number }[] }).appCalls.filter((c) => c.rate !== undefined).length;
    };
    assert.strictEqual(await recorded(), VIEW_TOOL_CALL_RATE.burst, 'refused calls never reached the server');
    assert.deepStrictEqual(log.lines.filter((l) => /too many/.test(l)), [
      '[warn] View of "show-hostile" makes too many tool calls (more than 10 tool calls at once, then 2 a second): refusing them until it slows down',
    ]);

    clock += 1000 / VIEW_TOOL_CALL_RATE.perSecond;
    assert.deepStrictEqual((await app.callServerTool({ name: 'record-app-call', arguments: { rate: 0 } })).content, [{ type: 'text', text: 'recorded' }], 'allowed again once time passed');
    assert.ok(log.lines.includes('[warn] View of "show-hostile": 5 tool calls refused for going over the rate (10 tool calls at once, then 2 a second)'));
  });

  it('refuses question after question to the user over the rate, without a dialog', async () => {
    const { app } = await connectView();
    linkAnswer = false;
    for (let i = 0; i < VIEW_DIALOG_RATE.burst; i++) assert.strictEqual((await app.openLink({ url: 'https://example.com/' })).isError, true);
    await assert.rejects(app.openLink({ url: 'https://example.com/' }), (e: Error & { code?: number }) => e.code === VIEW_RATE_LIMITED_CODE && /Too many questions to the user/.test(e.message));
    await assert.rejects(app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'and again' }] }), /Too many questions to the user/);
    assert.strictEqual(links.length, VIEW_DIALOG_RATE.burst);
    assert.deepStrictEqual(messages, [], 'the message never reached a dialog');
    clock += 1000 / VIEW_DIALOG_RATE.perSecond;
    assert.strictEqual((await app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'later' }] })).isError, undefined);
    assert.deepStrictEqual(messages, ['later']);
  });

  it('keeps at most a bounded rate of a view’s log lines, saying once that it drops the rest', async () => {
    const { app } = await connectView();
    for (let i = 0; i < VIEW_LOG_RATE.burst + 30; i++) await app.sendLog({ level: 'info', data: `line ${i}` });
    await app.sendSizeChanged({ width: 1, height: 100 });
    await waitFor(() => heights.length === 1, 'every notification handled', 5000);
    assert.strictEqual(log.lines.filter((l) => l.startsWith('[info] [view of show-hostile] line ')).length, VIEW_LOG_RATE.burst);
    assert.strictEqual(log.lines.filter((l) => /too many log lines/.test(l)).length, 1);
  });

  it('bounds the sizes a view asks for', async () => {
    const { app } = await connectView();
    await app.sendSizeChanged({ width: 100, height: 100_000 });
    await app.sendSizeChanged({ width: 100, height: -5 });
    await app.sendSizeChanged({ width: 100, height: 300.4 });
    await waitFor(() => heights.length === 3, 'three size changes', 5000);
    assert.deepStrictEqual(heights, [MAX_VIEW_HEIGHT, MIN_VIEW_HEIGHT, 300]);
    assert.strictEqual(boundedHeight(Number.NaN), undefined);
    assert.strictEqual(openableLink('https://user:pw@example.com/'), undefined, 'no credentials in links');
  });
});

describe('MCP Apps: the rates a view may ask at', () => {
  it('lets a burst through, then refills at the steady rate, never above the burst', () => {
    let now = 1000;
    const bucket = new TokenBucket({ burst: 3, perSecond: 2 }, () => now);
    assert.deepStrictEqual([bucket.take(), bucket.take(), bucket.take(), bucket.take()], [true, true, true, false]);
    assert.strictEqual(bucket.retryAfterMs(), 500);
    now += 499;
    assert.strictEqual(bucket.take(), false);
    now += 1;
    assert.deepStrictEqual([bucket.take(), bucket.take()], [true, false]);
    now += 60_000;
    assert.deepStrictEqual([bucket.take(), bucket.take(), bucket.take(), bucket.take()], [true, true, true, false], 'a long pause refills the burst, no more');
    now -= 10_000;
    assert.strictEqual(bucket.take(), false, 'a clock that goes back gives nothing');
  });

  it('logs one line where a run of refusals starts and one where it ends, and tells the view when to retry', () => {
    let now = 0;
    const lines: string[] = [];
    const limit = new ViewRateLimit({ burst: 2, perSecond: 0.2 }, 'questions to the user', 'View of "t"', (l) => lines.push(l), () => now);
    limit.check();
    limit.check();
    let refusal: ViewRateLimitedError | undefined;
    for (let i = 0; i < 20; i++) {
      try {
        limit.check();
      } catch (e) {
        refusal = e as ViewRateLimitedError;
      }
    }
    assert.ok(refusal instanceof ViewRateLimitedError);
    assert.strictEqual(refusal.code, VIEW_RATE_LIMITED_CODE);
    assert.deepStrictEqual(refusal.data, { retryAfterMs: 5000 });
    assert.strictEqual(refusal.message, 'Too many questions to the user: a view may make 2 questions to the user at once, then one every 5 seconds. Try again in 5 s.');
    assert.deepStrictEqual(lines, ['View of "t" makes too many questions to the user (more than 2 questions to the user at once, then one every 5 seconds): refusing them until it slows down']);
    now += 5000;
    assert.strictEqual(limit.allow(), true);
    assert.strictEqual(lines[1], 'View of "t": 20 questions to the user refused for going over the rate (2 questions to the user at once, then one every 5 seconds)');
    assert.strictEqual(lines.length, 2);
    assert.strictEqual(describeRate(VIEW_TOOL_CALL_RATE, 'tool calls'), '10 tool calls at once, then 2 a second');
  });
});

describe('MCP Apps: the theme a view gets', () => {
  it('maps VS Code’s theme variables to the standard style variables, leaving out unset ones', () => {
    const theme: Record<string, string> = { '--vscode-editor-background': ' #1e1e1e ', '--vscode-editor-foreground': '#d4d4d4', '--vscode-font-family': '-apple-system, "Segoe UI"' };
    const styles = themeStyles((name) => theme[name] ?? '');
    assert.strictEqual(styles['--color-background-primary'], '#1e1e1e');
    assert.strictEqual(styles['--color-text-primary'], '#d4d4d4');
    assert.strictEqual(styles['--color-text-inverse'], '#1e1e1e');
    assert.strictEqual(styles['--font-sans'], '-apple-system, "Segoe UI"');
    assert.ok(!('--color-border-primary' in styles));
  });

  it('keeps from what the webview reports only known variables with plain values', () => {
    assert.deepStrictEqual(
      checkedStyles({
        '--color-text-primary': 'rgb(1, 2, 3)',
        '--color-background-primary': 'red; } body { background: url(https://evil.example/x)',
        '--font-sans': 'url(https://evil.example/font)',
        '--not-a-variable': 'blue',
        '--color-ring-primary': 42,
        '--font-mono': 'x'.repeat(301),
      }),
      { '--color-text-primary': 'rgb(1, 2, 3)' },
    );
    assert.deepStrictEqual(checkedStyles('nonsense'), {});
  });

  it('tells light from dark by the classes VS Code puts on the webview’s body', () => {
    assert.strictEqual(themeKind(['vscode-light']), 'light');
    assert.strictEqual(themeKind(['vscode-high-contrast', 'vscode-high-contrast-light']), 'light');
    assert.strictEqual(themeKind(['vscode-dark']), 'dark');
    assert.strictEqual(themeKind(['vscode-high-contrast']), 'dark');
  });
});
