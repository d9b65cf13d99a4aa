// Saving an mcp.json that adds 50 servers lists all 50 in the Servers view, in a real VS Code: from the document saved
// in VS Code to the view's fetch of its rows holding all of them; the first new row is then drawn on the page.
// The bound, 0.6 s, is asserted: it took 0.75-1.2 s here before (3.1 s in the measure), about 0.1 s now.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateHost, answerDialogs, fixtureServer, sleep, waitFor, WorkspaceConfig, type TestedHost } from './testKit';
import { processesMarked } from './processes';
import { serversViewRows } from './pageRequests';
import { testLog } from './index';

const COUNT = 50;
const MARK = '--mcphost-many-listed-test';
const names = Array.from({ length: COUNT }, (_, i) => `many${String(i + 1).padStart(2, '0')}`);

/** The processes of this suite's servers (by the argument each is started with), zombies left out. */
const serverProcesses = (): number[] => processesMarked(MARK);

/** A node of the Servers view that is a server's row: its snapshot's name. */
const serverName = (node: unknown): string | undefined => (node as { info?: { name?: unknown } })?.info?.name as string | undefined;

describe('Saving an mcp.json that adds 50 servers', function () {
  this.timeout(180_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;
  const mine = () => api.getServers().filter((s) => names.includes(s.name));

  before(async () => {
    api = await activateHost();
    config = await WorkspaceConfig.read();
    dialogs = answerDialogs(api, {});
    await vscode.commands.executeCommand('mcpHost.servers.focus');
    await sleep(1000);
  });

  after(async () => {
    await config.restore();
    await waitFor(() => mine().length === 0 && serverProcesses().length === 0, "the suite's servers gone", 60_000);
    dialogs.dispose();
  });

  it(`lists all ${COUNT} in the view soon after the save (the view asks once, with all of them)`, async () => {
    const tree = api.testing.serversTree as { getChildren(node?: unknown): unknown };
    const original = tree.getChildren;
    let listedAt: number | undefined;
    let fetchesWithSome = 0;
    tree.getChildren = function (this: unknown, node?: unknown) {
      const children = original.call(this, node);
      const listed = Array.isArray(children) ? children.map(serverName).filter((n) => n && names.includes(n)).length : 0;
      if (listed) fetchesWithSome++;
      if (listed === COUNT) listedAt ??= performance.now();
      return children;
    };
    try {
      const entries = Object.fromEntries(names.map((name) => [name, { command: process.execPath, args: [fixtureServer('basic-server.mjs'), MARK, name] }]));
      // Saved as a user saves it: the text edited in VS Code (not shown in an editor: the start then asks for trust,
      // which the suite grants), then saved.
      const document = await vscode.workspace.openTextDocument(config.uri);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(config.uri, new vscode.Range(0, 0, document.lineCount, 0), JSON.stringify({ servers: { ...config.servers(), ...entries } }, null, 2));
      assert.ok(await vscode.workspace.applyEdit(edit));
      const saved = performance.now();
      assert.ok(await document.save(), 'saved');
      await waitFor(() => listedAt !== undefined, `the view to fetch its rows with all ${COUNT} servers`, 30_000);
      const listedMs = listedAt! - saved;
      testLog(`      ${COUNT} servers listed in the view ${Math.round(listedMs)} ms after the save (${fetchesWithSome} fetches held some of them)`);
      // And drawn on the page (the page hook answers slowly while 50 servers boot: not timed).
      await waitFor(async () => (await serversViewRows()).some((r) => r.startsWith('many01')), 'the first new row drawn', 30_000);
      // Every one there, in the file's order, and the API agrees.
      assert.strictEqual(mine().length, COUNT);
      const rendered = api.testing.renderServersTree().join('\n');
      for (const name of names) assert.match(rendered, new RegExp(`\\b${name} — `), `${name} in the view`);
      assert.ok(listedMs <= 600, `listed ${Math.round(listedMs)} ms after the save: the issue asks 0.6 s at most (it took about 3.1 s)`);
      // They go on to run (never run before, each starts once, to be known).
      await waitFor(() => mine().every((s) => s.state.kind === 'running'), `${COUNT} servers running`, 120_000);
    } finally {
      tree.getChildren = original;
    }
  });
});
