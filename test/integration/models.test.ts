// Chat with any model, and everything else without one: the demo model (demo/, as `npm run demo` installs it) answers
// @mcp and calls an MCP tool; listings spend no model request; @mcp offers the model only MCP Host's tools; any other
// agent reaches the MCP tools through vscode.lm (a participant that is not ours invokes one, with VS Code's own
// confirmation naming the real tool); and with no model at all, the MCP view says where everything is.
import * as assert from 'assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import {
  activateDemoModel,
  activateFakeLm,
  activateHost,
  answerDialogs,
  askChat,
  DEMO_MODEL,
  FAKE_MODEL,
  repoRoot,
  sleep,
  transcriptMarkdown,
  waitFor,
  type DemoModel,
  type FakeLm,
  type TestedHost,
} from './testKit';

describe('Chat with any model, everything else without one', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let lm: FakeLm;
  let demo: DemoModel;
  let dialogs: vscode.Disposable;
  const toolQuestions: ToolConsentQuestion[] = [];
  const toolAnswers: (ConsentAnswer | undefined)[] = [];

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);
  const running = (name: string) => waitFor(() => server(name)?.state.kind === 'running' && server(name), `${name} running`);

  before(async () => {
    api = await activateHost();
    lm = await activateFakeLm();
    demo = await activateDemoModel();
    dialogs = answerDialogs(api, {
      confirmToolCall: async (q) => {
        toolQuestions.push(q);
        return toolAnswers.shift();
      },
    });
    for (const s of api.getServers()) if (s.state.kind === 'stopped' || s.state.kind === 'blocked') await api.testing.startServer(s.id);
    await running('everything');
  });

  after(async () => {
    dialogs.dispose();
    lm.reset();
    lm.setAvailable(true);
    demo.setAvailable(true);
    await vscode.commands.executeCommand('mcpHost.resetToolPermissions');
  });

  beforeEach(() => {
    lm.reset();
    toolQuestions.length = 0;
    toolAnswers.length = 0;
  });

  it('answers @mcp /tools, /prompts and /resources from the host, without a model request', async () => {
    const before = demo.requests;
    const tools = transcriptMarkdown(await askChat(api, '@mcp /tools', { model: DEMO_MODEL }));
    assert.match(tools, /### everything/);
    assert.match(tools, /get\\-sum/);
    assert.match(transcriptMarkdown(await askChat(api, '@mcp /prompts', { model: DEMO_MODEL })), /args\\-prompt/);
    assert.match(transcriptMarkdown(await askChat(api, '@mcp /resources', { model: DEMO_MODEL })), /architecture\\\.md|Architecture/);
    assert.strictEqual(demo.requests, before, 'no request reached the model');
  });

  it('the demo model calls an MCP tool for @mcp, with consent, and says what it answered', async () => {
    toolAnswers.push('once');
    const before = demo.requests;
    const t = await askChat(api, '@mcp what is 2 + 3?', { model: DEMO_MODEL });
    assert.strictEqual(t.errorMessage, undefined);
    assert.deepStrictEqual(
      toolQuestions.map((q) => [q.serverName, q.toolName, JSON.parse(q.argumentsJson)]),
      [['everything', 'get-sum', { a: 2, b: 3 }]],
    );
    assert.strictEqual(demo.requests - before, 2, 'asked once, then given the result');
    assert.match(transcriptMarkdown(t), /The tool answered:\s+The sum of 2 and 3 is 5\./);
  });

  it('offers the model only MCP Host\'s tools in @mcp', async () => {
    await askChat(api, '@mcp hello', { model: FAKE_MODEL });
    const offered = (lm.calls[0].options.tools ?? []).map((t) => t.name);
    const ours = new Set(
      api
        .getServers()
        .filter((s) => s.state.kind === 'running')
        .map((s) => s.name),
    );
    assert.ok(offered.length > 0);
    const foreign = offered.filter((name) => ![...ours].some((s) => name.startsWith(`${s}_`)));
    assert.deepStrictEqual(foreign, [], 'no tool but the running servers\' (not VS Code\'s, not our agent tools)');
  });

  it('offers the model more tools when the user asks for them with #', async () => {
    lm.setResponder((messages) => {
      const last = messages[messages.length - 1];
      const result = last.content.find((p) => Array.isArray((p as { content?: unknown }).content)) as { content: { value?: string }[] } | undefined;
      return result ? `Listed: ${result.content.map((c) => c.value ?? '').join('')}` : [new vscode.LanguageModelToolCallPart('list-1', 'mcpHost_listTools', { server: 'everything' })];
    });
    const t = await askChat(api, '@mcp #mcpTools which tools does everything have?', { model: FAKE_MODEL });
    const offered = (lm.calls[0].options.tools ?? []).map((x) => x.name);
    assert.ok(offered.includes('mcpHost_listTools'), `the referenced tool offered: ${offered.join(', ')}`);
    assert.ok(offered.includes('everything_get-sum'), 'beside the MCP tools');
    assert.match(transcriptMarkdown(t), /Listed: \[[\s\S]*"name": "everything_get-sum"/);
  });

  it('gives every agent the MCP tools through vscode.lm: listed, and called by server and name', async () => {
    const names = vscode.lm.tools.map((t) => t.name);
    assert.ok(names.includes('mcpHost_listTools') && names.includes('mcpHost_callTool'), names.join(', '));
    const listed = await vscode.lm.invokeTool('mcpHost_listTools', { input: { server: 'everything' }, toolInvocationToken: undefined });
    const list = JSON.parse((listed.content[0] as vscode.LanguageModelTextPart).value) as { name: string; server: string; tool: string }[];
    assert.ok(list.some((t) => t.server === 'everything' && t.tool === 'get-sum' && t.name === 'everything_get-sum'));
    assert.ok(list.every((t) => t.server === 'everything'));
  });

  it('a participant that is not ours invokes an MCP tool, after VS Code\'s confirmation names the real tool, server and arguments', async () => {
    const prepared = api.testing.agentToolCalls().length;
    void vscode.commands.executeCommand('workbench.action.chat.newChat');
    await sleep(300);
    void vscode.commands.executeCommand('workbench.action.chat.open', {
      query: '@foreign {"server": "everything", "tool": "get-sum", "arguments": {"a": 40, "b": 2}}',
      mode: 'ask',
      modelSelector: FAKE_MODEL,
    });
    const call = await waitFor(() => api.testing.agentToolCalls()[prepared], 'the call prepared');
    assert.strictEqual(call.confirmation?.title, 'Run the MCP tool "get-sum" of server "everything"?');
    assert.match(call.confirmation.message, /`get-sum` · MCP server \*\*everything\*\*/);
    assert.match(call.confirmation.message, /```json\n\{\n {2}"a": 40,\n {2}"b": 2\n\}\n```/);
    assert.strictEqual(lm.foreign.length, 1);
    assert.strictEqual(lm.foreign[0].toolFound, true);
    await sleep(500);
    assert.strictEqual(lm.foreign[0].done, false, 'waits for the confirmation');
    await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
    await waitFor(() => lm.foreign[0].done, 'the foreign participant to get the result');
    assert.strictEqual(lm.foreign[0].error, undefined);
    assert.match(lm.foreign[0].text ?? '', /The sum of 40 and 2 is 42\./);
    assert.strictEqual(toolQuestions.length, 0, 'VS Code\'s confirmation was the only question');
  });

  it('runs an MCP tool the user always allowed for any agent without a confirmation, and refuses unknown ones in words', async () => {
    const everything = await running('everything');
    toolAnswers.push('always');
    await vscode.commands.executeCommand('mcpHost.callTool', everything.id, 'get-sum', { a: 1, b: 1 });
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const prepared = api.testing.agentToolCalls().length;
    const result = await vscode.lm.invokeTool('mcpHost_callTool', { input: { server: 'everything', tool: 'get-sum', arguments: { a: 5, b: 6 } }, toolInvocationToken: undefined });
    assert.strictEqual((result.content[0] as vscode.LanguageModelTextPart).value, 'The sum of 5 and 6 is 11.');
    assert.strictEqual(api.testing.agentToolCalls()[prepared].confirmation, undefined, 'always allowed: no confirmation');
    await assert.rejects(
      Promise.resolve(vscode.lm.invokeTool('mcpHost_callTool', { input: { server: 'everything', tool: 'no-such-tool' }, toolInvocationToken: undefined })),
      /MCP server "everything" has no tool "no-such-tool"\. Its tools: echo, /,
    );
  });

  it('with no model at all, the MCP view says where everything that needs none is', async () => {
    assert.strictEqual(api.testing.serversViewMessage(), undefined, 'no message while a model is there');
    lm.setAvailable(false);
    demo.setAvailable(false);
    try {
      await waitFor(async () => (await vscode.lm.selectChatModels()).length === 0, 'no model left');
      const message = await waitFor(() => api.testing.serversViewMessage(), 'the Servers view message');
      assert.match(message, /No chat model is installed/);
      assert.match(message, /click a tool to call it, a prompt to run it/);
      // What the message points at works without a model.
      const everything = await running('everything');
      const expanded = (await vscode.commands.executeCommand('mcpHost.runPrompt', everything.id, 'simple-prompt')) as { text: string };
      assert.ok(expanded.text.length > 0);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      lm.setAvailable(true);
      demo.setAvailable(true);
    }
    await waitFor(() => api.testing.serversViewMessage() === undefined, 'the message gone once a model is back');
  });

  it('finds a model extension installed while the window is open, though it says nothing when its model comes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-late-model-'));
    const vsix = path.join(dir, 'late-model.vsix');
    execFileSync(process.execPath, [path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix], {
      cwd: path.join(repoRoot, 'test', 'fixtures', 'late-model-extension'),
      stdio: 'ignore',
    });
    lm.setAvailable(false);
    demo.setAvailable(false);
    let late: { remove(): void } | undefined;
    try {
      await waitFor(() => api.testing.serversViewMessage(), 'the no-model message');
      await vscode.commands.executeCommand('workbench.extensions.installExtension', vscode.Uri.file(vsix));
      late = await waitFor(() => {
        const installed = vscode.extensions.getExtension<{ remove(): void }>('mcp-host-test.late-model-extension');
        return installed?.isActive && installed.exports;
      }, 'the installed model extension started', 30_000);
      // Nothing here asks VS Code for models: that would make it look again, and hide a stale answer.
      await waitFor(() => api.testing.serversViewMessage() === undefined, 'the no-model message gone', 10_000);
    } finally {
      late?.remove();
      lm.setAvailable(true);
      demo.setAvailable(true);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
