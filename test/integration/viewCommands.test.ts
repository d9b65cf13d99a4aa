// No dead buttons: every command the package contributes to a view item (context menu and inline) runs with the very
// nodes the view's provider returns, for every kind of node, and does what it says; a click on an item does what its
// command says; the same commands work from the palette (a quick pick) and from the API (server id and name).
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { FormFieldPresetQuestion, SignInQuestion, TrustQuestion } from '../../src/vscode/dialogs/dialogRouter';
import type { ToolCallOutcome } from '../../src/vscode/tools/toolCommands';
import { startOAuthFixture, type OAuthFixture } from '../unit/remoteTestKit';
import { pageQuery, pageRequest } from './pageRequests';
import { activateHost, answerDialogs, fixtureServer, sleep, waitFor, WorkspaceConfig, type TestedHost } from './testKit';

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}

/**
 * Evaluates the `when` clauses our menus use: `view == x`, `viewItem == y`, `viewItem =~ /re/`, joined by `&&`.
 * Anything else fails the test, so a menu written in a form this test cannot judge is noticed.
 */
function menuApplies(when: string | undefined, context: { view: string; viewItem: string }): boolean {
  if (!when) return true;
  return when.split('&&').every((clause) => {
    const c = clause.trim();
    let m = /^(view|viewItem) == ([\w.-]+)$/.exec(c);
    if (m) return context[m[1] as 'view' | 'viewItem'] === m[2];
    m = /^(view|viewItem) =~ \/(.*)\/$/.exec(c);
    if (m) return new RegExp(m[2]).test(context[m[1] as 'view' | 'viewItem']);
    throw new Error(`a when clause this test cannot evaluate: ${c}`);
  });
}

/** The MCP URI of the resource document on screen, if one is. */
function activeResource(): string | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const uri = input instanceof vscode.TabInputText ? input.uri : undefined;
  return uri?.scheme === 'mcp-host-resource' ? (new URLSearchParams(uri.query).get('uri') ?? undefined) : undefined;
}

interface ShownNode {
  node: unknown;
  item: vscode.TreeItem;
  label: string;
  depth: number;
  parentLabels: string[];
}

async function walk(provider: vscode.TreeDataProvider<unknown>): Promise<ShownNode[]> {
  const out: ShownNode[] = [];
  const visit = async (parent: unknown, depth: number, parentLabels: string[]) => {
    for (const node of (await provider.getChildren(parent)) ?? []) {
      const item = await provider.getTreeItem(node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      out.push({ node, item, label, depth, parentLabels });
      await visit(node, depth + 1, [...parentLabels, label]);
    }
  };
  await visit(undefined, 0, []);
  return out;
}

describe('Every command on a view item works with the real nodes', function () {
  this.timeout(180_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let oauth: OAuthFixture;
  let dialogs: vscode.Disposable;
  const trustQuestions: TrustQuestion[] = [];
  const trustAnswers: Record<string, boolean> = {};
  const toolQuestions: ToolConsentQuestion[] = [];
  const formFields: FormFieldPresetQuestion[] = [];
  let presets: Record<string, string> = {};
  const signInQuestions: SignInQuestion[] = [];
  let signInAnswer = false;
  let menus: MenuEntry[];
  /** The commands run on each kind of node, by context value: the test fails on a menu entry nobody ran. */
  const ran = new Map<string, Set<string>>();

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);
  const state = (name: string) => server(name)?.state.kind;
  const inState = (name: string, kind: string) => waitFor(() => state(name) === kind && server(name), `${name} ${kind}`, 30_000);

  const servers = () => walk(api.testing.serversTree as vscode.TreeDataProvider<unknown>);
  const resources = () => walk(api.testing.resources.provider as vscode.TreeDataProvider<unknown>);

  /** The commands the package puts on a node of a view: its context menu and its inline actions. */
  const commandsOn = (view: string, item: vscode.TreeItem): string[] => [
    ...new Set(menus.filter((m) => item.contextValue && menuApplies(m.when, { view, viewItem: item.contextValue })).map((m) => m.command)),
  ];

  /** Finds a node as VS Code would show it now (nodes are rebuilt on every refresh). */
  async function shown(nodes: () => Promise<ShownNode[]>, what: string, match: (n: ShownNode) => boolean): Promise<ShownNode> {
    return waitFor(async () => (await nodes()).find(match), what);
  }

  /** Runs a menu command the way VS Code does from a menu: with the node as its argument. */
  async function runOn(view: string, n: ShownNode, command: string): Promise<unknown> {
    assert.ok(commandsOn(view, n.item).includes(command), `${command} is on ${n.item.contextValue} items of ${view}`);
    const set = ran.get(`${view} ${n.item.contextValue}`) ?? new Set();
    set.add(command);
    ran.set(`${view} ${n.item.contextValue}`, set);
    return vscode.commands.executeCommand(command, n.node);
  }

  const serverNode = (name: string) => (n: ShownNode) => n.label === name && /^mcpServer\./.test(n.item.contextValue ?? '');
  const childOf = (serverName: string, label: string) => (n: ShownNode) => n.parentLabels.includes(serverName) && n.label === label;

  before(async () => {
    api = await activateHost();
    menus = (vscode.extensions.getExtension('mcp-host.mcp-host')!.packageJSON.contributes.menus['view/item/context'] as MenuEntry[]) ?? [];
    dialogs = answerDialogs(api, {
      confirmTrust: async (q) => {
        trustQuestions.push(q);
        return trustAnswers[q.serverName] ?? true;
      },
      confirmToolCall: async (q) => {
        toolQuestions.push(q);
        return 'once';
      },
      formFieldPreset: (q) => {
        formFields.push(q);
        return presets[q.field.name];
      },
      inputText: async (q) => q.value,
      confirmSignIn: async (q) => {
        signInQuestions.push(q);
        return signInAnswer;
      },
      // The browser: the fixture signs the user in at once and redirects back, as in the remote suite.
      openSignInPage: async (url) => {
        const authorize = await fetch(url, { redirect: 'manual' });
        const location = authorize.headers.get('location');
        if (!location) return false;
        await (await fetch(location)).text();
        return true;
      },
    });
    config = await WorkspaceConfig.read();
    oauth = await startOAuthFixture();
    trustAnswers.refused = false;
    const added = {
      ...config.servers(),
      idle: { command: 'node', args: [fixtureServer('basic-server.mjs'), 'idle'] },
      broken: { command: 'mcp-host-no-such-command' },
      secured: { type: 'http', url: oauth.url },
    };
    await config.writeServers(added);
    await waitFor(() => server('idle') && server('broken') && server('secured'), 'the added servers');
    await inState('broken', 'error');
    // Alone, once the others were asked about, so that its "no" is a question of its own.
    await config.writeServers({ ...added, refused: { command: 'node', args: [fixtureServer('basic-server.mjs'), 'refused'] } });
    await waitFor(() => server('refused'), 'the refused server');
    for (const s of api.getServers()) {
      if (['everything', 'basic', 'idle'].includes(s.name) && s.state.kind !== 'running') await api.testing.startServer(s.id);
    }
    await inState('idle', 'running');
    // Run alone, this suite may find everything refused at activation, before its dialogs were answered: started again.
    await waitFor(async () => {
      for (const s of ['everything', 'basic'].map(server)) {
        if (s && ['blocked', 'stopped'].includes(s.state.kind)) await api.testing.startServer(s.id);
      }
      return ['everything', 'basic'].every((n) => state(n) === 'running');
    }, 'everything and basic running', 120_000).catch((e: Error) => {
      throw new Error(`${e.message}: ${JSON.stringify(['everything', 'basic'].map((n) => server(n)?.state))}`);
    });
    await inState('refused', 'blocked');
    await inState('broken', 'error');
    await waitFor(() => server('secured')?.auth?.kind === 'needsSignIn' && server('secured'), 'secured waits for a sign-in', 30_000);
    await vscode.commands.executeCommand('mcpHost.servers.focus');
  });

  after(async () => {
    dialogs.dispose();
    await config.restore();
    await waitFor(() => !server('idle') && !server('secured'), 'the added servers removed', 30_000);
    await oauth.stop();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  beforeEach(() => {
    toolQuestions.length = 0;
    formFields.length = 0;
    trustQuestions.length = 0;
    presets = {};
  });

  it('stops, starts, restarts a server and shows its log from its node', async () => {
    let idle = await shown(servers, 'idle running', (n) => serverNode('idle')(n) && n.item.contextValue === 'mcpServer.running');
    assert.strictEqual(await runOn('mcpHost.servers', idle, 'mcpHost.showOutput'), true, 'the log was shown');
    const pid = server('idle')!.pid;
    await runOn('mcpHost.servers', idle, 'mcpHost.restartServer');
    await waitFor(() => state('idle') === 'running' && server('idle')!.pid !== pid, 'idle restarted with a new process');
    idle = await shown(servers, 'idle running', (n) => serverNode('idle')(n) && n.item.contextValue === 'mcpServer.running');
    await runOn('mcpHost.servers', idle, 'mcpHost.stopServer');
    await inState('idle', 'stopped');
    const stopped = await shown(servers, 'idle stopped', (n) => serverNode('idle')(n) && n.item.contextValue === 'mcpServer.stopped');
    assert.strictEqual(await runOn('mcpHost.servers', stopped, 'mcpHost.showOutput'), true);
    await runOn('mcpHost.servers', stopped, 'mcpHost.restartServer');
    await inState('idle', 'running');
    await runOn('mcpHost.servers', await shown(servers, 'idle running', (n) => serverNode('idle')(n) && n.item.contextValue === 'mcpServer.running'), 'mcpHost.stopServer');
    await inState('idle', 'stopped');
    await runOn('mcpHost.servers', await shown(servers, 'idle stopped', (n) => serverNode('idle')(n) && n.item.contextValue === 'mcpServer.stopped'), 'mcpHost.startServer');
    await inState('idle', 'running');
  });

  it('asks trust again when a refused server is trusted from its node, and on a click on the line under it', async () => {
    const refused = await shown(servers, 'refused not trusted', (n) => serverNode('refused')(n) && n.item.contextValue === 'mcpServer.untrusted');
    assert.ok(!commandsOn('mcpHost.servers', refused.item).includes('mcpHost.startServer'), 'Trust Server…, not Start Server');
    await runOn('mcpHost.servers', refused, 'mcpHost.trustServer');
    await waitFor(() => trustQuestions.some((q) => q.serverName === 'refused'), 'the trust question for "refused"');
    await inState('refused', 'blocked');
    assert.strictEqual(await runOn('mcpHost.servers', await shown(servers, 'refused', serverNode('refused')), 'mcpHost.showOutput'), true);
    trustQuestions.length = 0;
    await runOn('mcpHost.servers', await shown(servers, 'refused', serverNode('refused')), 'mcpHost.restartServer');
    await waitFor(() => trustQuestions.some((q) => q.serverName === 'refused'), 'asked again on restart');
    await inState('refused', 'blocked');
    trustQuestions.length = 0;
    const explanation = await shown(servers, 'the explanation under refused', (n) => n.parentLabels.at(-1) === 'refused' && n.item.contextValue === 'mcpServerState');
    assert.ok(explanation.item.command, 'the explanation has a click action');
    await vscode.commands.executeCommand(explanation.item.command.command, ...(explanation.item.command.arguments ?? []));
    await waitFor(() => trustQuestions.some((q) => q.serverName === 'refused'), 'asked on a click on the line under it');
  });

  it('retries a server in error from its node', async () => {
    const broken = await shown(servers, 'broken in error', (n) => serverNode('broken')(n) && n.item.contextValue === 'mcpServer.error');
    const seen: string[] = [];
    const sub = api.onDidChangeServers(() => seen.push(state('broken') ?? 'gone'));
    try {
      await runOn('mcpHost.servers', broken, 'mcpHost.startServer');
      await waitFor(() => seen.includes('starting') && state('broken') === 'error', 'broken started again and failed again');
      seen.length = 0;
      await runOn('mcpHost.servers', await shown(servers, 'broken', serverNode('broken')), 'mcpHost.restartServer');
      await waitFor(() => seen.includes('starting') && state('broken') === 'error', 'broken restarted and failed again');
    } finally {
      sub.dispose();
    }
    assert.strictEqual(await runOn('mcpHost.servers', await shown(servers, 'broken', serverNode('broken')), 'mcpHost.showOutput'), true);
  });

  it('signs in to and out of a remote server from its node', async () => {
    const waiting = await shown(servers, 'secured needs sign-in', (n) => serverNode('secured')(n) && /\.needsSignIn$/.test(n.item.contextValue ?? ''));
    signInAnswer = true;
    signInQuestions.length = 0;
    await runOn('mcpHost.servers', waiting, 'mcpHost.signInToServer');
    await waitFor(() => state('secured') === 'running' && server('secured')?.auth?.kind === 'signedIn', 'secured signed in', 30_000);
    assert.strictEqual(signInQuestions.length, 1);
    const signedIn = await shown(servers, 'secured signed in', (n) => serverNode('secured')(n) && n.item.contextValue === 'mcpServer.running.signedIn');
    await runOn('mcpHost.servers', signedIn, 'mcpHost.signOutOfServer');
    await inState('secured', 'stopped');
    assert.strictEqual(server('secured')?.auth, undefined, 'its tokens are forgotten');
  });

  it('opens the call form of a tool from its menu, its inline action and a click, and calls it', async () => {
    const echo = await shown(servers, 'the echo tool of basic', (n) => childOf('basic', 'echo')(n) && n.item.contextValue === 'mcpTool');
    const call = async (run: () => Thenable<unknown>, text: string) => {
      formFields.length = 0;
      presets = { text };
      const outcome = run() as Thenable<ToolCallOutcome | undefined>;
      await waitFor(() => formFields.find((f) => f.field.name === 'text'), 'the form to ask for "text"');
      assert.strictEqual(formFields[0].serverName, 'basic');
      await sleep(300);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await sleep(800);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'); // the review step
      const done = await outcome;
      assert.ok(done, 'the call ran');
      assert.deepStrictEqual(done.result?.content, [{ type: 'text', text }]);
      assert.strictEqual(toolQuestions.length, 0, 'the form is the consent');
    };
    // The menu and the inline ▷ are the same command with the same node.
    await call(() => runOn('mcpHost.servers', echo, 'mcpHost.callTool') as Thenable<unknown>, 'from the menu');
    assert.ok(echo.item.command, 'a click does something');
    assert.strictEqual(echo.item.command.command, 'mcpHost.callTool');
    await call(() => vscode.commands.executeCommand(echo.item.command!.command, ...(echo.item.command!.arguments ?? [])), 'from a click');
  });

  it('runs a prompt from its menu and from a click', async () => {
    const greet = await shown(servers, 'the greet prompt of basic', (n) => childOf('basic', 'greet')(n) && n.item.contextValue === 'mcpPrompt');
    const run = async (start: () => Thenable<unknown>, name: string) => {
      const outcome = start() as Thenable<{ text: string } | undefined>;
      const pick = await waitFor(() => api.testing.argumentPick()?.argument === 'name' && api.testing.argumentPick(), 'the argument pick for "name"');
      pick.setValue(name);
      await sleep(300);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const expanded = await outcome;
      assert.strictEqual(expanded?.text, `Hello, ${name}!`);
    };
    await run(() => runOn('mcpHost.servers', greet, 'mcpHost.runPrompt') as Thenable<unknown>, 'Menu');
    assert.strictEqual(greet.item.command?.command, 'mcpHost.runPrompt', 'a click runs the prompt');

    // "name" is required: the pick says so, and an empty Enter says why nothing happened.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const outcome = vscode.commands.executeCommand(greet.item.command.command, ...(greet.item.command.arguments ?? [])) as Thenable<{ text: string } | undefined>;
    const pick = await waitFor(() => api.testing.argumentPick()?.argument === 'name' && api.testing.argumentPick(), 'the argument pick for "name"');
    assert.match(pick.placeholder ?? '', /^name \(required\)/);
    await sleep(300);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await waitFor(() => /^name is required: type a value/.test(pick.placeholder ?? ''), 'why the empty Enter did nothing');
    assert.strictEqual(api.testing.argumentPick()?.argument, 'name', 'still asking');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.strictEqual(await outcome, undefined);

    await run(() => vscode.commands.executeCommand(greet.item.command!.command, ...(greet.item.command!.arguments ?? [])), 'Click');
  });

  it('opens resources and fills in templates when clicked in the Servers view', async () => {
    const readme = await shown(servers, 'the readme of basic', (n) => n.parentLabels.includes('basic') && n.item.contextValue === 'mcpResource');
    await vscode.commands.executeCommand(readme.item.command!.command, ...(readme.item.command!.arguments ?? []));
    await waitFor(() => activeResource() === 'fixture://readme', 'the readme open');
    const template = await shown(servers, 'a template of everything', (n) => n.parentLabels.includes('everything') && n.item.contextValue === 'mcpResourceTemplate');
    void vscode.commands.executeCommand(template.item.command!.command, ...(template.item.command!.arguments ?? []));
    await waitFor(() => api.testing.resources.templatePick(), 'the template pick');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  /** Every command of a resource's and a template's menu, run on the nodes of `view` (both views have the same menu). */
  async function runResourceCommands(view: 'mcpHost.resources' | 'mcpHost.servers', nodes: () => Promise<ShownNode[]>) {
    const resource = await shown(nodes, 'the readme of basic', (n) => n.parentLabels.includes('basic') && n.item.contextValue === 'mcpResource');
    await runOn(view, resource, 'mcpHost.openResource');
    await waitFor(() => activeResource() === 'fixture://readme', 'the resource open');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab!.input as vscode.TabInputText;
    const contents = (await vscode.workspace.openTextDocument(tab.uri)).getText();
    await vscode.env.clipboard.writeText('');
    await runOn(view, resource, 'mcpHost.copyResourceUri');
    assert.strictEqual(await vscode.env.clipboard.readText(), 'fixture://readme');
    await runOn(view, resource, 'mcpHost.copyResourceContents');
    assert.strictEqual(await vscode.env.clipboard.readText(), contents);
    await runOn(view, resource, 'mcpHost.attachResourceToChat');
    assert.ok(api.testing.resources.attachments().some((a) => a.uri === 'fixture://readme'), 'attached to the next @mcp request');
    api.testing.resources.takeRefreshes();
    await runOn(view, resource, 'mcpHost.refreshResources');
    // Save As shows the save dialog, which in this browser workbench is a quick input with the file name filled in.
    const saved = runOn(view, resource, 'mcpHost.saveResourceAs');
    await sleep(1500);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await saved;
    const target = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'readme.md');
    assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(target)), contents);
    await vscode.workspace.fs.delete(target);

    const template = await shown(nodes, 'a template of everything', (n) => n.parentLabels.includes('everything') && n.item.contextValue === 'mcpResourceTemplate');
    const opened = runOn(view, template, 'mcpHost.openResourceTemplate');
    await waitFor(() => api.testing.resources.templatePick(), 'the template pick');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await opened;
    await vscode.env.clipboard.writeText('');
    await runOn(view, template, 'mcpHost.copyResourceUri');
    assert.match(await vscode.env.clipboard.readText(), /\{/, 'the template itself');
  }

  it('runs every resource command from the Resources view nodes', async () => {
    await vscode.commands.executeCommand('mcpHost.resources.focus');
    const view = 'mcpHost.resources';
    await runResourceCommands(view, resources);
    const serverItem = await shown(resources, 'basic in the Resources view', (n) => n.label === 'basic' && n.item.contextValue === 'mcpResourceServer.running');
    api.testing.resources.takeRefreshes();
    await runOn(view, serverItem, 'mcpHost.refreshResources');
    const basicId = server('basic')!.id;
    await waitFor(() => api.testing.resources.takeRefreshes().includes(basicId), 'basic refreshed');
  });

  it('runs the same resource commands from the Servers view nodes (the same context menu)', async () => {
    await vscode.commands.executeCommand('mcpHost.servers.focus');
    await runResourceCommands('mcpHost.servers', servers);
  });

  it("opens Set Tool Approval… from every server's node, whatever its state, and leaves the approval as it was when the pick is dismissed", async () => {
    const before = api.getServers().map((s) => s.name);
    for (const n of (await servers()).filter((x) => /^mcpServer\./.test(x.item.contextValue ?? ''))) {
      if (!commandsOn('mcpHost.servers', n.item).includes('mcpHost.setToolApproval')) continue;
      const picked = runOn('mcpHost.servers', n, 'mcpHost.setToolApproval');
      await sleep(300);
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await picked;
    }
    assert.deepStrictEqual(api.getServers().map((s) => s.name), before, 'no server went away');
  });

  it("runs every command on the task rows shown (Open Task Result, Cancel), such as the background calls' rows other suites leave", async () => {
    for (const n of (await servers()).filter((x) => /^mcpTask\./.test(x.item.contextValue ?? ''))) {
      for (const command of commandsOn('mcpHost.servers', n.item)) await runOn('mcpHost.servers', n, command);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('left no menu entry untried on any kind of node shown', async () => {
    const untried: string[] = [];
    for (const [view, nodes] of [
      ['mcpHost.servers', await servers()],
      ['mcpHost.resources', await resources()],
    ] as const) {
      for (const n of nodes) {
        for (const command of commandsOn(view, n.item)) {
          if (!ran.get(`${view} ${n.item.contextValue}`)?.has(command)) untried.push(`${view}: ${command} on ${n.item.contextValue} (${n.label})`);
        }
      }
    }
    assert.deepStrictEqual([...new Set(untried)], []);
    const kinds = [...ran.keys()].sort();
    for (const k of ['mcpServer.running', 'mcpServer.stopped', 'mcpServer.untrusted', 'mcpServer.error', 'mcpTool', 'mcpPrompt', 'mcpResource', 'mcpResourceTemplate']) {
      assert.ok(kinds.some((x) => x.endsWith(` ${k}`)), `a ${k} node was tried: ${kinds.join(', ')}`);
    }
  });

  /**
   * Picks in the quick pick on the page as a user does: waits for the pick asking `placeholder`, types `typed`, and
   * presses Enter once its first row reads `firstRow` (what is accepted is what the page showed).
   */
  async function pickOnPage(placeholder: string, typed: string, firstRow: RegExp): Promise<void> {
    const shownPick = async () =>
      (
        await pageQuery<{ placeholder: string; rows: string[] }>(
          '.quick-input-widget',
          `return element.offsetParent === null ? { placeholder: '', rows: [] } : {
             placeholder: element.querySelector('input')?.placeholder ?? '',
             rows: [...element.querySelectorAll('.monaco-list-row')].map((r) => r.innerText.replace(/\\s+/g, ' ').trim()),
           };`,
        )
      )[0];
    await waitFor(async () => (await shownPick())?.placeholder === placeholder, `the pick "${placeholder}"`);
    await pageRequest({ action: 'type', text: typed });
    let last: { rows: string[] } | undefined;
    await waitFor(async () => firstRow.test((last = await shownPick())?.rows[0] ?? ''), `${firstRow} first in the pick`).catch((e: Error) => {
      throw new Error(`${e.message}: the pick showed ${JSON.stringify(last?.rows.slice(0, 5))}`);
    });
    await pageRequest({ action: 'press', key: 'Enter' });
  }

  it('offers the same commands from the palette, with a pick', async () => {
    const calling = vscode.commands.executeCommand('mcpHost.callTool') as Thenable<unknown>;
    await pickOnPage('Call which MCP tool?', 'everything · echo', /everything · echo/);
    await waitFor(() => formFields.some((f) => f.serverName === 'everything' && f.field.name === 'message'), "the form of everything's echo");
    await sleep(300);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.strictEqual(await calling, undefined, 'closing the form calls nothing');

    // greet asks for a name: the prompt's argument pick follows the prompt's.
    const running = vscode.commands.executeCommand('mcpHost.runPrompt') as Thenable<{ text: string } | undefined>;
    await pickOnPage('Run which MCP prompt?', 'greet', /^greet/);
    await waitFor(() => api.testing.argumentPick(), "greet's argument pick");
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.strictEqual(await running, undefined, 'closing the argument pick runs nothing');

    const showing = vscode.commands.executeCommand('mcpHost.showOutput');
    await pickOnPage('Show the log of which MCP server?', 'basic', /^basic/);
    assert.strictEqual(await showing, true, "the picked server's log was shown");
  });

  it('takes a server id and a name from the API', async () => {
    const basic = server('basic')!;
    presets = { text: 'from the API' };
    const outcome = vscode.commands.executeCommand('mcpHost.callTool', basic.id, 'echo') as Thenable<ToolCallOutcome>;
    await waitFor(() => formFields.some((f) => f.field.name === 'text'), 'the form');
    await sleep(300);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await sleep(800);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.deepStrictEqual((await outcome).result?.content, [{ type: 'text', text: 'from the API' }]);
    const expanded = (await vscode.commands.executeCommand('mcpHost.runPrompt', basic.id, 'greet', { name: 'API' })) as { text: string };
    assert.strictEqual(expanded.text, 'Hello, API!');
    assert.strictEqual(await vscode.commands.executeCommand('mcpHost.showOutput', basic.id), true);
  });
});
