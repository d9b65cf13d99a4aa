// A folder's portable .mcp.json (`mcpServers`) next to its .vscode/mcp.json, in a real VS Code: its servers appear,
// are trusted and reload like ours, and a name in both files runs once (from .vscode/mcp.json) with a warning.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TrustQuestion } from '../../src/vscode/dialogs/dialogRouter';
import { activateHost, answerDialogs, fixtureServer, waitFor, type TestedHost } from './testKit';

describe('.mcp.json at a workspace folder root', function () {
  this.timeout(90_000);
  let api: TestedHost;
  let dir: string;
  let answers: vscode.Disposable;
  const trust: TrustQuestion[] = [];
  const basic = (label: string) => ({ command: process.execPath, args: [fixtureServer('basic-server.mjs'), label] });
  const write = (file: string, value: unknown) => fs.writeFileSync(path.join(dir, file), JSON.stringify(value, null, 2));

  const named = (name: string) => api.getServers().filter((s) => s.name === name && s.scope.configPath.startsWith(dir));
  const running = async (name: string, file: string) => {
    const found = await waitFor(() => named(name).find((s) => path.basename(s.scope.configPath) === file), `${name} from ${file}`);
    if (found.state.kind !== 'running' && found.state.kind !== 'starting') await api.testing.startServer(found.id);
    return waitFor(() => named(name).find((s) => s.id === found.id && s.state.kind === 'running'), `${name} from ${file} running`);
  };

  before(async () => {
    api = await activateHost();
    answers = answerDialogs(api, {
      confirmTrust: async (q) => {
        trust.push(q);
        return true;
      },
    });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-portable-'));
    fs.mkdirSync(path.join(dir, '.vscode'));
    write('.vscode/mcp.json', { servers: { shared: basic('ours') } });
    fs.writeFileSync(
      path.join(dir, '.mcp.json'),
      `{\n  // Shared with other tools.\n  "mcpServers": {\n    "shared": ${JSON.stringify(basic('theirs'))},\n    "portable": ${JSON.stringify(basic('portable'))}\n  }\n}\n`,
    );
    // Refused while another suite's change of the folders is still being applied: tried until it is taken.
    await waitFor(() => vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders!.length, 0, { uri: vscode.Uri.file(dir) }), 'the folder added');
  });

  after(async () => {
    answers.dispose();
    const index = vscode.workspace.workspaceFolders!.findIndex((f) => f.uri.fsPath === dir);
    if (index >= 0) vscode.workspace.updateWorkspaceFolders(index, 1);
    // The next suite can change the folders only once this change is done.
    await waitFor(() => !vscode.workspace.workspaceFolders!.some((f) => f.uri.fsPath === dir), 'the folder removed');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs its servers once trusted; a name also in .vscode/mcp.json runs once, from there, and is reported', async () => {
    const portable = await running('portable', '.mcp.json');
    assert.strictEqual(portable.scope.label, `${path.basename(dir)} (.mcp.json)`);
    assert.strictEqual(portable.scope.kind, 'workspace');
    const asked = trust.find((q) => q.serverName === 'portable');
    assert.ok(asked, 'trust was asked');
    assert.strictEqual(asked.source, path.join(dir, '.mcp.json'));

    await running('shared', 'mcp.json');
    assert.deepStrictEqual(named('shared').map((s) => s.scope.configPath), [path.join(dir, '.vscode', 'mcp.json')]);
    const uri = vscode.Uri.file(path.join(dir, '.mcp.json'));
    const warning = await waitFor(() => vscode.languages.getDiagnostics(uri).find((d) => d.code === 'duplicate-name'), 'the duplicate reported');
    assert.strictEqual(warning.message, 'Server "shared" is also defined in .vscode/mcp.json, which is the one that runs; this definition is ignored.');
    assert.strictEqual(warning.severity, vscode.DiagnosticSeverity.Warning);
    assert.strictEqual(warning.range.start.line, 3);
  });

  it('reloads when either file changes', async () => {
    fs.writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { shared: basic('theirs'), portable: basic('portable'), second: basic('second') } }));
    await running('second', '.mcp.json');
    // Gone from .vscode/mcp.json: the .mcp.json definition is the one that runs now, and nothing is reported.
    write('.vscode/mcp.json', { servers: {} });
    await running('shared', '.mcp.json');
    await waitFor(() => named('shared').length === 1, 'one "shared" only');
    const uri = vscode.Uri.file(path.join(dir, '.mcp.json'));
    await waitFor(() => vscode.languages.getDiagnostics(uri).length === 0, 'the warning gone');
  });

  it("takes a renamed folder's new name: its servers go on running under it, in both views and the roots", async () => {
    write('.vscode/mcp.json', { servers: { shared: basic('ours') } });
    const shared = await running('shared', 'mcp.json');
    const portable = await running('portable', '.mcp.json');
    const name = `${path.basename(dir)}-renamed`;
    // What the views say (several folders: a row per folder, then its servers); their rows are kept across refreshes.
    const folderRows = (rows: string[]) => rows.filter((r) => r.trim().startsWith(path.basename(dir)));
    assert.ok(folderRows(api.testing.renderServersTree()).some((r) => r.startsWith(`${path.basename(dir)} — `)), 'the Servers view before');
    assert.ok(folderRows(api.testing.resources.renderTree()).some((r) => r.startsWith(`${path.basename(dir)} `)), 'the Resources view before');
    // A file that does not parse is renamed too: its servers (kept from its last good text) and its problem.
    const portableUri = vscode.Uri.file(path.join(dir, '.mcp.json'));
    const portableText = fs.readFileSync(portableUri.fsPath, 'utf8');
    fs.writeFileSync(portableUri.fsPath, portableText.replace(/\}\s*$/, ''));
    await waitFor(() => vscode.languages.getDiagnostics(portableUri).some((d) => d.severity === vscode.DiagnosticSeverity.Error), 'the broken .mcp.json reported');
    const index = vscode.workspace.workspaceFolders!.findIndex((f) => f.uri.fsPath === dir);
    await waitFor(() => vscode.workspace.updateWorkspaceFolders(index, 1, { uri: vscode.Uri.file(dir), name }), 'the folder renamed');
    const renamed = await waitFor(() => named('shared').find((s) => s.scope.label === name), 'shared under the new name');
    assert.deepStrictEqual([renamed.id, renamed.state.kind, renamed.pid], [shared.id, 'running', shared.pid], 'the same server, not restarted');
    const portableRenamed = await waitFor(() => named('portable').find((s) => s.scope.label === `${name} (.mcp.json)`), 'portable under the new name');
    assert.deepStrictEqual([portableRenamed.id, portableRenamed.pid], [portable.id, portable.pid]);
    assert.ok(api.testing.roots().some((r) => r.name === name), 'the root renamed');
    await waitFor(() => folderRows(api.testing.renderServersTree()).some((r) => r.startsWith(`${name} — `)), 'the Servers view renamed');
    assert.deepStrictEqual(folderRows(api.testing.renderServersTree()).filter((r) => !r.startsWith(' ')).map((r) => r.replace(/ — .*/, '')), [name, `${name} (.mcp.json)`]);
    await waitFor(() => folderRows(api.testing.resources.renderTree()).some((r) => r.startsWith(name)), 'the Resources view renamed');
    assert.ok(!folderRows(api.testing.resources.renderTree()).some((r) => r.startsWith(`${path.basename(dir)} `)), 'no row under the old name');
    assert.strictEqual(named('portable')[0].state.kind, 'running', 'kept running from the last good text');
    fs.writeFileSync(portableUri.fsPath, portableText);
    await waitFor(() => !vscode.languages.getDiagnostics(portableUri).some((d) => d.severity === vscode.DiagnosticSeverity.Error), 'fixed');
  });

  it('reads .github/mcp.json in either format, its group of its own, after the two others', async () => {
    fs.mkdirSync(path.join(dir, '.github'), { recursive: true });
    write('.github/mcp.json', { mcpServers: { agent: { ...basic('agent'), type: 'local', args: [fixtureServer('basic-server.mjs'), '${AGENT_LABEL:-agent}'] }, shared: basic('again') } });
    const agent = await running('agent', 'mcp.json');
    // Under the name the folder has now (the test before renamed it).
    const folderName = vscode.workspace.workspaceFolders!.find((f) => f.uri.fsPath === dir)!.name;
    assert.strictEqual(agent.scope.label, `${folderName} (.github/mcp.json)`);
    assert.strictEqual(agent.scope.kind, 'workspace');
    assert.ok(trust.some((q) => q.serverName === 'agent' && q.source === path.join(dir, '.github', 'mcp.json')), `trust was asked, naming the file: ${JSON.stringify(trust.map((q) => [q.serverName, q.source]))}`);
    const uri = vscode.Uri.file(path.join(dir, '.github', 'mcp.json'));
    const warning = await waitFor(() => vscode.languages.getDiagnostics(uri).find((d) => d.code === 'duplicate-name'), 'the duplicate reported');
    assert.strictEqual(warning.message, 'Server "shared" is also defined in .vscode/mcp.json, which is the one that runs; this definition is ignored.');
    // Written as VS Code writes its files: read that way.
    write('.github/mcp.json', { servers: { agent2: basic('agent2') } });
    const agent2 = await running('agent2', 'mcp.json');
    assert.strictEqual(agent2.scope.label, `${folderName} (.github/mcp.json)`);
    await waitFor(() => !named('agent').length, 'agent gone from the file');
  });

  it('a server its file disables ("disabled": true) shows why on its row, and Enable Server takes the key out and starts it', async () => {
    const file = path.join(dir, '.mcp.json');
    const before = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, `{\n  // Kept off for now.\n  "mcpServers": {\n    "resting": ${JSON.stringify({ ...basic('resting'), disabled: true })}\n  }\n}\n`);
    try {
      const resting = await waitFor(() => named('resting').find((s) => s.state.kind === 'blocked'), 'resting blocked');
      assert.deepStrictEqual(resting.state, { kind: 'blocked', reason: 'disabled', message: 'Disabled in its file ("disabled": true): Enable Server removes that line and starts it.' });
      await waitFor(() => api.testing.renderServersTree().some((r) => /resting — disabled in its file/.test(r)), `the row says so: ${api.testing.renderServersTree().join('\n')}`);
      await vscode.commands.executeCommand('mcpHost.enableServer', resting.id);
      await waitFor(() => named('resting').find((s) => s.state.kind === 'running'), 'resting running once enabled');
      const after = fs.readFileSync(file, 'utf8');
      assert.ok(!after.includes('"disabled"') && after.includes('// Kept off for now.'), `the key gone, the comment kept:\n${after}`);
    } finally {
      fs.writeFileSync(file, before);
    }
  });

  it("reads Copilot CLI's ~/.copilot/mcp-config.json as the user's: its own group, no trust question", async () => {
    const file = path.join(os.homedir(), '.copilot', 'mcp-config.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { copilot: { type: 'local', command: process.execPath, args: [fixtureServer('basic-server.mjs'), 'copilot'], tools: ['*'] } } }));
    try {
      await api.testing.reloadConfiguration();
      const copilot = await waitFor(() => api.getServers().find((s) => s.name === 'copilot' && s.state.kind === 'running'), 'the Copilot CLI server running');
      assert.deepStrictEqual([copilot.scope.kind, copilot.scope.label, copilot.scope.configPath], ['user', 'User (Copilot CLI)', file]);
      assert.ok(!trust.some((q) => q.serverName === 'copilot'), 'no trust question: the user\'s own file');
      // Its tools list ("*": all of them) is honoured now: no problem on it.
      assert.ok(!vscode.languages.getDiagnostics(vscode.Uri.file(file)).some((d) => d.code === 'not-honoured'), 'the tools list is honoured, not reported');
    } finally {
      fs.rmSync(file, { force: true });
      await api.testing.reloadConfiguration();
    }
  });

  it("reads VS Code's own user mcp.json and its settings.json's mcp, each a group of the user's", async () => {
    const fileOf = (label: string) => api.testing.configFiles().find((f) => f.label === label)!.path;
    const vscodeMcp = fileOf('User (VS Code)');
    const settings = fileOf('User (settings)');
    assert.strictEqual(path.dirname(vscodeMcp), path.dirname(settings), "the profile's folder");
    const settingsBefore = fs.existsSync(settings) ? fs.readFileSync(settings, 'utf8') : undefined;
    fs.mkdirSync(path.dirname(vscodeMcp), { recursive: true });
    fs.writeFileSync(vscodeMcp, JSON.stringify({ servers: { 'vscode-user': basic('vscode-user') } }));
    const settingsObject = settingsBefore ? (JSON.parse(settingsBefore.replace(/^\s*\/\/.*$/gm, '')) as Record<string, unknown>) : {};
    fs.writeFileSync(settings, JSON.stringify({ ...settingsObject, mcp: { servers: { 'from-settings': basic('from-settings') } } }, null, 2));
    try {
      await api.testing.reloadConfiguration();
      const fromVsCode = await waitFor(() => api.getServers().find((s) => s.name === 'vscode-user' && s.state.kind === 'running'), "VS Code's user server running");
      assert.deepStrictEqual([fromVsCode.scope.kind, fromVsCode.scope.label], ['user', 'User (VS Code)']);
      const fromSettings = await waitFor(() => api.getServers().find((s) => s.name === 'from-settings' && s.state.kind === 'running'), 'the settings server running');
      assert.deepStrictEqual([fromSettings.scope.kind, fromSettings.scope.label], ['user', 'User (settings)']);
      assert.ok(!trust.some((q) => q.serverName === 'vscode-user' || q.serverName === 'from-settings'), 'the user\'s own: no trust question');
    } finally {
      fs.rmSync(vscodeMcp, { force: true });
      if (settingsBefore === undefined) fs.rmSync(settings, { force: true });
      else fs.writeFileSync(settings, settingsBefore);
      await api.testing.reloadConfiguration();
    }
  });
});
