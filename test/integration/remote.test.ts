// Remote servers in a real VS Code: an HTTP entry written into the workspace's mcp.json reaches running, and an
// OAuth-protected server (the fixture that is its own authorization server) is signed in to through the real provider,
// SecretStorage and loopback redirect, with the browser played by the test; then signed out of and in again.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { SignInQuestion } from '../../src/vscode/dialogs/dialogRouter';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { startEverything, startOAuthFixture, type EverythingHttp, type OAuthFixture } from '../unit/remoteTestKit';
import { activateHost, answerDialogs, waitFor as waitForKit, WorkspaceConfig, type TestedHost } from './testKit';
import { describeState } from '../../src/core/presentation/serverPresentation';

/** Remote servers and signing in through the browser get more time than local ones. */
/** The shared wait, with remote sign-ins' longer default. */
const waitFor = <T>(check: () => T | Promise<T>, what: string, timeoutMs = 30_000) => waitForKit(check, what, timeoutMs);

describe('Remote MCP servers in a real VS Code', function () {
  this.timeout(90_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let everything: EverythingHttp | undefined;
  let oauthServer: OAuthFixture | undefined;
  let dialogs: vscode.Disposable | undefined;
  const signInQuestions: SignInQuestion[] = [];
  const openedPages: string[] = [];

  const server = (name: string): ServerInfo | undefined => api.getServers().find((s) => s.name === name);
  const running = (name: string) => waitFor(() => server(name)?.state.kind === 'running' && server(name), `${name} running`);
  const treeLine = (name: string) => api.testing.renderServersTree().find((l) => l.trimStart().startsWith(`${name} — `));

  before(async () => {
    api = await activateHost();
    dialogs = answerDialogs(api, {
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
    });
    config = await WorkspaceConfig.read();
  });

  after(async () => {
    await config.restore();
    await waitFor(() => !server('remote-everything') && !server('secured'), 'remote servers removed');
    await everything?.stop();
    await oauthServer?.stop();
    dialogs?.dispose();
  });

  it('runs an HTTP server entry written into mcp.json', async () => {
    everything = await startEverything('streamableHttp');
    await config.writeServers({ ...config.servers(), 'remote-everything': { type: 'http', url: `http://127.0.0.1:${everything.port}/mcp` } });
    const info = await running('remote-everything');
    assert.strictEqual(info.protocolVersion, '2025-11-25');
    assert.ok(info.features.tools.some((t) => t.name === 'echo'));
    const result = (await api.testing.callTool(info.id, 'echo', { message: 'over http' })) as { content: { text: string }[] };
    assert.strictEqual(result.content[0].text, 'Echo: over http');
  });

  it('signs in to an OAuth-protected server through the browser, shows who is signed in, and signs out', async () => {
    oauthServer = await startOAuthFixture();
    const { port, url } = oauthServer;
    await config.writeServers({ ...config.servers(), secured: { type: 'http', url } });

    const secured = await running('secured');
    assert.deepStrictEqual(signInQuestions, [{ serverName: 'secured', authorizationServer: `127.0.0.1:${port}` }]);
    const authorize = new URL(openedPages[0]).searchParams;
    assert.strictEqual(authorize.get('code_challenge_method'), 'S256');
    assert.strictEqual(authorize.get('resource'), url);
    const redirect = new URL(authorize.get('redirect_uri')!);
    assert.strictEqual(redirect.pathname.endsWith('/callback'), true, `redirect ${redirect}`);
    const whoami = (await api.testing.callTool(secured.id, 'whoami', {})) as { content: { text: string }[] };
    assert.strictEqual(JSON.parse(whoami.content[0].text).account, 'alice@example.com');
    await vscode.commands.executeCommand('mcpHost.servers.focus');
    // The row stays short; the account is in its tooltip's first line.
    await waitFor(() => /— running · (2 tools|≈?[\d.]+k? tokens)$/.test(treeLine('secured') ?? ''), 'the row');
    assert.match(describeState(server('secured')!), /^running · 2 tools · signed in as alice@example\.com$/);

    await vscode.commands.executeCommand('mcpHost.signOutOfServer', secured.id);
    const signedOut = await waitFor(() => server('secured')?.state.kind === 'stopped' && server('secured'), 'stopped after sign-out');
    assert.match((signedOut.state as { reason?: string }).reason ?? '', /^Signed out/);
    await waitFor(() => /stopped/.test(treeLine('secured') ?? '') && !/signed in/.test(treeLine('secured') ?? ''), 'tree shows signed out');

    await vscode.commands.executeCommand('mcpHost.signInToServer', secured.id);
    await running('secured');
    assert.strictEqual(signInQuestions.length, 2, 'signing in again asked again');
    await waitFor(() => /signed in as alice@example\.com/.test(describeState(server('secured')!)), 'the tooltip shows the account again');
  });
});
