// @mcp in a real Chat view, answered by the fake language model of the test fixture extension: prompts reach the
// server and the model, arguments are completed in a quick pick, tool calls ask consent and go back to the model,
// cancelling a chat request cancels the MCP call. Also "MCP: Run Prompt…" and "MCP: Call Tool…" without chat (their
// result views: test/integration/toolResults.test.ts).
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ChatTranscript } from '../../src/vscode/chat/chatTranscripts';
import type { FormFieldPresetQuestion } from '../../src/vscode/dialogs/dialogRouter';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { ConsentAnswer, TextQuestion } from '../../src/core/features/userQuestions';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import type { ToolCallOutcome } from '../../src/vscode/tools/toolCommands';
import { activateFakeLm, activateHost, answerDialogs, askChat, FAKE_MODEL, sleep, transcriptMarkdown, waitFor, type FakeLm, type TestedHost } from './testKit';

/** Text of a message's parts, tool results included (their content is text parts). */
function textOf(message: vscode.LanguageModelChatMessage): string {
  return message.content
    .map((p) => {
      const part = p as { value?: unknown; callId?: string; content?: unknown[] };
      if (typeof part.value === 'string') return part.value;
      if (part.callId && Array.isArray(part.content)) return `[result ${part.callId}] ${part.content.map((c) => (c as { value?: string }).value ?? '').join('')}`;
      return '';
    })
    .join('');
}

const toolResults = (message: vscode.LanguageModelChatMessage) =>
  message.content.filter((p) => Array.isArray((p as { content?: unknown }).content) && typeof (p as { callId?: unknown }).callId === 'string');

describe('@mcp chat participant', function () {
  this.timeout(90_000);
  let api: TestedHost;
  let lm: FakeLm;
  const toolQuestions: ToolConsentQuestion[] = [];
  const toolAnswers: (ConsentAnswer | undefined)[] = [];
  /** Form fields shown (in order) and the text each starts with: tests cannot type into the input box. */
  const formFields: string[] = [];
  let presets: Record<string, string> = {};
  const textQuestions: TextQuestion[] = [];
  const textAnswers: (string | undefined)[] = [];
  let dialogs: vscode.Disposable;

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);
  const running = (name: string) => waitFor(() => server(name)?.state.kind === 'running' && server(name), `${name} running`);

  const ask = (query: string, options: { wait?: boolean; sameChat?: boolean } = {}) => askChat(api, query, { ...options, model: FAKE_MODEL });

  /** The text of a document the response lists as a reference. */
  async function referencedDocument(t: ChatTranscript, name: RegExp): Promise<string> {
    const ref = t.parts.find((p) => p.startsWith('reference: ') && name.test(p));
    assert.ok(ref, `a reference matching ${name} in ${t.parts.join('\n')}`);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(ref.slice('reference: '.length)));
    return doc.getText();
  }

  const markdown = transcriptMarkdown;

  before(async () => {
    api = await activateHost();
    lm = await activateFakeLm();
    dialogs = answerDialogs(api, {
      confirmToolCall: async (q) => {
        toolQuestions.push(q);
        return toolAnswers.shift();
      },
      formFieldPreset: (q: FormFieldPresetQuestion) => {
        formFields.push(q.field.name);
        return presets[q.field.name];
      },
      inputText: async (q) => {
        textQuestions.push(q);
        return textAnswers.shift();
      },
    });
    await waitFor(() => api.getServers().length >= 3, 'servers configured');
    for (const s of api.getServers()) if (s.state.kind === 'stopped' || s.state.kind === 'blocked') await api.testing.startServer(s.id);
    await running('everything');
    await running('slow');
  });

  after(() => {
    dialogs.dispose();
    lm.reset();
  });

  beforeEach(() => {
    lm.reset();
    toolQuestions.length = 0;
    toolAnswers.length = 0;
    formFields.length = 0;
    presets = {};
    textQuestions.length = 0;
    textAnswers.length = 0;
  });

  it('runs /prompt everything.args-prompt city=Paris: the server expands it and the model receives the text', async () => {
    const t = await ask('@mcp /prompt everything.args-prompt city=Paris');
    assert.strictEqual(t.command, 'prompt');
    assert.strictEqual(t.errorMessage, undefined);
    assert.strictEqual(lm.calls.length, 1);
    const [message] = lm.calls[0].messages;
    assert.strictEqual(message.role, vscode.LanguageModelChatMessageRole.User);
    assert.strictEqual(textOf(message), "What's weather in Paris?");
    const md = markdown(t);
    assert.match(md, /Sent the prompt \*\*everything\\\.args\\-prompt\*\*, as the server filled it in \(1 message\), to the model/);
    assert.match(md, /fake-model: What's weather in Paris\?/, 'the answer streams into the response');
    const expanded = await referencedDocument(t, /everything\.args-prompt\.md$/);
    assert.match(expanded, /\*\*user\*\*\n\n```\nWhat's weather in Paris\?\n```/, 'what was sent, behind the collapsed references');
    const offered = (lm.calls[0].options.tools ?? []).map((x) => x.name);
    assert.ok(offered.includes('everything_get-sum') && offered.includes('slow_sleep'), `tools offered: ${offered.join(', ')}`);
  });

  it('explains an unknown prompt by listing what exists', async () => {
    const t = await ask('@mcp /prompt everything.no-such-prompt');
    assert.match(markdown(t), /Server "everything" has no prompt "no-such-prompt"\. Its prompts: .*`args-prompt`/);
    assert.strictEqual(lm.calls.length, 0);
  });

  it('collects a missing argument in a quick pick with completion/complete suggestions', async () => {
    const t = await ask('@mcp /prompt everything.completable-prompt', { wait: false });
    const department = await waitFor(() => {
      const pick = api.testing.argumentPick();
      return pick?.argument === 'department' && pick.items.includes('Engineering') && pick;
    }, 'the department pick with suggestions');
    assert.deepStrictEqual(department.items.slice(0, 4), ['Engineering', 'Sales', 'Marketing', 'Support']);
    department.setValue('E');
    await waitFor(() => !department.busy && department.items[0] === 'Engineering' && !department.items.includes('Sales'), 'suggestions for "E"');
    assert.deepStrictEqual(department.items.slice(0, 2), ['Engineering', 'E']);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const name = await waitFor(() => {
      const pick = api.testing.argumentPick();
      return pick?.argument === 'name' && !pick.busy && pick.items.includes('Bob') && pick;
    }, 'the name pick, narrowed by the department');
    assert.deepStrictEqual(name.items.slice(0, 3), ['Alice', 'Bob', 'Charlie'], 'the earlier argument went along as context');
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await waitFor(() => name.active === 'Bob', 'Bob highlighted');
    // Suggestions asked again (as on every keystroke) bring the same list: the highlight stays on Bob.
    name.setValue('');
    await sleep(300); // past the 150 ms the pick waits after a keystroke before it asks
    await waitFor(() => !name.busy, 'the suggestions asked again');
    assert.strictEqual(name.active, 'Bob', 'the highlight stayed where the user moved it');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await waitFor(() => t.done, 'the response');
    assert.strictEqual(textOf(lm.calls[0].messages[0]), 'Please promote Bob to the head of the Engineering team.');
  });

  it('runs get-sum when the model calls it and the user allows it, and gives the result back to the model', async () => {
    lm.setResponder((messages) => {
      const results = messages.flatMap(toolResults);
      return results.length ? 'The tool says 5.' : [new vscode.LanguageModelToolCallPart('call-1', 'everything_get-sum', { a: 2, b: 3 })];
    });
    toolAnswers.push('once');
    const t = await ask('@mcp what is 2 + 3?');
    assert.strictEqual(t.errorMessage, undefined);
    assert.strictEqual(toolQuestions.length, 1);
    assert.strictEqual(toolQuestions[0].serverName, 'everything');
    assert.strictEqual(toolQuestions[0].toolName, 'get-sum');
    assert.deepStrictEqual(JSON.parse(toolQuestions[0].argumentsJson), { a: 2, b: 3 });
    assert.strictEqual(lm.calls.length, 2);
    const second = lm.calls[1].messages;
    assert.ok(second.some((m) => m.content.some((p) => p instanceof vscode.LanguageModelToolCallPart && p.callId === 'call-1')), 'the call is in the history');
    const last = second[second.length - 1];
    assert.strictEqual(toolResults(last).length, 1);
    assert.match(textOf(last), /\[result call-1\] The sum of 2 and 3 is 5\./);
    const md = markdown(t);
    assert.match(md, /\*\*Get Sum Tool \\\(everything\\\)\*\*:/, 'the call is shown');
    assert.match(md, /```\nThe sum of 2 and 3 is 5\.\n```/, 'with its result');
    const call = await referencedDocument(t, /everything\.get-sum\.md$/);
    assert.match(call, /Input:\n\n```json\n\{\n {2}"a": 2,\n {2}"b": 3\n\}\n```/, 'input and result behind the references');
    assert.match(md, /The tool says 5\./);
  });

  it('tells the model a denied call was denied, without running it', async () => {
    lm.setResponder((messages) =>
      messages.flatMap(toolResults).length ? 'Understood.' : [new vscode.LanguageModelToolCallPart('call-2', 'everything_get-sum', { a: 1, b: 1 })],
    );
    toolAnswers.push('deny');
    const t = await ask('@mcp add 1 and 1');
    assert.strictEqual(toolQuestions.length, 1);
    const last = lm.calls[1].messages[lm.calls[1].messages.length - 1];
    assert.match(textOf(last), /\[result call-2\] The user denied this tool call/);
    assert.doesNotMatch(textOf(last), /The sum of/);
    assert.match(markdown(t), /Get Sum Tool \\\(everything\\\): denied; the model was told/);
  });

  it('cancelling the chat request mid-call sends notifications/cancelled to the server', async () => {
    const slow = await running('slow');
    lm.setResponder(() => [new vscode.LanguageModelToolCallPart('call-3', 'slow_sleep', { ms: 30_000 })]);
    toolAnswers.push('once');
    const t = await ask('@mcp take your time', { wait: false });
    await waitFor(() => t.parts.some((p) => p.startsWith('progress: Running sleep (slow)')), 'the slow tool to run');
    await sleep(300);
    const started = Date.now();
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    await waitFor(() => t.done, 'the cancelled response to end', 10_000);
    assert.ok(Date.now() - started < 10_000);
    const received = await waitFor(async () => {
      const r = (await api.testing.callTool(slow.id, 'cancellations')) as { content: { text: string }[] };
      const list = JSON.parse(r.content[0].text) as { requestId: unknown; wasRunning: boolean }[];
      return list.length > 0 && list;
    }, 'the server to record notifications/cancelled', 5000);
    assert.strictEqual(received.at(-1)!.wasRunning, true, 'the running sleep request was the one cancelled');
  });

  it('gives the model the earlier @mcp turns of the same chat, as they were sent and answered', async () => {
    await ask('@mcp /prompt everything.args-prompt city=Oslo');
    await ask('@mcp and tomorrow?', { sameChat: true });
    const messages = lm.calls[1].messages;
    assert.deepStrictEqual(
      messages.map((m) => [m.role, textOf(m)]),
      [
        [vscode.LanguageModelChatMessageRole.User, "What's weather in Oslo?"],
        [vscode.LanguageModelChatMessageRole.Assistant, "fake-model: What's weather in Oslo?"],
        [vscode.LanguageModelChatMessageRole.User, 'and tomorrow?'],
      ],
    );
  });

  it('gives the model the resources attached to chat, once', async () => {
    const everything = await running('everything');
    const resource = everything.features.resources[0];
    await vscode.commands.executeCommand('mcpHost.attachResourceToChat', everything.id, resource.uri);
    await ask('@mcp summarize the attachment');
    const first = textOf(lm.calls[0].messages[lm.calls[0].messages.length - 1]);
    assert.ok(first.includes(`<resource uri="${resource.uri}"`), first);
    assert.ok(first.endsWith('summarize the attachment'));
    lm.reset();
    await ask('@mcp and again?');
    assert.doesNotMatch(textOf(lm.calls[0].messages[lm.calls[0].messages.length - 1]), /<resource /, 'taken by the first request only');
  });

  it('lists prompts, tools and resources with links that run, call or attach them', async () => {
    const link = (title: string, command: string, args: unknown[]) =>
      `[${title.replace(/[.-]/g, (c) => `\\${c}`)}](command:${command}?${encodeURIComponent(JSON.stringify(args))})`;
    const everything = await running('everything');
    const prompts = markdown(await ask('@mcp /prompts'));
    assert.ok(prompts.includes(link('Run everything.args-prompt', 'mcpHost.openChat', [{ query: '@mcp /prompt everything.args-prompt' }])), prompts);
    const tools = markdown(await ask('@mcp /tools'));
    assert.ok(tools.includes(link('Call get-sum…', 'mcpHost.callTool', [everything.id, 'get-sum'])), tools);
    assert.match(tools, /### slow/);
    const resources = markdown(await ask('@mcp /resources'));
    const uri = everything.features.resources[0].uri;
    assert.ok(resources.includes(`(command:mcpHost.attachResourceToChat?${encodeURIComponent(JSON.stringify([everything.id, uri]))})`), resources);
  });

  it('expands a prompt into a read-only Markdown document without any model (MCP: Run Prompt…)', async () => {
    const everything = await running('everything');
    const expanded = (await vscode.commands.executeCommand('mcpHost.runPrompt', everything.id, 'args-prompt', { city: 'Lyon' })) as {
      document: vscode.TextDocument;
      text: string;
    };
    assert.strictEqual(expanded.text, "What's weather in Lyon?");
    assert.strictEqual(expanded.document.languageId, 'markdown');
    assert.strictEqual(expanded.document.isUntitled, false, 'not an untitled document that asks to be saved');
    assert.strictEqual(vscode.window.activeTextEditor?.document, expanded.document, 'the document on screen');
    const doc = expanded.document.getText();
    assert.match(doc, /What's weather in Lyon\?/);
    assert.match(doc, /In chat: `@mcp \/prompt everything\.args-prompt city=Lyon`/);
    assert.strictEqual(lm.calls.length, 0, 'no model involved');
    await vscode.env.clipboard.writeText('');
    await sleep(500);
    await vscode.commands.executeCommand('notification.acceptPrimaryAction'); // "Copy Messages"
    await waitFor(async () => (await vscode.env.clipboard.readText()) === "What's weather in Lyon?", 'the messages on the clipboard', 5000);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('calls a tool outside chat after asking, and shows the result in a read-only view (MCP: Call Tool…)', async () => {
    const everything = await running('everything');
    toolAnswers.push('always');
    const outcome = (await vscode.commands.executeCommand('mcpHost.callTool', everything.id, 'get-sum', { a: 20, b: 22 })) as ToolCallOutcome;
    assert.strictEqual(toolQuestions.length, 1);
    assert.strictEqual(toolQuestions[0].argumentsFromCaller, true, 'the dialog says the arguments came with the command');
    await waitFor(() => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputWebview, 'the result view on screen');
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.isUntitled && d.isDirty), 'no untitled document to save');
    assert.match(outcome.html, /<h1>Get Sum Tool \(get-sum\)<\/h1>[\s\S]*The sum of 20 and 22 is 42\./);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    toolAnswers.push('deny');
    try {
      assert.strictEqual(await vscode.commands.executeCommand('mcpHost.callTool', everything.id, 'get-sum', { a: 1, b: 2 }), undefined);
      assert.strictEqual(toolQuestions.length, 2, 'asked although always allowed: a link must not run a tool with arguments nobody saw');
    } finally {
      await vscode.commands.executeCommand('mcpHost.resetToolPermissions');
    }
  });

  it('builds the Call Tool form from the input schema, and runs the call with what was entered, asking nothing more', async () => {
    const everything = await running('everything');
    presets = { a: '20', b: '22' };
    const outcome = vscode.commands.executeCommand('mcpHost.callTool', everything.id, 'get-sum') as Thenable<ToolCallOutcome>;
    for (const field of ['a', 'b']) {
      await waitFor(() => formFields.includes(field), `the form to ask for "${field}"`);
      await sleep(300);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    await sleep(800);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'); // the review step: Run get-sum
    const done = await outcome;
    assert.deepStrictEqual(done.arguments, { a: 20, b: 22 }, 'numbers, as the schema says');
    assert.strictEqual(toolQuestions.length, 0, 'the form was the consent: no second question');
    assert.match(done.html, /The sum of 20 and 22 is 42\./);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('asks for JSON when a form cannot express the input schema', async () => {
    const slow = await running('slow');
    textAnswers.push('{"items": [{"x": 1}]}');
    const outcome = (await vscode.commands.executeCommand('mcpHost.callTool', slow.id, 'echo-json')) as ToolCallOutcome;
    assert.strictEqual(textQuestions.length, 1);
    assert.match(textQuestions[0].prompt, /A form cannot ask for these arguments/);
    assert.strictEqual(toolQuestions.length, 0, 'the typed arguments were the consent');
    assert.deepStrictEqual(outcome.result?.content, [{ type: 'text', text: '{"items":[{"x":1}]}' }]);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
