// Remote servers in a real VS Code: an HTTP entry written into the workspace's mcp.json reaches running, and an
// OAuth-protected server (the fixture that is its own authorization server) is signed in to through the real provider,
// SecretStorage and loopback redirect, with the browser played by the test; then signed out of and in again.
import * as assert from 'assert';
import { spawn, type ChildProcess } from 'child_process';
import * as net from 'net';
import * as path from 'path';
import * as vscode from 'vscode';
import type { HostDialogs, SignInQuestion } from '../../src/vscode/dialogs';
import type { McpHostApi } from '../../src/vscode/publicApi';
import type { ServerInfo } from '../../src/core/host/types';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 30_000): Promise<Exclude<T, false | undefined | null>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as Exclude<T, false | undefined | null>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const repoRoot = process.env.MCPHOST_TEST_REPO_ROOT!;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Starts a server process; resolves once the port `portOf` names (from its output) accepts connections. */
async function startServer(args: string[], env: Record<string, string>, portOf: (output: () => string) => Promise<number>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const port = await portOf(() => output);
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      }),
    `a server listening on ${port} (${output})`,
  );
  return { child, port };
}

describe('Remote MCP servers in a real VS Code', function () {
  this.timeout(90_000);
  let api: McpHostApi;
  let configUri: vscode.Uri;
  let originalConfig: string;
  let everything: ChildProcess | undefined;
  let oauthServer: ChildProcess | undefined;
  let dialogs: vscode.Disposable | undefined;
  const signInQuestions: SignInQuestion[] = [];
  const openedPages: string[] = [];

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);
  const running = (name: string) => waitFor(() => server(name)?.state.kind === 'running' && server(name), `${name} running`);
  const treeLine = (name: string) => api.testing!.renderServersTree().find((l) => l.trimStart().startsWith(`${name} — `));
  const configuredServers = () => JSON.parse(originalConfig.replace(/\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1')).servers;
  const writeServers = (servers: Record<string, unknown>) =>
    vscode.workspace.fs.writeFile(configUri, new TextEncoder().encode(JSON.stringify({ servers }, null, 2)));

  before(async () => {
    api = (await vscode.extensions.getExtension('mcp-host.mcp-host')!.activate()) as McpHostApi;
    const answers: Partial<HostDialogs> = {
      confirmTrust: async () => true,
      confirmSignIn: async (q) => {
        signInQuestions.push(q);
        return true;
      },
      // The browser: the fixture's authorization endpoint signs the user in at once and redirects to the extension's
      // redirect URL, which this "browser" then opens, as a real one would.
      openSignInPage: async (url) => {
        openedPages.push(url);
        const authorize = await fetch(url, { redirect: 'manual' });
        const location = authorize.headers.get('location');
        if (!location) return false;
        const callback = await fetch(location);
        assert.match(await callback.text(), /Signed in/);
        return true;
      },
    };
    dialogs = api.testing!.useDialogs(answers);
    const folder = vscode.workspace.workspaceFolders![0];
    configUri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
    originalConfig = new TextDecoder().decode(await vscode.workspace.fs.readFile(configUri));
  });

  after(async () => {
    await vscode.workspace.fs.writeFile(configUri, new TextEncoder().encode(originalConfig));
    await waitFor(() => !server('remote-everything') && !server('secured'), 'remote servers removed');
    everything?.kill();
    oauthServer?.kill();
    dialogs?.dispose();
  });

  it('runs an HTTP server entry written into mcp.json', async () => {
    const port = await freePort();
    ({ child: everything } = await startServer(
      [path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'), 'streamableHttp'],
      { PORT: String(port) },
      async () => port,
    ));
    await writeServers({ ...configuredServers(), 'remote-everything': { type: 'http', url: `http://127.0.0.1:${port}/mcp` } });
    const info = await running('remote-everything');
    assert.strictEqual(info.protocolVersion, '2025-11-25');
    assert.ok(info.features.tools.some((t) => t.name === 'echo'));
    const result = (await api.testing!.callTool(info.id, 'echo', { message: 'over http' })) as { content: { text: string }[] };
    assert.strictEqual(result.content[0].text, 'Echo: over http');
  });

  it('signs in to an OAuth-protected server through the browser, shows who is signed in, and signs out', async () => {
    let port: number;
    ({ child: oauthServer, port } = await startServer([path.join(repoRoot, 'test', 'fixtures', 'servers', 'oauth-http-server.mjs')], {}, (output) =>
      waitFor(() => Number(/listening on (\d+)/.exec(output())?.[1]), 'the fixture port'),
    ));
    const url = `http://127.0.0.1:${port}/mcp`;
    await writeServers({ ...configuredServers(), secured: { type: 'http', url } });

    const secured = await running('secured');
    assert.deepStrictEqual(signInQuestions, [{ serverName: 'secured', authorizationServer: `127.0.0.1:${port}` }]);
    const authorize = new URL(openedPages[0]).searchParams;
    assert.strictEqual(authorize.get('code_challenge_method'), 'S256');
    assert.strictEqual(authorize.get('resource'), url);
    const redirect = new URL(authorize.get('redirect_uri')!);
    assert.strictEqual(redirect.pathname.endsWith('/callback'), true, `redirect ${redirect}`);
    const whoami = (await api.testing!.callTool(secured.id, 'whoami', {})) as { content: { text: string }[] };
    assert.strictEqual(JSON.parse(whoami.content[0].text).account, 'alice@example.com');
    await vscode.commands.executeCommand('mcpHost.servers.focus');
    await waitFor(() => /running · 2 tools · signed in as alice@example\.com/.test(treeLine('secured') ?? ''), 'tree shows the account');

    await vscode.commands.executeCommand('mcpHost.signOutOfServer', secured.id);
    const signedOut = await waitFor(() => server('secured')?.state.kind === 'stopped' && server('secured'), 'stopped after sign-out');
    assert.match((signedOut.state as { reason?: string }).reason ?? '', /^Signed out/);
    await waitFor(() => /stopped/.test(treeLine('secured') ?? '') && !/signed in/.test(treeLine('secured') ?? ''), 'tree shows signed out');

    await vscode.commands.executeCommand('mcpHost.signInToServer', secured.id);
    await running('secured');
    assert.strictEqual(signInQuestions.length, 2, 'signing in again asked again');
    await waitFor(() => /signed in as alice@example\.com/.test(treeLine('secured') ?? ''), 'tree shows the account again');
  });
});
