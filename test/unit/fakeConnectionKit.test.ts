// The fake connection kit itself: a server of this process runs through the host's own connection as a process would
// (handshake, lists, calls, list_changed, stop, an unexpected end), so host and feature tests need no process.
import * as assert from 'assert';
import { McpServer } from '@modelcontextprotocol/server';
import { waitFor } from './helpers';
import { createFakeKit, inMemory, toolServer, type FakeKit } from './fakeConnectionKit';
import { serverState, waitForState, workspaceScope } from './hostTestKit';

describe('the fake connection kit: in-memory servers through the real host', () => {
  const scope = workspaceScope();
  let kit: FakeKit;
  afterEach(() => kit.manager.disposeAsync());

  it('starts a server of this process, lists and calls its tools, with no process', async () => {
    kit = createFakeKit({ a: () => toolServer('a', ['echo', 'ping']) });
    await kit.update(scope, [inMemory('a')], []);
    const a = await waitForState(kit, 'a', 'running');
    assert.deepStrictEqual(a.features.tools.map((t) => t.name), ['echo', 'ping']);
    assert.strictEqual(a.pid, undefined, 'no process');
    const result = await kit.manager.session(a.id).callTool({ name: 'echo', arguments: { text: 'hi' } });
    assert.deepStrictEqual(result.content, [{ type: 'text', text: 'echo {"text":"hi"}' }]);
  });

  it('follows list_changed, and a server that ends its transport goes to error like a crashed process', async () => {
    const make = () => {
      const server = new McpServer({ name: 'grows', version: '1.0.0' });
      server.registerTool('add-tool', { description: 'Adds a tool.' }, async () => {
        server.registerTool('fresh', { description: 'New.' }, async () => ({ content: [] }));
        return { content: [{ type: 'text' as const, text: 'added' }] };
      });
      return server;
    };
    kit = createFakeKit({ grows: make }, { restartPolicy: { maxCrashes: 0, windowMs: 60_000, baseDelayMs: 50, maxDelayMs: 50 } });
    await kit.update(scope, [inMemory('grows')], []);
    const grows = await waitForState(kit, 'grows', 'running');
    await kit.manager.session(grows.id).callTool({ name: 'add-tool', arguments: {} });
    await waitFor(() => serverState(kit, 'grows')?.features.tools.some((t) => t.name === 'fresh'), 'the new tool listed', 5000);
    await kit.servers.get('grows')!.close();
    const ended = await waitForState(kit, 'grows', 'error', 5000);
    assert.match(ended.state.kind === 'error' ? ended.state.message : '', /in-memory server closed/);
  });

  it('stops a server on request, and starts a new one of the same maker again', async () => {
    let made = 0;
    kit = createFakeKit({ a: () => (made++, toolServer('a', ['echo'])) });
    await kit.update(scope, [inMemory('a')], []);
    const a = await waitForState(kit, 'a', 'running');
    await kit.manager.get(a.id)!.stop();
    assert.strictEqual(serverState(kit, 'a')?.state.kind, 'stopped');
    await kit.manager.get(a.id)!.start(true);
    await waitForState(kit, 'a', 'running');
    assert.strictEqual(made, 2);
  });
});
