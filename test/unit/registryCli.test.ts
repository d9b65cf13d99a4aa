// `mcp-host search` and `mcp-host add` as a user runs them: the real CLI process, against the local fixture registry,
// writing into a folder whose name has a space.
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { runCli } from '../../src/cli/cli';
import { repoRoot } from './helpers';
import { startFixtureRegistry, type FixtureRegistry } from './registryTestKit';

const cli = path.join(repoRoot, 'scripts', 'mcp-host.mjs');

function run(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end();
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('mcp-host search and add', function () {
  this.timeout(30_000);
  let registry: FixtureRegistry;
  let dir: string;
  let folder: string;
  const config = () => path.join(folder, '.vscode', 'mcp.json');

  before(async () => {
    registry = await startFixtureRegistry();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-registry-cli-'));
    folder = path.join(dir, 'my project');
    fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
  });
  after(async () => {
    await registry.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('search lists name, version and description, says which entry it skipped and how to get the next page', async () => {
    const { code, stdout, stderr } = await run(folder, ['search', 'example', '--registry', registry.url]);
    assert.strictEqual(code, 0, stderr);
    const lines = stdout.trim().split('\n');
    assert.deepStrictEqual(lines, [
      'io.github.example/weather  0.4.1  Weather forecasts from the Example Weather API.',
      'io.github.example/postgres  1.2.0  Read-only queries against a PostgreSQL database.',
      'com.example/remote-search  2.0.0  Search the Example index over streamable HTTP.',
      'com.example/legacy-events  0.9.0  Events over the legacy SSE transport.',
      'io.github.example/bundle  1.0.0  Ships only as an MCP bundle.',
      '(skipped io.github.example/broken: Server "io.github.example/broken", packages[0] has no "identifier")',
      'io.github.example/sneaky  0.1.0  Forwards your environment to its author.',
    ]);
    assert.strictEqual(stderr.trim(), '');
    assert.ok(registry.requests.includes('/v0.1/servers?search=example&limit=30&version=latest'));
  });

  it('search with a broken registry says so in one line', async () => {
    const { code, stdout, stderr } = await run(folder, ['search', 'x', '--registry', `${registry.url}/garbage`]);
    assert.strictEqual(code, 1);
    assert.strictEqual(stdout, '');
    assert.strictEqual(stderr, `The registry ${registry.url}/garbage did not answer with JSON.\n`);
  });

  it('a registry that redirects to a service on this machine: search refuses to follow, the service gets no request, and says so in one line', async () => {
    const hits: string[] = [];
    const service = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('{"servers":[]}');
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const port = (service.address() as AddressInfo).port;
    try {
      const { code, stdout, stderr } = await run(folder, ['search', 'x', '--registry', `${registry.url}/redirect-to/${port}`]);
      assert.strictEqual(code, 1);
      assert.strictEqual(stdout, '');
      assert.strictEqual(
        stderr,
        `The registry ${registry.url}/redirect-to/${port} tried to send the request to another address (http://127.0.0.1:${port}); it was not followed. If the registry moved, set its new address.\n`,
      );
      assert.deepStrictEqual(hits, []);
      // Within its own origin a redirect is followed.
      const moved = await run(folder, ['search', 'weather', '--registry', `${registry.url}/moved`]);
      assert.strictEqual(moved.code, 0, moved.stderr);
      assert.match(moved.stdout, /^io\.github\.example\/weather {2}0\.4\.1/);
    } finally {
      service.close();
    }
  });

  it('add, with no terminal on stdin, asks nothing: it writes the entry, secrets and required values as inputs, and keeps comments', async () => {
    fs.writeFileSync(config(), '{\n  // mine\n  "servers": {\n    "local": { "command": "node" } // the local one\n  }\n}\n');
    const { code, stdout, stderr } = await run(folder, ['add', 'io.github.example/weather', '--registry', registry.url]);
    assert.strictEqual(code, 0, stderr);
    assert.strictEqual(stdout.split('\n')[0], `Added io.github.example/weather 0.4.1 in ${config()}`);
    assert.match(stdout, /^Command: uvx mcp-weather==0\.4\.1 --timeout 30$/m);
    assert.match(stderr, /Asked at the first start: weather-weather-api-key \(secret\), weather-weather-units\./);
    const text = fs.readFileSync(config(), 'utf8');
    assert.ok(text.includes('// mine') && text.includes('"local": { "command": "node" }, // the local one\n'), text);
    const parsed = parseMcpConfig(text);
    assert.deepStrictEqual(parsed.diagnostics, []);
    const weather = parsed.servers.find((s) => s.name === 'io.github.example/weather')!.server;
    assert.deepStrictEqual(weather, {
      type: 'stdio',
      command: 'uvx',
      args: ['mcp-weather==0.4.1', '--timeout', '30'],
      env: { WEATHER_API_KEY: '${input:weather-weather-api-key}', WEATHER_UNITS: '${input:weather-weather-units}' },
    });
    assert.ok(text.includes(`"gallery": "${registry.url}",\n      "version": "0.4.1"`), text);
    assert.deepStrictEqual(
      parsed.inputs.map((i) => [i.id, i.type, i.type === 'promptString' && i.password]),
      [
        ['weather-weather-api-key', 'promptString', true],
        ['weather-weather-units', 'pickString', false],
      ],
    );
  });

  it('add --user writes the user mcp.json; a malformed or unsafe entry is refused with its reason and nothing is written', async () => {
    const user = path.join(dir, 'user config', 'mcp.json');
    const env = { MCP_HOST_USER_CONFIG: user };
    const added = await run(folder, ['add', 'com.example/legacy-events', '--user', '--yes', '--registry', registry.url], env);
    assert.strictEqual(added.code, 0, added.stderr);
    assert.deepStrictEqual(parseMcpConfig(fs.readFileSync(user, 'utf8')).servers.map((s) => [s.name, s.server]), [
      ['com.example/legacy-events', { type: 'sse', url: 'https://events.example.com/sse', headers: {} }],
    ]);
    const before = fs.readFileSync(config(), 'utf8');
    const broken = await run(folder, ['add', 'io.github.example/broken', '--registry', registry.url]);
    assert.strictEqual(broken.code, 1);
    assert.strictEqual(broken.stderr, 'io.github.example/broken cannot be installed: Server "io.github.example/broken", packages[0] has no "identifier"\n');
    const sneaky = await run(folder, ['add', 'io.github.example/sneaky', '--registry', registry.url]);
    assert.strictEqual(sneaky.code, 1);
    assert.match(sneaky.stderr, /cannot be installed: the value of X-Key contains "\$\{", which mcp\.json would read as a variable/);
    const missing = await run(folder, ['add', 'io.github.example/nothing', '--registry', registry.url]);
    assert.strictEqual(missing.code, 1);
    assert.match(missing.stderr, /has no server "io\.github\.example\/nothing"/);
    assert.strictEqual(fs.readFileSync(config(), 'utf8'), before);
  });

  it('add at a terminal asks the required values and writes the answers; secrets stay inputs', async () => {
    const file = path.join(dir, 'asked.json');
    const said: string[] = [];
    const answers = ['2'];
    const code = await runCli(['add', 'io.github.example/weather', '--registry', registry.url, '--config', file], process.env, folder, {
      interactive: true,
      ask: async (q) => {
        said.push(q);
        return answers.shift();
      },
      say: (l) => said.push(l),
      print: (l) => said.push(l),
    });
    assert.strictEqual(code, 0, said.join('\n'));
    assert.ok(said.includes('Units of measurement:\n  1. metric\n  2. imperial'), said.join('\n'));
    const parsed = parseMcpConfig(fs.readFileSync(file, 'utf8'));
    assert.deepStrictEqual((parsed.servers[0].server as { env: unknown }).env, { WEATHER_API_KEY: '${input:weather-weather-api-key}', WEATHER_UNITS: 'imperial' });
    assert.deepStrictEqual(parsed.inputs.map((i) => i.id), ['weather-weather-api-key']);
  });

  it('attack: add --user writes an entry that VS Code then runs at every start, its launch never seen or accepted', async () => {
    const user = path.join(dir, 'unseen user config', 'mcp.json');
    const env = { ...process.env, MCP_HOST_USER_CONFIG: user };
    // Not at a terminal (a script, or a process the user did not watch): refused, nothing written.
    const unattended = await run(folder, ['add', 'com.example/legacy-events', '--user', '--registry', registry.url], { MCP_HOST_USER_CONFIG: user });
    assert.strictEqual(unattended.code, 1);
    assert.match(unattended.stderr, /Nothing was written: add --user asks first; run it at a terminal, or pass --yes/);
    assert.ok(!fs.existsSync(user), 'nothing written');
    // At a terminal: what it runs is asked about first; a "no" writes nothing.
    const said: string[] = [];
    const answers = ['n', 'y'];
    const terminal = {
      interactive: true,
      ask: async (q: string) => {
        said.push(q);
        return answers.shift();
      },
      say: (l: string) => said.push(l),
      print: (l: string) => said.push(l),
    };
    assert.strictEqual(await runCli(['add', 'com.example/legacy-events', '--user', '--registry', registry.url], env, folder, terminal), 1);
    assert.match(said[0], /^Add com\.example\/legacy-events to your user mcp\.json\? VS Code will run it at every start without asking\.\n.*https:\/\/events\.example\.com\/sse/s);
    assert.ok(!fs.existsSync(user), 'nothing written on a "no"');
    assert.strictEqual(await runCli(['add', 'com.example/legacy-events', '--user', '--registry', registry.url], env, folder, terminal), 0, said.join('\n'));
    assert.deepStrictEqual(parseMcpConfig(fs.readFileSync(user, 'utf8')).servers.map((s) => s.name), ['com.example/legacy-events']);
  });
});
