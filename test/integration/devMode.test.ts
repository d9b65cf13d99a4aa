// Dev mode in a real VS Code: editing a file that a server's `dev.watch` matches restarts that server, and only it;
// a file it does not watch restarts nothing.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { activateHost, answerDialogs, fixtureServer, sleep, waitFor, type TestedHost } from './testKit';

describe('Dev mode: dev.watch', function () {
  this.timeout(90_000);
  let api: TestedHost;
  let dir: string;
  let answers: vscode.Disposable;
  const basic = (label: string) => ({ command: process.execPath, args: [fixtureServer('basic-server.mjs'), label] });
  const info = (name: string) => api.getServers().find((s) => s.name === name && s.scope.configPath.startsWith(dir));
  const running = async (name: string) => {
    const found = await waitFor(() => info(name), `${name} configured`);
    if (found.state.kind !== 'running' && found.state.kind !== 'starting') await api.testing.startServer(found.id);
    return waitFor(() => info(name)?.state.kind === 'running' && info(name)?.pid && info(name), `${name} running`);
  };

  before(async () => {
    api = await activateHost();
    answers = answerDialogs(api, {});
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-dev-'));
    fs.mkdirSync(path.join(dir, '.vscode'));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'tool.mjs'), '// v1\n');
    fs.writeFileSync(path.join(dir, 'notes.md'), 'v1\n');
    fs.writeFileSync(path.join(dir, '.vscode', 'mcp.json'), JSON.stringify({ servers: { authored: { ...basic('authored'), dev: { watch: 'src/**/*.mjs' } }, steady: basic('steady') } }));
    await waitFor(() => vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders!.length, 0, { uri: vscode.Uri.file(dir) }), 'the folder added');
  });

  after(async () => {
    answers.dispose();
    await waitFor(() => {
      const index = vscode.workspace.workspaceFolders!.findIndex((f) => f.uri.fsPath === dir);
      return index < 0 || (vscode.workspace.updateWorkspaceFolders(index, 1) && false);
    }, 'the folder removed');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restarts only the server whose watched file changed', async () => {
    const authored = await running('authored');
    const steady = await running('steady');
    fs.writeFileSync(path.join(dir, 'notes.md'), 'v2\n');
    await sleep(1500);
    assert.strictEqual(info('authored')?.pid, authored.pid, 'a file it does not watch restarts nothing');

    fs.writeFileSync(path.join(dir, 'src', 'tool.mjs'), '// v2\n');
    const restarted = await waitFor(() => {
      const now = info('authored');
      return now?.state.kind === 'running' && now.pid && now.pid !== authored.pid && now;
    }, 'authored restarted with a new process');
    assert.notStrictEqual(restarted.pid, authored.pid);
    await sleep(500);
    assert.strictEqual(info('steady')?.pid, steady.pid, 'the other server kept its process');
    assert.strictEqual(info('steady')?.state.kind, 'running');
  });
});
