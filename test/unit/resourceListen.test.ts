// Live resources on the 2026-07-28 wire (`subscriptions/listen`, no `resources/subscribe`): against a server built
// with the official server SDK, a watched resource is followed on one listen stream and its updates are passed on;
// the last watcher gone, the stream is closed and updates stop.
import * as assert from 'assert';
import { ResourceSubscriptions, type ResourceUpdate } from '../../src/core/features/resources/resourceSubscriptions';
import { fixtureServer, sleep, waitFor } from './helpers';
import { createKit, entry, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

const URI = 'counter://value';

describe('resources: live updates on 2026-07-28 (subscriptions/listen)', function () {
  this.timeout(30_000);
  let kit: Kit;
  let subs: ResourceSubscriptions;
  let updates: ResourceUpdate[];

  afterEach(async () => {
    await kit?.manager.disposeAsync();
    subs?.dispose();
  });

  it('follows a watched resource on a listen stream, passes updates on, and stops after the last watcher', async () => {
    subs = new ResourceSubscriptions();
    kit = createKit({ features: [subs] });
    subs.follow(kit.manager.onDidChangeServers);
    updates = [];
    subs.onDidUpdate((u) => updates.push(u));
    await kit.update(workspaceScope(), [entry('listen', stdio(process.execPath, [fixtureServer('listen-server.mjs')]))], []);
    const info = await waitForState(kit, 'listen', 'running');
    assert.strictEqual(info.protocolVersion, '2026-07-28');
    const session = kit.manager.session(info.id);
    const bump = () => session.callTool({ name: 'bump', arguments: {} });

    const watch = subs.watch(info.id, URI);
    await waitFor(() => subs.isSubscribed(info.id, URI), 'subscribed', 5_000);
    // The stream is acknowledged before subscribeResource resolves; give the ack a moment on a loaded machine.
    await sleep(200);
    await bump();
    await waitFor(() => updates.length === 1, 'the update', 5_000);
    assert.deepStrictEqual(updates, [{ serverId: info.id, uri: URI }]);
    const text = (await session.readResource(URI)).contents[0] as { text: string };
    assert.strictEqual(text.text, 'count: 1');

    watch.dispose();
    await waitFor(() => !subs.isSubscribed(info.id, URI), 'unsubscribed', 5_000);
    await sleep(200);
    await bump();
    await sleep(500);
    assert.strictEqual(updates.length, 1, 'no update once nothing watches it');
    assert.doesNotMatch(kit.log('listen').text, /failed/i);
  });
});
