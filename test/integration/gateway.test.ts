// The gateway in a real VS Code: turned on by its command in the extension host, an official SDK client (from this
// test, as another agent would) lists the tools of two running servers, calls one after the consent (answered through
// the dialog router, which names the client) and gets its result; turned off, the client is ended. What a server asks
// back during such a call is the editor's to answer: its elicitation reaches the editor's form, its sampling the
// sampling consent and a VS Code language model, its roots request gets the workspace folders.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { SamplingQuestion } from '../../src/core/features/sampling/samplingQuestions';
import type { FormFieldPresetQuestion } from '../../src/vscode/dialogs/dialogRouter';
import { activateFakeLm, activateHost, answerDialogs, fixtureServer, serversTreeChild, sleep, waitFor, WorkspaceConfig, type FakeLm, type TestedHost } from './testKit';

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0].text;

describe('the gateway in a real VS Code', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable | undefined;
  let lm: FakeLm;
  const asked: ToolConsentQuestion[] = [];
  const formFields: FormFieldPresetQuestion[] = [];
  const samplingAsked: SamplingQuestion[] = [];
  const running = (name: string) => api.getServers().find((s) => s.name === name)?.state.kind === 'running';

  before(async () => {
    api = await activateHost();
    lm = await activateFakeLm();
    dialogs = answerDialogs(api, {
      confirmTrust: async () => true,
      confirmToolCall: async (q) => (asked.push(q), 'once'),
      formFieldPreset: (q) => (formFields.push(q), q.field.name === 'name' ? 'Ada' : undefined),
      confirmSampling: async (q) => (samplingAsked.push(q), 'once'),
    });
    config = await WorkspaceConfig.read();
    await config.writeServers({
      ...config.servers(),
      'gw-alpha': { command: 'node', args: [fixtureServer('basic-server.mjs')] },
      'gw-slow': { command: 'node', args: [fixtureServer('slow-tool-server.mjs')] },
      'gw-asking': { command: 'node', args: [fixtureServer('asking-server.mjs')] },
    });
    await api.testing.reloadConfiguration();
    for (const name of ['gw-alpha', 'gw-slow', 'gw-asking']) {
      const s = await waitFor(() => api.getServers().find((x) => x.name === name), `${name} configured`);
      if (s.state.kind !== 'running') await api.testing.startServer(s.id);
      await waitFor(() => running(name), `${name} running`, 60_000);
    }
  });

  after(async () => {
    await vscode.commands.executeCommand('mcpHost.stopGateway');
    dialogs?.dispose();
    lm?.reset();
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

  it("answers what a server asks during a gateway call in the editor: its form, sampling consent and model, the workspace's roots", async () => {
    await vscode.commands.executeCommand('mcpHost.startGateway');
    const gateway = await waitFor(() => api.testing.gateway(), 'the gateway to run');
    const client = new Client({ name: 'Asking Agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${gateway.token}` } } }));
    try {
      // Elicitation: the editor's form (its one field preset through the dialog router, then the review's Submit).
      const form = client.callTool({
        name: 'gw-asking_ask',
        arguments: { params: { message: 'Who is asking?', requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] } } },
      });
      await waitFor(() => formFields.some((q) => q.field.name === 'name'), 'the form to show its field');
      assert.strictEqual(formFields[0].serverName, 'gw-asking');
      await sleep(300);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await sleep(800);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const elicited = JSON.parse(textOf(await form));
      assert.deepStrictEqual(elicited.result, { action: 'accept', content: { name: 'Ada' } });

      // Sampling: the editor's consent, then a VS Code language model answers.
      lm.reset();
      lm.setResponder(() => 'Sampled by the fake model');
      const sampled = JSON.parse(textOf(await client.callTool({ name: 'gw-asking_sample', arguments: { params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say something' } }], maxTokens: 50 } } })));
      assert.strictEqual(samplingAsked.length, 1);
      assert.strictEqual(samplingAsked[0].serverName, 'gw-asking');
      assert.match(samplingAsked[0].chatContext ?? '', /Asking Agent/);
      assert.strictEqual(lm.calls.length, 1);
      assert.deepStrictEqual(sampled.result?.content, { type: 'text', text: 'Sampled by the fake model' });

      // Roots: the workspace folders of the editor.
      const roots = JSON.parse(textOf(await client.callTool({ name: 'gw-asking_roots', arguments: {} })));
      assert.deepStrictEqual(
        roots.result.roots.map((r: { uri: string }) => r.uri),
        (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()),
      );
      assert.ok(asked.filter((q) => q.caller === 'Asking Agent').length >= 3, 'each call was asked, naming the client');
    } finally {
      await client.close().catch(() => undefined);
      await vscode.commands.executeCommand('mcpHost.stopGateway');
    }
  });

  it("shows each client in the Servers view, whose Disconnect ends it; a new token refuses the old one and ends every client", async () => {
    await vscode.commands.executeCommand('mcpHost.startGateway');
    const gateway = await waitFor(() => api.testing.gateway(), 'the gateway to run');
    const connect = async (name: string, token: string, url = gateway.url) => {
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      return client;
    };
    const rowAgent = await connect('Row Agent', gateway.token);
    const otherAgent = await connect('Other Agent', gateway.token);
    let newcomer: Client | undefined;
    try {
      const row = await waitFor(() => serversTreeChild(api, undefined, /^Row Agent$/, /gateway/).catch(() => undefined), 'the client\'s row in the Servers view');
      await serversTreeChild(api, undefined, /^Other Agent$/, /gateway/);
      await vscode.commands.executeCommand('mcpHost.disconnectGatewayClient', row.node);
      await assert.rejects(rowAgent.listTools(), 'the disconnected client is refused');
      assert.ok((await otherAgent.listTools()).tools.length > 0, 'the other client is still served');
      await waitFor(() => !api.testing.renderServersTree().some((l) => l.startsWith('Row Agent')), 'its row to go');
      assert.deepStrictEqual(api.testing.gateway()?.clients(), ['Other Agent']);

      const old = { token: gateway.token, url: gateway.url };
      await vscode.commands.executeCommand('mcpHost.newGatewayToken');
      const renewed = await waitFor(() => (api.testing.gateway()?.token !== old.token ? api.testing.gateway() : undefined), 'the gateway to run with its new token');
      await assert.rejects(otherAgent.listTools(), 'every client was ended');
      const refused = await fetch(renewed.url, { method: 'POST', headers: { authorization: `Bearer ${old.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
      assert.strictEqual(refused.status, 401, 'the old token is refused at once');
      await assert.rejects(connect('Stale Agent', old.token, old.url), 'the old address and token together are refused too');
      newcomer = await connect('New Agent', renewed.token, renewed.url);
      assert.ok((await newcomer.listTools()).tools.some((t) => t.name === 'gw-alpha_echo'));
      await waitFor(() => !api.testing.renderServersTree().some((l) => l.startsWith('Other Agent')), 'the ended client\'s row to go');
    } finally {
      for (const c of [rowAgent, otherAgent, newcomer]) await c?.close().catch(() => undefined);
      await vscode.commands.executeCommand('mcpHost.stopGateway');
    }
    assert.ok(!api.testing.renderServersTree().some((l) => / — connected through the MCP Host gateway/.test(l)), 'no client rows once it stops');
  });
});
