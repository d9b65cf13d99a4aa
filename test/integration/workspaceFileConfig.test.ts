// A saved multi-root workspace's own servers, in its .code-workspace file's `settings.mcp` (VS Code reads them there):
// a group of their own, trusted like the folders', their problems placed in the file, and Run Confined written into
// that very section (not at the file's root).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TrustQuestion } from '../../src/vscode/dialogs/dialogRouter';
import { activateHost, answerDialogs, fixtureServer, waitFor, type TestedHost } from './testKit';

describe('servers of the .code-workspace file (settings.mcp)', function () {
  this.timeout(90_000);
  let api: TestedHost;
  let file: string;
  let original: string;
  let answers: vscode.Disposable;
  const trust: TrustQuestion[] = [];
  const server = (name: string) => api.getServers().find((s) => s.name === name);

  before(async () => {
    api = await activateHost();
    file = vscode.workspace.workspaceFile!.fsPath;
    original = fs.readFileSync(file, 'utf8');
    answers = answerDialogs(api, {
      confirmTrust: async (q) => {
        trust.push(q);
        return q.serverName === 'confined-here' ? 'confined' : true;
      },
    });
  });

  after(async () => {
    answers.dispose();
    fs.writeFileSync(file, original);
    await api.testing.reloadConfiguration();
  });

  it('runs them under "Workspace (<file>)", asked about with the file named, their problems placed in the file', async () => {
    const settings = { mcp: { servers: { 'from-workspace': { command: process.execPath, args: [fixtureServer('basic-server.mjs'), 'ws'], timeout: 5 } } } };
    fs.writeFileSync(file, JSON.stringify({ ...(JSON.parse(original.replace(/^\s*\/\/.*$/gm, '')) as object), settings }, null, 2));
    await api.testing.reloadConfiguration();
    const started = await waitFor(() => server('from-workspace'), 'the server listed');
    if (started.state.kind !== 'running') await api.testing.startServer(started.id);
    const running = await waitFor(() => server('from-workspace')?.state.kind === 'running' && server('from-workspace'), 'the server running');
    assert.deepStrictEqual([running.scope.kind, running.scope.label], ['workspace', `Workspace (${path.basename(file)})`]);
    assert.ok(trust.some((q) => q.serverName === 'from-workspace' && q.source === file), `asked, naming the file: ${JSON.stringify(trust.map((q) => q.source))}`);
    // VS Code itself writes this file too (its folders): the warning follows the file as it is now.
    const keyLine = () => fs.readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes('"timeout"'));
    const warning = () => vscode.languages.getDiagnostics(vscode.Uri.file(file)).find((d) => d.code === 'unknown-property');
    await waitFor(() => warning()?.range.start.line === keyLine(), `the unknown key reported on its line (${keyLine()}), in the .code-workspace`);
  });

  it('writes Run Confined into settings.mcp, where the entry is', async function () {
    const text = JSON.stringify({ ...(JSON.parse(original.replace(/^\s*\/\/.*$/gm, '')) as object), settings: { mcp: { servers: { 'confined-here': { command: process.execPath, args: [fixtureServer('basic-server.mjs'), 'c'] } } } } }, null, 2);
    fs.writeFileSync(file, text);
    await api.testing.reloadConfiguration();
    const listed = await waitFor(() => server('confined-here'), 'the server listed');
    if (listed.state.kind !== 'running') await api.testing.startServer(listed.id).catch(() => undefined);
    const asked = await waitFor(() => trust.find((q) => q.serverName === 'confined-here'), 'asked');
    // Where this machine cannot confine, Run Confined is not offered: nothing to write.
    if (!asked.confined || 'unavailable' in asked.confined) this.skip();
    const written = await waitFor(() => fs.readFileSync(file, 'utf8').includes('"sandboxEnabled": true') && fs.readFileSync(file, 'utf8'), 'sandboxEnabled written');
    const parsed = JSON.parse(written) as { settings: { mcp: { servers: Record<string, { sandboxEnabled?: boolean }> } }; servers?: unknown };
    assert.strictEqual(parsed.settings.mcp.servers['confined-here'].sandboxEnabled, true);
    assert.strictEqual(parsed.servers, undefined, 'nothing written at the root');
  });
});
