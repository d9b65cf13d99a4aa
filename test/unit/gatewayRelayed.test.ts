// What passes through the gateway besides requests and answers, with a real SDK client and real fixture servers:
// a tool's progress reaches the client, the client's cancellation reaches the server, list changes are announced, and
// the editor's roots (not the client's) are what a server asked during a call gets.
import * as assert from 'assert';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { GatewayRelay } from '../../src/core/features/gateway/gatewayRelay';
import { startGateway, type RunningGateway } from '../../src/core/features/gateway/gatewayHttp.lazy';
import { newGatewayPath, newGatewaySecret } from '../../src/core/features/gateway/gatewayRequestCheck';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolConsent } from '../../src/core/features/tools/toolConsent';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { waitFor } from './helpers';
import { createKit, MemoryStore, type Kit } from './hostTestKit';
import { startAlphaAndSlow } from './gatewayTestKit';

describe('the gateway relays progress, cancellation and list changes', function () {
  this.timeout(60_000);
  let kit: Kit;
  let gateway: RunningGateway;
  const clients: Client[] = [];

  before(async () => {
    kit = createKit();
    await startAlphaAndSlow(kit);
  });

  after(async () => {
    await kit.manager.disposeAsync();
  });

  beforeEach(async () => {
    const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    const consent = new ToolConsent({ permissions, ask: async () => 'once', autoAllowReadOnly: () => false });
    const caller = new ToolCaller(kit.manager, new ActiveToolCalls(), consent);
    const relay = new GatewayRelay({ sessions: kit.manager, caller });
    gateway = await startGateway({ relay, onDidChangeServers: (l) => kit.manager.onDidChangeServers(l), path: newGatewayPath(), token: newGatewaySecret(), version: '0.0.0' });
  });

  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    await gateway.stop();
  });

  for (const era of ['legacy', 'modern'] as const) {
    const connect = async (name: string): Promise<Client> => {
      const client = new Client({ name, version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {});
      clients.push(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${gateway.address.token}` } } }));
      assert.strictEqual(client.getProtocolEra(), era);
      return client;
    };

    describe(`a ${era === 'legacy' ? '2025-11-25' : '2026-07-28'} client`, () => {
      it("gets a tool's progress while it runs", async () => {
        const client = await connect('Progress Agent');
        const progress: number[] = [];
        const result = await client.callTool({ name: 'slow_sleep', arguments: { ms: 900 } }, { onprogress: (p) => void progress.push(p.progress) });
        assert.deepStrictEqual(result.content, [{ type: 'text', text: 'slept' }]);
        assert.ok(progress.length >= 2, `progress reported: ${progress.join(', ')}`);
        assert.ok(progress.every((p, i) => i === 0 || p > progress[i - 1]), `progress increases: ${progress.join(', ')}`);
      });

      it('cancels the call on the server when the client gives up on it', async () => {
        const client = await connect('Cancelling Agent');
        const before = JSON.parse((((await client.callTool({ name: 'slow_cancellations', arguments: {} })).content as { text: string }[])[0]).text) as unknown[];
        const abort = new AbortController();
        const call = client.callTool({ name: 'slow_sleep', arguments: { ms: 20_000 } }, { signal: abort.signal });
        await waitFor(() => kit.manager.servers().some((s) => s.name === 'slow'), 'the slow server');
        setTimeout(() => abort.abort('the agent gave up'), 600);
        await assert.rejects(call);
        const cancelled = async () => JSON.parse((((await client.callTool({ name: 'slow_cancellations', arguments: {} })).content as { text: string }[])[0]).text) as { wasRunning: boolean }[];
        let after = await cancelled();
        for (let i = 0; i < 40 && after.length === before.length; i++) {
          await new Promise((r) => setTimeout(r, 100));
          after = await cancelled();
        }
        assert.strictEqual(after.length, before.length + 1, 'the server was told the call is cancelled');
        assert.strictEqual(after.at(-1)?.wasRunning, true);
      });

      it("is told when a server's tools change, and then lists the new tool", async () => {
        const client = await connect('Listening Agent');
        let told = 0;
        client.setNotificationHandler('notifications/tools/list_changed', () => void told++);
        await client.listTools();
        // A 2026-07-28 client hears of changes on the listen stream it opens.
        const subscription = era === 'modern' ? await client.listen({ toolsListChanged: true }) : undefined;
        const name = `added-${era}`;
        await client.callTool({ name: 'alpha_add-tool', arguments: { name } });
        await waitFor(() => told > 0, 'the client to be told the tools changed');
        const names = (await client.listTools()).tools.map((t) => t.name);
        assert.ok(names.includes(`alpha_${name}`), names.join(', '));
        await subscription?.close();
      });
    });
  }
});
