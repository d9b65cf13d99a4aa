// What the Servers view refreshes: the server manager names the servers that changed (from the real snapshots of
// servers of this process, over the fake connection kit), and the view redraws those servers, or the whole list only
// when the list itself changed.
import * as assert from 'assert';
import { McpServer } from '@modelcontextprotocol/server';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { serverChanges } from '../../src/core/presentation/serverPresentation';
import { waitFor } from './helpers';
import { createFakeKit, inMemory, type FakeKit } from './fakeConnectionKit';
import { waitForState, workspaceScope } from './hostTestKit';

/** A server whose `add-tool` adds a tool (its list changes). */
function growingServer(name: string): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool('add-tool', { description: 'Adds a tool.' }, async () => {
    server.registerTool('fresh', { description: 'New.' }, async () => ({ content: [] }));
    return { content: [{ type: 'text' as const, text: 'added' }] };
  });
  return server;
}

describe('onDidChangeServers names the servers that changed, and serverChanges what a view redraws', function () {
  this.timeout(30_000);
  const scope = workspaceScope();
  const basic = inMemory;
  let kit: FakeKit;
  /** The names of the servers the manager's events named since the last call, in order, each once. */
  let named: () => string[];
  const byId = (infos: ServerInfo[]) => new Map(infos.map((s) => [s.id, s]));
  const nameOf = (id: string) => id.split('::').pop()!;

  beforeEach(async () => {
    kit = createFakeKit({ a: () => growingServer('a'), b: () => growingServer('b'), c: () => growingServer('c') });
    const seen: string[] = [];
    kit.manager.onDidChangeServers((ids) => seen.push(...ids.map(nameOf)));
    named = () => [...new Set(seen.splice(0))];
    await kit.update(scope, [basic('a'), basic('b')], []);
    await waitForState(kit, 'a', 'running');
    await waitForState(kit, 'b', 'running');
    await kit.manager.idle();
    named();
  });
  afterEach(() => kit.manager.disposeAsync());

  it('names nobody when the same file is applied again, and a view redraws nothing', async () => {
    await kit.update(scope, [basic('a'), basic('b')], []);
    assert.deepStrictEqual(named(), []);
    const shown = byId(kit.manager.servers());
    assert.deepStrictEqual(serverChanges(shown, byId(kit.manager.servers()), []), { list: false, changed: [] });
  });

  it('names the one server whose state, then whose tools changed, and not the other', async () => {
    const shown = byId(kit.manager.servers());
    const a = kit.manager.servers().find((s) => s.name === 'a')!;
    await kit.manager.get(a.id)!.stop();
    assert.deepStrictEqual(named(), ['a']);
    await kit.manager.get(a.id)!.start(false);
    await waitForState(kit, 'a', 'running');
    assert.deepStrictEqual(named(), ['a']);

    const b = kit.manager.servers().find((s) => s.name === 'b')!;
    await kit.manager.session(b.id).callTool({ name: 'add-tool', arguments: { name: 'fresh' } });
    await waitFor(() => kit.manager.servers().find((s) => s.name === 'b')!.features.tools.some((t) => t.name === 'fresh'), 'the new tool listed', 10_000);
    assert.deepStrictEqual(named(), ['b']);
    const now = byId(kit.manager.servers());
    assert.deepStrictEqual(serverChanges(shown, now, [b.id]), { list: false, changed: [now.get(b.id)] });
  });

  it('names a server added or removed, and a view rebuilds its list then', async () => {
    const shown = byId(kit.manager.servers());
    await kit.update(scope, [basic('a'), basic('b'), basic('c')], []);
    assert.deepStrictEqual(named().slice(0, 1), ['c']);
    const three = kit.manager.servers();
    assert.deepStrictEqual(serverChanges(shown, byId(three), three.filter((s) => s.name === 'c').map((s) => s.id)), { list: true, changed: [] }, 'added');
    await kit.update(scope, [basic('a'), basic('c')], []);
    assert.deepStrictEqual(named(), ['b']);
    assert.deepStrictEqual(serverChanges(byId(three), byId(kit.manager.servers()), three.filter((s) => s.name === 'b').map((s) => s.id)).list, true, 'removed');
  });

  it("takes a renamed folder's scope into its running servers, without a restart, names them, and a view rebuilds its list", async () => {
    const shown = kit.manager.servers();
    const sameServers = () => kit.manager.servers().every((s) => kit.servers.get(s.name) === made.get(s.name));
    const made = new Map(kit.servers);
    const renamed = { ...scope, label: `${scope.label}-renamed` };
    let changes = 0;
    const listening = kit.manager.onDidChangeServers(() => changes++);
    kit.manager.renameScope(renamed);
    listening.dispose();
    assert.strictEqual(changes, 1, 'the views are told once');
    assert.deepStrictEqual(named(), ['a', 'b']);
    const now = kit.manager.servers();
    assert.deepStrictEqual(
      now.map((s) => [s.id, s.scope.label, s.state.kind]),
      shown.map((s) => [s.id, renamed.label, 'running']),
    );
    assert.ok(sameServers(), 'no restart');
    assert.deepStrictEqual(serverChanges(byId(shown), byId(now), shown.map((s) => s.id)), { list: true, changed: [] }, 'the folder rows change');
    // The file applied again afterwards, under the scope its loader now holds: nothing restarts either.
    const again = { ...renamed };
    await kit.update(again, [basic('a'), basic('b')], []);
    assert.ok(kit.manager.servers().every((s) => s.scope === again) && sameServers());
  });
});
