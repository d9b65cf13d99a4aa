// Attacks on this round's changes (issue 46): snapshots kept while nothing changed, tool choices read once, the
// consent subject kept per definition object, the gateway's tool name map kept. Real server processes, the real
// gateway over HTTP, the real choice store; each test reads what a model or an agent is offered, and what a call gets.
import * as assert from 'assert';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Emitter } from '../../src/core/common/events';
import type { RunningGateway } from '../../src/core/features/gateway/gatewayHttp.lazy';
import { ToolChoiceStore } from '../../src/core/features/tools/toolChoiceStore.lazy';
import { createConnection } from '../../src/core/protocol/serverConnection.lazy';
import { startTestGateway } from './gatewayTestKit';
import { fixtureServer } from './helpers';
import { createKit, entry, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

describe('attacks on the snapshots and maps kept (issue 46)', function () {
  this.timeout(60_000);

  describe('a tool the user switched off, after a window reload', () => {
    let kit: Kit;
    let gateway: RunningGateway;
    let client: Client;

    before(async () => {
      // The user switched "whoami" off in an earlier window: it is in the workspace's storage.
      const workspace = new MemoryStore();
      await workspace.update('mcpHost.toolChoices', { 'file:///ws::alpha': { off: ['whoami'] } });
      const changed = new Emitter<string>();
      const store = new ToolChoiceStore({ global: new MemoryStore(), workspace }, (id) => changed.fire(id));
      // As in VS Code (createHost): the store is in the host bundle, which the first connection loads; until then the
      // choices are not known.
      let bundleLoaded = false;
      kit = createKit(
        {
          toolChoices: { of: (id, scope) => (bundleLoaded ? store.of(id, scope) : undefined), onDidChange: changed.event },
          createConnection: (...args) => ((bundleLoaded = true), createConnection(...args)),
        },
        { autoStart: false },
      );
      await kit.update(workspaceScope(), [entry('alpha', stdio(process.execPath, [fixtureServer('basic-server.mjs')]))], []);
      // The Servers view shows the server, not started yet (every surface asks for the snapshots at activation).
      assert.strictEqual(kit.manager.servers()[0].state.kind, 'stopped');
      await kit.manager.get('file:///ws::alpha')!.start(false);
      await waitForState(kit, 'alpha', 'running');
      gateway = await startTestGateway(kit, async () => 'always');
      client = new Client({ name: 'an agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${gateway.address.token}` } } }));
    });

    after(async () => {
      await client?.close();
      await gateway?.stop();
      await kit.manager.disposeAsync();
    });

    it('is not offered through the gateway once the choices load after the first look', async () => {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'alpha_echo'), 'the server runs and offers its tools');
      assert.ok(!tools.some((t) => t.name === 'alpha_whoami'), `the tool switched off is offered: ${tools.map((t) => t.name).join(', ')}`);
      assert.deepStrictEqual([...(kit.manager.servers()[0].toolChoices?.off ?? [])], ['whoami'], 'the Servers view shows its checkbox cleared');
    });

    it('is not callable through the gateway once the choices load after the first look', async () => {
      const result = (await client.callTool({ name: 'alpha_whoami', arguments: {} })) as { isError?: boolean; content: { text: string }[] };
      assert.strictEqual(result.isError, true, `the tool switched off ran: ${result.content[0]?.text.slice(0, 80)}`);
      assert.match(result.content[0].text, /switched off in the MCP Servers view/);
    });
  });
});
