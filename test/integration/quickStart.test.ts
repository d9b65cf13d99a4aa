// The README's Quick start as a newcomer does it in the page: clicks and key presses through the launcher's page hook
// (scripts/code-server-launcher.mjs), not command calls, for the steps under test. The demo model of `npm run demo`
// (demo/model) answers.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { pageQuery, pageRequest } from './pageRequests';
import { NOT_TRUSTED_EDITED } from '../../src/core/host/editedTrust';
import type { TrustQuestion } from '../../src/vscode/dialogs';
import { activateDemoModel, activateFakeLm, activateHost, answerDialogs, askChat, DEMO_MODEL, fixtureServer, sleep, transcriptMarkdown, waitFor, WorkspaceConfig, type TestedHost } from './testKit';

describe('Quick start, in the page', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let dialogs: vscode.Disposable;
  const trustQuestions: TrustQuestion[] = [];

  /** Types into the chat input as a user does, and sends it with Enter (again if a suggestion took the first one). */
  async function typeInChat(text: string) {
    const before = api.testing.chatTranscripts().length;
    await pageRequest({ action: 'click', selector: '.interactive-input-part .monaco-editor' });
    await pageRequest({ action: 'type', text });
    const transcript = await waitFor(async () => {
      await pageRequest({ action: 'press', key: 'Enter' });
      await sleep(1000);
      return api.testing.chatTranscripts()[before];
    }, `@mcp to receive "${text}"`);
    await waitFor(() => transcript.done, `the answer to "${text}"`, 60_000);
    return transcript;
  }

  before(async () => {
    api = await activateHost();
    await activateDemoModel();
    dialogs = answerDialogs(api, {
      confirmToolCall: async () => 'once',
      confirmTrust: async (q) => (trustQuestions.push(q), true),
    });
    const everything = await waitFor(() => api.getServers().find((s) => s.name === 'everything'), 'everything configured');
    if (everything.state.kind !== 'running') await api.testing.startServer(everything.id);
    await waitFor(() => api.getServer(everything.id)?.state.kind === 'running', 'everything running');
  });

  after(() => dialogs.dispose());

  it('lists the demo model in the model picker of a new chat, as the only model', async () => {
    // As in `npm run demo`: no other model (the tests' fake model is switched off).
    const fake = await activateFakeLm();
    fake.setAvailable(false);
    try {
      await vscode.commands.executeCommand('workbench.action.chat.open');
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await sleep(1000);
      await pageRequest({ action: 'click', selector: '.interactive-input-part .model-picker-name' });
      await sleep(1000);
      const shown = await waitFor(async () => {
        const [text] = await pageQuery<string>('.monaco-workbench', 'return document.body.innerText;');
        return text?.includes('Demo model — scripted, not an AI') && text;
      }, 'the demo model in the picker', 10_000).catch(async (e) => {
        await pageRequest({ action: 'screenshot', path: `${process.env.MCPHOST_TEST_REPO_ROOT}/.cache/quickstart-picker.png` });
        throw e;
      });
      assert.ok(shown);
      await pageRequest({ action: 'press', key: 'Escape' });
    } finally {
      fake.setAvailable(true);
    }
  });

  it('answers "@mcp what is 2 + 3?" with 5 in agent mode, with a file attached and earlier turns that say "call the …"', async () => {
    // What a newcomer has around the question: an open file of the demo (its comments say "call the tool it lists"),
    // attached to the chat, and an earlier /tools turn.
    const notes = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'notes.js');
    await vscode.workspace.fs.writeFile(notes, new TextEncoder().encode('// When the list comes back, call the tool it lists.\nconst x = 1;\n'));
    await vscode.window.showTextDocument(notes);
    await askChat(api, '@mcp /tools', { model: DEMO_MODEL });
    await vscode.commands.executeCommand('workbench.action.chat.open', { mode: 'agent', modelSelector: DEMO_MODEL, attachFiles: [notes] });
    await sleep(500);
    const sum = await typeInChat('@mcp what is 2 + 3?');
    const answer = transcriptMarkdown(sum);
    assert.doesNotMatch(answer, /not offered a tool/);
    assert.match(answer, /The sum of 2 and 3 is 5\./);
    const call = await typeInChat('@mcp call everything.get-sum {"a": 4, "b": 5}');
    assert.match(transcriptMarkdown(call), /The sum of 4 and 5 is 9\./);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(notes);
  });

  it('a server typed into mcp.json waits, not trusted, without a dialog mid-edit, and starts after Trust… in a notification', async () => {
    const config = await WorkspaceConfig.read();
    try {
      const editor = await vscode.window.showTextDocument(config.uri);
      // The cursor after `"servers": {`, where a user adds a server.
      const line = editor.document.getText().split('\n').findIndex((l) => l.includes('"servers": {'));
      editor.selection = new vscode.Selection(line, 1000, line, 1000);
      trustQuestions.length = 0;
      await pageRequest({ action: 'click', selector: '.monaco-editor .view-lines' });
      editor.selection = new vscode.Selection(line, 1000, line, 1000);
      await sleep(300);
      await pageRequest({ action: 'press', key: 'Enter' });
      await pageRequest({ action: 'type', text: `"typed": { "command": "node", "args": [${JSON.stringify(fixtureServer('basic-server.mjs'))}, "typed"] },` });
      await pageRequest({ action: 'press', key: 'Escape' });
      await pageRequest({ action: 'press', key: 'Control+S' });
      await waitFor(() => !editor.document.isDirty, 'the file saved');
      const servers = JSON.parse(editor.document.getText().replace(/\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1')).servers as Record<string, unknown>;
      assert.deepStrictEqual(servers.typed, { command: 'node', args: [fixtureServer('basic-server.mjs'), 'typed'] }, editor.document.getText());
      const typed = await waitFor(() => api.getServers().find((s) => s.name === 'typed' && s.state.kind === 'blocked'), 'the typed server waiting');
      assert.deepStrictEqual(typed.state, { kind: 'blocked', reason: 'untrusted', message: NOT_TRUSTED_EDITED });
      await sleep(2500); // past the moment the notice comes, once the file rests
      assert.strictEqual(trustQuestions.length, 0, 'no trust dialog while the file is edited');
      assert.ok(api.testing.renderServersTree().some((l) => /^typed — not trusted$/.test(l)), api.testing.renderServersTree().join('\n'));
      // The notice's Trust… is the user's own action: it asks, with what would run, and the server starts.
      await vscode.commands.executeCommand('notification.acceptPrimaryAction');
      await waitFor(() => trustQuestions.length === 1, 'the trust question after Trust…');
      assert.strictEqual(trustQuestions[0].serverName, 'typed');
      await waitFor(() => api.getServers().find((s) => s.name === 'typed')?.state.kind === 'running', 'the typed server running');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await config.restore();
    }
  });
});
