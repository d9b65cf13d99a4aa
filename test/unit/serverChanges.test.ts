// What the Servers view refreshes, from the server manager's real snapshots of real servers: the server that changed, and
// the whole view only when the list itself changed.
import * as assert from 'assert';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { serverChanges } from '../../src/core/presentation/serverPresentation';
import { fixtureServer, waitFor } from './helpers';
import { createKit, entry, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

describe('serverChanges: which rows of the Servers view a change redraws', function () {
  this.timeout(30_000);
  const scope = workspaceScope();
  const basic = (name: string) => entry(name, stdio(process.execPath, [fixtureServer('basic-server.mjs'), name]));
  let kit: Kit;
  const names = (infos: ServerInfo[]) => infos.map((s) => s.name);

  beforeEach(async () => {
    kit = createKit();
    await kit.update(scope, [basic('a'), basic('b')], []);
    await waitForState(kit, 'a', 'running');
    await waitForState(kit, 'b', 'running');
  });
  afterEach(() => kit.manager.disposeAsync());

  it('finds nothing changed between two snapshots of the same servers', () => {
    assert.deepStrictEqual(serverChanges(kit.manager.servers(), kit.manager.servers()), { list: false, changed: [] });
  });

  it("finds the one server whose state, then whose tools changed, and not the other", async () => {
    let shown = kit.manager.servers();
    const a = shown.find((s) => s.name === 'a')!;
    await kit.manager.get(a.id)!.stop();
    let now = kit.manager.servers();
    assert.deepStrictEqual(names(serverChanges(shown, now).changed), ['a']);
    shown = now;
    await kit.manager.get(a.id)!.start(false);
    await waitForState(kit, 'a', 'running');
    now = kit.manager.servers();
    assert.deepStrictEqual(names(serverChanges(shown, now).changed), ['a']);

    shown = now;
    const b = shown.find((s) => s.name === 'b')!;
    await kit.manager.session(b.id).callTool({ name: 'add-tool', arguments: { name: 'fresh' } });
    await waitFor(() => kit.manager.servers().find((s) => s.name === 'b')!.features.tools.some((t) => t.name === 'fresh'), 10_000, 'the new tool listed');
    now = kit.manager.servers();
    assert.deepStrictEqual(serverChanges(shown, now), { list: false, changed: [now.find((s) => s.name === 'b')] });
  });

  it('says the list changed when a server is added, removed or moved, and names no server then', async () => {
    const shown = kit.manager.servers();
    await kit.update(scope, [basic('a'), basic('b'), basic('c')], []);
    assert.deepStrictEqual(serverChanges(shown, kit.manager.servers()), { list: true, changed: [] });
    const three = kit.manager.servers();
    assert.deepStrictEqual(serverChanges(three, [three[1], three[0], three[2]]).list, true, 'reordered');
    await kit.update(scope, [basic('a'), basic('c')], []);
    assert.deepStrictEqual(serverChanges(three, kit.manager.servers()).list, true, 'removed');
  });

  it("takes a renamed folder's scope into its running servers, without a restart, and says the list changed", async () => {
    const shown = kit.manager.servers();
    const renamed = { ...scope, label: `${scope.label}-renamed` };
    let changes = 0;
    const listening = kit.manager.onDidChangeServers(() => changes++);
    kit.manager.renameScope(renamed);
    listening.dispose();
    assert.strictEqual(changes, 1, 'the views are told');
    const now = kit.manager.servers();
    assert.deepStrictEqual(
      now.map((s) => [s.id, s.scope.label, s.state.kind, s.pid]),
      shown.map((s) => [s.id, renamed.label, 'running', s.pid]),
    );
    assert.deepStrictEqual(serverChanges(shown, now), { list: true, changed: [] }, 'the folder rows change');
    // The file applied again afterwards, under the scope its loader now holds: nothing restarts either.
    const again = { ...renamed };
    await kit.update(again, [basic('a'), basic('b')], []);
    assert.ok(kit.manager.servers().every((s, i) => s.scope === again && s.pid === shown[i].pid));
  });

});
