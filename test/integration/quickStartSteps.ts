// The README's Quick start as clicks, key presses and reads of the page, for both walks through it: the demo pass's
// Quick start (quickStart.demo.test.ts, in the extension host) and the real demo (test/demo/npmRunDemo.test.ts, in plain
// Node against `npm run demo`). Everything here goes through the launcher's page hook (pageRequests.ts) and nothing
// imports vscode, so both can use it.
import * as path from 'node:path';
import { testLog } from './index';
import { pageQuery, pageRequest, serversViewRows } from './pageRequests';
import { repoRoot, sleep, waitFor } from '../unit/helpers';

export const click = (selector: string) => pageRequest({ action: 'click', selector });
export const press = (key: string) => pageRequest({ action: 'press', key });
export const type = (text: string) => pageRequest({ action: 'type', text });

export const SERVERS_ROW = '.pane:has(.pane-header:has-text("Servers")) .monaco-list-row';
const CHAT_INPUT = '.interactive-input-part .monaco-editor';
/** The modal dialog the workbench draws in the page (trust, consent): a user reads it and clicks one of its buttons. */
export const DIALOG = '.monaco-dialog-box';

/** The text the workbench shows, as a user reads it: the page and every view in it (webviews are frames). */
export async function pageText(): Promise<string> {
  return (await pageQuery<string>('body', 'return document.body.innerText;')).join('\n');
}

/** The text of what `selector` matches first, in every frame that has it, joined. */
export async function textOf(selector: string): Promise<string> {
  return (await pageQuery<string>(selector, 'return element.innerText;')).join('\n');
}

/** Waits for what the page shows; on a timeout keeps a screenshot of the page beside the error. */
export async function seen<T>(check: () => Promise<T>, what: string, ms = 30_000): ReturnType<typeof waitFor<T>> {
  try {
    return await waitFor(check, what, ms);
  } catch (e) {
    const file = path.join(repoRoot, '.cache', `quickstart-failed-${what.replace(/[^a-z0-9]+/gi, '-')}.png`);
    await pageRequest({ action: 'screenshot', path: file }).catch(() => undefined);
    const panes = await pageQuery<string[]>('.monaco-workbench', `return [...document.querySelectorAll('.pane-header')].map((h) => JSON.stringify(h.innerText))`).catch(String);
    testLog(`the page when "${what}" timed out: ${file}\nServers view: ${(await serversViewRows().catch(String)).toString()}\npanes: ${String(panes)}`);
    throw e;
  }
}

/** The modal dialog's text once one shows whose text matches `what`. */
export async function dialogSaying(what: RegExp, ms = 60_000): Promise<string> {
  return seen(async () => {
    const text = await textOf(DIALOG).catch(() => '');
    return what.test(text) && text;
  }, `a dialog saying ${what}`, ms);
}

/** Clicks the button labelled exactly `label` in the modal dialog. */
export const clickDialogButton = (label: string) => click(`${DIALOG} .monaco-button:text-is(${JSON.stringify(label)})`);

/** Closes the suggestions typing opened, if any, as a user does who means Enter for a new line or to send. */
export async function closeSuggestions(): Promise<void> {
  await sleep(500);
  const open = await pageQuery<boolean>('.monaco-workbench', `return [...document.querySelectorAll('.suggest-widget')].some((w) => w.classList.contains('visible'));`);
  if (open.some(Boolean)) await press('Escape');
}

/** Clicks MCP in the activity bar and waits for `server` to run, as its row says. Returns the rows shown. */
export async function openMcpViewUntilRunning(server: string, ms = 60_000): Promise<string[]> {
  await click('.activitybar .action-item [aria-label^="MCP"]');
  return seen(async () => {
    const shown = await serversViewRows();
    return shown.some((r) => new RegExp(`^${server} running · (\\d+ tools?|≈?[\\d.]+k? tokens)`).test(r)) && shown;
  }, `${server} running in the Servers view`, ms);
}

/**
 * Calls server-everything's get-sum with 2 and 3 by clicks in the Servers view: the server's row, its Tools group, the
 * tool, one form step per argument, then the review's Run. Resolves once the result page says 5.
 */
export async function callGetSumFromTheView(): Promise<void> {
  // The server's row opens on a click, then its Tools group (each may be open already).
  // Its chevron: the row's middle is its tools' checkbox and label, which select it.
  if (!(await serversViewRows()).some((r) => /^Tools \(\d+\)/.test(r))) await click(`${SERVERS_ROW}:has-text("everything") .monaco-tl-twistie`);
  await seen(async () => (await serversViewRows()).some((r) => /^Tools \(\d+\)/.test(r)), 'the server expanded');
  if (!(await serversViewRows()).some((r) => r.startsWith('Get Sum Tool'))) await click(`${SERVERS_ROW}:has-text("Tools (")`);
  await seen(async () => (await serversViewRows()).some((r) => r.startsWith('Get Sum Tool')), 'its tools listed');
  await click(`${SERVERS_ROW}:has-text("Get Sum Tool")`);
  // One step per argument, then the review whose first item runs the tool.
  for (const value of ['2', '3']) {
    await seen(async () => (await pageQuery<boolean>('.quick-input-widget', 'return element.offsetParent !== null;'))[0], 'the call form');
    await type(value);
    await press('Enter');
    await sleep(300);
  }
  await seen(async () => /Run get-sum/.test(await pageText()), 'the review of the call');
  await press('Enter');
  await seen(async () => /The sum of 2 and 3 is 5/.test(await pageText()), 'the result shown');
}

/** Opens the chat (Ctrl+Alt+I) and its model picker; resolves with the picker's rows once it shows some. */
export async function openModelPicker(): Promise<string[]> {
  await press('Control+Alt+KeyI');
  await click('.interactive-input-part .chat-input-toolbars .model-picker-name, .interactive-input-part .model-picker-name');
  return seen(async () => {
    const rows = await pageQuery<string[]>('.monaco-workbench', `return [...document.querySelectorAll('.action-widget .monaco-list-row')].map((r) => r.innerText.trim());`);
    return rows[0]?.length ? rows[0] : undefined;
  }, 'the model picker open');
}

/** Picks `model` in the open model picker; resolves once the chat input shows it. */
export async function pickModel(model: string): Promise<void> {
  await click(`.monaco-list-row:has-text(${JSON.stringify(model)})`);
  await seen(async () => (await textOf('.interactive-input-part')).includes(model), `${model} picked`);
}

/** Types `text` into the chat input as a user does, over what the input holds (it keeps "@mcp" after a request to it). */
export async function typeInChat(text: string): Promise<void> {
  await click(CHAT_INPUT);
  await press('Control+A');
  await type(text);
  await closeSuggestions();
}

/** Types `text` into the chat input and sends it with Enter. */
export async function sendInChat(text: string): Promise<void> {
  await typeInChat(text);
  await press('Enter');
}

/** The chat's requests and responses as shown, in order: one text per row of the conversation. */
export async function chatRows(): Promise<{ request: boolean; text: string }[]> {
  const [rows] = await pageQuery<{ request: boolean; text: string }[]>(
    '.monaco-workbench',
    `return [...document.querySelectorAll('.interactive-session .interactive-item-container')].map((row) => ({
       request: row.classList.contains('interactive-request'), text: row.innerText }));`,
  );
  return rows ?? [];
}
