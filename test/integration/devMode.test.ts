// Dev mode in a real VS Code: editing a file that a server's `dev.watch` matches restarts that server, and only it;
// a file it does not watch restarts nothing. `dev.debug`: the server starts under a debugger VS Code attaches.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
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

// `dev.debug` in a real VS Code: the server starts under node's inspector (the trust question says so), VS Code's
// JavaScript debugger attaches to that very process and lets it run, its tools work, and the server and its debug
// session end together, whichever the user stops.
describe('Dev mode: dev.debug', function () {
  this.timeout(90_000);
  let api: TestedHost;
  let dir: string;
  let answers: vscode.Disposable;
  const questions: string[] = [];
  const started: vscode.DebugSession[] = [];
  const terminated = new Set<string>();
  const subscriptions: vscode.Disposable[] = [];
  const info = (name: string) => api.getServers().find((s) => s.name === name && s.scope.configPath.startsWith(dir));
  const ours = () => started.filter((s) => s.name === 'MCP: debugged' && s.configuration.__mcpHostServer);
  const runningDebugged = async () => {
    const found = await waitFor(() => info('debugged'), 'debugged configured');
    if (found.state.kind !== 'running' && found.state.kind !== 'starting') await api.testing.startServer(found.id);
    return waitFor(() => info('debugged')?.state.kind === 'running' && info('debugged')?.pid && info('debugged'), 'debugged running', 40_000);
  };
  /** What the debugger sees of the process it is attached to (js-debug's session of the target, under ours). */
  const debuggeePid = async (session: vscode.DebugSession) => {
    const target = await waitFor(() => started.find((s) => s.parentSession?.id === session.id), 'the debug session of the node process');
    const r = (await target.customRequest('evaluate', { expression: 'process.pid', context: 'repl' })) as { result: string };
    return Number(r.result);
  };

  before(async () => {
    api = await activateHost();
    subscriptions.push(
      vscode.debug.onDidStartDebugSession((s) => started.push(s)),
      vscode.debug.onDidTerminateDebugSession((s) => terminated.add(s.id)),
    );
    answers = answerDialogs(api, { confirmTrust: async (q) => (questions.push(q.detail), true) });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-debug-'));
    fs.mkdirSync(path.join(dir, '.vscode'));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'tool.mjs'), '// v1\n');
    const servers = {
      debugged: { command: process.execPath, args: [fixtureServer('basic-server.mjs'), 'debugged'], dev: { watch: 'src/*.mjs', debug: { type: 'node' } } },
      py: { command: 'python3', args: [fixtureServer('python-server.py')], dev: { debug: { type: 'debugpy' } } },
    };
    fs.writeFileSync(path.join(dir, '.vscode', 'mcp.json'), JSON.stringify({ servers }));
    await waitFor(() => vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders!.length, 0, { uri: vscode.Uri.file(dir) }), 'the folder added');
  });

  after(async () => {
    answers.dispose();
    for (const name of ['debugged', 'py']) {
      const id = info(name)?.id;
      if (id) await api.testing.stopServer(id);
    }
    subscriptions.forEach((s) => s.dispose());
    await waitFor(() => {
      const index = vscode.workspace.workspaceFolders!.findIndex((f) => f.uri.fsPath === dir);
      return index < 0 || (vscode.workspace.updateWorkspaceFolders(index, 1) && false);
    }, 'the folder removed');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts the server under the node debugger, which attaches to it; its tools work; stopping the server ends the debug session', async () => {
    const server = await runningDebugged();
    const question = questions.find((q) => q.includes('basic-server.mjs'));
    assert.match(question ?? '', /^Command: \S*node\S* --inspect-brk=127\.0\.0\.1:\d+ \S*basic-server\.mjs debugged$/m);
    assert.match(question ?? '', /^Under a debugger \("dev\.debug": node\): its inspector listens on 127\.0\.0\.1:\d+/m);
    const session = await waitFor(() => ours()[0], 'a debug session for the server');
    assert.ok(['node', 'pwa-node'].includes(session.type), session.type);
    assert.strictEqual(await debuggeePid(session), server.pid, 'the debugger is attached to the server process');
    const echoed = (await api.testing.callTool(server.id, 'echo', { text: 'under the debugger' })) as { content: { text: string }[] };
    assert.strictEqual(echoed.content[0].text, 'under the debugger');

    await api.testing.stopServer(server.id);
    await waitFor(() => terminated.has(session.id), 'the debug session ended with the server');
    assert.strictEqual(info('debugged')?.state.kind, 'stopped');
  });

  it('a restart (a watched file changed) ends the debug session and attaches a new one to the new process', async () => {
    const before = await runningDebugged();
    const first = await waitFor(() => ours().find((s) => !terminated.has(s.id)), 'a debug session for the server');
    fs.writeFileSync(path.join(dir, 'src', 'tool.mjs'), '// v2\n');
    const after = await waitFor(() => info('debugged')?.state.kind === 'running' && info('debugged')!.pid && info('debugged')!.pid !== before.pid && info('debugged'), 'restarted with a new process', 40_000);
    await waitFor(() => terminated.has(first.id), 'the first debug session ended');
    const second = await waitFor(() => ours().find((s) => !terminated.has(s.id)), 'a debug session for the new process');
    assert.strictEqual(await debuggeePid(second), after.pid);
  });

  it('a debug session the user ends stops its server (it does not run on unseen)', async () => {
    const server = await runningDebugged();
    const session = await waitFor(() => ours().find((s) => !terminated.has(s.id)), 'a new debug session for the server');
    await vscode.debug.stopDebugging(session);
    const stopped = await waitFor(() => info('debugged')?.state.kind === 'stopped' && info('debugged')!.state, 'the server stopped');
    assert.deepStrictEqual(stopped, { kind: 'stopped', reason: 'Its debug session ended.' });
    await waitFor(() => {
      try {
        process.kill(server.pid!, 0);
        return false;
      } catch {
        return true;
      }
    }, 'the server process gone');
  });
  // Python: the server runs under debugpy only where VS Code has a Python debugger (the Python Debugger extension,
  // not in code-server here) and the server's python has debugpy.
  const python = spawnSync('python3', ['-c', 'import debugpy'], { encoding: 'utf8' });
  const hasPythonDebugger = () => vscode.extensions.all.some((e) => (e.packageJSON as { contributes?: { debuggers?: { type?: string }[] } }).contributes?.debuggers?.some((d) => d.type === 'debugpy'));

  it('debugpy without a Python debugger in VS Code: the server runs without one, and the question says why', async function () {
    if (python.error) this.skip(); // no python3 on this machine
    if (hasPythonDebugger()) this.skip(); // the Python Debugger extension is installed: the next test covers it
    const found = await waitFor(() => info('py'), 'py configured');
    if (found.state.kind !== 'running') await api.testing.startServer(found.id);
    const py = await waitFor(() => info('py')?.state.kind === 'running' && info('py'), 'py running', 40_000);
    const question = questions.find((q) => q.includes('python-server.py'));
    assert.match(question ?? '', /^Command: python3 \S*python-server\.py$/m);
    assert.match(question ?? '', /^⚠ "dev\.debug" \(debugpy\) is set, but it starts without a debugger: VS Code has no Python debugger here \(install the Python Debugger extension, ms-python\.debugpy\)\.$/m);
    const who = (await api.testing.callTool(py.id, 'whoami')) as { content: { text: string }[] };
    assert.strictEqual((JSON.parse(who.content[0].text) as { debugpy: boolean }).debugpy, false);
    assert.ok(!started.some((s) => s.name === 'MCP: py'), 'no debug session');
  });

  it('debugpy with the Python debugger: the server runs under debugpy and a debugpy session attaches (only where the Python Debugger extension and python3 with debugpy are installed)', async function () {
    // Skipped here: code-server has no Python Debugger extension (ms-python.debugpy), and python3 has no debugpy
    // module (no pip packages are installed for the tests). Where both are, this runs.
    if (python.status !== 0 || !hasPythonDebugger()) this.skip();
    const found = await waitFor(() => info('py'), 'py configured');
    if (found.state.kind !== 'running') await api.testing.startServer(found.id);
    const py = await waitFor(() => info('py')?.state.kind === 'running' && info('py'), 'py running', 40_000);
    const session = await waitFor(() => started.find((s) => s.name === 'MCP: py'), 'a debugpy session');
    assert.strictEqual(session.type, 'debugpy');
    const who = (await api.testing.callTool(py.id, 'whoami')) as { content: { text: string }[] };
    assert.strictEqual((JSON.parse(who.content[0].text) as { debugpy: boolean }).debugpy, true);
    await api.testing.stopServer(py.id);
    await waitFor(() => terminated.has(session.id), 'the debugpy session ended with the server');
  });
});
