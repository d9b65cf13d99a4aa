// Completion in mcp.json, in a real VS Code with its JSON language: well-known servers where a server's name goes
// (typing a quote asks for them), none after the name or in a value, and no suggestion inserts an undeclared
// ${input:…} (the eager "http server with token" that Enter used to take). The file is outside the workspace, so
// no server of it starts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { activateHost, sleep, waitFor } from './testKit';
import { startFixtureRegistry } from '../unit/registryTestKit';

const labelOf = (item: vscode.CompletionItem) => (typeof item.label === 'string' ? item.label : item.label.label);
const insertOf = (item: vscode.CompletionItem) => (typeof item.insertText === 'string' ? item.insertText : (item.insertText?.value ?? labelOf(item)));

describe('mcp.json completion', function () {
  this.timeout(60_000);
  let dir: string;
  let uri: vscode.Uri;

  const complete = async (text: string, trigger?: string, file = uri) => {
    const offset = text.indexOf('|');
    const document = await vscode.workspace.openTextDocument(file);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(file, new vscode.Range(0, 0, document.lineCount, 0), text.replace('|', ''));
    assert.ok(await vscode.workspace.applyEdit(edit));
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', file, document.positionAt(offset), trigger);
    return list.items;
  };
  const ours = (items: vscode.CompletionItem[]) => items.filter((i) => /^(npx|uvx) |remote MCP server/.test(i.detail ?? ''));

  before(async () => {
    await activateHost();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-completion-'));
    fs.mkdirSync(path.join(dir, '.vscode'));
    uri = vscode.Uri.file(path.join(dir, '.vscode', 'mcp.json'));
    fs.writeFileSync(uri.fsPath, '{}\n');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('offers well-known servers when a quote is typed where a server name goes, none preselected, those already there left out', async () => {
    const items = ours(await complete('{\n  "servers": {\n    "everything": { "command": "npx" },\n    "|\n  }\n}\n', '"'));
    const labels = items.map(labelOf);
    for (const name of ['filesystem', 'memory', 'fetch', 'git', 'playwright']) assert.ok(labels.includes(name), labels.join(', '));
    assert.ok(!labels.includes('everything'), 'already in the file');
    assert.ok(items.every((i) => !i.preselect), 'none preselected');
    assert.match(insertOf(items.find((i) => labelOf(i) === 'filesystem')!), /server-filesystem[\s\S]*\\\$\{workspaceFolder\\\}/);
  });

  it('offers them in a .mcp.json too, under "mcpServers" (the file VS Code 1.140, Claude Code and Copilot CLI share)', async () => {
    const mcpJson = vscode.Uri.file(path.join(dir, '.mcp.json'));
    fs.writeFileSync(mcpJson.fsPath, '{}\n');
    const labels = ours(await complete('{\n  "mcpServers": {\n    "memory": { "command": "npx" },\n    "|\n  }\n}\n', '"', mcpJson)).map(labelOf);
    for (const name of ['filesystem', 'fetch', 'git']) assert.ok(labels.includes(name), labels.join(', '));
    assert.ok(!labels.includes('memory'), 'already in the file');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('inserts the whole entry the user picks, and the file then holds that server', async () => {
    await complete('{\n  "servers": {\n    "a": { "command": "node" },\n    |\n  }\n}\n');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    editor.selection = new vscode.Selection(3, 4, 3, 4);
    await vscode.commands.executeCommand('type', { text: '"mem' });
    await waitFor(() => editor.document.lineAt(3).text.startsWith('    "mem'), 'typed');
    await vscode.commands.executeCommand('editor.action.triggerSuggest');
    await sleep(1500);
    await vscode.commands.executeCommand('acceptSelectedSuggestion');
    const parsed = await waitFor(() => {
      try {
        return JSON.parse(editor.document.getText().replace(/,(\s*[}\]])/g, '$1')) as { servers: Record<string, unknown> };
      } catch {
        return undefined;
      }
    }, `a complete entry in: ${editor.document.getText()}`);
    assert.deepStrictEqual(parsed.servers.memory, { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] });
  });

  it('offers none after the name, in a server, or where a value goes; no suggestion there inserts an undeclared ${input:}', async () => {
    assert.deepStrictEqual(ours(await complete('{\n  "servers": {\n    "my-server"|\n  }\n}\n', '"')).map(labelOf), [], 'after the closing quote');
    assert.deepStrictEqual(ours(await complete('{\n  "servers": {\n    "a": { | }\n  }\n}\n')).map(labelOf), [], 'in a server');
    const values = await complete('{\n  "servers": {\n    "my-server": |\n  }\n}\n');
    assert.deepStrictEqual(ours(values).map(labelOf), [], 'where the value goes');
    assert.ok(values.length > 0, "VS Code's JSON language offers the schema's server snippets there");
    for (const item of values) assert.doesNotMatch(insertOf(item), /\$\{input:|\\\$\{input:/, labelOf(item));
  });

  it('offers the registry\'s servers that match a typed name, inserted with their inputs; a registry that is down costs only its items', async () => {
    const registry = await startFixtureRegistry();
    const settings = vscode.workspace.getConfiguration('mcpHost');
    await settings.update('registry.url', registry.url, vscode.ConfigurationTarget.Global);
    try {
      const items = await complete('{\n  // mine\n  "servers": {\n    "a": { "command": "node" },\n    "weath|\n  }\n}\n', '"');
      const weather = items.find((i) => labelOf(i) === 'io.github.example/weather');
      assert.ok(weather, items.map(labelOf).join(', '));
      assert.match(weather.detail ?? '', /uvx mcp-weather==0\.4\.1/);
      assert.strictEqual(typeof weather.documentation, 'string', 'registry text is never Markdown');
      assert.ok(items.every((i) => !i.preselect));
      // Accepted in the editor as a user does: the entry, and its inputs declared.
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      editor.selection = new vscode.Selection(4, 10, 4, 10);
      await vscode.commands.executeCommand('editor.action.triggerSuggest');
      await sleep(1500);
      // What is typed ("weath) filters the well-known servers out: the registry's match is the first suggestion.
      await vscode.commands.executeCommand('acceptSelectedSuggestion');
      await waitFor(() => editor.document.getText().includes('"io.github.example/weather"'), `the entry in: ${editor.document.getText()}`);
      const text = editor.document.getText();
      assert.match(text, /\/\/ mine/);
      assert.match(text, /"io\.github\.example\/weather": \{[\s\S]*"command": "uvx"/, text);
      assert.match(text, /"inputs": \[[\s\S]*"password":true/, text);
      await registry.close();
      // Down: the well-known servers still come, at once.
      const started = Date.now();
      // (A text not searched before: a search is remembered a minute.)
      const down = await complete('{\n  "servers": {\n    "weathe|\n  }\n}\n', '"');
      assert.ok(down.some((i) => labelOf(i) === 'memory') && !down.some((i) => labelOf(i).startsWith('io.github.')), down.map(labelOf).join(', '));
      assert.ok(Date.now() - started < 5000, `answered in ${Date.now() - started} ms`);
    } finally {
      await settings.update('registry.url', undefined, vscode.ConfigurationTarget.Global);
      await registry.close().catch(() => undefined);
    }
  });
});
