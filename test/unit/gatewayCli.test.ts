// `mcp-host gateway`: the same endpoint served headless from the command line, reached by a real SDK client; its tool
// calls ask on the terminal, naming the client.
import * as assert from 'assert';
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { fixtureServer, repoRoot, waitFor } from './helpers';

describe('mcp-host gateway', function () {
  this.timeout(60_000);
  let dir: string;
  let child: ChildProcess;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-gateway-cli-'));
    fs.mkdirSync(path.join(dir, '.vscode'));
    const server = (script: string) => ({ command: process.execPath, args: [fixtureServer(script)] });
    fs.writeFileSync(path.join(dir, '.vscode', 'mcp.json'), JSON.stringify({ servers: { alpha: server('basic-server.mjs'), slow: server('slow-tool-server.mjs') } }));
  });

  after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the servers of the mcp.json; a call asks on the terminal, naming the client; SIGTERM ends it', async () => {
    const env = { ...process.env };
    delete env.MCP_HOST_GATEWAY_TOKEN;
    child = spawn(process.execPath, [path.join(repoRoot, 'scripts', 'mcp-host.mjs'), 'gateway'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    // Trust for each server, then the call.
    child.stdin!.write('y\ny\n');
    const url = (await waitFor(() => /^MCP_HOST_GATEWAY_URL=(\S+)$/m.exec(stdout)?.[1], `the address (stderr: ${stderr})`))!;
    const token = (await waitFor(() => /^MCP_HOST_GATEWAY_TOKEN=(\S+)$/m.exec(stdout)?.[1], 'the token'))!;
    assert.doesNotMatch(stderr, new RegExp(token), 'the token is printed once, as the result, never in the log');

    const client = new Client({ name: 'Codex', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('alpha_echo') && names.includes('slow_sleep'), names.join(', '));
    const calling = client.callTool({ name: 'alpha_echo', arguments: { text: 'headless' } });
    await waitFor(() => stderr.includes('Codex (through the gateway) wants to run alpha.echo'), `the question (stderr: ${stderr})`);
    child.stdin!.write('y\n');
    assert.deepStrictEqual((await calling).content, [{ type: 'text', text: 'headless' }]);
    await client.close();

    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
    assert.strictEqual(code, 0);
  });
});
