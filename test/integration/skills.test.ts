// Skills (the io.modelcontextprotocol/skills extension) the way a user reaches them: the Servers view lists a server's
// skills and their files, a click opens one read-only once verified, a tampered skill is refused and its row says so,
// @mcp's model (the demo model) loads a skill's instructions through the host's load_skill tool, with consent, and a
// skill attached from its row by the user goes with the next @mcp request.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { activateDemoModel, activateFakeLm, activateHost, answerDialogs, askChat, DEMO_MODEL, FAKE_MODEL, fixtureServer, transcriptMarkdown, waitFor, WorkspaceConfig, serversTreeChild, serverTreeRow, type TestedHost } from './testKit';

type TreeNode = unknown;

describe('Skills', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;
  const toolQuestions: ToolConsentQuestion[] = [];
  const toolAnswers: (ConsentAnswer | undefined)[] = [];

  const child = (parent: TreeNode | undefined, label: RegExp, description?: RegExp) => serversTreeChild(api, parent, label, description);
  const serverRow = () => serverTreeRow(api, 'skills');
  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);

  async function skillRow(name: string) {
    const group = await child(await serverRow(), /^Skills \(3\)$/);
    return child(group.node, new RegExp(`^${name}$`));
  }

  before(async () => {
    api = await activateHost();
    await activateDemoModel();
    config = await WorkspaceConfig.read();
    dialogs = answerDialogs(api, {
      confirmToolCall: async (q) => {
        toolQuestions.push(q);
        return toolAnswers.shift();
      },
    });
    await config.writeServers({ ...config.servers(), skills: { command: 'node', args: [fixtureServer('skills-server.mjs')] } });
    await api.testing.reloadConfiguration();
    const s = await waitFor(() => server('skills'), 'skills configured');
    if (s.state.kind !== 'running') await api.testing.startServer(s.id);
    await waitFor(() => server('skills')?.state.kind === 'running', 'skills running');
  });

  after(async () => {
    dialogs.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('mcpHost.resetToolPermissions');
    await config.restore();
    await api.testing.reloadConfiguration();
  });

  it('lists the skills in the Servers view and opens a file read-only from its row', async () => {
    const { node, item } = await skillRow('code-review');
    assert.strictEqual(item.description, 'Review a change for correctness and style');
    const files = await child(node, /^references\/CHECKLIST\.md$/);
    const command = files.item.command!;
    assert.strictEqual(command.command, 'mcpHost.openSkillFile');
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.scheme === 'mcp-skill' && vscode.window.activeTextEditor, 'the skill file open');
    assert.match(editor.document.getText(), /No secrets in logs/);
    assert.strictEqual(editor.document.languageId, 'markdown');
    // A document of a content provider: VS Code refuses edits to it.
    const edited = await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'x'));
    assert.ok(!edited || !editor.document.getText().startsWith('x'), 'read-only');
  });

  it('refuses a tampered skill: nothing opens, and its row says why', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const { item } = await skillRow('tampered');
    assert.strictEqual((item.iconPath as vscode.ThemeIcon).id, 'book');
    // The skill's row opens its SKILL.md, through the context menu's command with the real node.
    const { node } = await skillRow('tampered');
    await vscode.commands.executeCommand('mcpHost.openSkillFile', node);
    const refused = await waitFor(async () => {
      const row = await skillRow('tampered');
      return row.item.description === 'refused: failed verification' && row;
    }, 'the row to show the refusal');
    assert.strictEqual((refused.item.iconPath as vscode.ThemeIcon).id, 'warning');
    // The tooltip, as the row's hover asks for it.
    assert.strictEqual(refused.item.tooltip, undefined, 'made only on hover');
    const hovered = await api.testing.serversTree.resolveTreeItem!(refused.item, refused.node as never, new vscode.CancellationTokenSource().token);
    assert.match((hovered!.tooltip as vscode.MarkdownString).value, /Refused:.*digest/i);
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.scheme === 'mcp-skill', false, 'nothing opened');
  });

  it('@mcp\'s model loads a skill through load_skill, after the user allows it', async () => {
    toolAnswers.push('once');
    const t = await askChat(api, '@mcp call skills.load_skill {"skill": "code-review"}', { model: DEMO_MODEL });
    assert.strictEqual(t.errorMessage, undefined);
    assert.deepStrictEqual(
      toolQuestions.map((q) => [q.serverName, q.toolName, JSON.parse(q.argumentsJson)]),
      [['skills', 'load_skill', { skill: 'code-review' }]],
    );
    const answer = transcriptMarkdown(t);
    assert.match(answer, /Skill "code-review" of MCP server "skills"/);
    assert.match(answer, /go through references\/CHECKLIST\.md/);
  });

  it('attaches a skill from its row (Attach Skill to Chat): the next @mcp request carries its verified SKILL.md, once', async () => {
    const lm = await activateFakeLm();
    lm.reset();
    const { node } = await skillRow('code-review');
    await vscode.commands.executeCommand('mcpHost.attachSkillToChat', node);
    await waitFor(() => api.testing.resources.attachments().length === 1, 'the skill attached');
    await askChat(api, '@mcp review my change', { model: FAKE_MODEL });
    const last = lm.calls[0].messages[lm.calls[0].messages.length - 1];
    const text = last.content.map((p) => ((p as { value?: unknown }).value as string) ?? '').join('');
    assert.match(text, /name: code-review/, text);
    assert.ok(text.endsWith('review my change'), text);
    assert.strictEqual(api.testing.resources.attachments().length, 0, 'taken by that request');
    // A skill that fails verification is not attached.
    await vscode.commands.executeCommand('mcpHost.attachSkillToChat', (await skillRow('tampered')).node);
    await new Promise((r) => setTimeout(r, 1000));
    assert.strictEqual(api.testing.resources.attachments().length, 0, 'the tampered skill is not attached');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
