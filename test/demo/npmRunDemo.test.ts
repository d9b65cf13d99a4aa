// `npm run demo` as a user runs it, and the README's Quick start done in Debian's Chromium by clicks and key presses,
// reading only what the page shows: the packaged .vsix files installed, no extension development path, no test payload,
// no smoke-test driver, no command or API call into the extension. `npm run test:demo` runs it (in plain Node, mocha).
// The page is reached through the launcher's page hook (scripts/code-server-launcher.mjs), as the integration suites
// reach theirs, so the Quick start's steps are the ones quickStart.demo.test.ts takes (quickStartSteps.ts).
import * as assert from 'assert';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cutServersViewRows, pageQuery, pageRequest, serversViewRows } from '../integration/pageRequests';
import {
  callGetSumFromTheView, chatRows, clickDialogButton, click, DIALOG, dialogSaying, openMcpViewUntilRunning, openModelPicker, pickModel, seen,
  sendInChat, textOf,
} from '../integration/quickStartSteps';
import { repoRoot, sleep } from '../unit/helpers';
import { loadLauncher, openInChromium } from './browserPage';

const DEMO_MODEL = 'Demo model — scripted, not an AI';
const NO_MODEL = /No chat model is installed/;
/** The button of VS Code's question in the chat before an agent's tool call. */
const ALLOW = 'Allow in this Session';
/** How long a user reads the folder trust question before answering it. */
const READING_MS = 15_000;
/** Where the page is photographed at its steps: media/ under `npm run screenshots` (the README's pictures), else a
 * git-ignored folder to look at. */
const screenshotDir = process.env.MCPHOST_TEST_SCREENSHOT_DIR || path.join(repoRoot, '.cache', 'demo-screenshots');

/** The whole page as the user sees it now, as `name` in the screenshot folder; no notification may cover it (the
 * demo's settings keep VS Code's own offers, such as Git's, away). */
async function photograph(name: string): Promise<void> {
  const [toasts] = await pageQuery<string[]>('.monaco-workbench', `return [...document.querySelectorAll('.notification-toast')].map((t) => t.innerText.trim());`);
  assert.deepStrictEqual(toasts, [], 'no notification over the demo');
  fs.mkdirSync(screenshotDir, { recursive: true });
  await pageRequest({ action: 'screenshot', path: path.join(screenshotDir, name) });
}

/** `npm run demo` in a process group of its own, as a terminal starts it; resolves with the address it prints. */
function startDemo(log: string[]): { child: ChildProcess; address: Promise<string> } {
  const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'demo'], { cwd: repoRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const address = new Promise<string>((resolve, reject) => {
    const read = (d: Buffer) => {
      log.push(d.toString());
      const found = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\S*)$/m.exec(log.join(''));
      if (found) resolve(found[1]);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`npm run demo exited (${code}) before printing an address:\n${log.join('').slice(-3000)}`)));
  });
  return { child, address };
}

/** Ctrl-C to the demo's process group, as in its terminal; it stops its code-server and removes its files. */
async function stopDemo(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group has gone already.
    }
  };
  signal('SIGINT');
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null) signal('SIGKILL');
}

describe('npm run demo, and the Quick start in the browser', function () {
  this.timeout(180_000);
  const demoLog: string[] = [];
  let demo: ChildProcess | undefined;
  let browser: { close(): Promise<void> } | undefined;

  before(async function () {
    this.timeout(20 * 60_000); // The first run installs code-server and Node 24 into .cache/.
    const launcher = await loadLauncher();
    await launcher.ensureTools(); // Debian's chromium too.
    const started = startDemo(demoLog);
    demo = started.child;
    browser = await openInChromium(launcher, await started.address, demo.pid!);
  });

  after(async () => {
    await browser?.close();
    if (demo) await stopDemo(demo);
  });

  it('asks whether to trust the folder; the user trusts it', async () => {
    await dialogSaying(/Do you trust the authors of the files in this folder\?/);
    // As a user who reads it first: by then the workbench has finished starting, and extensions that trust enables
    // start after that (the demo model's provider among them), which is when its model went missing from the picker.
    await sleep(READING_MS);
    await clickDialogButton('Yes, I trust the authors');
  });

  it('asks about the demo server, showing what it runs; the user trusts it', async () => {
    const question = await dialogSaying(/MCP server "everything"/);
    assert.match(question, /server-everything\/dist\/index\.js stdio/, question);
    await clickDialogButton('Trust');
  });

  it('shows server-everything running in the MCP view; a click on a tool calls it', async () => {
    await openMcpViewUntilRunning('everything');
    // Its row at the default sidebar width says what it costs a model request, whole (issue 41: it was cut).
    await seen(async () => (await serversViewRows()).some((r) => /^everything running · .*tokens$/.test(r)), 'the server row with its size');
    const [row] = (await cutServersViewRows()).filter((r) => r.startsWith('everything'));
    assert.strictEqual(row, undefined, `the server row is cut: ${row}`);
    await callGetSumFromTheView();
    await sleep(1000); // the result view's last paint
    await photograph('screenshot-mcp-view.png');
  });

  it('offers the demo model at the first look at the chat model picker; the user picks it', async () => {
    const offered = await openModelPicker();
    assert.ok(offered.some((row) => row.includes(DEMO_MODEL)), `the model picker offers: ${offered.join(' | ')}`);
    await pickModel(DEMO_MODEL);
    // MCP Host agrees there is a model: its Servers view no longer says that chat cannot run.
    await seen(async () => !NO_MODEL.test(await textOf('.sidebar')), 'the Servers view without its no-model notice');
  });

  it('answers the first "@mcp what is 2 + 3?" with 5', async () => {
    await sendInChat('@mcp what is 2 + 3?');
    // Every tool call asks first: the user allows this one.
    const consent = await dialogSaying(/Run the tool "get-sum" of MCP server "everything"/);
    assert.match(consent, /"a": 2,\s*"b": 3/, consent);
    await clickDialogButton('Allow Once');
    const rows = await seen(async () => {
      const shown = await chatRows();
      return shown.length >= 2 && !shown[shown.length - 1].request && /The sum of 2 and 3 is 5\./.test(shown[shown.length - 1].text) && shown;
    }, 'the answer shown in the chat', 60_000);
    assert.strictEqual(rows.filter((r) => r.request).length, 1, 'answered on the first try');
    await sleep(1500); // the answer's last paint
    await photograph('screenshot-chat.png');
  });

  it('answers a question typed in Agent mode', async () => {
    const mode = await textOf('.interactive-input-part .chat-mode-picker-item');
    if (!/Agent/.test(mode)) {
      await click('.interactive-input-part .chat-mode-picker-item');
      await click('.action-widget .monaco-list-row:has-text("Agent")');
    }
    await sendInChat('what is 2 + 3?');
    const answer = await seen(async () => {
      const dialog = await textOf(DIALOG).catch(() => '');
      assert.doesNotMatch(dialog, /Sign in/, `Agent mode asked to sign in instead of answering: ${dialog}`);
      // VS Code asks in the chat before the agent calls an MCP tool (through MCP Host's Call MCP Tool): the user allows it.
      const buttons = await pageQuery<string[]>('.interactive-session', `return [...element.querySelectorAll('.monaco-button')].map((b) => b.innerText.trim());`);
      if (buttons.flat().includes(ALLOW)) await click(`.interactive-session .monaco-button:text-is("${ALLOW}")`);
      // The response after the question (the list draws only the rows on screen: earlier ones may be gone).
      const shown = await chatRows();
      const asked = shown.map((r) => r.request && /(^|\n)what is 2 \+ 3\?(\n|$)/.test(r.text)).lastIndexOf(true);
      const response = asked >= 0 ? shown[asked + 1] : undefined;
      return response && /The sum of 2 and 3 is 5\./.test(response.text) && response.text;
    }, 'the answer in Agent mode', 90_000);
    assert.match(answer, /Demo agent/, 'answered by the demo\'s agent');
  });
});
