// The `mcp-host` command line, as a user runs it: a real process reading an mcp.json, real servers, and every question
// (trust, tool consent, elicitation, sampling) answered on its stdin.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fileURLToPath, pathToFileURL } from 'url';
import { fixtureServer, runMcpHost } from './helpers';


const run = runMcpHost;

describe('mcp-host command line', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-cli-'));
    fs.mkdirSync(path.join(dir, '.vscode'));
    const asking = (eras: string) => ({ command: process.execPath, args: [fixtureServer('asking-server.mjs')], env: { FIXTURE_ERAS: eras } });
    fs.writeFileSync(path.join(dir, '.vscode', 'mcp.json'), JSON.stringify({ servers: { modern: asking('modern'), legacy: asking('legacy') } }));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const ask = { mode: 'form', message: 'Who are you?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } };

  it('lists the servers of the mcp.json with their protocol revisions', async () => {
    const { code, stdout } = await run(dir, ['--yes', '--json', 'list']);
    assert.strictEqual(code, 0);
    const servers = JSON.parse(stdout) as { name: string; state: string; protocolVersion: string; tools: number }[];
    assert.deepStrictEqual(
      servers.map((s) => [s.name, s.state, s.protocolVersion, s.tools]),
      [
        ['modern', 'running', '2026-07-28', 4],
        ['legacy', 'running', '2025-11-25', 4],
      ],
    );
  });

  it('asks trust and tool consent on the terminal; a refusal calls nothing', async () => {
    const refused = await run(dir, ['call', 'legacy', 'roots'], ['y', 'n']);
    assert.match(refused.stderr, /Run server "legacy"\?\nCommand: /);
    assert.match(refused.stderr, /Call tool "roots" of server "legacy"/);
    assert.match(refused.stderr, /The call was not allowed/);
    assert.strictEqual(refused.code, 1);
    assert.strictEqual(refused.stdout, '');
    const distrusted = await run(dir, ['tools', 'legacy'], ['n']);
    assert.strictEqual(distrusted.code, 1);
    assert.match(distrusted.stderr, /"legacy" is blocked/);
  });

  it('the trust question on the terminal shows the launch plan: the file that runs and every variable the workspace sets, with its value', async () => {
    const hostile = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-cli-plan-'));
    try {
      fs.mkdirSync(path.join(hostile, '.vscode'));
      const env = { PYTHONWARNINGS: 'ignore::evilpkg.Warning', BROWSER: './tools/open.sh' };
      fs.writeFileSync(path.join(hostile, '.vscode', 'mcp.json'), JSON.stringify({ servers: { s: { command: process.execPath, args: [fixtureServer('basic-server.mjs')], env } } }));
      const { stderr, code } = await run(hostile, ['tools', 's'], ['n']);
      assert.strictEqual(code, 1);
      assert.match(stderr, /⚠ PYTHONWARNINGS=ignore::evilpkg\.Warning \(env\)/);
      assert.match(stderr, /⚠ BROWSER=\.\/tools\/open\.sh \(env\)/);
      assert.ok(stderr.includes(`Working directory: ${hostile}`), stderr);
    } finally {
      fs.rmSync(hostile, { recursive: true, force: true });
    }
  });

  for (const server of ['legacy', 'modern']) {
    it(`answers a form on the terminal (${server} server)`, async () => {
      const { code, stdout, stderr } = await run(dir, ['call', server, 'ask', JSON.stringify({ params: ask })], ['y', 'y', 'Ada', 'y']);
      assert.match(stderr, /Server "\w+" asks: Who are you\?/);
      assert.strictEqual(code, 0, stderr);
      const result = JSON.parse(stdout);
      assert.deepStrictEqual(result.result, { action: 'accept', content: { name: 'Ada' } });
      assert.strictEqual(result.era, server);
    });

    it(`answers sampling on the terminal: one question, then the user writes the answer (${server} server)`, async () => {
      const params = { messages: [{ role: 'user', content: { type: 'text', text: 'What is six times seven?' } }], maxTokens: 20 };
      const { code, stdout, stderr } = await run(dir, ['--yes', 'call', server, 'sample', JSON.stringify({ params })], ['y', 'forty-two']);
      assert.match(stderr, /asks for a completion:[\s\S]*What is six times seven\?/);
      assert.strictEqual(code, 0, stderr);
      assert.deepStrictEqual(JSON.parse(stdout).result.content, { type: 'text', text: 'forty-two' });
    });
  }

  it('gives servers the folder as a root, a folder with a space in its name included', async () => {
    const spaced = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost cli folder '));
    try {
      fs.mkdirSync(path.join(spaced, '.vscode'));
      fs.writeFileSync(path.join(spaced, '.vscode', 'mcp.json'), JSON.stringify({ servers: { roots: { command: process.execPath, args: [fixtureServer('asking-server.mjs')] } } }));
      const { code, stdout, stderr } = await run(spaced, ['--yes', 'call', 'roots', 'roots']);
      assert.strictEqual(code, 0, stderr);
      const roots = (JSON.parse(stdout) as { result: { roots: { uri: string; name: string }[] } }).result.roots;
      assert.deepStrictEqual(roots, [{ uri: pathToFileURL(spaced).href, name: path.basename(spaced) }]);
      assert.match(roots[0].uri, /%20/, 'the space is encoded, as a file URI needs');
      assert.strictEqual(fileURLToPath(roots[0].uri), spaced);
    } finally {
      fs.rmSync(spaced, { recursive: true, force: true });
    }
  });

  it('calls a tool that runs only as a task, follows the task and prints its result', async () => {
    const tasksDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-cli-tasks-'));
    try {
      fs.mkdirSync(path.join(tasksDir, '.vscode'));
      fs.writeFileSync(path.join(tasksDir, '.vscode', 'mcp.json'), JSON.stringify({ servers: { tasks: { command: process.execPath, args: [fixtureServer('tasks-server.mjs')] } } }));
      const { code, stdout, stderr } = await run(tasksDir, ['--yes', 'call', 'tasks', 'quick-task']);
      assert.strictEqual(code, 0, stderr);
      assert.match(stdout, /Done as a task\./);
    } finally {
      fs.rmSync(tasksDir, { recursive: true, force: true });
    }
  });

  it('calls a tool a 2026-07-28 server runs as a task (the tasks extension), follows it and prints its result', async () => {
    const tasksDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-cli-tasks-ext-'));
    try {
      fs.mkdirSync(path.join(tasksDir, '.vscode'));
      fs.writeFileSync(path.join(tasksDir, '.vscode', 'mcp.json'), JSON.stringify({ servers: { 'tasks-ext': { command: process.execPath, args: [fixtureServer('tasks-extension-server.mjs')] } } }));
      const { code, stdout, stderr } = await run(tasksDir, ['--yes', 'call', 'tasks-ext', 'quick-task']);
      assert.strictEqual(code, 0, stderr);
      assert.match(stdout, /Done as a task\./);
    } finally {
      fs.rmSync(tasksDir, { recursive: true, force: true });
    }
  });

  it('says how to use it, and exits 2 on bad usage', async () => {
    const { code, stderr } = await run(dir, ['frobnicate']);
    assert.strictEqual(code, 2);
    assert.match(stderr, /usage: mcp-host/);
    assert.strictEqual((await run(os.tmpdir(), ['list'])).code, 2, 'no mcp.json');
  });
});
