// Live updates: a watched resource is subscribed once, updates are passed on with their server, the subscription ends
// with the last watcher or the session, and comes back with the next session.
import * as assert from 'assert';
import { ChatAttachments } from '../../src/core/features/resources/chatAttachments';
import { ResourceListings } from '../../src/core/features/resources/resourceListings';
import { ResourceSubscriptions, type ResourceUpdate } from '../../src/core/features/resources/resourceSubscriptions';
import { debounceLatest } from '../../src/core/features/resources/templateCompleter';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { fixtureServer, sleep, waitFor } from './helpers';
import { createKit, entry, serverState, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

const node = process.execPath;
const LIVE = 'fixture://live/counter';

describe('resources: live updates', function () {
  this.timeout(30_000);
  let kit: Kit;
  let subs: ResourceSubscriptions;
  let updates: ResourceUpdate[];

  async function start(env: Record<string, string> = {}) {
    subs = new ResourceSubscriptions();
    kit = createKit({ features: [subs] });
    subs.follow(kit.manager.onDidChangeServers);
    updates = [];
    subs.onDidUpdate((u) => updates.push(u));
    await kit.update(
      workspaceScope(),
      [entry('res', stdio(node, [fixtureServer('resources-server.mjs')], env)), entry('other', stdio(node, [fixtureServer('resources-server.mjs')], env))],
      [],
    );
    const res = await waitForState(kit, 'res', 'running');
    await waitForState(kit, 'other', 'running');
    return res.id;
  }

  const tool = async (name: string, args: Record<string, unknown> = {}, server = 'res') => {
    const id = serverState(kit, server)!.id;
    const r = (await kit.manager.session(id).callTool({ name, arguments: args })) as { content: { text: string }[] };
    return r.content[0].text;
  };
  const serverSubscriptions = async (server = 'res') => JSON.parse(await tool('subscriptions', {}, server)) as string[];

  afterEach(async () => {
    await kit?.manager.disposeAsync();
    subs?.dispose();
  });

  it('subscribes while watched, passes updates on with their server, and unsubscribes after the last watcher', async () => {
    const id = await start();
    assert.ok(subs.canSubscribe(id));
    const first = subs.watch(id, LIVE);
    const second = subs.watch(id, LIVE);
    await waitFor(async () => (await serverSubscriptions()).includes(LIVE), 'subscribed', 5000);
    assert.deepStrictEqual(subs.subscriptions(), [{ serverId: id, uri: LIVE }], 'one subscription for two watchers');

    await tool('bump');
    await waitFor(() => updates.length === 1, 'the update', 5000);
    assert.deepStrictEqual(updates, [{ serverId: id, uri: LIVE }]);
    await tool('bump', {}, 'other');
    await sleep(300);
    assert.strictEqual(updates.length, 1, 'the other server was never subscribed, so it sends nothing');

    first.dispose();
    first.dispose();
    await sleep(200);
    assert.deepStrictEqual(await serverSubscriptions(), [LIVE], 'still watched by the second');
    second.dispose();
    await waitFor(async () => (await serverSubscriptions()).length === 0, 'unsubscribed', 5000);
    assert.deepStrictEqual(subs.subscriptions(), []);
    await tool('bump');
    await sleep(300);
    assert.strictEqual(updates.length, 1, 'no updates once unsubscribed');
  });

  it('drops subscriptions when the server stops and subscribes again when it runs', async () => {
    const id = await start();
    const watch = subs.watch(id, LIVE);
    await waitFor(() => subs.isSubscribed(id, LIVE), 'subscribed', 5000);
    await kit.manager.get(id)!.stop();
    assert.ok(!subs.isSubscribed(id, LIVE), 'the session ended with the server');
    assert.deepStrictEqual(subs.subscriptions(), []);
    await kit.manager.get(id)!.start(true);
    await waitForState(kit, 'res', 'running');
    await waitFor(async () => (await serverSubscriptions()).includes(LIVE), 'subscribed again by the new session', 5000);
    await tool('bump');
    await waitFor(() => updates.length === 1, 'updates from the new session', 5000);
    watch.dispose();
  });

  it('does not subscribe to a server without subscribe support', async () => {
    const id = await start({ FIXTURE_NO_SUBSCRIBE: '1' });
    assert.ok(!subs.canSubscribe(id));
    const watch = subs.watch(id, LIVE);
    await sleep(300);
    assert.deepStrictEqual(subs.subscriptions(), []);
    assert.doesNotMatch(kit.log('res').text, /Subscribing .* failed/, 'not even tried');
    watch.dispose();
  });
});

describe('resources: view model', () => {
  const info = (id: string, patch: Partial<ServerInfo> = {}): ServerInfo =>
    ({
      id,
      name: id,
      scope: { kind: 'user', key: 'user', label: 'User', configPath: '' },
      definition: { type: 'stdio', command: 'x', args: [], env: {} },
      state: { kind: 'running' },
      capabilities: { resources: {} },
      features: { tools: [], prompts: [], resources: [], resourceTemplates: [] },
      crashCount: 0,
      ...patch,
    }) as ServerInfo;

  it('reports only the servers whose resources changed, and keeps what a stopped server had', () => {
    let more = true;
    const listings = new ResourceListings(() => more);
    const a = info('a', { features: { tools: [], prompts: [], resources: [{ uri: 'x://1', name: '1' }], resourceTemplates: [] } });
    const b = info('b', { capabilities: {} });
    assert.deepStrictEqual(listings.update([a, b]), { structure: true, servers: ['a', 'b'] });
    assert.strictEqual(listings.get('b')!.status, 'no-resources');
    assert.ok(listings.get('a')!.hasMore);
    assert.deepStrictEqual(listings.update([a, { ...b }]), { structure: false, servers: [] }, 'new snapshots, same lists');
    const a2 = { ...a, features: { ...a.features, resources: [...a.features.resources, { uri: 'x://2', name: '2' }] } };
    assert.deepStrictEqual(listings.update([a2, b]), { structure: false, servers: ['a'] });
    more = false;
    assert.deepStrictEqual(listings.update([a2, b]).servers, ['a'], 'no more pages');
    const stopped = info('a', { state: { kind: 'error', message: 'boom' } });
    assert.deepStrictEqual(listings.update([stopped, b]).servers, ['a']);
    const down = listings.get('a')!;
    assert.deepStrictEqual([down.status, down.reason, down.resources.length, down.hasMore], ['down', 'boom', 2, false]);
    assert.deepStrictEqual(listings.update([b, stopped]).structure, true, 'reordered');
    assert.deepStrictEqual(listings.update([b, { ...stopped }]).structure, false);
    assert.deepStrictEqual(listings.update([b, { ...stopped, scope: { ...stopped.scope, label: 'renamed' } }]).structure, true, 'its folder renamed');
  });

  it('queues chat attachments until taken, replacing a re-attached resource', () => {
    const queue = new ChatAttachments();
    let changes = 0;
    const listening = queue.onDidChange(() => changes++);
    const item = (uri: string, text: string) => ({ serverId: 's', serverName: 'S', uri, label: uri, contents: [{ uri, text }] });
    queue.add(item('x://1', 'old'));
    queue.add(item('x://2', 'two'));
    queue.add(item('x://1', 'new'));
    assert.deepStrictEqual(queue.peek().map((i) => [i.uri, i.contents[0]]), [['x://2', { uri: 'x://2', text: 'two' }], ['x://1', { uri: 'x://1', text: 'new' }]]);
    assert.strictEqual(queue.take().length, 2);
    assert.deepStrictEqual(queue.take(), [], 'taken once');
    assert.strictEqual(changes, 4);
    listening.dispose();
  });

  it('debounces completion requests: one request per burst, superseded callers get nothing', async () => {
    const calls: string[] = [];
    const complete = debounceLatest(async (value: string) => {
      calls.push(value);
      await sleep(30);
      return [`${value}!`];
    }, 40);
    const burst = ['a', 'ab', 'abc'].map((v) => complete(v));
    assert.deepStrictEqual(await Promise.all(burst), [undefined, undefined, ['abc!']]);
    assert.deepStrictEqual(calls, ['abc']);
    const running = complete('x');
    await sleep(55);
    const newer = complete('xy');
    assert.deepStrictEqual(await Promise.all([running, newer]), [undefined, ['xy!']], 'a result that arrives after a newer call is dropped');
    assert.deepStrictEqual(calls, ['abc', 'x', 'xy']);
  });
});
