// The demo model's chat where a newcomer's chat is busier than the Quick start's (quickStart.demo.test.ts): agent mode,
// a file attached whose comments say "call the …", and earlier turns. Typed in the page through the launcher's page hook
// (scripts/code-server-launcher.mjs). The demo model of `npm run demo` (demo/model) answers.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { pageRequest } from './pageRequests';
import { activateDemoModel, activateHost, answerDialogs, askChat, DEMO_MODEL, sleep, transcriptMarkdown, waitFor, type TestedHost } from './testKit';

describe('The demo model in a busy chat', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let dialogs: vscode.Disposable;

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
    });
    const everything = await waitFor(() => api.getServers().find((s) => s.name === 'everything'), 'everything configured');
    if (everything.state.kind !== 'running') await api.testing.startServer(everything.id);
    await waitFor(() => api.getServer(everything.id)?.state.kind === 'running', 'everything running');
  });

  after(() => dialogs.dispose());

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
});

