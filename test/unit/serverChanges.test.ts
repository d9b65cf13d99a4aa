// What the Servers view refreshes: the server manager names the servers that changed (from real snapshots of real
// servers), and the view redraws those servers, or the whole list only when the list itself changed.
import * as assert from 'assert';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { serverChanges } from '../../src/core/presentation/serverPresentation';
import { fixtureServer, waitFor } from './helpers';
import { createKit, entry, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

describe('onDidChangeServers names the servers that changed, and serverChanges what a view redraws', function () {
  this.timeout(30_000);
  const scope = workspaceScope();
  const basic = (name: string) => entry(name, stdio(process.execPath, [fixtureServer('basic-server.mjs'), name]));
  let kit: Kit;
  /** The names of the servers the manager's events named since the last call, in order, each once. */
  let named: () => string[];
  const byId = (infos: ServerInfo[]) => new Map(infos.map((s) => [s.id, s]));
  const nameOf = (id: string) => id.split('::').pop()!;

  beforeEach(async () => {
    kit = createKit();
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
    const renamed = { ...scope, label: `${scope.label}-renamed` };
    let changes = 0;
    const listening = kit.manager.onDidChangeServers(() => changes++);
    kit.manager.renameScope(renamed);
    listening.dispose();
    assert.strictEqual(changes, 1, 'the views are told once');
    assert.deepStrictEqual(named(), ['a', 'b']);
    const now = kit.manager.servers();
    assert.deepStrictEqual(
      now.map((s) => [s.id, s.scope.label, s.state.kind, s.pid]),
      shown.map((s) => [s.id, renamed.label, 'running', s.pid]),
    );
    assert.deepStrictEqual(serverChanges(byId(shown), byId(now), shown.map((s) => s.id)), { list: true, changed: [] }, 'the folder rows change');
    // The file applied again afterwards, under the scope its loader now holds: nothing restarts either.
    const again = { ...renamed };
    await kit.update(again, [basic('a'), basic('b')], []);
    assert.ok(kit.manager.servers().every((s, i) => s.scope === again && s.pid === shown[i].pid));
  });
});
