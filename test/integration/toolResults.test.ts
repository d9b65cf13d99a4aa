// Calling a tool by hand: the form is the only consent, the call can be cancelled from its progress notification,
// and the result opens in a read-only view (a webview, never an untitled document) that shows every kind of content
// with its real size, marks errors, opens resource links and runs the call again in one click.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import type { FormFieldPresetQuestion } from '../../src/vscode/dialogs/dialogRouter';
import type { ToolCallOutcome } from '../../src/vscode/tools/toolCommands';
import { activateHost, answerDialogs, sleep, waitFor, submitCallForm, type TestedHost } from './testKit';

/** The command links of a result page: [command, arguments]. */
const links = (html: string): [string, unknown[]][] =>
  [...html.matchAll(/href="command:([\w.]+)\?([^"]*)"/g)].map((m) => [m[1], JSON.parse(decodeURIComponent(m[2])) as unknown[]]);

const webviewTabs = () =>
  vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview);

describe('Calling a tool by hand', function () {
  this.timeout(90_000);
  let api: TestedHost;
  let dialogs: vscode.Disposable;
  const toolQuestions: ToolConsentQuestion[] = [];
  const toolAnswers: (ConsentAnswer | undefined)[] = [];
  const formFields: FormFieldPresetQuestion[] = [];
  let presets: Record<string, string> = {};

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);
  const running = (name: string) => waitFor(() => server(name)?.state.kind === 'running' && server(name), `${name} running`);

  const submitForm = (fields: string[]) => submitCallForm(() => formFields.map((f) => f.field.name), fields);

  before(async () => {
    api = await activateHost();
    dialogs = answerDialogs(api, {
      confirmToolCall: async (q) => {
        toolQuestions.push(q);
        return toolAnswers.shift();
      },
      formFieldPreset: (q) => {
        formFields.push(q);
        return presets[q.field.name];
      },
    });
    for (const s of api.getServers()) if (s.state.kind === 'stopped' || s.state.kind === 'blocked') await api.testing.startServer(s.id);
    await running('slow');
    await running('everything');
  });

  after(async () => {
    dialogs.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  beforeEach(() => {
    toolQuestions.length = 0;
    toolAnswers.length = 0;
    formFields.length = 0;
    presets = {};
  });

  it('shows text, pretty JSON, an image and a sound with their real sizes, links, embedded resources and structured content', async () => {
    const slow = await running('slow');
    const outcome = vscode.commands.executeCommand('mcpHost.callTool', slow.id, 'media') as Thenable<ToolCallOutcome>;
    await submitForm([]); // no arguments: only the review, whose first item runs the tool
    const { html, result } = await outcome;
    assert.strictEqual(toolQuestions.length, 0, 'the form was the consent');
    assert.ok(result && !result.isError);
    await waitFor(() => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputWebview, 'the result in a view of its own');
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.isUntitled), 'no untitled document');
    assert.match(html, /<pre>plain &lt;b&gt;text&lt;\/b&gt;<\/pre>/, 'text as text, escaped');
    assert.match(html, /<pre class="json">\{\n {2}&quot;temperature&quot;: 21,\n {2}&quot;conditions&quot;: &quot;sunny&quot;\n\}<\/pre>/, 'JSON pretty-printed');
    assert.match(html, /Image · image\/png · 70 bytes<\/p><img src="data:image\/png;base64,/);
    assert.match(html, /Audio · audio\/wav · 144 bytes<\/p><audio controls src="data:audio\/wav;base64,/);
    assert.match(html, /Embedded resource · <code>fixture:\/\/note<\/code> · text\/plain<\/p><pre>an embedded note<\/pre>/);
    assert.match(html, /<h2>Structured content<\/h2>/);
    assert.deepStrictEqual(
      links(html).find(([c]) => c === 'mcpHost.openResourceLink'),
      ['mcpHost.openResourceLink', [slow.id, { type: 'resource_link', uri: 'fixture://readme', name: 'readme', title: 'The README', mimeType: 'text/markdown' }]],
    );
  });

  it('opens a resource link of a result as a document of its server', async () => {
    const everything = await running('everything');
    toolAnswers.push('once');
    const { html } = (await vscode.commands.executeCommand('mcpHost.callTool', everything.id, 'get-resource-links', { count: 1 })) as ToolCallOutcome;
    const link = links(html).find(([c]) => c === 'mcpHost.openResourceLink');
    assert.ok(link, html);
    const uri = (link[1][1] as { uri: string }).uri;
    await vscode.commands.executeCommand(link[0], ...link[1]);
    await waitFor(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputText && input.uri.scheme === 'mcp-host-resource' && new URLSearchParams(input.uri.query).get('uri') === uri;
    }, `${uri} open`);
  });

  it('marks a result the tool flagged as an error, runs it again in one click in the same view, or with changed arguments', async () => {
    const slow = await running('slow');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    presets = { why: 'first' };
    const outcome = vscode.commands.executeCommand('mcpHost.callTool', slow.id, 'fail') as Thenable<ToolCallOutcome>;
    await submitForm(['why']);
    const first = await outcome;
    assert.strictEqual(first.result?.isError, true);
    assert.match(first.html, /✗ the tool reported an error/);
    assert.match(first.html, /Error returned by the tool<\/h2><div class="block"><pre>failed: first<\/pre>/);

    const [again, edit] = links(first.html).filter(([c]) => c === 'mcpHost.rerunToolCall');
    assert.deepStrictEqual(again, ['mcpHost.rerunToolCall', [first.callId]]);
    const second = (await vscode.commands.executeCommand(again[0], ...again[1])) as ToolCallOutcome;
    assert.strictEqual(second.callId, first.callId);
    assert.match(second.html, /failed: first/);
    assert.match(second.html, / · run 2<\/p>/);
    assert.strictEqual(toolQuestions.length, 0, 'run again asks nothing: the arguments are on screen');
    await waitFor(() => webviewTabs().length === 1, 'one result view');
    await sleep(500);
    assert.strictEqual(webviewTabs().length, 1, 'the same view shows the new result');

    formFields.length = 0;
    presets = {};
    const changed = vscode.commands.executeCommand(edit[0], ...edit[1]) as Thenable<ToolCallOutcome>;
    await waitFor(() => formFields.some((f) => f.field.name === 'why'), 'the form again');
    await sleep(300);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'); // keeps the earlier "first"
    await sleep(800);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const third = await changed;
    assert.deepStrictEqual(third.arguments, { why: 'first' }, 'the form started from the earlier arguments');
    assert.match(third.html, / · run 3<\/p>/);
    await sleep(500);
    assert.strictEqual(webviewTabs().length, 1);
  });

  it('cancels a running call from its progress notification, and the server hears of it', async () => {
    const slow = await running('slow');
    toolAnswers.push('once');
    const outcome = vscode.commands.executeCommand('mcpHost.callTool', slow.id, 'sleep', { ms: 30_000 }) as Thenable<ToolCallOutcome | undefined>;
    await waitFor(() => toolQuestions.length === 1, 'the consent (arguments came with the command)');
    await sleep(1500);
    const started = Date.now();
    await vscode.commands.executeCommand('notification.acceptPrimaryAction'); // the progress notification's Cancel
    const cancelled = await outcome;
    assert.ok(Date.now() - started < 10_000);
    // The result view says it was cancelled, and by whom, not nothing at all.
    assert.match(cancelled!.html, /⊘ cancelled/);
    assert.match(cancelled!.html, /The tool &quot;sleep&quot; was cancelled: you cancelled it\./);
    const received = await waitFor(async () => {
      const r = (await api.testing.callTool(slow.id, 'cancellations')) as { content: { text: string }[] };
      const list = JSON.parse(r.content[0].text) as { wasRunning: boolean }[];
      return list.length > 0 && list;
    }, 'the server to record notifications/cancelled', 5000);
    assert.strictEqual(received.at(-1)!.wasRunning, true);
  });

  it('says in plain words that the server was restarted, or stopped, while the tool ran', async () => {
    for (const [how, words] of [
      ['mcpHost.restartServer', 'restarted'],
      ['mcpHost.stopServer', 'stopped'],
    ] as const) {
      const slow = await running('slow');
      toolAnswers.push('once');
      const outcome = vscode.commands.executeCommand('mcpHost.callTool', slow.id, 'sleep', { ms: 30_000 }) as Thenable<ToolCallOutcome | undefined>;
      await waitFor(() => toolQuestions.length > 0, 'the consent');
      toolQuestions.length = 0;
      await sleep(1000);
      await vscode.commands.executeCommand(how, slow.id);
      const ended = await outcome;
      assert.doesNotMatch(ended!.html, /operation was aborted/);
      assert.match(ended!.html, new RegExp(`The tool &quot;sleep&quot; was cancelled: its server &quot;slow&quot; was ${words} while the tool ran\\.`));
      if (how === 'mcpHost.stopServer') await api.testing.startServer(slow.id);
    }
  });
});
