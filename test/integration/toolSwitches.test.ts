// Tools switched off and approval per server, in a real VS Code: a tool's checkbox clicked in the Servers view, a
// `tools` list in a folder's .mcp.json, and "ask only for tools not marked read-only" chosen with Set Tool Approval…,
// seen by what the fake model is offered, what the agent tools answer and which calls ask.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { pageQuery } from './pageRequests';
import { activateFakeLm, activateHost, answerDialogs, askChat, fixtureServer, serversTreeChild, serverTreeRow, sleep, transcriptMarkdown, waitFor, WorkspaceConfig, FAKE_MODEL, type FakeLm, type TestedHost } from './testKit';

const toolResults = (message: vscode.LanguageModelChatMessage) => message.content.filter((p) => Array.isArray((p as { content?: unknown }).content));

/**
 * Clicks, in the Servers view on screen, the first row labelled `label` after the row `after` (or from the top): its label,
 * its chevron (`expand`: only if not expanded yet, a click toggles), or its checkbox (`check` / `uncheck`: only if the box
 * on screen is not so yet, so that a click lost to a redrawn row can be tried again without undoing one that landed).
 */
async function clickRow(label: string, after: string, part: 'row' | 'check' | 'uncheck' | 'expand'): Promise<void> {
  const [outcome] = await pageQuery<string>(
    '.monaco-workbench',
    `const pane = [...document.querySelectorAll('.pane')].find((p) => p.querySelector('.pane-header')?.innerText.trim().startsWith('Servers'));
     if (!pane) return 'no Servers view';
     const rows = [...pane.querySelectorAll('.pane-body .monaco-list-row')];
     const name = (r) => r.querySelector('.label-name')?.textContent.trim() ?? '';
     const start = ${JSON.stringify(after)} ? rows.findIndex((r) => name(r) === ${JSON.stringify(after)}) : -1;
     const row = ${JSON.stringify(after)} && start < 0 ? undefined : rows.slice(start + 1).find((r) => name(r).startsWith(${JSON.stringify(label)}));
     if (!row) return 'no row: ' + rows.map(name).join(' | ');
     const part = ${JSON.stringify(part)};
     const box = part === 'check' || part === 'uncheck';
     const target = row.querySelector(box ? '.custom-view-tree-node-item-checkbox' : part === 'expand' ? '.monaco-tl-twistie' : '.label-name');
     if (!target) return 'no ' + part + ' target on ' + name(row);
     if (part === 'expand' && row.getAttribute('aria-expanded') === 'true') return 'clicked';
     if (box && target.getAttribute('aria-checked') === String(part === 'check')) return 'clicked';
     target.click();
     return 'clicked';`,
  );
  assert.strictEqual(outcome, 'clicked');
}

/** Sets a row's checkbox on screen as a user does, clicking again if a click was lost to a redrawn row, until `done`. */
async function setCheckbox(label: string, after: string, checked: boolean, done: () => boolean, what: string): Promise<void> {
  await waitFor(async () => {
    if (done()) return true;
    try {
      await clickRow(label, after, checked ? 'check' : 'uncheck');
    } catch {
      // The row is being redrawn: try again.
    }
    await sleep(300);
    return done();
  }, what);
}

describe('tools switched off and approval per server', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let lm: FakeLm;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;
  const questions: ToolConsentQuestion[] = [];
  let portable: vscode.Uri;

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);
  const running = async (name: string) => {
    const found = await waitFor(() => server(name), `${name} configured`);
    if (found.state.kind !== 'running' && found.state.kind !== 'starting') await api.testing.startServer(found.id);
    return waitFor(() => server(name)?.state.kind === 'running' && server(name), `${name} running`, 30_000);
  };
  const offered = (call = 0) => (lm.calls[call]?.options.tools ?? []).map((t) => t.name);
  const callTool = (input: object) => Promise.resolve(vscode.lm.invokeTool('mcpHost_callTool', { input, toolInvocationToken: undefined }));

  before(async () => {
    api = await activateHost();
    lm = await activateFakeLm();
    dialogs = answerDialogs(api, {
      confirmToolCall: async (q) => {
        questions.push(q);
        return 'once';
      },
    });
    config = await WorkspaceConfig.read();
    portable = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.mcp.json');
    await config.writeServers({
      basic: { command: 'node', args: [fixtureServer('basic-server.mjs')] },
      slow: { command: 'node', args: [fixtureServer('slow-tool-server.mjs')] },
    });
    // Copilot CLI's allow-list, in the folder's .mcp.json.
    await vscode.workspace.fs.writeFile(portable, new TextEncoder().encode(JSON.stringify({ mcpServers: { picky: { command: 'node', args: [fixtureServer('basic-server.mjs')], tools: ['echo'] } } })));
    for (const name of ['basic', 'slow', 'picky']) await running(name);
  });

  after(async () => {
    dialogs.dispose();
    lm.reset();
    await vscode.workspace.fs.delete(portable);
    await config.restore();
  });

  beforeEach(() => {
    lm.reset();
    questions.length = 0;
  });

  it('a tool unchecked in the Servers view is not offered to @mcp, nor callable by the agent tools', async () => {
    await vscode.commands.executeCommand('mcpHost.servers.focus');
    const basicRow = await serverTreeRow(api, 'basic');
    const tools = await serversTreeChild(api, basicRow, /^Tools/);
    const whoami = await serversTreeChild(api, tools.node, /^whoami$/);
    assert.strictEqual(whoami.item.checkboxState, vscode.TreeItemCheckboxState.Checked, 'a tool is on until switched off');
    // The user opens the server's tools and clears the checkbox of "whoami".
    await waitFor(async () => {
      try {
        // Another suite may have left the server or the group folded, or expanded: a click on an expanded row would fold it.
        await clickRow('basic', '', 'expand');
        await sleep(300);
        await clickRow('Tools', 'basic', 'expand');
        await sleep(300);
        await clickRow('whoami', 'basic', 'uncheck');
        return true;
      } catch {
        return false;
      }
    }, 'the whoami row on screen, and its checkbox clicked');
    await setCheckbox('whoami', 'basic', false, () => !!server('basic')?.toolChoices?.off?.has('whoami'), 'whoami switched off');
    const toolsNow = await serversTreeChild(api, await serverTreeRow(api, 'basic'), /^Tools/);
    assert.strictEqual((await serversTreeChild(api, toolsNow.node, /^whoami$/)).item.checkboxState, vscode.TreeItemCheckboxState.Unchecked);
    assert.strictEqual((await serverTreeRow(api, 'basic').then((row) => api.testing.serversTree.getTreeItem(row as never))).checkboxState, vscode.TreeItemCheckboxState.Checked, 'the server stays on while some of its tools are');

    const t = await askChat(api, '@mcp hello', { model: FAKE_MODEL });
    assert.strictEqual(t.errorMessage, undefined);
    assert.ok(offered().includes('basic_echo'), offered().join(', '));
    assert.ok(!offered().includes('basic_whoami'), `whoami offered: ${offered().join(', ')}`);
    await assert.rejects(callTool({ server: 'basic', tool: 'whoami' }), /The tool "whoami" of MCP server "basic" is switched off in the MCP Servers view/);
    const list = ((await vscode.lm.invokeTool('mcpHost_listTools', { input: { server: 'basic' }, toolInvocationToken: undefined })).content[0] as vscode.LanguageModelTextPart).value;
    assert.doesNotMatch(list, /whoami/);

    // Checked again, it is back.
    await setCheckbox('whoami', 'basic', true, () => !server('basic')?.toolChoices?.off?.has('whoami'), 'whoami switched on again');
    lm.reset();
    await askChat(api, '@mcp hello again', { model: FAKE_MODEL });
    assert.ok(offered().includes('basic_whoami'), offered().join(', '));

    // The server's own checkbox switches all its tools off (those it adds later too), and on again.
    await setCheckbox('basic', '', false, () => server('basic')?.toolChoices?.allOff === true, 'every tool of basic switched off');
    lm.reset();
    await askChat(api, '@mcp and now?', { model: FAKE_MODEL });
    assert.deepStrictEqual(offered().filter((n) => n.startsWith('basic_')), []);
    await setCheckbox('basic', '', true, () => !server('basic')?.toolChoices?.allOff && (server('basic')?.toolChoices?.off?.size ?? 0) === 0, 'every tool of basic switched on');
  });

  it('a "tools" list in .mcp.json offers only those tools, and the view says which its file switched off', async () => {
    await askChat(api, '@mcp hello', { model: FAKE_MODEL });
    assert.deepStrictEqual(offered().filter((n) => n.startsWith('picky_')), ['picky_echo']);
    await assert.rejects(callTool({ server: 'picky', tool: 'whoami' }), /The tool "whoami" of MCP server "picky" is switched off in its configuration file/);
    const tools = await serversTreeChild(api, await serverTreeRow(api, 'picky'), /^Tools/);
    const whoami = await serversTreeChild(api, tools.node, /^whoami$/);
    assert.strictEqual(whoami.item.description, 'off in its file');
    assert.strictEqual(whoami.item.checkboxState, undefined, 'no checkbox: the file decides');
    assert.strictEqual((await serversTreeChild(api, tools.node, /^echo$/)).item.checkboxState, vscode.TreeItemCheckboxState.Checked);
  });

  it('"ask only for tools not marked read-only", chosen in the view, runs an annotated tool without a dialog and asks for the other', async () => {
    const slow = await running('slow');
    const choosing = vscode.commands.executeCommand('mcpHost.setToolApproval', slow.id);
    await sleep(1000);
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await choosing;
    await waitFor(() => server('slow')?.toolChoices?.approval === 'askUnlessReadOnly', 'the policy chosen');

    lm.setResponder((messages) => {
      const done = messages.flatMap(toolResults).length;
      if (done === 0) return [new vscode.LanguageModelToolCallPart('c1', 'slow_cancellations', {})];
      if (done === 1) return [new vscode.LanguageModelToolCallPart('c2', 'slow_echo-json', { items: [{ x: 1 }] })];
      return 'Done.';
    });
    const t = await askChat(api, '@mcp look, then write', { model: FAKE_MODEL });
    assert.strictEqual(t.errorMessage, undefined);
    assert.deepStrictEqual(questions.map((q) => q.toolName), ['echo-json'], 'only the tool not marked read-only asked');
    assert.match(transcriptMarkdown(t), /cancellations \\\(slow\\\) ran without asking\\: slow marks it read\\-only/);

    // The agent tools follow the same policy, and say why a call was not confirmed.
    const prepared = api.testing.agentToolCalls().length;
    await callTool({ server: 'slow', tool: 'cancellations' });
    assert.strictEqual(api.testing.agentToolCalls()[prepared].confirmation, undefined);
    assert.match(api.testing.agentToolCalls()[prepared].invocationMessage, /ran without asking: slow marks it read-only/);
  });
});
