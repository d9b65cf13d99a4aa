// The foundation, end to end in a real extension host: the fixture workspace's servers run, mcp.json edits
// reconcile, roots follow the workspace folders, trust is asked, and a crashing server ends in an explained error.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TrustManyAnswer, TrustManyQuestion, TrustQuestion } from '../../src/vscode/dialogs/dialogRouter';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { activateHost, answerDialogs, fixtureServer, sleep, waitFor, WorkspaceConfig, type TestedHost } from './testKit';
import { serversViewRows, serversViewRowsWithIcons } from './pageRequests';
import { SLOW_START_MS } from '../../src/core/presentation/serverPresentation';

/**
 * What the view is told to refresh from now on, once it has been quiet for a second (the starts before have ended:
 * a server's lists load after it runs).
 */
async function refreshesFromQuiet(tree: vscode.TreeDataProvider<unknown>): Promise<{ refreshes: unknown[]; listening: vscode.Disposable }> {
  const refreshes: unknown[] = [];
  let lastRefresh = Date.now();
  const listening = tree.onDidChangeTreeData!((e) => {
    refreshes.push(e);
    lastRefresh = Date.now();
  });
  await waitFor(() => Date.now() - lastRefresh > 1000, 'the view quiet for a second');
  refreshes.length = 0;
  return { refreshes, listening };
}

describe('MCP servers in a real VS Code', function () {
  this.timeout(90_000);
  let api: TestedHost;
  const trustQuestions: TrustQuestion[] = [];
  const trustAnswers: (boolean | undefined)[] = [];
  const textQuestions: string[] = [];
  const textAnswers: (string | undefined)[] = [];
  let folder: vscode.WorkspaceFolder;
  let config: WorkspaceConfig;

  const server = (name: string, scopeLabel = folder.name): ServerInfo | undefined =>
    api.getServers().find((s) => s.name === name && s.scope.label === scopeLabel);
  const running = (name: string, scopeLabel?: string) =>
    waitFor(() => server(name, scopeLabel)?.state.kind === 'running' && server(name, scopeLabel), `${name} running`);

  before(async () => {
    api = await activateHost();
    answerDialogs(api, {
      confirmTrust: async (q) => {
        trustQuestions.push(q);
        return trustAnswers.length ? trustAnswers.shift() : true;
      },
      inputText: async (q) => {
        textQuestions.push(q.prompt);
        return textAnswers.length ? textAnswers.shift() : q.value;
      },
    });
    folder = vscode.workspace.workspaceFolders![0];
    config = await WorkspaceConfig.read();
    // Servers that activation could not ask about (modal dialogs are refused in tests) start once we can answer.
    await waitFor(() => api.getServers().length >= 2, 'servers configured');
    for (const s of api.getServers()) if (s.state.kind === 'stopped' || s.state.kind === 'blocked') await api.testing.startServer(s.id);
  });

  after(() => config.restore());

  it('runs the fixture workspace servers and shows them in the Servers view', async () => {
    const everything = await running('everything');
    await running('basic');
    assert.strictEqual(everything.protocolVersion, '2025-11-25');
    assert.strictEqual(everything.features.resources.length, 7);
    assert.strictEqual(everything.features.resourceTemplates.length, 2);
    assert.ok(everything.features.tools.some((t) => t.name === 'get-roots-list'));
    await vscode.commands.executeCommand('mcpHost.servers.focus');
    const tree = await waitFor(() => {
      const lines = api.testing.renderServersTree();
      return lines.some((l) => /everything — running · (\d+ tools?|≈?[\d.]+k? tokens)/.test(l)) && lines;
    }, 'tree shows everything running');
    assert.ok(tree.some((l) => /^\s+Tools \(\d+\)/.test(l)), `tools group in ${tree.join('\n')}`);
    assert.ok(tree.some((l) => /^\s+Prompts \(4\)/.test(l)), `prompts group in ${tree.join('\n')}`);
  });

  it("redraws only the rows of the server that changed, and the page shows its new state beside the others'", async () => {
    await running('everything');
    const basic = await running('basic');
    await vscode.commands.executeCommand('mcpHost.servers.focus');
    const tree = api.testing.serversTree;
    const nodeOf = async (id: string) => {
      for (const node of (await tree.getChildren()) ?? []) if ((node as { serverId?: string }).serverId === id) return node;
      throw new Error(`no node for ${id}`);
    };
    const basicNode = await nodeOf(basic.id);
    const { refreshes, listening } = await refreshesFromQuiet(tree);
    try {
      // The page drawn from what the view was last told (a start that just ended may still be on its way there).
      const bothRunning = (rows: string[]) => ['basic', 'everything'].every((name) => rows.some((r) => r.startsWith(`${name} running`)));
      let lastRows: string[] = [];
      const rowsBefore = await waitFor(async () => {
        const rows = (lastRows = await serversViewRows());
        return bothRunning(rows) && rows;
      }, 'basic and everything running in the page').catch((e: Error) => {
        throw new Error(`${e.message}: the page showed ${JSON.stringify(lastRows)}`);
      });
      await vscode.commands.executeCommand('mcpHost.stopServer', basicNode);
      await waitFor(async () => (await serversViewRows()).some((r) => /^basic stopped/.test(r)), 'basic stopped in the page');
      assert.ok((await serversViewRows()).some((r) => /^everything running/.test(r)), 'everything still shown running');
      await vscode.commands.executeCommand('mcpHost.startServer', basicNode);
      await waitFor(async () => (await serversViewRows()).some((r) => /^basic running/.test(r)), 'basic running again in the page');
      // Its rows (its groups, expanded as before) are drawn again under it.
      await waitFor(async () => JSON.stringify(await serversViewRows()) === JSON.stringify(rowsBefore), 'the rows as before', 5000).catch(async (e) => {
        throw new Error(`${(e as Error).message}: ${JSON.stringify(await serversViewRows())} against ${JSON.stringify(rowsBefore)}`);
      });
      assert.ok(refreshes.length > 0, 'the view was refreshed');
      for (const e of refreshes) {
        assert.ok(Array.isArray(e), `a refresh of some rows, not of the whole view: ${String(e)}`);
        assert.deepStrictEqual(e, [basicNode], "basic's own node, the object the view holds");
      }
      assert.strictEqual(await nodeOf(basic.id), basicNode, 'the same node is given again');
      assert.match((await tree.getTreeItem(basicNode)).description as string, /^running/);
    } finally {
      listening.dispose();
    }
  });

  it("still redraws a changed server's row when the view's root was fetched meanwhile without a refresh of ours", async () => {
    const basic = await running('basic');
    await running('everything');
    await vscode.commands.executeCommand('mcpHost.servers.focus');
    const tree = api.testing.serversTree;
    const basicNode = ((await tree.getChildren()) ?? []).find((n) => (n as { serverId?: string }).serverId === basic.id);
    assert.ok(basicNode, 'basic listed');
    const { refreshes, listening } = await refreshesFromQuiet(tree);
    try {
      await api.testing.stopServer(basic.id);
      // VS Code fetches the root on its own at times (a view shown, a row expanded), and may then keep the rows it
      // drew: such a fetch before our refresh must not count as drawn.
      await tree.getChildren();
      await waitFor(() => refreshes.some((e) => Array.isArray(e) && e.includes(basicNode)), "a refresh naming basic's row", 5000);
      await waitFor(async () => (await serversViewRows()).some((r) => /^basic stopped/.test(r)), 'basic stopped in the page');
    } finally {
      listening.dispose();
      await api.testing.startServer(basic.id);
      await running('basic');
    }
  });

  it('refreshes a hidden view whole (VS Code defers it), and shows the changes made meanwhile when it is opened again', async () => {
    const basic = await running('basic');
    await vscode.commands.executeCommand('workbench.view.explorer');
    const tree = api.testing.serversTree;
    const refreshes: unknown[] = [];
    const listening = tree.onDidChangeTreeData!((e) => refreshes.push(e));
    try {
      await vscode.commands.executeCommand('mcpHost.stopServer', basic.id);
      await waitFor(() => server('basic')?.state.kind === 'stopped' && refreshes.length > 0, 'basic stopped, the view told');
      assert.ok(refreshes.every((e) => e === undefined), 'whole refreshes while hidden');
    } finally {
      listening.dispose();
    }
    await vscode.commands.executeCommand('mcpHost.servers.focus');
    await waitFor(async () => (await serversViewRows()).some((r) => /^basic stopped/.test(r)), 'basic stopped in the page once shown');
    await vscode.commands.executeCommand('mcpHost.startServer', basic.id);
    await waitFor(async () => (await serversViewRows()).some((r) => /^basic running/.test(r)), 'basic running again in the page');
  });

  it('reconciles mcp.json edits: adds, changes and removes exactly the servers that changed', async () => {
    const everythingPid = (await running('everything')).pid;
    const basicPid = (await running('basic')).pid;
    const servers = config.servers();
    servers.basic.args.push('changed');
    servers.added = { command: 'node', args: [fixtureServer('basic-server.mjs'), 'added'] };
    await config.writeServers(servers);
    const added = await running('added');
    const basic = await waitFor(() => server('basic')?.state.kind === 'running' && server('basic')!.pid !== basicPid && server('basic'), 'basic restarted');
    assert.notStrictEqual(basic.pid, basicPid);
    assert.strictEqual(server('everything')!.pid, everythingPid, 'unchanged server untouched');
    delete servers.added;
    await config.writeServers(servers);
    await waitFor(() => !server('added'), 'added server removed');
    await waitFor(() => {
      try {
        process.kill(added.pid!, 0);
        return false;
      } catch {
        return true;
      }
    }, 'its process gone');
  });

  it('shows a running server expanded in a view of up to five servers, collapsed in a longer one', async () => {
    const basic = await running('basic');
    const tree = api.testing.serversTree;
    const itemOf = async (id: string) => {
      for (const node of (await tree.getChildren()) ?? []) if ((node as { serverId?: string }).serverId === id) return tree.getTreeItem(node);
      throw new Error(`no node for ${id}`);
    };
    const count = api.getServers().length;
    assert.ok(count <= 5, `the fixture workspace lists ${count} servers`);
    assert.strictEqual((await itemOf(basic.id)).collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    const servers = config.servers();
    const more = Array.from({ length: 6 - count }, (_, i) => `more${i}`);
    for (const name of more) servers[name] = { command: 'node', args: [fixtureServer('basic-server.mjs'), name] };
    await config.writeServers(servers);
    try {
      for (const name of more) await running(name);
      const item = await itemOf(basic.id);
      assert.strictEqual(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, 'six servers: collapsed');
      assert.match(String(item.description), /^running · (\d+ tools?|≈?[\d.]+k? tokens)/, 'its row still says what it offers');
    } finally {
      for (const name of more) delete servers[name];
      await config.writeServers(servers);
      await waitFor(() => more.every((name) => !server(name)), 'the servers added removed');
    }
  });

  it('keeps running what a broken mcp.json last defined, and shows the error at its place', async () => {
    const basicPid = (await running('basic')).pid;
    await config.write('{ "servers": { "basic": { "command": "node", } \n');
    const diagnostics = await waitFor(() => {
      const d = vscode.languages.getDiagnostics(config.uri);
      return d.length > 0 && d;
    }, 'diagnostics for the broken file');
    assert.ok(diagnostics.every((d) => d.source === 'MCP'));
    assert.strictEqual(diagnostics.length, 1, 'one fault, one problem');
    assert.strictEqual(diagnostics[0].range.start.line, 1, 'error at the end of the unterminated object');
    assert.strictEqual(diagnostics[0].message, 'A closing brace } is missing');
    assert.strictEqual(diagnostics[0].code, undefined, 'no "(syntax)" beside VS Code\'s own JSON error');
    await sleep(1000);
    assert.strictEqual(server('basic')?.pid, basicPid, 'still running, untouched');
    const row = await waitFor(async () => {
      for (const node of (await api.testing.serversTree.getChildren()) ?? []) {
        const item = await api.testing.serversTree.getTreeItem(node);
        if (item.description === '1 problem — servers keep their last good definition') return item;
      }
      return undefined;
    }, 'the problem shown in the Servers view');
    assert.strictEqual(row.label, `${folder.name}: .vscode/mcp.json`);
    await vscode.commands.executeCommand(row.command!.command, ...(row.command!.arguments ?? []));
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.toString() === config.uri.toString() && vscode.window.activeTextEditor, 'mcp.json open');
    assert.strictEqual(editor.selection.start.line, 1, 'at the problem');
    // Open, the file gets VS Code's own JSON errors beside ours: the row counts what the Problems panel shows.
    const all = await waitFor(() => {
      const d = vscode.languages.getDiagnostics(config.uri);
      return d.some((x) => x.source !== 'MCP') && d.length;
    }, "VS Code's own JSON errors", 20_000);
    await waitFor(async () => {
      for (const node of (await api.testing.serversTree.getChildren()) ?? []) {
        const item = await api.testing.serversTree.getTreeItem(node);
        if (item.description === `${all} problems — servers keep their last good definition`) return item;
      }
      return undefined;
    }, `the row counting ${all} problems, as the Problems panel does`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await config.restore();
    await waitFor(() => vscode.languages.getDiagnostics(config.uri).length === 0, 'diagnostics cleared');
    await waitFor(() => !api.testing.renderServersTree().some((l) => /problem/.test(l)), 'the problem row gone');
    // The clean file read again tells the Problems nothing: each change is a message to the workbench and an event for
    // every extension, at each save. First a second without any change of its problems: VS Code's JSON support clears
    // its own for the editor just closed, in its time.
    const told: string[] = [];
    const listening = vscode.languages.onDidChangeDiagnostics((e) => told.push(...e.uris.map(String).filter((u) => u === config.uri.toString())));
    try {
      for (let seen = -1, end = Date.now() + 15_000; seen !== told.length && Date.now() < end; ) {
        seen = told.length;
        await sleep(1000);
      }
      told.length = 0;
      await api.testing.reloadConfiguration();
      await sleep(500);
    } finally {
      listening.dispose();
    }
    assert.deepStrictEqual(told, [], 'no change of the problems of a file that has none');
  });

  it('gives servers the workspace folders as roots and tells them when a folder is added', async () => {
    const everything = await running('everything');
    const rootsSeen = async () => JSON.stringify(await api.testing.callTool(everything.id, 'get-roots-list', {}));
    assert.match(await rootsSeen(), new RegExp(escape(folder.uri.toString())));
    const extraUri = vscode.Uri.file(path.join(path.dirname(folder.uri.fsPath), 'workspace-extra'));
    assert.ok(vscode.workspace.updateWorkspaceFolders(1, 0, { uri: extraUri }), 'folder added');
    await waitFor(async () => (await rootsSeen()).includes(extraUri.toString()), 'server sees the added root');
    await running('extra', 'workspace-extra');
    const removed = waitFor(() => !server('extra', 'workspace-extra'), 'extra folder servers gone');
    vscode.workspace.updateWorkspaceFolders(1, 1);
    await removed;
    await waitFor(async () => !(await rootsSeen()).includes(extraUri.toString()), 'root removed');
  });

  it("with two folders, a server's stop redraws its folder's rows, whose count of running servers changed", async () => {
    const basic = await running('basic');
    const extraUri = vscode.Uri.file(path.join(path.dirname(folder.uri.fsPath), 'workspace-extra'));
    assert.ok(vscode.workspace.updateWorkspaceFolders(1, 0, { uri: extraUri }), 'folder added');
    try {
      await running('extra', 'workspace-extra');
      await vscode.commands.executeCommand('mcpHost.servers.focus');
      const tree = api.testing.serversTree;
      const scopeRow = new RegExp(`^${folder.name} (\\d+)/(\\d+) running`);
      const countShown = async () => (await serversViewRows()).map((r) => scopeRow.exec(r)).find(Boolean);
      const before = await waitFor(countShown, 'the folder row with its count');
      const scopeOf = async (id: string) => {
        for (const scope of (await tree.getChildren()) ?? []) {
          for (const child of (await tree.getChildren(scope)) ?? []) if ((child as { serverId?: string }).serverId === id) return { scope, child };
        }
        throw new Error(`no node for ${id}`);
      };
      const { scope, child } = await scopeOf(basic.id);
      const { refreshes, listening } = await refreshesFromQuiet(tree);
      try {
        await vscode.commands.executeCommand('mcpHost.stopServer', child);
        const after = await waitFor(async () => {
          const shown = await countShown();
          return shown && Number(shown[1]) === Number(before[1]) - 1 && shown;
        }, 'one running server fewer in the folder row');
        assert.strictEqual(after[2], before[2], 'as many servers');
        assert.ok((await serversViewRows()).some((r) => /^basic stopped/.test(r)), 'basic shown stopped under it');
        for (const e of refreshes) assert.deepStrictEqual(e, [scope], "the folder's node, with its servers, not the whole view");
        assert.ok(refreshes.length > 0);
      } finally {
        listening.dispose();
      }
      await vscode.commands.executeCommand('mcpHost.startServer', child);
      await running('basic');
    } finally {
      vscode.workspace.updateWorkspaceFolders(1, 1);
      await waitFor(() => !server('extra', 'workspace-extra'), 'extra folder servers gone');
    }
  });

  it('asks before running a new workspace server, and runs nothing the user refused', async () => {
    await vscode.workspace.getConfiguration('mcpHost').update('trustAllServers', false, vscode.ConfigurationTarget.Global);
    const servers = config.servers();
    servers.stranger = { command: 'node', args: [fixtureServer('basic-server.mjs'), 'stranger'] };
    trustQuestions.length = 0;
    trustAnswers.push(false);
    await config.writeServers(servers);
    const refused = await waitFor(() => server('stranger')?.state.kind === 'blocked' && server('stranger'), 'stranger blocked');
    assert.deepStrictEqual(refused.state.kind === 'blocked' && refused.state.reason, 'untrusted');
    assert.strictEqual(refused.pid, undefined);
    assert.strictEqual(trustQuestions.length, 1);
    assert.strictEqual(trustQuestions[0].serverName, 'stranger');
    assert.match(trustQuestions[0].detail, /basic-server\.mjs stranger/, 'the dialog shows what would run');
    trustAnswers.push(true);
    await vscode.commands.executeCommand('mcpHost.startServer', refused.id);
    await running('stranger');
    assert.strictEqual(trustQuestions.length, 2, 'asked again when started by the user');
    await config.writeServers(config.servers());
    await waitFor(() => !server('stranger'), 'stranger removed');
  });

  it('the trust dialog shows the launch plan: the file that will run, and PYTHONWARNINGS and BROWSER with their values', async () => {
    await vscode.workspace.getConfiguration('mcpHost').update('trustAllServers', false, vscode.ConfigurationTarget.Global);
    const servers = config.servers();
    servers.planned = { command: 'node', args: [fixtureServer('basic-server.mjs'), 'planned'], env: { PYTHONWARNINGS: 'ignore::evilpkg.Warning', BROWSER: './tools/open.sh' } };
    trustQuestions.length = 0;
    trustAnswers.push(false);
    await config.writeServers(servers);
    await waitFor(() => server('planned')?.state.kind === 'blocked', 'planned blocked');
    const detail = trustQuestions[0]?.detail ?? '';
    assert.match(detail, /^Runs the file: .*node(\.exe)?$/m, detail);
    assert.match(detail, /⚠ PYTHONWARNINGS=ignore::evilpkg\.Warning \(env\)/, detail);
    assert.match(detail, /⚠ BROWSER=\.\/tools\/open\.sh \(env\)/, detail);
    await config.writeServers(config.servers());
    await waitFor(() => !server('planned'), 'planned removed');
  });

  it('asks once for all new servers of a folder, and lets the user choose which to run in a pick', async () => {
    const manyQuestions: TrustManyQuestion[] = [];
    const manyAnswers: (TrustManyAnswer | undefined)[] = ['choose'];
    const answering = answerDialogs(api, {
      confirmTrust: async (q) => {
        trustQuestions.push(q);
        return true;
      },
      confirmTrustMany: async (q) => {
        manyQuestions.push(q);
        return manyAnswers.shift();
      },
    });
    try {
      trustQuestions.length = 0;
      const servers = config.servers();
      for (const name of ['first', 'second', 'third']) servers[name] = { command: 'node', args: [fixtureServer('basic-server.mjs'), name] };
      await config.writeServers(servers);
      await waitFor(() => manyQuestions.length === 1, 'one question for the three');
      assert.deepStrictEqual(manyQuestions[0].servers.map((q) => q.serverName), ['first', 'second', 'third']);
      assert.strictEqual(manyQuestions[0].folder, folder.name);
      assert.match(manyQuestions[0].servers[1].detail, /basic-server\.mjs second/, 'each with what it would run');
      // "Choose Which to Run…": a pick with a checkbox per server; check the first and the third.
      await sleep(1500);
      // No item is active at first: "next" goes to the first.
      for (const command of ['quickInput.next', 'quickInput.toggleCheckbox', 'quickInput.next', 'quickInput.next', 'quickInput.toggleCheckbox', 'quickInput.accept']) {
        await vscode.commands.executeCommand(command);
        await sleep(200);
      }
      await running('first');
      await running('third');
      const second = await waitFor(() => server('second')?.state.kind === 'blocked' && server('second'), 'second not trusted');
      assert.strictEqual(second.state.kind === 'blocked' && second.state.reason, 'untrusted');
      assert.strictEqual(trustQuestions.length, 0, 'no question per server');
    } finally {
      answering.dispose();
      await config.writeServers(config.servers());
      await waitFor(() => !server('first') && !server('second') && !server('third'), 'the three removed');
    }
  });

  it('asks for inputs once — text through the dialog layer, pickString through a real quick pick — and passes them', async () => {
    const servers = config.servers();
    servers.asking = {
      command: 'node',
      args: [fixtureServer('basic-server.mjs'), 'asking'],
      env: { TOKEN: '${input:token}', REGION: '${input:region}', FIXTURE_ECHO_ENV: 'TOKEN,REGION' },
    };
    const inputs = [
      { type: 'promptString', id: 'token', description: 'Token for the asking server', password: true },
      { type: 'pickString', id: 'region', description: 'Region', options: ['eu', 'us'], default: 'eu' },
    ];
    textAnswers.push('s3cret-token-value');
    await config.writeServers(servers, inputs);
    await waitFor(() => textQuestions.includes('Token for the asking server'), 'token asked');
    await sleep(1500);
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const asking = await running('asking');
    const env = JSON.parse(((await api.testing.callTool(asking.id, 'whoami', {})) as { content: { text: string }[] }).content[0].text).env;
    assert.deepStrictEqual(env, { TOKEN: 's3cret-token-value', REGION: 'us' });
    await vscode.commands.executeCommand('mcpHost.restartServer', asking.id);
    await running('asking');
    assert.strictEqual(textQuestions.filter((q) => q === 'Token for the asking server').length, 1, 'remembered, not asked again');
    await config.writeServers(config.servers());
    await waitFor(() => !server('asking'), 'asking removed');
  });

  it("follows VS Code's log level in a server's log that was never opened, and in one started after the change", async () => {
    const original = await vscode.commands.executeCommand<string>('_extensionTests.getLogLevel');
    const servers = config.servers();
    servers.levelled = { command: 'node', args: [fixtureServer('basic-server.mjs'), 'levelled'] };
    await config.writeServers(servers);
    try {
      const levelled = await running('levelled');
      assert.strictEqual(api.testing.serverLogLevel(levelled.id), original.toLowerCase(), "VS Code's level");
      await vscode.commands.executeCommand('_extensionTests.setLogLevel', 'trace');
      await waitFor(() => api.testing.serverLogLevel(levelled.id) === 'trace', 'the running server traced');
      // A server started after the change starts at the new level (the kept level was updated, not only told).
      await api.testing.stopServer(levelled.id);
      await api.testing.startServer(levelled.id);
      await running('levelled');
      assert.strictEqual(api.testing.serverLogLevel(levelled.id), 'trace');
      await vscode.commands.executeCommand('_extensionTests.setLogLevel', original);
      await waitFor(() => api.testing.serverLogLevel(levelled.id) === original.toLowerCase(), 'back to the level before');
    } finally {
      await vscode.commands.executeCommand('_extensionTests.setLogLevel', original);
      await config.restore();
      await waitFor(() => !server('levelled'), 'levelled removed');
    }
  });

  it('runs the user-level servers the user configures for every workspace', async () => {
    await vscode.commands.executeCommand('mcpHost.openUserConfiguration');
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.path.endsWith('/mcp.json') && vscode.window.activeTextEditor, 'user config open');
    const userUri = editor.document.uri;
    assert.notStrictEqual(userUri.toString(), config.uri.toString());
    assert.match(editor.document.getText(), /"servers"/, 'a commented template was created');
    const write = (servers: object) => vscode.workspace.fs.writeFile(userUri, new TextEncoder().encode(JSON.stringify({ servers })));
    await write({ mine: { command: 'node', args: [fixtureServer('basic-server.mjs'), 'mine'] } });
    const mine = await running('mine', 'User');
    assert.strictEqual(mine.scope.kind, 'user');
    await write({});
    await waitFor(() => !server('mine', 'User'), 'user server removed');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('shows "starting" at once, with a spinner once the start is slow; the status bar names a slow start, and a click there cancels it', async () => {
    const servers = config.servers();
    servers.sluggish = { command: 'node', args: [fixtureServer('silent-server.mjs')] };
    await config.writeServers(servers);
    const first = await waitFor(() => server('sluggish')?.state.kind === 'starting' && server('sluggish'), 'sluggish starting');
    await api.testing.stopServer(first.id);
    await waitFor(() => server('sluggish')?.state.kind === 'stopped', 'sluggish stopped');
    await vscode.commands.executeCommand('mcpHost.servers.focus');
    const seen: string[] = [];
    const sub = api.onDidChangeServers(() => seen.push(server('sluggish')?.state.kind ?? 'gone'));
    const asked = Date.now();
    void vscode.commands.executeCommand('mcpHost.startServer', first.id);
    await waitFor(() => seen.length > 0, 'a state change');
    sub.dispose();
    assert.strictEqual(seen[0], 'starting', 'the first thing the view shows');
    assert.doesNotMatch(api.testing.statusBar().text, /Starting/, 'not at once: most starts are quick');
    // In the page: a still icon at first (a spinner is drawn on every frame, and most starts end sooner), then it spins.
    const sluggishRow = async () => (await serversViewRowsWithIcons()).find((r) => r.text.startsWith('sluggish '));
    const still = await waitFor(async () => {
      const row = await sluggishRow();
      return row?.text === 'sluggish starting…' && row;
    }, 'sluggish starting in the page');
    assert.ok(Date.now() - asked < SLOW_START_MS, `seen before the start became slow (${Date.now() - asked} ms)`);
    assert.ok(still.icon.includes('codicon-watch') && !still.icon.includes('codicon-modifier-spin'), `a still icon: ${still.icon.join(' ')}`);
    const spinning = await waitFor(async () => {
      const row = await sluggishRow();
      return row?.icon.includes('codicon-modifier-spin') && row;
    }, 'the spinner once the start is slow', 5000);
    assert.ok(Date.now() - asked >= SLOW_START_MS, `not before ${SLOW_START_MS} ms (${Date.now() - asked} ms)`);
    assert.strictEqual(spinning.text, 'sluggish starting…');
    assert.ok(spinning.icon.includes('codicon-loading'), `the spinner: ${spinning.icon.join(' ')}`);
    const shown = await waitFor(() => /^\$\(loading~spin\) Starting sluggish…$/.test(api.testing.statusBar().text) && api.testing.statusBar(), 'the slow start in the status bar', 5000);
    assert.match(shown.tooltip, /Click to cancel/);
    const command = shown.command as vscode.Command;
    assert.deepStrictEqual([command.command, command.arguments], ['mcpHost.stopServer', [first.id]]);
    const clicked = Date.now();
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    await waitFor(() => server('sluggish')?.state.kind === 'stopped', 'the start cancelled', 5000);
    assert.ok(Date.now() - clicked < 5000);
    await waitFor(() => /^\$\(server\) MCP \d+\/\d+$/.test(api.testing.statusBar().text), 'the usual status bar again');
    await config.writeServers(config.servers());
    await waitFor(() => !server('sluggish'), 'sluggish removed');
  });

  it('restarts a crashing server, then leaves it in error with the reason shown', async function () {
    this.timeout(120_000);
    const servers = config.servers();
    servers.crashy = { command: 'node', args: [fixtureServer('crash-server.mjs')], env: { FIXTURE_CRASH: 'after-init', FIXTURE_CRASH_AFTER_MS: '100' } };
    const seen = new Set<string>();
    const sub = api.onDidChangeServers(() => {
      const s = server('crashy');
      if (s) seen.add(s.state.kind);
    });
    await config.writeServers(servers);
    const failed = await waitFor(
      () => server('crashy')?.state.kind === 'error' && /not restarted/.test((server('crashy')!.state as { message: string }).message) && server('crashy'),
      'crashy given up',
      90_000,
    );
    sub.dispose();
    assert.ok(seen.has('running') && seen.has('starting'), `restarted in between: ${[...seen].join(',')}`);
    assert.strictEqual(failed.crashCount, 5);
    const tree = api.testing.renderServersTree();
    assert.ok(tree.some((l) => /crashy — error/.test(l)), tree.join('\n'));
    assert.ok(tree.some((l) => /not restarted, see output/.test(l)), 'the error is shown under the server');
    await config.writeServers(config.servers());
    await waitFor(() => !server('crashy'), 'crashy removed');
  });
});

function escape(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
