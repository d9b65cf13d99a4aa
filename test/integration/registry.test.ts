// "MCP: Add Server from Registry…" in a real VS Code, against the tests' own registry (test/fixtures/registry): search,
// page, install into a workspace folder's mcp.json that has comments, the secret asked once into secret storage, and
// the installed server (server-everything through npx, found in this repository's node_modules) runs.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { RegistryInstallResult } from '../../src/vscode/mcpRegistry/registerRegistryCommands';
import { startFixtureRegistry, type FixtureRegistry } from '../unit/registryTestKit';
import { pageQuery } from './pageRequests';
import { activateHost, answerDialogs, repoRoot, waitFor, type TestedHost } from './testKit';

const run = (command: string) => vscode.commands.executeCommand(command);
const NAME = 'io.github.mcp-host-tests/everything';

describe('Adding servers from an MCP registry', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let registry: FixtureRegistry;
  let dir: string;
  let answers: vscode.Disposable;
  const asked: { prompt: string; password?: boolean }[] = [];

  const pick = (step: string, what: string) => waitFor(() => {
    const p = api.testing.registryPick();
    return p?.step === step && !p.busy && p;
  }, what);

  /** Moves the highlight down, as the arrow keys do, to the item starting with `prefix`. */
  const select = async (prefix: string) => {
    for (let i = 0; i < 12; i++) {
      const active = api.testing.registryPick()?.active;
      if (active?.startsWith(prefix)) return;
      await run('workbench.action.quickOpenSelectNext');
      await waitFor(() => api.testing.registryPick()?.active !== active, 'the highlight moved');
    }
    assert.fail(`no item ${prefix}`);
  };

  before(async () => {
    api = await activateHost();
    registry = await startFixtureRegistry({ maxLimit: 3 });
    answers = answerDialogs(api, {
      inputText: async (q) => {
        asked.push({ prompt: q.prompt, password: q.password });
        return q.password ? 'sk-registry-test' : undefined;
      },
    });
    // Inside the repository, so that npx finds @modelcontextprotocol/server-everything in its node_modules, offline.
    dir = fs.mkdtempSync(path.join(repoRoot, 'out', 'registry install '));
    fs.mkdirSync(path.join(dir, '.vscode'));
    fs.writeFileSync(path.join(dir, '.vscode', 'mcp.json'), '{\n  // Servers of this folder.\n  "servers": {\n    // none yet\n  }\n}\n');
    // Refused while another suite's change of the folders is still being applied: tried until it is taken.
    await waitFor(() => vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders!.length, 0, { uri: vscode.Uri.file(dir) }), 'the folder added');
    await waitFor(() => vscode.workspace.workspaceFolders!.some((f) => f.uri.fsPath === dir), 'the folder in the workspace');
    await vscode.workspace.getConfiguration('mcpHost').update('registry.url', registry.url, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    answers.dispose();
    await vscode.workspace.getConfiguration('mcpHost').update('registry.url', undefined, vscode.ConfigurationTarget.Global);
    const index = vscode.workspace.workspaceFolders!.findIndex((f) => f.uri.fsPath === dir);
    if (index >= 0) vscode.workspace.updateWorkspaceFolders(index, 1);
    // The next suite can change the folders only once this change is done.
    await waitFor(() => !vscode.workspace.workspaceFolders!.some((f) => f.uri.fsPath === dir), 'the folder removed');
    await registry.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('searches and pages, shows what a server runs and asks, installs it keeping comments, asks the secret once, and the server runs', async () => {
    const adding = vscode.commands.executeCommand<RegistryInstallResult | undefined>('mcpHost.addFromRegistry');
    const first = await pick('search', 'the first page');
    assert.deepStrictEqual(first.items.map((i) => i.split(' — ')[0]), [NAME, 'io.github.example/weather', 'io.github.example/postgres', '$(more) Load more results…']);
    assert.strictEqual(
      first.items[0],
      `${NAME} — 2026.8.31 · Everything — The MCP reference server that exercises every feature of the protocol. · npm @modelcontextprotocol/server-everything@2026.8.31 · https://github.com/modelcontextprotocol/servers`,
    );
    await select('$(more)');
    await run('workbench.action.acceptSelectedQuickOpenItem');
    const second = await waitFor(() => {
      const p = api.testing.registryPick();
      return p && !p.busy && p.items.length === 7 && p;
    }, 'the second page appended');
    assert.deepStrictEqual(second.items.slice(3).map((i) => i.split(' — ')[0]), ['com.example/remote-search', 'com.example/legacy-events', 'io.github.example/bundle', '$(more) Load more results…']);

    second.setValue('everything');
    await waitFor(() => {
      const p = api.testing.registryPick();
      return p && !p.busy && p.items.length === 1 && p.items[0].startsWith(NAME);
    }, 'the search result');
    assert.ok(registry.requests.some((r) => r.startsWith('/v0.1/servers?search=everything&')));
    await run('workbench.action.acceptSelectedQuickOpenItem');

    const target = await pick('target', 'where to install');
    const folderName = path.basename(dir);
    const item = target.items.find((i) => i.startsWith(`Install in Workspace (${folderName})`));
    assert.ok(item, target.items.join('\n'));
    assert.match(item, /Command: npx -y @modelcontextprotocol\/server-everything@2026\.8\.31 stdio · /);
    assert.match(item, / · asks: everything-everything-api-key \(secret\) · optional, not set: EVERYTHING_PROXY$/);
    assert.ok(target.items.some((i) => i.startsWith('Install for User — your mcp.json')));
    // It asks for a secret, which only VS Code's format holds: .mcp.json and ~/.copilot/mcp-config.json are not offered, and the pick says why.
    assert.ok(!target.items.some((i) => i.includes('.mcp.json') || i.includes('mcp-config.json')), target.items.join('\n'));
    assert.match(target.placeholder, /^Install where\? \(it asks for everything-everything-api-key: only \.vscode\/mcp\.json and your mcp\.json can hold inputs/);
    await select(`Install in Workspace (${folderName})`);
    await run('workbench.action.acceptSelectedQuickOpenItem');

    const added = await adding;
    assert.strictEqual(added?.name, NAME);
    assert.strictEqual(added.replaced, false);
    assert.deepStrictEqual(asked, [{ prompt: 'API key for the everything service', password: true }]);

    const text = fs.readFileSync(path.join(dir, '.vscode', 'mcp.json'), 'utf8');
    assert.ok(text.startsWith('{\n  // Servers of this folder.\n  "servers": {\n'), text);
    assert.ok(text.includes('// none yet'), text);
    assert.ok(text.includes(`"gallery": "${registry.url}"`), text);
    assert.ok(!text.includes('sk-registry-test'), 'the secret is not written into mcp.json');

    const installed = () => api.getServers().find((s) => s.name === NAME && s.scope.label === folderName);
    const server = await waitFor(() => installed(), 'the installed server configured');
    if (installed()!.state.kind !== 'running') await api.testing.startServer(server.id);
    await waitFor(() => installed()?.state.kind === 'running', 'the installed server running', 60_000);
    const result = (await api.testing.callTool(server.id, 'get-env', {})) as { content: { text: string }[] };
    const env = JSON.parse(result.content[0].text) as Record<string, string>;
    // Compared without printing the environment: a failure must not put it in the test output.
    assert.ok(env.EVERYTHING_API_KEY === 'sk-registry-test', 'the secret reaches the server');
    assert.ok(env.EVERYTHING_LOG_LEVEL === 'info', 'the default is kept');

    // Stored in secret storage: a restart asks nothing.
    await vscode.commands.executeCommand('mcpHost.restartServer', server.id);
    await waitFor(() => installed()?.state.kind === 'running', 'running again after the restart', 60_000);
    assert.strictEqual(asked.length, 1);
  });

  it('offers a newer version of an installed server, shows what it runs, and replaces the entry where it is', async () => {
    const file = path.join(dir, '.vscode', 'mcp.json');
    // Installed earlier at an older version (as an older install would have written it).
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"version": "2026.8.31"', '"version": "2025.1.1"'));
    const updating = vscode.commands.executeCommand<RegistryInstallResult | undefined>('mcpHost.updateFromRegistry');
    const offered = await pick('update', 'the updates offered');
    assert.deepStrictEqual(offered.items, [`${NAME} — 2025.1.1 → 2026.8.31 — ${vscode.workspace.asRelativePath(vscode.Uri.file(file))}`]);
    assert.ok(registry.requests.includes(`/v0.1/servers/${encodeURIComponent(NAME)}/versions/latest`));
    await run('workbench.action.acceptSelectedQuickOpenItem');
    const confirm = await pick('target', 'the update confirmed with what it runs');
    assert.strictEqual(confirm.items.length, 1);
    assert.match(confirm.items[0], /^Update from 2025\.1\.1 to 2026\.8\.31 — .* — Command: npx -y @modelcontextprotocol\/server-everything@2026\.8\.31 stdio · /);
    await run('workbench.action.acceptSelectedQuickOpenItem');
    const updated = await updating;
    assert.strictEqual(updated?.replaced, true);
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.includes('"version": "2026.8.31"') && !text.includes('2025.1.1'), text);
    assert.ok(text.includes('// Servers of this folder.'), 'comments kept');
    assert.strictEqual(asked.length, 1, 'the stored secret is not asked again');

    // Up to date now: nothing is offered.
    assert.strictEqual(await vscode.commands.executeCommand('mcpHost.updateFromRegistry'), undefined);
  });

  it('says in words when the registry cannot be reached, offers Retry, the settings and the log, and Retry reads the address again', async () => {
    const down = await startFixtureRegistry();
    await down.close();
    await vscode.workspace.getConfiguration('mcpHost').update('registry.url', down.url, vscode.ConfigurationTarget.Global);
    const adding = vscode.commands.executeCommand<RegistryInstallResult | undefined>('mcpHost.addFromRegistry');
    const shown = await pick('search', 'the error');
    // As the page draws it: the failure's label and detail each fit on their line, nothing cut off.
    const [cut] = await waitFor(async () => {
      const rows = await pageQuery<{ text: string; cut: boolean }[] | null>(
        '.quick-input-widget',
        `const row = element.querySelector('.quick-input-list .monaco-list-row');
         if (!row || !/Cannot reach/.test(row.innerText)) return null;
         return [...row.querySelectorAll('.monaco-icon-label-container, .quick-input-list-label-meta, .quick-input-list-detail, .label-name, .monaco-highlighted-label')]
           .map((e) => ({ text: e.innerText.trim(), cut: e.scrollWidth > e.clientWidth + 1 }));`,
      );
      return rows[0] ? [rows[0]] : undefined;
    }, 'the failure row drawn');
    assert.ok(cut.length > 0, 'the row read from the page');
    assert.deepStrictEqual(cut.filter((e) => e.cut), [], `cut off in the page: ${JSON.stringify(cut)}`);
    assert.deepStrictEqual(shown.items, [
      '$(error) Cannot reach the registry: nothing accepted the connection at that address — Check your network connection and proxy, or the registry address below.',
      '$(refresh) Retry — search the registry again',
      '$(settings-gear) Open Settings: Registry Address — mcpHost.registry.url',
      '$(settings-gear) Open Settings: Proxy — http.proxy',
      '$(output) Show Log — what went wrong, in detail',
    ]);
    assert.ok(!shown.items.some((i) => /ECONNREFUSED/.test(i)), 'no raw error code');
    // The address fixed in the settings, then Retry (the error row itself also retries): the search works.
    await vscode.workspace.getConfiguration('mcpHost').update('registry.url', registry.url, vscode.ConfigurationTarget.Global);
    await select('$(refresh) Retry');
    await run('workbench.action.acceptSelectedQuickOpenItem');
    const found = await waitFor(() => {
      const p = api.testing.registryPick();
      return p && !p.busy && p.items[0]?.startsWith(NAME) && p;
    }, 'results after Retry');
    assert.strictEqual(found.title, `Add MCP Server from ${registry.url}`);
    await run('workbench.action.closeQuickOpen');
    assert.strictEqual(await adding, undefined);
  });

  it("installs a server that asks for nothing into the folder's .mcp.json, as that format writes it, and offers that kind of file first next time", async () => {
    await vscode.workspace.getConfiguration('mcpHost').update('registry.url', registry.url, vscode.ConfigurationTarget.Global);
    const folderName = path.basename(dir);
    const label = `Install in Workspace (${folderName}) — .mcp.json (Claude Code and Copilot CLI read it too)`;
    const searchFor = async (text: string) => {
      (await pick('search', 'the first page')).setValue(text);
      await waitFor(() => {
        const p = api.testing.registryPick();
        return p && !p.busy && p.items.length === 1 && p.items[0].startsWith(text) && p.active?.startsWith(text);
      }, 'the search result highlighted');
      await run('workbench.action.acceptSelectedQuickOpenItem');
      return pick('target', 'where to install');
    };
    const adding = vscode.commands.executeCommand<RegistryInstallResult | undefined>('mcpHost.addFromRegistry');
    const target = await searchFor('com.example/legacy-events');
    assert.ok(target.items.some((i) => i.startsWith(label)), target.items.join('\n'));
    assert.ok(target.items.some((i) => i.startsWith('Install for User — ~/.copilot/mcp-config.json, for every workspace (Copilot CLI reads it too)')), target.items.join('\n'));
    await select(label);
    await run('workbench.action.acceptSelectedQuickOpenItem');
    assert.strictEqual((await adding)?.name, 'com.example/legacy-events');
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(path.join(dir, '.mcp.json'), 'utf8')), {
      mcpServers: { 'com.example/legacy-events': { type: 'sse', url: 'https://events.example.com/sse', gallery: registry.url, version: '0.9.0' } },
    });

    // Remembered: the workspaces' .mcp.json files come first now.
    const again = vscode.commands.executeCommand<RegistryInstallResult | undefined>('mcpHost.addFromRegistry');
    const next = await searchFor('com.example/remote-search');
    // That one asks for a token: only VS Code's files are offered to it, whatever was picked last.
    assert.ok(!next.items.some((i) => i.includes('.mcp.json') || i.includes('mcp-config.json')), next.items.join('\n'));
    await run('workbench.action.closeQuickOpen');
    assert.strictEqual(await again, undefined);
    const third = vscode.commands.executeCommand<RegistryInstallResult | undefined>('mcpHost.addFromRegistry');
    const order = await searchFor('com.example/legacy-events');
    assert.match(order.items[0], /^Install in Workspace \(.*\) — \.mcp\.json/);
    await run('workbench.action.closeQuickOpen');
    assert.strictEqual(await third, undefined);
  });
});
