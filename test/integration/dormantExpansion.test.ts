// Expanding a dormant server in the Servers view, in a real VS Code (clicks on the rows' twisties): what is known from
// its last run shows without starting it (its tools); what is not known starts it. The paging fixture offers 10,000
// resources (here in one page), too much to keep: only its tools are known, and its "Prompts and resources" row, expanded, starts it
// through the one path every use takes, after which its lists replace the row.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateHost, answerDialogs, fixtureServer, sleep, waitFor, WorkspaceConfig, type TestedHost } from './testKit';
import { processesMarked } from './processes';
import { pageQuery, pageRequest, serversViewRows } from './pageRequests';

const MARK = '--mcphost-dormant-expansion-test';
const NAME = 'pagingdormant';

/** The processes of this suite's servers (by the argument each is started with), zombies left out. */
const serverProcesses = (): number[] => processesMarked(MARK);

describe('Expanding a dormant server in the Servers view', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;
  const settings = () => vscode.workspace.getConfiguration('mcpHost');
  const server = () => api.getServers().find((s) => s.name === NAME);
  const entry = { [NAME]: { command: process.execPath, args: [fixtureServer('paging-server.mjs'), MARK], env: { FIXTURE_PAGE_SIZE: '10000' }, startup: 'onDemand' } };
  /** Waits for a row of the page that `match` finds; the rows shown are in the error otherwise. */
  const rowShown = (match: (row: string) => boolean, what: string) =>
    waitFor(async () => (await serversViewRows()).some(match), what).catch(async (e: Error) => {
      throw new Error(`${e.message}: the view shows ${JSON.stringify(await serversViewRows())}`);
    });
  const row = (text: string, expanded: boolean) => `.monaco-list-row[aria-expanded="${expanded}"]:has-text("${text}")`;
  /** Expands the collapsed row with `text` by a click, until `shown` finds its children (a click can be lost to a row drawn again). */
  async function expand(text: string, shown: (row: string) => boolean, what: string) {
    let lost = '';
    for (let attempt = 0; attempt < 5; attempt++) {
      await pageRequest({ action: 'click', selector: `${row(text, false)} .monaco-tl-twistie` }).catch((e: Error) => (lost = e.message));
      for (let i = 0; i < 10; i++) {
        if ((await serversViewRows()).some(shown)) return;
        await sleep(200);
      }
    }
    const [attrs] = await pageQuery<string[]>('.monaco-workbench', `return [...document.querySelectorAll('.monaco-list-row')].filter((r) => r.textContent.includes(${JSON.stringify(text)})).map((r) => r.getAttribute('aria-expanded') + ' ' + r.textContent)`);
    await rowShown(shown, `${what} (${lost || 'clicked'}; rows with that text: ${JSON.stringify(attrs)})`);
  }

  before(async () => {
    api = await activateHost();
    config = await WorkspaceConfig.read();
    dialogs = answerDialogs(api, {});
    await settings().update('servers.idleStopMinutes', 0, vscode.ConfigurationTarget.Global);
    // VS Code's own MCP support would start the same mcp.json's servers for chat.
    await vscode.workspace.getConfiguration('chat.mcp').update('access', 'none', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await config.restore();
    await waitFor(() => !server() && serverProcesses().length === 0, "the suite's server gone", 30_000);
    await settings().update('servers.idleStopMinutes', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('chat.mcp').update('access', undefined, vscode.ConfigurationTarget.Global);
    dialogs.dispose();
  });

  it('shows the known tools without starting it, and starts it when a list that is not known is expanded', async () => {
    // A first run, to be known (never run before, it starts); then out of the window and back: dormant.
    await config.writeServers({ ...config.servers(), ...entry });
    await waitFor(() => server()?.state.kind === 'running' && server()!.features.resources.length === 10_000, `${NAME} running, its 10,000 resources listed (one page)`, 60_000);
    await config.restore();
    await waitFor(() => !server() && serverProcesses().length === 0, `${NAME} out of the window`, 30_000);
    // What it offered is kept 2 s after it last changed (until then this window holds all of it): as a next window reads it.
    await sleep(3000);
    await config.writeServers({ ...config.servers(), ...entry });
    await waitFor(() => server()?.state.kind === 'dormant', `${NAME} back, dormant`);
    assert.ok(server()!.knownToolsOnly, 'only its tools are known (10,000 resources are too much to keep)');
    assert.deepStrictEqual(server()!.features.tools.map((t) => t.name), ['count-list-requests']);

    await vscode.commands.executeCommand('mcpHost.servers.focus');
    await rowShown((r) => r.startsWith(`${NAME} dormant`), `${NAME}'s dormant row on the page`);
    // The server's row (collapsed: the view lists more than five servers), then its known tools.
    await expand(NAME, (r) => r.startsWith('Tools (1)'), 'its Tools group');
    await expand('Tools (1)', (r) => r.startsWith('count-list-requests'), 'its known tool listed');
    await sleep(1000);
    assert.strictEqual(server()?.state.kind, 'dormant', 'listing what is known started nothing');
    assert.deepStrictEqual(serverProcesses(), [], 'no process');

    // What is not known: expanding it starts the server, for that reason, and its lists replace the row.
    assert.ok((await serversViewRows()).some((r) => r === 'Prompts and resources not known: expand to start the server'), JSON.stringify(await serversViewRows()));
    await pageRequest({ action: 'click', selector: row('Prompts and resources', false) });
    await waitFor(() => server()?.state.kind === 'running', `${NAME} started by the expansion`, 30_000);
    assert.strictEqual(server()!.startedFor, "the Servers view's list of its prompts and resources");
    assert.strictEqual(serverProcesses().length, 1);
    await waitFor(async () => (await serversViewRows()).some((r) => /^Resources \(10,?002\)/.test(r)), 'its resources listed in the view', 30_000).catch(async (e: Error) => {
      throw new Error(`${e.message}: ${JSON.stringify(await serversViewRows())}`);
    });
  });
});
