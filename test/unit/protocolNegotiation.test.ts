// Protocol negotiation against real processes: 2026-07-28 where the server speaks it (the SDK's server/discover probe),
// the 2025 handshake otherwise, and the verdict remembered per definition so a restart or a new window spawns once.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LEGACY_VERDICT_TTL_MS, ProtocolMemory } from '../../src/core/host/protocolMemory';
import { everythingServer, fixtureServer } from './helpers';
import { MemoryStore, createKit, entry, serverState, stdio, userScope, waitForState, type Kit } from './hostTestKit';

const asking = fixtureServer('asking-server.mjs');

describe('protocol negotiation (2026-07-28 and 2025)', function () {
  this.timeout(60_000);
  let store: MemoryStore;
  let kits: Kit[];
  let dir: string;

  beforeEach(() => {
    store = new MemoryStore();
    kits = [];
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-negotiation-'));
  });
  afterEach(async () => {
    for (const kit of kits) await kit.manager.disposeAsync();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A host (a window) whose protocol memory lives in `store`, shared by every window of a test. */
  const host = (settings: Parameters<typeof createKit>[1] = {}) => {
    const kit = createKit({ protocolStore: store }, settings);
    kits.push(kit);
    return kit;
  };
  const spawnLog = (name: string) => path.join(dir, `${name}.spawns`);
  const spawns = (name: string) => (fs.existsSync(spawnLog(name)) ? fs.readFileSync(spawnLog(name), 'utf8').trim().split('\n').length : 0);
  const server = (name: string, env: Record<string, string>, script = asking) => entry(name, stdio(process.execPath, [script], { FIXTURE_SPAWN_LOG: spawnLog(name), ...env }));

  it('a 2026-07-28 server and a 2025-11-25 server side by side, each at its own revision', async () => {
    const kit = host();
    await kit.update(userScope, [server('modern', { FIXTURE_ERAS: 'modern' }), server('legacy', { FIXTURE_ERAS: 'legacy' }), entry('everything', stdio(process.execPath, [everythingServer]))], []);
    const modern = await waitForState(kit, 'modern', 'running');
    const legacy = await waitForState(kit, 'legacy', 'running');
    const everything = await waitForState(kit, 'everything', 'running');
    assert.strictEqual(modern.protocolVersion, '2026-07-28');
    assert.strictEqual(legacy.protocolVersion, '2025-11-25');
    assert.strictEqual(everything.protocolVersion, '2025-11-25');
    // Both eras list their tools; the modern one through requests that carry the protocol version in _meta.
    assert.deepStrictEqual(modern.features.tools.map((t) => t.name), ['ask', 'sample', 'roots', 'capabilities']);
    assert.deepStrictEqual(legacy.features.tools.map((t) => t.name), ['ask', 'sample', 'roots', 'capabilities']);
    // The modern server learnt our capabilities from the request's _meta (there is no initialize to carry them).
    const declared = await kit.manager.session(modern.id).callTool({ name: 'capabilities', arguments: {} });
    assert.ok(JSON.parse((declared.content[0] as { text: string }).text).roots, 'roots declared in _meta');
    assert.strictEqual(spawns('modern'), 1);
    assert.strictEqual(spawns('legacy'), 1);
    assert.match(kit.log('modern').text, /Connected: asking-server 1\.0\.0, protocol version 2026-07-28/);
  });

  it('a server that speaks both eras gets 2026-07-28', async () => {
    const kit = host();
    await kit.update(userScope, [server('both', { FIXTURE_ERAS: 'legacy,modern' })], []);
    assert.strictEqual((await waitForState(kit, 'both', 'running')).protocolVersion, '2026-07-28');
  });

  it('a legacy server that exits on the probe is spawned again once; a restart and a new window spawn it once', async () => {
    const kit = host();
    const def = server('exits', { FIXTURE_EXIT_ON_UNKNOWN_FIRST: '1' });
    await kit.update(userScope, [def], []);
    const info = await waitForState(kit, 'exits', 'running');
    assert.strictEqual(info.protocolVersion, '2025-11-25');
    assert.strictEqual(spawns('exits'), 2, 'the probe cost a second spawn, the first time');
    assert.match(kit.log('exits').text, /exited with exit code \d+ at its first request: starting it once more/);

    await kit.manager.get(info.id)!.restart();
    await waitForState(kit, 'exits', 'running');
    assert.strictEqual(spawns('exits'), 3, 'a restart spawns once');
    assert.match(kit.log('exits').text, /Connected: .*, protocol version 2025-11-25 \(an older protocol version, remembered from its last start, so it was started that way at once\)/);

    // Another window with the same persistent memory.
    const other = host();
    await other.update(userScope, [def], []);
    assert.strictEqual((await waitForState(other, 'exits', 'running')).protocolVersion, '2025-11-25');
    assert.strictEqual(spawns('exits'), 4, 'a new window spawns once');
  });

  it('an edited definition is probed again', async () => {
    const kit = host();
    await kit.update(userScope, [server('exits', { FIXTURE_EXIT_ON_UNKNOWN_FIRST: '1' })], []);
    await waitForState(kit, 'exits', 'running');
    assert.strictEqual(spawns('exits'), 2);
    await kit.update(userScope, [server('exits', { FIXTURE_EXIT_ON_UNKNOWN_FIRST: '1', EDITED: 'yes' })], []);
    await waitForState(kit, 'exits', 'running');
    assert.strictEqual(spawns('exits'), 4, 'the new definition was probed (and spawned twice) again');
  });

  it('a legacy server that never answers the probe costs the probe timeout once, not at every start', async () => {
    const kit = host({ initializeTimeoutMs: 1500 });
    let started = Date.now();
    await kit.update(userScope, [server('silent', { FIXTURE_SILENT_UNKNOWN_FIRST: '1' })], []);
    const info = await waitForState(kit, 'silent', 'running');
    assert.strictEqual(info.protocolVersion, '2025-11-25');
    assert.ok(Date.now() - started >= 1400, 'the first start waited for the probe');
    assert.strictEqual(spawns('silent'), 1, 'no second spawn: the fallback runs on the same process');
    started = Date.now();
    await kit.manager.get(info.id)!.restart();
    await waitForState(kit, 'silent', 'running');
    assert.ok(Date.now() - started < 1400, `the restart did not probe (${Date.now() - started} ms)`);
  });

  it('a remembered legacy verdict that no longer holds is forgotten, and the restart policy reaches the new revision', async () => {
    const kit = host();
    const def = server('upgraded', { FIXTURE_ERAS: 'modern' });
    const hash = await rememberLegacy(def);
    await kit.update(userScope, [def], []);
    const info = await waitForState(kit, 'upgraded', 'running', 20_000);
    assert.strictEqual(info.protocolVersion, '2026-07-28');
    assert.ok(info.crashCount >= 1, 'the first start failed on initialize');
    assert.strictEqual(new ProtocolMemory(store).get(hash)?.era, 'modern');
  });

  it('legacy verdicts expire; modern ones do not', async () => {
    let now = 1_000_000;
    const memory = new ProtocolMemory(store, () => now);
    await memory.remember('a', 'legacy', '2025-11-25');
    await memory.remember('b', 'modern', '2026-07-28');
    now += LEGACY_VERDICT_TTL_MS + 1;
    assert.strictEqual(memory.get('a'), undefined);
    assert.strictEqual(memory.get('b')?.version, '2026-07-28');
  });

  it('verdicts reached in one tick are stored in one write, and seen at once by the memory that reached them', async () => {
    const writes: unknown[] = [];
    const counting = { get: <T>(key: string) => store.get<T>(key), update: (key: string, value: unknown) => (writes.push(value), store.update(key, value)) };
    const memory = new ProtocolMemory(counting);
    const stored = Array.from({ length: 50 }, (_, i) => memory.remember(`server-${i}`, 'legacy', '2025-11-25'));
    assert.strictEqual(memory.get('server-7')?.era, 'legacy', 'known before it is stored');
    assert.strictEqual(writes.length, 0, 'nothing written within the tick');
    await Promise.all(stored);
    assert.strictEqual(writes.length, 1, 'one write for 50 verdicts');
    assert.strictEqual(new ProtocolMemory(store).get('server-49')?.version, '2025-11-25', 'another window reads it');
    await memory.forget('server-7');
    assert.strictEqual(new ProtocolMemory(store).get('server-7'), undefined, 'forgotten in the store too');
    assert.strictEqual(writes.length, 2);
  });

  /** Remembers the definition as a legacy server, as if it had been one at its last start; gives its hash. */
  async function rememberLegacy(def: ReturnType<typeof server>): Promise<string> {
    // The definition hash comes from a start in a window without protocol memory.
    const probe = createKit();
    await probe.update(userScope, [def], []);
    const hash = probe.manager.get(serverState(probe, def.name)!.id)!.runningHash!;
    await probe.manager.disposeAsync();
    await new ProtocolMemory(store).remember(hash, 'legacy', '2025-11-25');
    return hash;
  }
});
