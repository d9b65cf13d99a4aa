// The Resources view and resource documents in a real VS Code: server-everything's documents and templates, a
// template filled in through the quick pick with the server's completions, live updates, list_changed, greying, and a
// 10,000-resource server that shows its first page without loading the rest.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { McpHostTestingApi } from '../../src/vscode/publicApi';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { activateHost, answerDialogs, repoRoot, sleep, waitFor, WorkspaceConfig, type TestedHost } from './testKit';
import { pageQuery, pageRequest } from './pageRequests';
import { SLOW_START_MS } from '../../src/core/presentation/serverPresentation';
import type { ResourceTreeNode } from '../../src/vscode/resources/deferredResourcesTree';

const SCHEME = 'mcp-host-resource';

/** The lines of one server's subtree in the rendered view (one level below it). */
function subtree(lines: string[], server: string): string[] {
  const start = lines.findIndex((l) => l.trimStart().startsWith(`${server} — `));
  if (start < 0) return [];
  const indent = lines[start].length - lines[start].trimStart().length;
  const out: string[] = [];
  for (const l of lines.slice(start + 1)) {
    const i = l.length - l.trimStart().length;
    if (i <= indent) break;
    if (i === indent + 2) out.push(l.trim());
  }
  return out;
}

function activeDocumentUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined;
}

describe('MCP resources in a real VS Code', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let testing: McpHostTestingApi;

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);
  const running = (name: string) => waitFor(() => server(name)?.state.kind === 'running' && server(name), `${name} running`);
  const tree = () => testing.resources.renderTree();
  const text = async (name: string, tool: string, args: Record<string, unknown> = {}) => {
    const result = (await testing.callTool((await running(name)).id, tool, args)) as { content: { text: string }[] };
    return result.content[0].text;
  };
  const openDocument = async (serverName: string, uri: string) => {
    await vscode.commands.executeCommand('mcpHost.openResource', (await running(serverName)).id, uri);
    const docUri = await waitFor(() => {
      const u = activeDocumentUri();
      return u?.scheme === SCHEME && new URLSearchParams(u.query).get('uri') === uri && u;
    }, `${uri} open`);
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === docUri.toString()) ?? (await vscode.workspace.openTextDocument(docUri));
  };

  before(async () => {
    api = await activateHost();
    testing = api.testing;
    answerDialogs(api, { inputText: async (q) => q.value });
    await waitFor(() => server('resources') && server('paging'), 'servers configured');
    for (const s of api.getServers()) if (s.state.kind === 'stopped' || s.state.kind === 'blocked') await testing.startServer(s.id);
    await vscode.commands.executeCommand('mcpHost.resources.focus');
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("lists server-everything's 7 documents and 2 templates, and servers without resources as such", async () => {
    await running('everything');
    const lines = await waitFor(() => {
      const t = tree();
      return t.some((l) => /everything — 7 resources · 2 templates/.test(l)) && t;
    }, 'everything in the view');
    const docs = subtree(lines, 'everything').filter((l) => / — Static document file exposed from \/docs: .*text\/markdown/.test(l));
    assert.strictEqual(docs.length, 7, lines.join('\n'));
    assert.ok(docs.some((l) => l.startsWith('architecture.md — ')));
    const templates = lines.slice(lines.findIndex((l) => l.trim() === 'Templates — 2'));
    assert.ok(templates.length > 0, 'a Templates group');
    assert.ok(templates.some((l) => /Dynamic Text Resource — Plaintext dynamic resource/.test(l)));
    assert.ok(templates.some((l) => /Dynamic Blob Resource — Binary \(base64\) dynamic resource/.test(l)));
    await running('slow');
    const slow = await waitFor(() => subtree(tree(), 'slow').length && subtree(tree(), 'slow'), 'slow in the view');
    assert.deepStrictEqual(slow, ['This server offers no resources']);
  });

  it("shows a resource's URI, type and server in its tooltip when its row is hovered, rendered", async () => {
    const everything = await running('everything');
    await testing.resources.expandServer(everything.id);
    const row = '.pane:has(.pane-header:has-text("Resources")) .monaco-list-row:has-text("architecture.md")';
    await waitFor(async () => (await pageQuery<null>(row, '')).length > 0, 'the row on screen');
    // The mouse moves onto the row's name, then its description, as a user's does (a hover shows on a move onto it,
    // after its delay); again after a few seconds without one.
    let moved = 0;
    const hover = await waitFor(async () => {
      if (Date.now() - moved > 4000) {
        await pageRequest({ action: 'hover', selector: `${row} .label-name` });
        await sleep(300);
        await pageRequest({ action: 'hover', selector: `${row} .label-description` });
        moved = Date.now();
      }
      const shown = (await pageQuery<string>('.monaco-workbench', `return [...document.querySelectorAll('.workbench-hover, .monaco-hover')].map((h) => h.innerText).join('\\n');`)).join('\n');
      return /demo:\/\/resource\/static\/document\/architecture\.md/.test(shown) && shown;
    }, "the resource's tooltip on hover");
    assert.match(hover, /text\/markdown/);
    assert.match(hover, /From everything/);
    assert.doesNotMatch(hover, /\*\*|`/, 'rendered, not raw Markdown');
    await pageRequest({ action: 'press', key: 'Escape' });
  });

  it('opens a resource read-only with its text and language, an image in the image viewer, and explains read errors', async () => {
    const doc = await openDocument('everything', 'demo://resource/static/document/architecture.md');
    const onDisk = fs.readFileSync(path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/docs/architecture.md'), 'utf8');
    assert.strictEqual(doc.getText(), onDisk);
    assert.strictEqual(doc.languageId, 'markdown');
    assert.strictEqual(path.posix.basename(doc.uri.path), 'architecture.md');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(doc.uri, new Uint8Array([1]))), 'read-only');

    await vscode.commands.executeCommand('mcpHost.openResource', (await running('resources')).id, 'fixture://image/pixel');
    const tab = await waitFor(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputCustom && input.uri.scheme === SCHEME && input;
    }, 'the image viewer');
    assert.strictEqual(tab.viewType, 'imagePreview.previewEditor');
    assert.match(tab.uri.path, /\/resources\/pixel\.png$/);

    const config = await openDocument('resources', 'fixture://data/config');
    assert.strictEqual(config.languageId, 'json', 'language from the MIME type');

    const before = activeDocumentUri()?.toString();
    await vscode.commands.executeCommand('mcpHost.openResource', (await running('resources')).id, 'fixture://nope');
    await sleep(500);
    assert.strictEqual(activeDocumentUri()?.toString(), before, 'no empty editor for a resource that does not exist');
  });

  it('opens a template through the quick pick, with completions that use the variables already filled in', async () => {
    const paging = await running('paging');
    const opening = vscode.commands.executeCommand('mcpHost.openResourceTemplate', paging.id, 'fixture://search/{category}/{term}');
    const first = await waitFor(() => {
      const p = testing.resources.templatePick();
      return p?.variable === 'category' && !p.busy && p.active === 'books' && p;
    }, 'the category pick with completions, on screen');
    assert.deepStrictEqual(first.items, ['books', 'games', 'gardening', 'movies', 'music']);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const second = await waitFor(() => {
      const p = testing.resources.templatePick();
      return p?.variable === 'term' && !p.busy && p.active === 'dune' && p;
    }, 'the term pick with completions for books, on screen');
    assert.deepStrictEqual(second.items, ['dune', 'foundation', 'hyperion', 'neuromancer']);
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await waitFor(() => testing.resources.templatePick()?.active === 'foundation', 'the next completion highlighted');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await opening;
    const uri = await waitFor(() => activeDocumentUri()?.scheme === SCHEME && activeDocumentUri(), 'the expanded resource open');
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.strictEqual(doc.getText(), 'Search books for foundation');
  });

  it("updates an open document when server-everything says it changed, and unsubscribes when it closes", async function () {
    this.timeout(60_000);
    const everything = await running('everything');
    const uri = 'demo://resource/dynamic/text/1';
    const doc = await openDocument('everything', uri);
    const initial = doc.getText();
    assert.match(initial, /^Resource 1: This is a plaintext resource created at /);
    await waitFor(() => testing.resources.subscriptions().some((s) => s.serverId === everything.id && s.uri === uri), 'subscribed');
    await text('everything', 'toggle-subscriber-updates');
    try {
      // Updates come every 5 s; the text carries the time it was made, to the second.
      await waitFor(() => doc.getText() !== initial && doc.getText().startsWith('Resource 1: '), 'the document re-read after an update', 20_000);
    } finally {
      await text('everything', 'toggle-subscriber-updates');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => !testing.resources.subscriptions().some((s) => s.uri === uri), 'unsubscribed after the last editor closed');
  });

  it('greys a stopped server with the reason and resubscribes its open documents when it runs again', async () => {
    const res = await running('resources');
    const doc = await openDocument('resources', 'fixture://live/counter');
    const version = Number(/version (\d+)/.exec(doc.getText())![1]);
    await waitFor(() => testing.resources.subscriptions().some((s) => s.serverId === res.id), 'subscribed');
    await text('resources', 'bump');
    await waitFor(() => doc.getText() === `version ${version + 1}\n`, 'the document follows the update');

    // VS Code is told which URIs' greying changed (the server's, its resources', its open document's), never "all":
    // every view and tab with file labels would ask its decorations again.
    const decorations = testing.resources.provider as unknown as vscode.FileDecorationProvider;
    const redecorated: (vscode.Uri | vscode.Uri[] | undefined)[] = [];
    const listening = decorations.onDidChangeFileDecorations!((e) => redecorated.push(e));
    const toldOf = (uri: vscode.Uri) => redecorated.some((e) => Array.isArray(e) && e.some((u) => u.toString() === uri.toString()));
    await testing.stopServer(res.id);
    await waitFor(() => tree().some((l) => /^resources — stopped \(greyed\)$/.test(l.trim())), 'the server greyed in the view');
    await waitFor(() => toldOf(doc.uri), 'the open document redecorated');
    assert.ok(!redecorated.includes(undefined), 'no change of every decoration');
    assert.ok(decorations.provideFileDecoration(doc.uri, new vscode.CancellationTokenSource().token), 'its document greyed');
    const greyed = subtree(tree(), 'resources');
    assert.match(greyed[0], /^Not running/);
    assert.ok(greyed.slice(1).every((l) => l.endsWith('(greyed)')), 'its last resources, greyed');
    assert.ok(greyed.some((l) => l.startsWith('Read Me — Markdown text')));
    assert.deepStrictEqual(testing.resources.subscriptions(), [], 'the session ended with its subscriptions');

    await testing.startServer(res.id);
    const again = await running('resources');
    await waitFor(() => testing.resources.subscriptions().some((s) => s.serverId === again.id), 'subscribed again');
    await waitFor(() => !tree().some((l) => l.includes('(greyed)')), 'no longer greyed');
    listening.dispose();
    assert.ok(!redecorated.includes(undefined), 'no change of every decoration');
    assert.strictEqual(redecorated.filter((e) => Array.isArray(e) && e.some((u) => u.toString() === doc.uri.toString())).length, 2, 'told when it went down and when it came back');
    assert.strictEqual(decorations.provideFileDecoration(doc.uri, new vscode.CancellationTokenSource().token), undefined, 'its document no longer greyed');
    // A new process counts from 1 again: two bumps make a text the document has not shown yet.
    await text('resources', 'bump');
    await text('resources', 'bump');
    await waitFor(() => doc.getText() === 'version 3\n', 'updates from the new session');
  });

  it("refreshes only the changed server's subtree on list_changed", async () => {
    const everything = await running('everything');
    await waitFor(() => tree().some((l) => /everything — 7 resources/.test(l)), 'everything listed');
    // Quiet first: the refreshes of the previous test's last changes (its server's restart, its updates) are drawn
    // up to a second after them.
    await waitFor(async () => {
      testing.resources.takeRefreshes();
      await sleep(1000);
      return testing.resources.takeRefreshes().length === 0;
    }, 'the view quiet', 15_000);
    await text('everything', 'gzip-file-as-resource', { name: 'hello.txt.gz', data: 'data:text/plain;base64,aGVsbG8=', outputType: 'resourceLink' });
    await waitFor(() => subtree(tree(), 'everything').some((l) => l.startsWith('hello.txt.gz — application/gzip')), 'the new resource in the view');
    const refreshed = testing.resources.takeRefreshes();
    assert.ok(refreshed.length > 0);
    assert.deepStrictEqual([...new Set(refreshed)], [everything.id], 'no other subtree, not the whole view');
    assert.ok(tree().some((l) => /everything — 8 resources · 2 templates/.test(l)));
    // A new process forgets the session resource: later suites count server-everything's own 7.
    await testing.stopServer(everything.id);
    await testing.startServer(everything.id);
    await waitFor(() => server('everything')?.state.kind === 'running' && server('everything')!.features.resources.length === 7, 'everything restarted');
  });

  it('tells VS Code of the servers that changed together in one event (one each: it draws the second 200 ms later)', async () => {
    const [res, paging] = [await running('resources'), await running('paging')];
    const provider = testing.resources.provider;
    const nodeOf = async (id: string) => ((await provider.getChildren()) ?? []).find((n) => (n as { listing?: { server: { id: string } } }).listing?.server.id === id);
    const nodes = [await nodeOf(res.id), await nodeOf(paging.id)];
    assert.ok(nodes.every(Boolean), 'both servers in the view');
    const events: unknown[] = [];
    const listening = provider.onDidChangeTreeData!((e) => events.push(e));
    try {
      await Promise.all([testing.stopServer(res.id), testing.stopServer(paging.id)]);
      await waitFor(() => ['resources', 'paging'].every((name) => tree().some((l) => new RegExp(`^${name} — stopped \\(greyed\\)$`).test(l.trim()))), 'both greyed in the view');
      // Each refresh is one event naming every server that changed since the last (another may have, too), by the
      // nodes the view holds; the two stops usually end within one refresh's wait, but need not.
      assert.ok(events.length > 0, 'the view was refreshed');
      for (const e of events) assert.ok(Array.isArray(e), `an array of the view's nodes, not one node: ${String(e)}`);
      assert.ok(nodes.every((n) => events.some((e) => (e as unknown[]).includes(n))), 'both refreshed, by the nodes the view holds');
    } finally {
      listening.dispose();
      await testing.startServer(res.id);
      await testing.startServer(paging.id);
    }
    await running('resources');
    await running('paging');
    await waitFor(() => tree().some((l) => /paging — 100\+ resources/.test(l)) && !tree().some((l) => l.includes('(greyed)') || l.includes('Starting…')), 'both listed again');
  });

  it('shows a starting server with a still icon, and draws its row again with a spinner once the start is slow', async () => {
    const config = await WorkspaceConfig.read();
    const provider = testing.resources.provider;
    const events: unknown[] = [];
    const listening = provider.onDidChangeTreeData!((e) => events.push(e));
    try {
      await config.writeServers({ ...config.servers(), sluggish: { command: 'node', args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'silent-server.mjs')] } });
      const starting = await waitFor(() => server('sluggish')?.state.kind === 'starting' && server('sluggish'), 'sluggish starting');
      const since = (starting.state as { since: number }).since;
      const isSluggish = (n: unknown) => (n as { listing?: { server: { id: string } } }).listing?.server.id === starting.id;
      const icon = async (node: ResourceTreeNode) => ((await provider.getTreeItem(node)).iconPath as vscode.ThemeIcon).id;
      // Its row as the view was last told (the refresh comes 250 ms to a second after the change).
      const shown = await waitFor(async () => {
        const node = ((await provider.getChildren()) ?? []).find(isSluggish);
        return node && /^starting/.test(String((await provider.getTreeItem(node)).description)) && node;
      }, 'its row, starting');
      assert.strictEqual(await icon(shown), 'watch');
      assert.ok(Date.now() - since < SLOW_START_MS, `seen before the start became slow (${Date.now() - since} ms)`);
      events.length = 0;
      // The row the view holds by then (the server's arrival may have refreshed the whole view meanwhile).
      const redrawn = await waitFor(() => events.flatMap((e) => (Array.isArray(e) ? e : [])).find(isSluggish), 'its row drawn again', 5000);
      assert.ok(Date.now() - since >= SLOW_START_MS, `not before ${SLOW_START_MS} ms (${Date.now() - since} ms)`);
      assert.strictEqual(server('sluggish')?.state.kind, 'starting');
      assert.strictEqual(await icon(redrawn as ResourceTreeNode), 'loading~spin');
    } finally {
      listening.dispose();
      await config.restore();
      await waitFor(() => !server('sluggish'), 'sluggish removed');
    }
  });

  it('expands the first page of a 10,000-resource server without loading the rest, and loads more on demand', async () => {
    const paging = await running('paging');
    const lines = subtree(tree(), 'paging');
    assert.strictEqual(lines.filter((l) => /^item-\d+ — text\/plain$/.test(l)).length, 100, lines.slice(0, 5).join('\n'));
    assert.ok(lines.includes('Load more… — 100 loaded'));
    assert.ok(tree().some((l) => /paging — 100\+ resources · 2 templates/.test(l)));
    assert.strictEqual(await text('paging', 'count-list-requests'), '1', 'one page requested, not 100');
    await vscode.commands.executeCommand('mcpHost.loadMoreResources', paging.id);
    await waitFor(() => subtree(tree(), 'paging').includes('Load more… — 200 loaded'), 'the second page');
    assert.strictEqual(await text('paging', 'count-list-requests'), '2');
    assert.strictEqual(server('paging')!.features.resources.length, 200, 'the public API sees what is loaded');
  });

  it('pages resource templates like resources: the first page, and "Load more…" under Templates', async () => {
    const config = await WorkspaceConfig.read();
    try {
      await config.writeServers({
        ...config.servers(),
        templated: { command: 'node', args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'paging-server.mjs')], env: { FIXTURE_RESOURCE_COUNT: '1', FIXTURE_TEMPLATE_COUNT: '150' } },
      });
      const templated = await running('templated');
      assert.strictEqual(templated.features.resourceTemplates.length, 100, 'the first page of 152');
      await waitFor(() => tree().some((l) => /templated — 1 resource · 100\+ templates/.test(l)), 'the server in the view');
      const lines = subtree(tree(), 'templated');
      assert.ok(lines.includes('Templates — 100+'), lines.join('\n'));
      const all = tree();
      const start = all.findIndex((l) => l.trim() === 'Templates — 100+');
      assert.ok(all.slice(start).some((l) => l.trim() === 'Load more… — 100 loaded'), 'Load more… under the templates');
      await vscode.commands.executeCommand('mcpHost.loadMoreResources', templated.id, 'templates');
      await waitFor(() => tree().some((l) => /templated — 1 resource · 152 templates/.test(l)), 'the second page, the last');
      assert.strictEqual(server('templated')!.features.resourceTemplates.length, 152);
    } finally {
      await config.restore();
      await waitFor(() => !server('templated'), 'templated removed');
    }
  });

  it('opens resource links and embedded resources from results through the same documents', async () => {
    const res = await running('resources');
    const link = { type: 'resource_link', uri: 'fixture://docs/readme.md', name: 'readme.md', mimeType: 'text/markdown' };
    await vscode.commands.executeCommand('mcpHost.openResourceLink', res.id, link);
    const linked = await waitFor(() => activeDocumentUri()?.scheme === SCHEME && activeDocumentUri(), 'the linked resource open');
    assert.strictEqual((await vscode.workspace.openTextDocument(linked)).getText(), '# Read Me\n\nHello there.\n');
    const embedded = { type: 'resource', resource: { uri: 'fixture://nowhere/report.json', mimeType: 'application/json', text: '{ "embedded": true }' } };
    await vscode.commands.executeCommand('mcpHost.openResourceLink', res.id, embedded);
    const shown = await waitFor(() => activeDocumentUri()?.path.endsWith('/report.json') && activeDocumentUri(), 'the embedded resource open');
    const doc = await vscode.workspace.openTextDocument(shown);
    assert.strictEqual(doc.getText(), '{ "embedded": true }', 'shown as it came, not read from the server (which does not have it)');
    assert.strictEqual(doc.languageId, 'json');
    assert.ok(!testing.resources.subscriptions().some((s) => s.uri === 'fixture://nowhere/report.json'), 'nothing to follow on the server');
  });

  it('attaches a resource to chat for the @mcp participant', async () => {
    const res = await running('resources');
    await vscode.commands.executeCommand('mcpHost.attachResourceToChat', res.id, 'fixture://docs/readme.md');
    const attached = await waitFor(() => testing.resources.attachments().find((a) => a.uri === 'fixture://docs/readme.md'), 'the attachment queued');
    assert.strictEqual(attached.label, 'Read Me');
    assert.deepStrictEqual(attached.contents, [{ uri: 'fixture://docs/readme.md', mimeType: 'text/markdown', text: '# Read Me\n\nHello there.\n' }]);
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  });
});
