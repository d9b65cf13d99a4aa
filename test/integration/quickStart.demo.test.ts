// The README's Quick start as a newcomer does it, in the demo of `npm run demo` (the demo pass of runTests.ts: a copy of
// demo/, the demo model only, Workspace Trust on): clicks and key presses in the page through the launcher's page hook
// (scripts/code-server-launcher.mjs), no command calls for the steps under test, and what the page shows is what is
// checked. Modal dialogs cannot show in an extension test: the trust questions are answered through the dialog router,
// and their rendered text is checked. Its pictures of the steps are for looking at; the README's come from the real-demo
// check (test/demo/npmRunDemo.test.ts, `npm run screenshots`).
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { testLog } from './index';
import { pageQuery, pageRequest, serversViewRows } from './pageRequests';
import {
  callGetSumFromTheView, closeSuggestions, click, openMcpViewUntilRunning, openModelPicker, pageText, pickModel, press, seen, SERVERS_ROW, type, typeInChat,
} from './quickStartSteps';
import type { TrustQuestion } from '../../src/vscode/dialogs/dialogRouter';
import { activateHost, answerDialogs, repoRoot, sleep, transcriptMarkdown, type TestedHost } from './testKit';

/** Where its pictures go: MCPHOST_TEST_SCREENSHOT_DIR, else a git-ignored folder to look at. */
const screenshotDir = process.env.MCPHOST_TEST_SCREENSHOT_DIR || path.join(repoRoot, '.cache', 'quickstart-screenshots');

/**
 * Types into the chat input as a user does (over what the input holds: it keeps "@mcp" after a request to it) and
 * sends it with Enter (again if the first one went to a suggestion). Returns the transcript of the request.
 */
async function sendInChat(api: TestedHost, text: string) {
  const before = api.testing.chatTranscripts().length;
  await typeInChat(text);
  return seen(async () => {
    await press('Enter');
    await sleep(1000);
    return api.testing.chatTranscripts()[before];
  }, `@mcp receiving "${text}"`);
}

describe('Quick start, as a newcomer does it in the demo', function () {
  this.timeout(180_000);
  let api: TestedHost;
  let dialogs: vscode.Disposable;
  const trustQuestions: TrustQuestion[] = [];

  before(async () => {
    fs.mkdirSync(screenshotDir, { recursive: true });
    api = await activateHost();
    dialogs = answerDialogs(api, { confirmTrust: async (q) => (trustQuestions.push(q), true), confirmToolCall: async () => 'once' });
  });

  after(() => dialogs.dispose());

  it('opens in Restricted Mode; the user trusts the folder, and is asked about the demo server with what it runs', async () => {
    assert.strictEqual(vscode.workspace.isTrusted, false, 'the demo opens before its folder is trusted');
    // Under the test driver VS Code does not ask at start (`npm run demo` does): the way left is the status bar.
    await click('.statusbar-item:has-text("Restricted Mode")');
    await click('.workspace-trust-editor .monaco-button:has-text("Trust")');
    await seen(async () => vscode.workspace.isTrusted, 'the folder trusted');
    await click('.monaco-modal-editor-block .codicon-close'); // the Workspace Trust editor
    const [question] = await seen(async () => trustQuestions.length > 0 && trustQuestions, 'the question about the demo server');
    assert.strictEqual(question.serverName, 'everything');
    assert.match(question.detail, /node .*node_modules\/@modelcontextprotocol\/server-everything\/dist\/index\.js stdio/);
    assert.doesNotMatch(question.detail, /\$\{/, `what runs is shown resolved: ${question.detail}`);
  });

  it('shows server-everything running in the MCP view, with its tools', async () => {
    const rows = await openMcpViewUntilRunning('everything', 30_000);
    testLog(rows.join('\n'));
    // Its tooltip, as the hover shows it: made only when the row is hovered (resolveTreeItem), Markdown rendered.
    // Hovered again while it is not shown: the row is drawn again when its size is counted, which closes a hover.
    const hover = await seen(async () => {
      await pageRequest({ action: 'hover', selector: `${SERVERS_ROW}:has-text("everything") .label-name` });
      await sleep(300);
      await pageRequest({ action: 'hover', selector: `${SERVERS_ROW}:has-text("everything") .label-description` });
      await sleep(1200);
      const shown = (await pageQuery<string>('.monaco-workbench', `return [...document.querySelectorAll('.workbench-hover, .monaco-hover')].map((h) => h.innerText).join('\\n');`)).join('\n');
      return /Protocol: \d{4}-\d{2}-\d{2}/.test(shown) && shown;
    }, "the server row's tooltip on hover");
    assert.doesNotMatch(hover, /\*\*/, 'rendered, not raw Markdown');
    await press('Escape');
  });

  it('calls a tool with a click on it: the form asks for its arguments and the result opens', async () => {
    await callGetSumFromTheView();
    await sleep(1000);
    await pageRequest({ action: 'screenshot', path: path.join(screenshotDir, 'screenshot-mcp-view.png') });
    // Closed again, so that the rows of servers added later are on screen.
    await click(`${SERVERS_ROW}:has-text("everything") .monaco-tl-twistie`);
  });

  it('offers the demo model in the chat model picker, and the user picks it', async () => {
    const offered = await openModelPicker();
    assert.ok(offered.some((row) => row.includes('Demo model — scripted, not an AI')), offered.join(' | '));
    await pickModel('Demo model — scripted, not an AI');
  });

  it('answers "@mcp what is 2 + 3?" typed into the chat, in the mode it opens in, with 5', async () => {
    const transcript = await sendInChat(api, '@mcp what is 2 + 3?');
    await seen(async () => transcript.done, 'the answer', 60_000);
    assert.match(transcriptMarkdown(transcript), /The sum of 2 and 3 is 5\./);
    await seen(async () => /The sum of 2 and 3 is 5\./.test(await pageText()), 'the answer shown in the chat');
    await sleep(1500);
    await pageRequest({ action: 'screenshot', path: path.join(screenshotDir, 'screenshot-chat.png') });
  });

  it('runs a prompt from chat: "@mcp /prompt" offers the prompts, the user picks one', async () => {
    const transcript = await sendInChat(api, '@mcp /prompt');
    // A quick pick of every prompt of every running server; the user filters it by name and takes the first.
    await seen(async () => /simple-prompt|Simple Prompt/.test(await pageText()), 'the prompts offered');
    await type('simple');
    await press('Enter');
    await seen(async () => transcript.done, 'the prompt answered', 60_000);
    testLog(transcriptMarkdown(transcript));
  });

  it('a server typed into mcp.json with completion waits for trust without a dialog, and starts after Trust… in a notification', async () => {
    await press('Control+KeyP'); // Go to File
    await type('mcp.json');
    await seen(async () => /mcp\.json/.test(await pageText()), 'mcp.json in Go to File');
    await press('Enter');
    const editor = await seen(async () => vscode.window.activeTextEditor?.document.uri.path.endsWith('/.vscode/mcp.json') && vscode.window.activeTextEditor, 'mcp.json open');
    // After the demo server's entry, where the file's comment says another goes: Go to Line, then a comma and a name.
    const line = editor.document.getText().split('\n').findIndex((l) => /^ {4}\}\s*$/.test(l)) + 1;
    assert.ok(line > 0, editor.document.getText());
    trustQuestions.length = 0;
    await press('Control+KeyG');
    await type(String(line));
    await press('Enter');
    await press('End');
    await type(',');
    await closeSuggestions();
    await press('Enter');
    await type('"fil');
    await seen(async () => (await pageQuery<string>('.suggest-widget', 'return element.innerText;')).some((t) => /filesystem/.test(t)), 'completion offering filesystem');
    await press('Enter');
    await press('Escape');
    await press('Control+KeyS');
    await seen(async () => !editor.document.isDirty, 'the file saved');
    const written = editor.document.getText();
    assert.match(written, /"filesystem": \{\s*"command": "npx",\s*"args": \[\s*"-y",\s*"@modelcontextprotocol\/server-filesystem",\s*"\$\{workspaceFolder\}"\s*\]\s*\}/, written);
    await seen(async () => (await serversViewRows()).some((r) => /^filesystem .*not trusted/.test(r)), 'the new server waiting, not trusted');
    await sleep(2500); // past the moment a question would come once the file rests
    assert.strictEqual(trustQuestions.length, 0, 'no trust dialog while the file is edited');
    // Its row says what to do: a Trust Server… action (the shield, shown with the row's other actions).
    await pageRequest({ action: 'hover', selector: `${SERVERS_ROW}:has-text("filesystem") .label-name` });
    const [actions] = await pageQuery<string[]>(
      '.monaco-workbench',
      `const row = [...document.querySelectorAll('.pane-body .monaco-list-row')].find((r) => r.querySelector('.label-name')?.textContent.trim() === 'filesystem');
       return row ? [...row.querySelectorAll('.actions .action-label')].map((a) => a.getAttribute('aria-label')) : [];`,
    );
    assert.ok(actions.includes('Trust Server…'), `the row's actions: ${actions.join(', ')}`);
    assert.ok(!actions.includes('Start Server'), 'Trust Server… in place of Start Server');
    // The notice, in the notification center: the test driver VS Code runs under shows no toasts, so the user opens it
    // with the bell in the status bar.
    await click('[id="status.notifications"]');
    await seen(async () => /"filesystem" in mcp\.json is not trusted yet/.test((await pageQuery<string>('.notifications-center', 'return element.innerText;')).join('')), 'the notice about the new server');
    await click('.notifications-center .monaco-button:has-text("Trust")');
    await seen(async () => trustQuestions.length === 1, 'the trust question after Trust…');
    assert.strictEqual(trustQuestions[0].serverName, 'filesystem');
    assert.match(trustQuestions[0].detail, /npx -y @modelcontextprotocol\/server-filesystem/);
    await seen(async () => (await serversViewRows()).some((r) => /^filesystem running · (\d+ tools?|≈?[\d.]+k? tokens)/.test(r)), 'the new server running', 60_000);
  });
});
