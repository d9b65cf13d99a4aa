// MCP Apps in a real VS Code: a real App server nobody here wrote (@modelcontextprotocol/server-basic-vanillajs) shows
// its view from a hand call, from chat and for an agent's call through mcpHost_callTool, with the tool's result and the
// theme's colours; the view calls a tool through the bridge and our consent, is refused a non-https link, asks before a
// message goes to chat, and is torn down when its server stops. A hostile view tries to leave its sandbox every way it
// can and fails each time (and floods tool calls, refused past its rate); broken and oversized views show why instead
// of a blank panel. What the views show is read through the page, with the browser
// that runs the workbench (the launcher's page hook), not through the extension.
import * as assert from 'assert';
import * as http from 'http';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import type { UrlQuestion, ViewMessageQuestion } from '../../src/vscode/dialogs/dialogRouter';
import { activateFakeLm, activateHost, answerDialogs, FAKE_MODEL, fixtureServer, repoRoot, sleep, waitFor, WorkspaceConfig, type FakeLm, type TestedHost } from './testKit';

interface FrameResult {
  url: string;
  value: unknown;
}

/** Every frame of the workbench with an element matching `selector`: evaluates `expression` there, or acts on it. */
async function page(selector: string, options: { expression?: string; action?: 'click' | 'fill'; value?: string } = {}): Promise<FrameResult[]> {
  const base = process.env.MCPHOST_TEST_PAGE;
  assert.ok(base, 'the launcher’s page hook (MCPHOST_TEST_PAGE)');
  const response = await fetch(`${base}/query`, { method: 'POST', body: JSON.stringify({ selector, ...options }) });
  const body = (await response.json()) as FrameResult[] | { error: string };
  if (!Array.isArray(body)) throw new Error(`page hook: ${body.error}`);
  return body;
}

/** The one view frame (a sandboxed srcdoc document) showing `selector`, and `expression` evaluated there. */
async function inView<T>(selector: string, expression: string, what: string, check: (v: T) => boolean = (v) => !!v): Promise<T> {
  return waitFor(async () => {
    const found = (await page(selector, { expression })).filter((f) => f.url === 'about:srcdoc');
    assert.ok(found.length <= 1, `one view showing ${selector}, not ${found.length}`);
    return found.length === 1 && check(found[0].value as T) ? { v: found[0].value as T } : undefined;
  }, what).then((r) => r.v);
}

const act = async (selector: string, action: 'click' | 'fill', value?: string) => {
  const done = (await page(selector, { action, value })).filter((f) => f.url === 'about:srcdoc');
  assert.strictEqual(done.length, 1, `${action} ${selector} in one view`);
};

/** Closes every view, and the result documents hand calls opened (reverted: they are untitled). */
async function closeViewsAndResults(): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
  await vscode.window.tabGroups.close(tabs.filter((t) => t.input instanceof vscode.TabInputWebview));
  for (const tab of tabs) {
    const input = tab.input;
    if (!(input instanceof vscode.TabInputText) || input.uri.scheme !== 'untitled') continue;
    await vscode.window.showTextDocument(input.uri);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}

describe('MCP Apps: tool views in a real VS Code', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let lm: FakeLm;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;
  let exfil: http.Server;
  const exfilHits: string[] = [];
  const toolQuestions: ToolConsentQuestion[] = [];
  const toolAnswers: (ConsentAnswer | undefined)[] = [];
  const linkQuestions: UrlQuestion[] = [];
  const messageQuestions: ViewMessageQuestion[] = [];

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);
  const running = (name: string) => waitFor(() => server(name)?.state.kind === 'running' && server(name), `${name} running`, 30_000);
  const views = () => api.testing.appViews();
  const fixtureStats = async () => {
    const r = (await api.testing.callTool((await running('app-fixture')).id, 'stats')) as { content: { text: string }[] };
    return JSON.parse(r.content[0].text) as { reads: Record<string, number>; appCalls: Record<string, unknown>[] };
  };
  /** Calls a tool by hand ("MCP: Call Tool…" with its arguments), allowing it once. */
  const callByHand = async (serverName: string, tool: string, args: Record<string, unknown> = {}) => {
    toolAnswers.push('once');
    const outcome = (await vscode.commands.executeCommand('mcpHost.callTool', (await running(serverName)).id, tool, args)) as
      | { result: { content: { type: string; text?: string }[] } }
      | undefined;
    assert.ok(outcome, `${tool} ran`);
    return outcome.result;
  };

  before(async () => {
    api = await activateHost();
    lm = await activateFakeLm();
    config = await WorkspaceConfig.read();
    exfil = http.createServer((req, res) => {
      exfilHits.push(req.url ?? '');
      res.end('ok');
    });
    await new Promise<void>((resolve) => exfil.listen(0, '127.0.0.1', resolve));
    const exfilUrl = `http://127.0.0.1:${(exfil.address() as { port: number }).port}/`;
    dialogs = answerDialogs(api, {
      confirmToolCall: async (q) => {
        toolQuestions.push(q);
        return toolAnswers.shift();
      },
      confirmOpenUrl: async (q) => {
        linkQuestions.push(q);
        return false;
      },
      confirmViewMessage: async (q) => {
        messageQuestions.push(q);
        return false;
      },
    });
    await config.writeServers({
      ...config.servers(),
      'basic-app': {
        command: 'node',
        args: [path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-basic-vanillajs', 'dist', 'index.js'), '--stdio'],
      },
      'app-fixture': { command: 'node', args: [fixtureServer('app-server.mjs')], env: { FIXTURE_EXFIL_URL: exfilUrl } },
    });
    await api.testing.reloadConfiguration();
    for (const name of ['basic-app', 'app-fixture']) {
      const s = await waitFor(() => server(name), `${name} configured`);
      if (s.state.kind !== 'running') await api.testing.startServer(s.id);
      await running(name);
    }
  });

  after(async () => {
    dialogs.dispose();
    lm.reset();
    await closeViewsAndResults();
    await config.restore();
    await api.testing.reloadConfiguration();
    exfil.close();
  });

  beforeEach(async () => {
    await closeViewsAndResults();
    await waitFor(async () => views().length === 0 && (await page('iframe#app')).length === 0, 'no view open');
    toolQuestions.length = 0;
    toolAnswers.length = 0;
    linkQuestions.length = 0;
    messageQuestions.length = 0;
  });

  it('shows the real server’s view beside a hand call’s result: sandboxed, with its policy, the result and the theme', async () => {
    const result = await callByHand('basic-app', 'get-time');
    const time = result.content[0].text!;
    assert.match(time, /^\d{4}-\d\d-\d\dT/);
    await waitFor(() => views()[0]?.state === 'shown', 'the view shown');
    assert.strictEqual(views()[0].toolName, 'get-time');
    // The app writes the result it received into #server-time.
    assert.strictEqual(await inView<string>('#server-time', 'return element.textContent;', 'the result in the view', (t) => t !== 'Loading...'), time);

    const [frame] = (await page('iframe#app', { expression: 'return { sandbox: element.getAttribute("sandbox"), allow: element.getAttribute("allow") };' })).filter(
      (f) => f.url !== 'about:srcdoc',
    );
    assert.deepStrictEqual(frame.value, { sandbox: 'allow-scripts', allow: null }, 'scripts only: no same origin, popups, forms or navigation');
    const policy = await inView<string>('meta[http-equiv="Content-Security-Policy"]', 'return element.content;', 'the view’s policy');
    assert.match(policy, /default-src 'none'; script-src 'unsafe-inline'; .*connect-src 'none'; frame-src 'none'; object-src 'none'/);
    assert.strictEqual(
      await inView<boolean>('meta[http-equiv="Content-Security-Policy"]', 'return document.head.firstElementChild === element;', 'the policy first'),
      true,
    );

    // Host context: the theme's kind and colours, applied by the app with ext-apps' own helpers.
    const dark = vscode.window.activeColorTheme.kind !== vscode.ColorThemeKind.Light && vscode.window.activeColorTheme.kind !== vscode.ColorThemeKind.HighContrastLight;
    assert.strictEqual(await inView<string>('html', 'return document.documentElement.dataset.theme;', 'the theme applied'), dark ? 'dark' : 'light');
    const [webviewBackground] = (await page('iframe#app', { expression: 'return getComputedStyle(document.documentElement).getPropertyValue("--vscode-editor-background").trim();' })).filter(
      (f) => f.url !== 'about:srcdoc',
    );
    assert.ok(webviewBackground.value, 'the webview sees the theme');
    assert.strictEqual(
      await inView<string>('html', 'return document.documentElement.style.getPropertyValue("--color-background-primary");', 'the theme’s colours in the view'),
      webviewBackground.value,
    );

    // It follows a theme change.
    const settings = vscode.workspace.getConfiguration('workbench');
    const before = settings.inspect<string>('colorTheme')?.globalValue;
    try {
      await settings.update('colorTheme', dark ? 'Default Light Modern' : 'Default Dark Modern', vscode.ConfigurationTarget.Global);
      assert.strictEqual(
        await inView<string>('html', 'return document.documentElement.dataset.theme;', 'the new theme in the view', (t) => t === (dark ? 'light' : 'dark')),
        dark ? 'light' : 'dark',
      );
    } finally {
      await settings.update('colorTheme', before, vscode.ConfigurationTarget.Global);
    }

    // The app reports its size: the frame takes it, bounded.
    const height = await waitFor(() => views()[0].height, 'a size from the view');
    assert.ok(height >= 32 && height <= 4000, `${height}`);
    const [sized] = (await page('iframe#app', { expression: 'return element.style.height;' })).filter((f) => f.url !== 'about:srcdoc');
    assert.strictEqual(sized.value, `${height}px`);
  });

  it('runs a tool the view calls through the bridge, asking consent that names the server and the view', async () => {
    await callByHand('basic-app', 'get-time');
    const first = await inView<string>('#server-time', 'return element.textContent;', 'the first result', (t) => t !== 'Loading...');
    toolQuestions.length = 0;
    toolAnswers.push('once');
    await sleep(20); // a new second-resolution ISO time is not needed: milliseconds differ
    await act('#get-time-btn', 'click');
    const second = await inView<string>('#server-time', 'return element.textContent;', 'the view’s own call answered', (t) => t !== first);
    assert.match(second, /^\d{4}-\d\d-\d\dT/);
    assert.strictEqual(toolQuestions.length, 1);
    assert.strictEqual(toolQuestions[0].serverName, 'basic-app');
    assert.strictEqual(toolQuestions[0].toolName, 'get-time');
    assert.strictEqual(toolQuestions[0].requestedBy, 'the view of tool "get-time"');

    toolAnswers.push('deny');
    await act('#get-time-btn', 'click');
    assert.strictEqual(await inView<string>('#server-time', 'return element.textContent;', 'the denied call', (t) => t === '[ERROR]'), '[ERROR]');
    assert.strictEqual(toolQuestions.length, 2);
  });

  it('refuses a non-https link without asking, asks before an https one, and shows a message before it goes to chat', async () => {
    await callByHand('basic-app', 'get-time');
    await inView<string>('#server-time', 'return element.textContent;', 'the view', (t) => t !== 'Loading...');
    await act('#link-url', 'fill', 'http://example.com/plain');
    await act('#open-link-btn', 'click');
    await act('#link-url', 'fill', 'https://example.com/secure');
    await act('#open-link-btn', 'click');
    await waitFor(() => linkQuestions.length > 0, 'the https link asked about');
    await sleep(300);
    assert.deepStrictEqual(
      linkQuestions.map((q) => [q.serverName, q.url, q.domain]),
      [['basic-app', 'https://example.com/secure', 'example.com']],
      'the http link never reached a dialog (requests are answered in order)',
    );

    await act('#message-text', 'fill', 'Tell me the time in words.');
    await act('#send-message-btn', 'click');
    await waitFor(() => messageQuestions.length > 0, 'the message shown');
    assert.deepStrictEqual(messageQuestions, [{ serverName: 'basic-app', toolName: 'get-time', text: 'Tell me the time in words.' }]);
  });

  it('tears the view down with a "server stopped" notice when its server stops', async () => {
    await callByHand('basic-app', 'get-time');
    await inView<string>('#server-time', 'return element.textContent;', 'the view', (t) => t !== 'Loading...');
    const id = (await running('basic-app')).id;
    try {
      await api.testing.stopServer(id);
      await waitFor(() => views()[0]?.state === 'closed', 'the view closed');
      assert.match(views()[0].message ?? '', /^Server stopped: the server "basic-app" stopped or restarted/);
      const shown = await waitFor(async () => {
        const status = await page('#status.closed', { expression: 'return element.textContent;' });
        return status.length === 1 && (await page('iframe#app')).length === 0 && status[0].value;
      }, 'the notice in place of the frame');
      assert.match(String(shown), /Server stopped/);
      assert.strictEqual((await page('#server-time')).length, 0, 'the view’s document is gone');
    } finally {
      await api.testing.startServer(id);
      await running('basic-app');
    }
  });

  it('opens the view of a tool the chat model called from a button under the result; view-only tools are never offered', async () => {
    const fixture = await running('app-fixture');
    assert.ok(fixture.features.tools.some((t) => t.name === 'record-app-call'));
    lm.setResponder((messages) =>
      messages.some((m) => m.content.some((p) => p instanceof vscode.LanguageModelToolResultPart))
        ? 'Here is the time.'
        : [new vscode.LanguageModelToolCallPart('call-1', 'basic-app_get-time', {})],
    );
    toolAnswers.push('once');
    const before = api.testing.chatTranscripts().length;
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    // The fake model, whose answer this test scripts: the chat's own pick depends on which models VS Code found first.
    void vscode.commands.executeCommand('workbench.action.chat.open', { query: '@mcp what time is it on the server?', mode: 'ask', modelSelector: FAKE_MODEL });
    const transcript = await waitFor(() => api.testing.chatTranscripts()[before], 'the @mcp response');
    await waitFor(() => transcript.done, 'the response complete', 60_000);
    const offered = (lm.calls[0].options.tools ?? []).map((t) => t.name);
    assert.ok(offered.includes('basic-app_get-time') && offered.includes('app-fixture_show-hostile'), offered.join(', '));
    assert.ok(!offered.includes('app-fixture_record-app-call'), 'a tool with visibility ["app"] is not offered to the model');
    assert.ok(offered.includes('app-fixture_model-only'));

    const button = transcript.parts.find((p) => p.startsWith('button: Open View of Get Time -> mcpHost.openToolView '));
    assert.ok(button, transcript.parts.join('\n'));
    const [id] = JSON.parse(button.slice(button.indexOf('['))) as string[];
    await vscode.commands.executeCommand('mcpHost.openToolView', id);
    await waitFor(() => views()[0]?.state === 'shown', 'the view from chat');
    const time = await inView<string>('#server-time', 'return element.textContent;', 'the chat result in the view', (t) => t !== 'Loading...');
    assert.match(time, /^\d{4}-\d\d-\d\dT/);
  });

  it('opens the view of a tool an agent called through mcpHost_callTool, one tab per tool, and tells the model; view-only tools are neither listed nor callable', async () => {
    const prepared = api.testing.agentToolCalls().length;
    const agentCall = async () => {
      const result = await vscode.lm.invokeTool('mcpHost_callTool', { input: { server: 'basic-app', tool: 'get-time' }, toolInvocationToken: undefined });
      return result.content.map((p) => (p as vscode.LanguageModelTextPart).value);
    };
    try {
      // Allowed for good by hand first, so no confirmation waits (VS Code's own is tested in models.test.ts).
      toolAnswers.push('always');
      await vscode.commands.executeCommand('mcpHost.callTool', (await running('basic-app')).id, 'get-time', {});
      await waitFor(() => views()[0]?.state === 'shown', 'the hand call’s view');
      await closeViewsAndResults();
      await waitFor(async () => views().length === 0 && (await page('iframe#app')).length === 0, 'the hand call’s view closed');

      const parts = await agentCall();
      const [time, note] = [parts[0], parts[parts.length - 1]];
      assert.strictEqual(api.testing.agentToolCalls()[prepared]?.confirmation, undefined, 'always allowed: no confirmation');
      assert.match(time, /^\d{4}-\d\d-\d\dT/);
      assert.match(note, /interactive view \(MCP App\)\. It now shows this result to the user in an editor tab beside the chat/);
      await waitFor(() => views()[0]?.state === 'shown', 'the view of the agent’s call');
      assert.deepStrictEqual(views().map((v) => v.toolName), ['get-time']);
      assert.strictEqual(await inView<string>('#server-time', 'return element.textContent;', 'the agent’s result in the view', (t) => t !== 'Loading...'), time);

      // The next call of the same tool replaces that view: an agent that calls a tool again and again opens one tab, in
      // the view's column even when the user has since moved on to an editor further right ("beside" that one would be
      // a new column).
      const column = views()[0].column;
      assert.ok(column !== undefined, 'the view has a column');
      const elsewhere = await vscode.workspace.openTextDocument({ content: 'the user’s editor' });
      await vscode.window.showTextDocument(elsewhere, { viewColumn: column + 1 });
      await sleep(20);
      const [later] = await agentCall();
      assert.notStrictEqual(later, time);
      // (The replaced view's frame may linger for a moment while the workbench removes it.)
      await waitFor(async () => {
        const shown = (await page('#server-time', { expression: 'return element.textContent;' })).filter((f) => f.url === 'about:srcdoc');
        return shown.length === 1 && shown[0].value === later;
      }, 'the later result in the only view');
      await waitFor(() => views().length === 1 && views()[0].state === 'shown', 'one view');
      assert.strictEqual(vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview).length, 1, 'one tab');
      assert.strictEqual(views()[0].column, column, 'the replacing view opened where the replaced one was');

      // Turned off, an agent's call gets its result and nothing opens.
      await closeViewsAndResults();
      await waitFor(() => views().length === 0, 'the views closed');
      await vscode.workspace.getConfiguration('mcpHost').update('apps.openForAgentCalls', false, vscode.ConfigurationTarget.Global);
      const quiet = await agentCall();
      assert.match(quiet[0], /^\d{4}-\d\d-\d\dT/);
      assert.ok(!quiet.some((p) => /interactive view/.test(p)), `no word of a view: ${quiet.join(' | ')}`);
      await sleep(500);
      assert.deepStrictEqual(views(), [], 'no view opened');
    } finally {
      await vscode.workspace.getConfiguration('mcpHost').update('apps.openForAgentCalls', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('mcpHost.resetToolPermissions');
    }

    // A tool only for its view is neither listed to an agent nor callable by one.
    const listed = await vscode.lm.invokeTool('mcpHost_listTools', { input: { server: 'app-fixture' }, toolInvocationToken: undefined });
    const tools = (JSON.parse((listed.content[0] as vscode.LanguageModelTextPart).value) as { tool: string }[]).map((t) => t.tool);
    assert.ok(tools.includes('show-hostile') && tools.includes('model-only'), tools.join(', '));
    assert.ok(!tools.includes('record-app-call'), 'the view-only tool is not listed');
    const recorded = (await fixtureStats()).appCalls.length;
    await assert.rejects(
      Promise.resolve(vscode.lm.invokeTool('mcpHost_callTool', { input: { server: 'app-fixture', tool: 'record-app-call', arguments: { agent: true } }, toolInvocationToken: undefined })),
      /MCP server "app-fixture" has no tool "record-app-call"/,
    );
    assert.strictEqual((await fixtureStats()).appCalls.length, recorded, 'nothing reached the server');
  });

  it('keeps a hostile view in its sandbox: no parent, top, VS Code API, network, popup or navigation; forged messages go nowhere; a flood of tool calls is refused', async () => {
    await callByHand('app-fixture', 'show-hostile');
    await inView<string>('[data-attempt="done"]', 'return element.textContent;', 'every attempt made');
    const attempts = Object.fromEntries(
      (await inView<[string, string][]>('#attempts', 'return [...element.children].map((li) => [li.dataset.attempt, li.textContent]);', 'the outcomes')).filter(
        ([name]) => name !== 'done',
      ),
    );
    for (const name of [
      'parent-document',
      'top-document',
      'top-location',
      'parent-acquireVsCodeApi',
      'top-acquireVsCodeApi',
      'own-acquireVsCodeApi',
      'fetch',
      'image',
      'websocket',
      'popup',
      'top-navigation',
      'model-only-tool',
      'javascript-link',
    ]) {
      assert.match(attempts[name] ?? 'missing', /^failed: /, `${name}: ${attempts[name]}`);
    }
    assert.match(attempts['model-only-tool'], /TypeError/);
    // A flood of tool calls is refused past the view's burst, with the rate-limit error (-32029).
    assert.match(attempts['tool-call-flood'] ?? 'missing', /^[1-9]\d* of 40 refused: Too many tool calls: a view may make 10 tool calls at once/);
    // sendBeacon may report "queued" for a request the policy then blocks: the network below is what counts.
    assert.ok(attempts.beacon, 'the beacon was tried');
    // It got its tool result all the same: it is a working view, only confined.
    assert.match(await inView<string>('#result', 'return element.textContent;', 'the result'), /result of show-hostile/);
    await sleep(1000);
    assert.deepStrictEqual(exfilHits, [], 'nothing reached the network');
    assert.deepStrictEqual(linkQuestions, [], 'a javascript: link is refused without a dialog');
    assert.ok(!toolQuestions.some((q) => q.argumentsJson.includes('forged')), 'no forged message reached the bridge');
    assert.ok(!(await fixtureStats()).appCalls.some((c) => c.forged), 'nor the server');
    // The workbench is untouched: its window still shows VS Code, not the view's attempts.
    assert.strictEqual((await page('[data-attempt]')).filter((f) => f.url !== 'about:srcdoc').length, 0);
  });

  it('reads a view once per server session, and shows why a broken or oversized view cannot be shown', async () => {
    const readsBefore = (await fixtureStats()).reads['ui://fixture/hostile.html'] ?? 0;
    await callByHand('app-fixture', 'show-hostile');
    await inView<string>('[data-attempt="done"]', 'return element.textContent;', 'the view again');
    assert.strictEqual((await fixtureStats()).reads['ui://fixture/hostile.html'], readsBefore, 'served from the cache');

    for (const [tool, why] of [
      ['show-missing', /This view cannot be shown: reading it failed: .*not found/i],
      ['show-big', /This view cannot be shown: it is 6\.0 MB, more than the 5 MB a view may have/],
      ['show-wrong-type', /This view cannot be shown: its type is "text\/html", not "text\/html;profile=mcp-app"/],
    ] as const) {
      await closeViewsAndResults();
      await waitFor(() => views().length === 0, 'no view open');
      await callByHand('app-fixture', tool);
      await waitFor(() => views()[0]?.state === 'error', `${tool}: the error state`);
      assert.match(views()[0].message ?? '', why);
      const shown = await waitFor(async () => (await page('#status.closed', { expression: 'return element.textContent;' }))[0]?.value, `${tool}: the error shown`);
      assert.match(String(shown), why);
      assert.strictEqual((await page('iframe#app')).length, 0, 'no empty frame');
    }
  });
});
