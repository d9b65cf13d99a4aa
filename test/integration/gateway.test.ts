// The gateway in a real VS Code: turned on by its command in the extension host, an official SDK client (from this
// test, as another agent would) lists the tools of two running servers, calls one after the consent (answered through
// the dialog router, which names the client) and gets its result; turned off, the client is ended.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import { activateHost, answerDialogs, fixtureServer, waitFor, WorkspaceConfig, type TestedHost } from './testKit';

describe('the gateway in a real VS Code', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable | undefined;
  const asked: ToolConsentQuestion[] = [];
  const running = (name: string) => api.getServers().find((s) => s.name === name)?.state.kind === 'running';

  before(async () => {
    api = await activateHost();
    dialogs = answerDialogs(api, { confirmTrust: async () => true, confirmToolCall: async (q) => (asked.push(q), 'once') });
    config = await WorkspaceConfig.read();
    await config.writeServers({ ...config.servers(), 'gw-alpha': { command: 'node', args: [fixtureServer('basic-server.mjs')] }, 'gw-slow': { command: 'node', args: [fixtureServer('slow-tool-server.mjs')] } });
    await api.testing.reloadConfiguration();
    for (const name of ['gw-alpha', 'gw-slow']) {
      const s = await waitFor(() => api.getServers().find((x) => x.name === name), `${name} configured`);
      if (s.state.kind !== 'running') await api.testing.startServer(s.id);
      await waitFor(() => running(name), `${name} running`, 60_000);
    }
  });

  after(async () => {
    await vscode.commands.executeCommand('mcpHost.stopGateway');
    dialogs?.dispose();
    await config.restore();
    await api.testing.reloadConfiguration();
  });

  it('serves two servers to an SDK client, asks naming it, and ends it when turned off', async () => {
    assert.strictEqual(api.testing.gateway(), undefined, 'off until turned on');
    await vscode.commands.executeCommand('mcpHost.startGateway');
    const gateway = await waitFor(() => api.testing.gateway(), 'the gateway to run');
    assert.match(gateway.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp\/[0-9a-f]{32}$/);

    const client = new Client({ name: 'Integration Agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${gateway.token}` } } }));
    await waitFor(() => gateway.clients().includes('Integration Agent'), 'the client to be shown as connected');
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('gw-alpha_echo') && names.includes('gw-slow_sleep'), names.join(', '));

    const result = await client.callTool({ name: 'gw-alpha_echo', arguments: { text: 'from another agent' } });
    assert.deepStrictEqual(result.content, [{ type: 'text', text: 'from another agent' }]);
    assert.strictEqual(asked.length, 1);
    assert.strictEqual(asked[0].caller, 'Integration Agent');
    assert.strictEqual(asked[0].serverName, 'gw-alpha');

    await vscode.commands.executeCommand('mcpHost.stopGateway');
    assert.strictEqual(api.testing.gateway(), undefined);
    await assert.rejects(client.listTools());
    await client.close().catch(() => undefined);
  });
});
