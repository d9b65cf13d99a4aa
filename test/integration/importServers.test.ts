// "MCP: Import Servers…" in a real VS Code: a Cursor configuration in the home folder (the extension host's own HOME),
// its servers shown with what they run and ask, one checked and imported into a workspace folder's mcp.json; the
// token written out in Cursor's file is not copied but asked once at the first start, and the server runs.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TrustQuestion } from '../../src/vscode/dialogs/dialogRouter';
import { activateHost, answerDialogs, fixtureServer, sleep, waitFor, type TestedHost } from './testKit';

const run = (command: string) => vscode.commands.executeCommand(command);

describe('Importing servers from other tools', function () {
  this.timeout(90_000);
  let api: TestedHost;
  let dir: string;
  let answers: vscode.Disposable;
  const asked: { prompt: string; password?: boolean }[] = [];
  const trustQuestions: TrustQuestion[] = [];
  let trustAnswer = true;
  const cursorFile = path.join(os.homedir(), '.cursor', 'mcp.json');

  before(async () => {
    api = await activateHost();
    answers = answerDialogs(api, {
      confirmTrust: async (q) => {
        trustQuestions.push(q);
        return trustAnswer;
      },
      inputText: async (q) => {
        asked.push({ prompt: q.prompt, password: q.password });
        return 'entered-token';
      },
    });
    fs.mkdirSync(path.dirname(cursorFile), { recursive: true });
    fs.writeFileSync(
      cursorFile,
      JSON.stringify({
        mcpServers: {
          'imported-basic': { command: process.execPath, args: [fixtureServer('basic-server.mjs'), 'imported'], env: { API_TOKEN: 'written-out-token' } },
          'imported-events': { type: 'sse', url: 'https://events.example.com/sse' },
        },
      }),
    );
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-import-'));
    await waitFor(() => vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders!.length, 0, { uri: vscode.Uri.file(dir) }), 'the folder added');
    await waitFor(() => vscode.workspace.workspaceFolders!.some((f) => f.uri.fsPath === dir), 'the folder in the workspace');
  });

  after(async () => {
    await run('workbench.action.closeQuickOpen');
    answers.dispose();
    fs.rmSync(cursorFile, { force: true });
    await waitFor(() => {
      const index = vscode.workspace.workspaceFolders!.findIndex((f) => f.uri.fsPath === dir);
      return index < 0 || (vscode.workspace.updateWorkspaceFolders(index, 1) && false);
    }, 'the folder removed');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows each server with what it runs and asks, imports the checked one, and the token is asked once', async () => {
    const importing = vscode.commands.executeCommand<{ imported: string[] } | undefined>('mcpHost.importServers');
    const pick = await waitFor(() => api.testing.registryPick()?.step === 'import' && api.testing.registryPick(), 'the import pick');
    assert.deepStrictEqual(pick.items, [
      `imported-basic — Cursor — Command: ${process.execPath} ${fixtureServer('basic-server.mjs')} imported · ⚠ API_TOKEN=\${input:imported-basic-api-token} (env) — not known to be harmless: it may change what runs · asks: imported-basic-api-token (secret)`,
      'imported-events — Cursor — URL: https://events.example.com/sse (SSE)',
    ]);
    // Nothing is highlighted at first: "next" goes to the first item, which is checked, and accepted.
    await sleep(1000);
    await run('quickInput.next');
    await waitFor(() => api.testing.registryPick()?.active?.startsWith('imported-basic'), 'the first highlighted');
    await run('quickInput.toggleCheckbox');
    await sleep(300);
    await run('quickInput.accept');

    const target = await waitFor(() => api.testing.registryPick()?.step === 'target' && api.testing.registryPick(), 'where to import');
    // It asks for a value: only VS Code's format can hold it, and the pick says why the other files are not offered.
    assert.ok(!target.items.some((i) => i.includes('.mcp.json') || i.includes('mcp-config.json')), target.items.join('\n'));
    assert.match(target.placeholder, /only \.vscode\/mcp\.json and your mcp\.json can hold inputs, so \.mcp\.json and ~\/\.copilot\/mcp-config\.json are not offered/);
    const label = `Import in Workspace (${path.basename(dir)}) — .vscode/mcp.json`;
    for (let i = 0; i < 12 && !api.testing.registryPick()?.active?.startsWith(label); i++) {
      const active = api.testing.registryPick()?.active;
      await run('workbench.action.quickOpenSelectNext');
      await waitFor(() => api.testing.registryPick()?.active !== active, 'the highlight moved');
    }
    assert.ok(target.items.some((i) => i.startsWith(label)));
    await run('workbench.action.acceptSelectedQuickOpenItem');
    assert.deepStrictEqual((await importing)?.imported, ['imported-basic']);

    const text = fs.readFileSync(path.join(dir, '.vscode', 'mcp.json'), 'utf8');
    assert.ok(!text.includes('written-out-token'), 'the token is not copied');
    const server = await waitFor(() => api.getServers().find((s) => s.name === 'imported-basic' && s.scope.configPath.startsWith(dir)), 'the imported server configured');
    if (server.state.kind !== 'running') await api.testing.startServer(server.id);
    await waitFor(() => api.getServers().find((s) => s.id === server.id)?.state.kind === 'running', 'the imported server running');
    assert.deepStrictEqual(asked, [{ prompt: 'Environment variable API_TOKEN for imported-basic (not copied from Cursor)', password: true }]);
  });

  /** Runs Import Servers… up to its pick of files, with the server `name` checked. */
  const importUpToTarget = async (name: string) => {
    const importing = vscode.commands.executeCommand<{ uri: vscode.Uri; imported: string[] } | undefined>('mcpHost.importServers');
    await waitFor(() => api.testing.registryPick()?.step === 'import' && api.testing.registryPick(), 'the import pick');
    await sleep(1000);
    for (let i = 0; i < 4 && !api.testing.registryPick()?.active?.startsWith(name); i++) {
      const active = api.testing.registryPick()?.active;
      await run('quickInput.next');
      await waitFor(() => api.testing.registryPick()?.active !== active, 'the highlight moved');
    }
    await run('quickInput.toggleCheckbox');
    await waitFor(() => api.testing.registryPick()?.selected.length === 1, `${name} checked`);
    await run('quickInput.accept');
    const target = await waitFor(() => api.testing.registryPick()?.step === 'target' && api.testing.registryPick(), 'where to import');
    return { importing, target };
  };

  it("offers the files VS Code 1.140 writes (.mcp.json, ~/.copilot/mcp-config.json) to a server without inputs, writes .mcp.json's format there, and offers the user's last kind of file first", async () => {
    const folder = path.basename(dir);
    const first = await importUpToTarget('imported-events');
    // The last import went into a workspace's .vscode/mcp.json: those come first.
    assert.match(first.target.items[0], /^Import in Workspace \(.*\) — \.vscode\/mcp\.json/);
    const label = `Import in Workspace (${folder}) — .mcp.json (Claude Code and Copilot CLI read it too)`;
    assert.ok(first.target.items.includes(label), first.target.items.join('\n'));
    assert.ok(first.target.items.includes('Import for User — ~/.copilot/mcp-config.json, for every workspace (Copilot CLI reads it too)'), first.target.items.join('\n'));
    for (let i = 0; i < 12 && api.testing.registryPick()?.active !== label; i++) {
      const active = api.testing.registryPick()?.active;
      await run('workbench.action.quickOpenSelectNext');
      await waitFor(() => api.testing.registryPick()?.active !== active, 'the highlight moved');
    }
    await run('workbench.action.acceptSelectedQuickOpenItem');
    assert.deepStrictEqual((await first.importing)?.imported, ['imported-events']);
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(path.join(dir, '.mcp.json'), 'utf8')), { mcpServers: { 'imported-events': { type: 'sse', url: 'https://events.example.com/sse' } } });
    await waitFor(() => api.getServers().find((s) => s.name === 'imported-events' && s.scope.configPath === path.join(dir, '.mcp.json')), 'the server configured from .mcp.json');

    // The choice is remembered: the next write offers the workspaces' .mcp.json first.
    const second = await importUpToTarget('imported-events');
    assert.match(second.target.items[0], /^Import in Workspace \(.*\) — \.mcp\.json/);
    assert.ok(second.target.items.indexOf(label) < second.target.items.findIndex((i) => i.includes('.vscode/mcp.json')), second.target.items.join('\n'));
    await run('workbench.action.closeQuickOpen');
    assert.strictEqual(await second.importing, undefined);
  });
  // Issue 40: the user saw a preview of the entry, not what it runs; an entry written into the user's file then started
  // at every VS Code start without a question (Restricted Mode included).
  it("attack: an entry imported into the user's file runs without a trust question — it is asked at its first start", async () => {
    const { importing, target } = await importUpToTarget('imported-events');
    const label = 'Import for User — ~/.copilot/mcp-config.json, for every workspace (Copilot CLI reads it too)';
    assert.ok(target.items.includes(label), target.items.join('\n'));
    for (let i = 0; i < 12 && api.testing.registryPick()?.active !== label; i++) {
      const active = api.testing.registryPick()?.active;
      await run('workbench.action.quickOpenSelectNext');
      await waitFor(() => api.testing.registryPick()?.active !== active, 'the highlight moved');
    }
    trustQuestions.length = 0;
    trustAnswer = false;
    await run('workbench.action.acceptSelectedQuickOpenItem');
    const result = await importing;
    assert.deepStrictEqual(result?.imported, ['imported-events']);
    try {
      const imported = () => api.getServers().find((s) => s.name === 'imported-events' && s.scope.kind === 'user');
      await waitFor(() => trustQuestions.some((q) => q.serverName === 'imported-events'), 'the trust question', 30_000).catch((e: Error) => {
        throw new Error(`${e.message}: asked ${JSON.stringify(trustQuestions.map((q) => q.serverName))}; ${JSON.stringify(api.getServers().filter((s) => s.name === 'imported-events').map((s) => [s.scope.label, s.state]))}`);
      });
      const question = trustQuestions.find((q) => q.serverName === 'imported-events')!;
      assert.match(question.detail, /https:\/\/events\.example\.com\/sse/, 'the question shows what it connects to');
      await waitFor(() => imported()?.state.kind === 'blocked', 'refused: not started', 30_000);
      assert.match(JSON.stringify(imported()!.state), /untrusted/);
    } finally {
      trustAnswer = true;
      fs.rmSync(result!.uri.fsPath, { force: true });
      await api.testing.reloadConfiguration(result!.uri);
      await waitFor(() => !api.getServers().some((s) => s.name === 'imported-events' && s.scope.kind === 'user'), 'the user entry gone', 30_000);
    }
  });
});
