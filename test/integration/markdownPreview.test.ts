// "Open as Markdown Preview" in a tool result's view: a click on it (in the page) shows the text in VS Code's own
// Markdown preview, read back from what the page shows; and server text there cannot run a command, a script, or
// fetch anything (an image, raw HTML) from the network.
import * as assert from 'assert';
import * as net from 'node:net';
import * as vscode from 'vscode';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import type { ToolCallOutcome } from '../../src/vscode/tools/toolCommands';
import { pageQuery } from './pageRequests';
import { activateHost, answerDialogs, sleep, waitFor, type TestedHost } from './testKit';

interface FrameResult {
  url: string;
  value: unknown;
}

/** Clicks the first match of `selector` in every frame that has one (as a user clicks); answers those frames. */
async function clickInFrames(selector: string): Promise<FrameResult[]> {
  const response = await fetch(`${process.env.MCPHOST_TEST_PAGE}/query`, { method: 'POST', body: JSON.stringify({ selector, action: 'click' }) });
  const body = (await response.json()) as FrameResult[] | { error: string };
  if (!Array.isArray(body)) throw new Error(`page hook: ${body.error}`);
  return body;
}

const PREVIEW_LINK = 'a[href^="command:mcpHost.previewToolResult"]';
/** The rendered Markdown of a preview (VS Code's Markdown preview draws into a body of this class). */
const previewText = async (): Promise<string[]> => (await pageQuery<string>('body.vscode-body', 'return element.innerText;')).filter((t) => t);
const allTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);

describe('A tool result in the Markdown preview', function () {
  this.timeout(90_000);
  let api: TestedHost;
  let dialogs: vscode.Disposable;
  const connections: string[] = [];
  let trap: net.Server;
  let port = 0;

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);

  /** Calls slow's echo-text with `text` (allowed once), and clicks "Open as Markdown Preview" in its result's view. */
  async function previewOf(text: string): Promise<void> {
    const slow = await waitFor(() => server('slow')?.state.kind === 'running' && server('slow'), 'slow running');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const { html } = (await vscode.commands.executeCommand('mcpHost.callTool', slow.id, 'echo-text', { text })) as ToolCallOutcome;
    assert.match(html, /Open as Markdown Preview/);
    const clicked = await waitFor(async () => (await clickInFrames(PREVIEW_LINK)).length === 1, 'the result view drawn, its link clicked');
    assert.ok(clicked);
  }

  before(async () => {
    api = await activateHost();
    dialogs = answerDialogs(api, { confirmToolCall: async (): Promise<ConsentAnswer> => 'once' });
    for (const s of api.getServers()) if (s.name === 'slow' && (s.state.kind === 'stopped' || s.state.kind === 'blocked')) await api.testing.startServer(s.id);
    // Any connection to this port, http or https (the TLS handshake never starts), means the page fetched something.
    trap = net.createServer((socket) => {
      connections.push(socket.remoteAddress ?? '?');
      socket.destroy();
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    port = (trap.address() as net.AddressInfo).port;
  });

  after(async () => {
    dialogs.dispose();
    trap.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('shows a text result rendered as Markdown, from a click in its view', async () => {
    await previewOf('# Weather report\n\nSunny, **21 °C**.\n\n- wind: light\n- rain: none');
    const shown = await waitFor(async () => (await previewText()).find((t) => t.includes('Weather report')), 'the preview drawn');
    assert.match(shown, /^Weather report\n/, shown);
    const [heading] = await pageQuery<string>('body.vscode-body h1', 'return element.innerText;');
    assert.strictEqual(heading, 'Weather report', 'the heading rendered as a heading, not as "# Weather report"');
    const [strong] = await pageQuery<string>('body.vscode-body strong', 'return element.innerText;');
    assert.strictEqual(strong, '21 °C');
    assert.ok(allTabs().some((t) => /Preview echo-text result\.md/.test(t.label)), allTabs().map((t) => t.label).join(' | '));
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.isUntitled), 'nothing asks to be saved');
  });

  it('runs no command link, no script, and fetches no image or HTML from the server text', async () => {
    const attack = [
      '# Attack',
      '',
      '[quit](command:workbench.action.quit) and [settings](command:workbench.action.openSettings)',
      '',
      `<script>fetch("http://127.0.0.1:${port}/script")</script>`,
      '',
      `<img src="http://127.0.0.1:${port}/html-http.png">`,
      '',
      `<img src="https://127.0.0.1:${port}/html-https.png">`,
      '',
      `![remote](https://127.0.0.1:${port}/markdown-https.png)`,
      '',
      `<iframe src="https://127.0.0.1:${port}/frame"></iframe>`,
    ].join('\n');
    await previewOf(attack);
    const shown = await waitFor(async () => (await previewText()).find((t) => t.startsWith('Attack')), 'the preview drawn');
    // Raw HTML and images are shown as text: what the server sent, readable, inert.
    assert.match(shown, /<script>fetch\(/, shown);
    assert.match(shown, /\[image: remote https:\/\/127\.0\.0\.1:\d+\/markdown-https\.png\]/, shown);
    const [elements] = await pageQuery<number>('body.vscode-body', `return element.querySelectorAll('img, iframe, script:not([nonce])').length;`);
    assert.strictEqual(elements, 0, 'no image, frame or server script in the preview');

    // A click on each command link: nothing runs (the preview enables no command links).
    const tabsBefore = allTabs().length;
    assert.strictEqual((await clickInFrames('body.vscode-body a[href="command:workbench.action.openSettings"]')).length, 1, 'the settings link clicked');
    assert.strictEqual((await clickInFrames('body.vscode-body a[href="command:workbench.action.quit"]')).length, 1, 'the quit link clicked');
    await sleep(3000);
    assert.ok(!allTabs().some((t) => /Settings/.test(t.label)), `no Settings editor: ${allTabs().map((t) => t.label).join(' | ')}`);
    assert.strictEqual(allTabs().length, tabsBefore, 'no editor opened');
    assert.ok((await previewText()).some((t) => t.startsWith('Attack')), 'the workbench still shows the preview');
    assert.deepStrictEqual(connections, [], 'nothing fetched from the trap server');
  });
});
