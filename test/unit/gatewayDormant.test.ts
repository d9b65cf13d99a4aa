// Dormant servers through the gateway (issue 44): a server known from its last run is offered with its known tools,
// prompts and resources without starting; a client's call, prompt or read starts it, and gets its answer.
import * as assert from 'assert';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { RunningGateway } from '../../src/core/features/gateway/gatewayHttp.lazy';
import { startTestGateway } from './gatewayTestKit';
import { KnownRunStore } from '../../src/core/host/knownRunStore.lazy';
import { fixtureServer } from './helpers';
import { createKit, entry, MemoryStore, serverState, stdio, userScope, waitForState, type Kit } from './hostTestKit';

describe('the gateway offers dormant servers', function () {
  this.timeout(30_000);
  const raw = stdio(process.execPath, [fixtureServer('basic-server.mjs')]);
  let kit: Kit;
  let gateway: RunningGateway | undefined;
  let client: Client | undefined;

  /** A window whose known runs are kept in `store`, with servers started on demand. */
  const window = (store: MemoryStore) => {
    const knownRuns = new KnownRunStore(store, () => undefined, undefined, 0);
    return { kit: createKit({ knownRuns }, { startup: 'onDemand' }), knownRuns };
  };

  beforeEach(async () => {
    const store = new MemoryStore();
    // A first window runs it once, so that its offer is known.
    const first = window(store);
    await first.kit.update(userScope, [entry('basic', raw)], []);
    await waitForState(first.kit, 'basic', 'running');
    await first.knownRuns.flush();
    await first.kit.manager.disposeAsync();
    kit = window(store).kit;
    await kit.update(userScope, [entry('basic', raw)], []);
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'dormant');
    gateway = await startTestGateway(kit, async () => 'once');
    client = new Client({ name: 'Dormant Agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${gateway.address.token}` } } }));
  });

  afterEach(async () => {
    await client?.close().catch(() => undefined);
    await gateway?.stop();
    await kit.manager.disposeAsync();
  });

  it('lists its known tools, prompts and resources without starting it', async () => {
    assert.ok((await client!.listTools()).tools.some((t) => t.name === 'basic_echo'));
    assert.deepStrictEqual((await client!.listPrompts()).prompts.map((p) => p.name), ['basic_greet']);
    assert.deepStrictEqual((await client!.listResources()).resources.map((r) => r.uri), ['fixture://readme']);
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'dormant', 'listing started nothing');
  });

  it('starts it for a call of one of its tools', async () => {
    const result = await client!.callTool({ name: 'basic_echo', arguments: { text: 'woken through the gateway' } });
    assert.deepStrictEqual(result.content, [{ type: 'text', text: 'woken through the gateway' }]);
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'running');
  });

  it('starts it to get one of its prompts, or to read one of its resources', async () => {
    const prompt = await client!.getPrompt({ name: 'basic_greet', arguments: { name: 'Ada' } });
    assert.match(JSON.stringify(prompt.messages), /Ada/);
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'running');
    const read = await client!.readResource({ uri: 'fixture://readme' });
    assert.match(JSON.stringify(read.contents), /Fixture/);
  });
});
