// Dormant servers, with real fixture servers: a server known from its last run shows what it offered without starting,
// its first use starts it (trust first, as always) and goes on, a tool that vanished is reported and never sent, a
// changed definition forgets what was known, an idle server goes dormant again, and a corrupt store is ignored.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ToolCaller, toolVanishedMessage } from '../../src/core/features/tools/toolCaller';
import { ToolConsent } from '../../src/core/features/tools/toolConsent';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { KnownRunStore } from '../../src/core/host/knownRunStore.lazy';
import { KNOWN_RUNS_KEY } from '../../src/core/host/knownRuns';
import type { RawServer } from '../../src/core/config/serverDefinition';
import type { HostSettings, ServerManagerDeps } from '../../src/core/host/serverManager';
import { describeState } from '../../src/core/presentation/serverPresentation';
import { isAlive } from '../../src/core/protocol/connection/processTree.lazy';
import { createCoreHost } from '../../src/core/createCoreHost';
import { createConnection } from '../../src/core/protocol/serverConnection.lazy';
import { planLaunch } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { readEnvFile } from '../../src/core/config/envFile.lazy';
import { MemoryLog } from './hostTestKit';
import { fixtureServer, sleep, waitFor } from './helpers';
import { windowWithKnownRuns, entry, MemoryStore, serverState, stdio, userScope, waitForState, workspaceScope, type Kit } from './hostTestKit';

const basic = (env: Record<string, string> = {}): RawServer => stdio(process.execPath, [fixtureServer('basic-server.mjs')], env);
const onDemand: Partial<HostSettings> = { startup: 'onDemand' };

describe('Dormant servers', function () {
  this.timeout(30_000);
  const kits: Kit[] = [];
  afterEach(async () => {
    for (const kit of kits.splice(0)) await kit.manager.disposeAsync();
  });

  /** A window: a server manager whose known runs are kept in `store` (as the global Memento keeps them). */
  const window = (store: MemoryStore, settings: Partial<HostSettings> = onDemand, deps: Partial<ServerManagerDeps> = {}, log: string[] = []) => windowWithKnownRuns(kits, store, settings, deps, log);

  /** A first window runs the server once, so that the store knows it; `whileRunning` may change what it offers. */
  async function knownFromAFirstRun(store: MemoryStore, raw = basic(), whileRunning?: (kit: Kit, id: string) => Promise<void>) {
    const { kit, knownRuns } = window(store);
    await kit.update(userScope, [entry('basic', raw)], []);
    // Never run before: it starts once, to be known.
    const info = await waitForState(kit, 'basic', 'running');
    await whileRunning?.(kit, info.id);
    await knownRuns.flush();
    await kit.manager.disposeAsync();
    kits.splice(kits.indexOf(kit), 1);
    return info.id;
  }

  const consentOnce = () =>
    new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async () => 'once', autoAllowReadOnly: () => false });

  it('shows a server known from its last run as dormant, with its tools, prompts and resources, without starting it', async () => {
    const store = new MemoryStore();
    const id = await knownFromAFirstRun(store);
    const { kit } = window(store);
    await kit.update(userScope, [entry('basic', basic())], []);
    const info = serverState(kit, 'basic')!;
    assert.strictEqual(info.state.kind, 'dormant');
    assert.strictEqual(kit.manager.get(id)!.lastSpawnedPid, undefined, 'no process was started');
    assert.deepStrictEqual(
      info.features.tools.map((t) => t.name),
      ['echo', 'whoami', 'add-tool', 'crash', 'get-roots'],
    );
    assert.deepStrictEqual(info.features.prompts.map((p) => p.name), ['greet']);
    assert.deepStrictEqual(info.features.resources.map((r) => r.uri), ['fixture://readme']);
    assert.ok(info.knownFrom && info.knownFrom <= Date.now());
    assert.match(describeState(info), /dormant · 5 tools .*known from its last run/);
  });

  it('announces known servers that come into a window dormant in one change, not one per server', async () => {
    const store = new MemoryStore();
    const names = ['known0', 'known1', 'known2', 'known3', 'known4'];
    {
      const { kit, knownRuns } = window(store);
      await kit.update(userScope, names.map((n) => entry(n, basic())), []);
      for (const n of names) await waitForState(kit, n, 'running');
      await knownRuns.flush();
      await kit.manager.disposeAsync();
      kits.splice(kits.indexOf(kit), 1);
    }
    const { kit } = window(store);
    const changes: string[][] = [];
    kit.manager.onDidChangeServers((ids) => changes.push([...ids]));
    await kit.update(userScope, names.map((n) => entry(n, basic())), []);
    assert.deepStrictEqual(names.map((n) => serverState(kit, n)?.state.kind), names.map(() => 'dormant'));
    // Each event makes every surface list every server: 50 servers coming in fired 50, and cost the window more than the servers.
    assert.deepStrictEqual(changes.map((ids) => ids.length), [names.length]);
  });

  it('starts a dormant server at the first call of one of its tools, returns the result, and says what started it', async () => {
    const store = new MemoryStore();
    const id = await knownFromAFirstRun(store);
    const { kit } = window(store);
    await kit.update(userScope, [entry('basic', basic())], []);
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'dormant');
    const tool = serverState(kit, 'basic')!.features.tools.find((t) => t.name === 'echo')!;
    const caller = new ToolCaller(kit.manager, new ActiveToolCalls(), consentOnce());
    const outcome = await caller.call({ serverId: id, tool, arguments: { text: 'woken' }, origin: 'a test' });
    assert.ok(outcome.ran);
    assert.deepStrictEqual(outcome.result.content, [{ type: 'text', text: 'woken' }]);
    const info = serverState(kit, 'basic')!;
    assert.strictEqual(info.state.kind, 'running');
    assert.strictEqual(info.startedFor, 'a call of echo');
    assert.match(describeState(info), /started for a call of echo/);
  });

  it('reports a tool that vanished since the last run to the caller and never sends it', async () => {
    const store = new MemoryStore();
    // The first run adds a tool at runtime: it is known, but a new process will not have it.
    const id = await knownFromAFirstRun(store, basic(), async (kit, serverId) => {
      await kit.manager.session(serverId).callTool({ name: 'add-tool', arguments: { name: 'fleeting' } });
      await waitFor(() => serverState(kit, 'basic')!.features.tools.some((t) => t.name === 'fleeting'), 'the added tool');
    });
    const { kit } = window(store);
    await kit.update(userScope, [entry('basic', basic())], []);
    const tool = serverState(kit, 'basic')!.features.tools.find((t) => t.name === 'fleeting');
    assert.ok(tool, 'the tool is known from the last run');
    const active = new ActiveToolCalls();
    const sent: string[] = [];
    const listening = active.onDidBegin((c) => sent.push(c.toolName));
    const caller = new ToolCaller(kit.manager, active, consentOnce());
    await assert.rejects(caller.call({ serverId: id, tool, arguments: {}, origin: 'a test' }), { message: toolVanishedMessage('fleeting', 'basic') });
    listening.dispose();
    assert.deepStrictEqual(sent, [], 'the call was never sent');
    // Started, it now shows what it offers now.
    const info = serverState(kit, 'basic')!;
    assert.strictEqual(info.state.kind, 'running');
    assert.ok(!info.features.tools.some((t) => t.name === 'fleeting'));
  });

  it('checks a call against the input schema the started server offers now: arguments that no longer fit are reported, never sent', async () => {
    // The same definition, the server upgraded between runs: echo's schema is read from a file the definition names.
    const schemaFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-schema-')), 'echo-schema.json');
    const schema = (properties: object, required: string[]) => fs.writeFileSync(schemaFile, JSON.stringify({ type: 'object', properties, required }));
    schema({ text: { type: 'string' } }, ['text']);
    const raw = stdio(process.execPath, [fixtureServer('basic-server.mjs'), `--echo-schema=${schemaFile}`]);
    const store = new MemoryStore();
    const id = await knownFromAFirstRun(store, raw);
    // Now echo also requires a count.
    schema({ text: { type: 'string' }, times: { type: 'integer' } }, ['text', 'times']);
    const { kit } = window(store);
    await kit.update(userScope, [entry('basic', raw)], []);
    const known = serverState(kit, 'basic')!.features.tools.find((t) => t.name === 'echo')!;
    assert.deepStrictEqual(known.inputSchema.required, ['text'], 'the schema known from the last run');
    const active = new ActiveToolCalls();
    const sent: string[] = [];
    const listening = active.onDidBegin((c) => sent.push(c.toolName));
    const caller = new ToolCaller(kit.manager, active, consentOnce());
    await assert.rejects(caller.call({ serverId: id, tool: known, arguments: { text: 'hi' }, origin: 'a test' }), (e: Error) => {
      assert.match(e.message, /^The tool "echo" of the MCP server "basic" takes other arguments since the server's last run, and these no longer fit \(.*times.*\)\. The call was not sent/);
      return true;
    });
    assert.deepStrictEqual(sent, [], 'the call was never sent');
    const info = serverState(kit, 'basic')!;
    assert.strictEqual(info.state.kind, 'running', 'started for the call');
    assert.deepStrictEqual(info.features.tools.find((t) => t.name === 'echo')!.inputSchema.required, ['text', 'times'], 'and lists the new schema');
    // Arguments that fit the new schema go, after a restart into dormancy too: dormant again, then a call that fits.
    const again = window(store).kit;
    await kit.manager.disposeAsync();
    kits.splice(kits.indexOf(kit), 1);
    await again.update(userScope, [entry('basic', raw)], []);
    assert.strictEqual(serverState(again, 'basic')!.state.kind, 'dormant');
    const outcome = await new ToolCaller(again.manager, new ActiveToolCalls(), consentOnce()).call({ serverId: id, tool: known, arguments: { text: 'fits', times: 2 }, origin: 'a test' });
    assert.ok(outcome.ran);
    assert.deepStrictEqual(outcome.result.content, [{ type: 'text', text: 'fits' }]);
    listening.dispose();
    fs.rmSync(path.dirname(schemaFile), { recursive: true, force: true });
  });

  it('forgets what was known when the definition changes: the server starts, to be known again', async () => {
    const store = new MemoryStore();
    await knownFromAFirstRun(store);
    const { kit, knownRuns } = window(store);
    await kit.update(userScope, [entry('basic', basic({ CHANGED: '1' }))], []);
    await waitForState(kit, 'basic', 'running');
    await knownRuns.flush();
    // And an edit of a dormant server starts it too.
    const other = window(store).kit;
    await other.update(userScope, [entry('basic', basic({ CHANGED: '1' }))], []);
    assert.strictEqual(serverState(other, 'basic')!.state.kind, 'dormant');
    await other.update(userScope, [entry('basic', basic({ CHANGED: '2' }))], []);
    await waitForState(other, 'basic', 'running');
  });

  it('starts eagerly a server whose entry says "startup": "eager", or that the setting lists, even when known', async () => {
    const store = new MemoryStore();
    await knownFromAFirstRun(store);
    const byEntry = window(store).kit;
    await byEntry.update(userScope, [entry('basic', { ...basic(), startup: 'eager' })], []);
    await waitForState(byEntry, 'basic', 'running');
    const byList = window(store, { ...onDemand, startEagerly: ['basic'] }).kit;
    await byList.update(userScope, [entry('basic', basic())], []);
    await waitForState(byList, 'basic', 'running');
    // Eager by default (the command line's): nothing dormant.
    const byDefault = window(store, {}).kit;
    await byDefault.update(userScope, [entry('basic', basic())], []);
    await waitForState(byDefault, 'basic', 'running');
  });

  it('asks the trust question before a dormant server of a workspace starts for a call, and does not start it unanswered', async () => {
    const store = new MemoryStore();
    const scope = workspaceScope();
    // Known from a run in a window where the user trusted all servers.
    {
      const { kit, knownRuns } = window(store, { ...onDemand, trustAllServers: true });
      await kit.update(scope, [entry('basic', basic())], []);
      await waitForState(kit, 'basic', 'running');
      await knownRuns.flush();
    }
    const { kit } = window(store, { ...onDemand, trustAllServers: false });
    await kit.update(scope, [entry('basic', basic())], []);
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'dormant');
    assert.deepStrictEqual(kit.trustAsked, []);
    kit.trustAnswers.push(undefined);
    const info = serverState(kit, 'basic')!;
    const caller = new ToolCaller(kit.manager, new ActiveToolCalls(), consentOnce());
    await assert.rejects(caller.call({ serverId: info.id, tool: info.features.tools[0], arguments: { text: 'x' }, origin: 'a test' }), /not running/);
    assert.deepStrictEqual(kit.trustAsked, ['basic']);
    assert.strictEqual(kit.manager.get(info.id)!.lastSpawnedPid, undefined, 'nothing ran');
  });

  it('stops an on-demand server idle past the timeout (dormant again), but not one that holds something', async () => {
    const store = new MemoryStore();
    let busy = false;
    const { kit } = window(store, { ...onDemand, idleStopMs: 400 }, { isBusy: () => busy });
    await kit.update(userScope, [entry('basic', basic())], []);
    const running = await waitForState(kit, 'basic', 'running');
    const pid = running.pid!;
    await waitForState(kit, 'basic', 'dormant', 5000);
    assert.ok(serverState(kit, 'basic')!.features.tools.some((t) => t.name === 'echo'), 'dormant, it shows its tools');
    await waitFor(() => !isAlive(pid), 'its process to end');
    // Used again: it starts; held (a subscription, a task, an open call), it stays.
    busy = true;
    const session = await kit.manager.openSession(running.id, 'a test');
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'running');
    await sleep(1200);
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'running');
    assert.ok(session.isOpen);
    busy = false;
    await waitForState(kit, 'basic', 'dormant', 5000);
  });

  it('does not stop a server while a call of the window runs on it (the core host counts open calls)', async () => {
    const host = createCoreHost({
      clientInfo: { name: 'mcp-host-tests', version: '0' },
      createConnection,
      planLaunch,
      readEnvFile,
      logs: { create: () => new MemoryLog() },
      stores: { global: new MemoryStore(), workspace: new MemoryStore() },
      trustPrompt: { askTrust: async () => true },
      inputs: { getInput: async () => undefined },
      settings: () => ({ autoStart: true, trustAllServers: true, initializeTimeoutMs: 10_000, requestTimeoutMs: 10_000, startup: 'onDemand', idleStopMs: 300 }),
      isWorkspaceTrusted: () => true,
      knownRuns: new KnownRunStore(new MemoryStore(), () => undefined, undefined, 0),
    });
    try {
      await host.manager.updateScope(userScope, [entry('slow', stdio(process.execPath, [fixtureServer('slow-tool-server.mjs')]))], []);
      const info = await waitFor(() => host.manager.servers().find((s) => s.state.kind === 'running'), 'slow running');
      const caller = new ToolCaller(host.manager, host.activeToolCalls, consentOnce());
      const call = caller.call({ serverId: info.id, tool: info.features.tools.find((t) => t.name === 'sleep')!, arguments: { ms: 1500 }, origin: 'a test' });
      await sleep(1000);
      assert.strictEqual(host.manager.get(info.id)!.state.kind, 'running', 'past its idle time, the call still open');
      const outcome = await call;
      assert.ok(outcome.ran && !outcome.result.isError);
      await waitFor(() => host.manager.get(info.id)!.state.kind === 'dormant', 'dormant once the call ended', 5000);
    } finally {
      await host.manager.disposeAsync();
    }
  });

  it('ignores a corrupt store with a log line, and an entry of the wrong shape, keeping the valid ones', async () => {
    const store = new MemoryStore();
    const id = await knownFromAFirstRun(store);
    const good = store.get<{ servers: Record<string, unknown> }>(KNOWN_RUNS_KEY)!;
    for (const corrupt of ['garbage', 42, null, [], { version: 2, servers: {} }, { version: 1, servers: 'x' }]) {
      await store.update(KNOWN_RUNS_KEY, corrupt);
      const log: string[] = [];
      const { kit } = window(store, onDemand, {}, log);
      await kit.update(userScope, [entry('basic', basic())], []);
      await waitForState(kit, 'basic', 'running');
      if (corrupt !== null) assert.strictEqual(log.length, 1, `one log line for ${JSON.stringify(corrupt)}`);
      await kit.manager.disposeAsync();
      kits.splice(kits.indexOf(kit), 1);
    }
    // One entry whose tools are not a list next to a valid one: the valid one is kept.
    const bad = JSON.parse(JSON.stringify(good.servers[id])) as { run: { features: { tools: unknown } } };
    bad.run.features.tools = { name: 'x' };
    await store.update(KNOWN_RUNS_KEY, { version: 1, servers: { ...good.servers, 'user::other': bad } });
    const log: string[] = [];
    const { kit } = window(store, onDemand, {}, log);
    await kit.update(userScope, [entry('basic', basic()), entry('other', basic())], []);
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'dormant');
    await waitForState(kit, 'other', 'running');
    assert.match(log.join('\n'), /1 stored server entry .* did not have the expected form/);
  });

  it('writes a burst of starts once it settles, not during it', async () => {
    const writes: string[][] = [];
    const store = new MemoryStore();
    const update = store.update.bind(store);
    store.update = async (key: string, value: unknown) => {
      if (key === KNOWN_RUNS_KEY) writes.push(Object.keys((value as { servers: object }).servers));
      await update(key, value);
    };
    const known = new KnownRunStore(store, () => undefined, undefined, 400);
    const run = () => ({ at: Date.now(), features: { tools: [{ name: 't', inputSchema: { type: 'object' as const } }], prompts: [], resources: [], resourceTemplates: [] } });
    known.remember('a', 'k', run());
    await sleep(300);
    known.remember('b', 'k', run());
    await sleep(300); // 600 ms after the first: a write 400 ms after it would have come
    assert.deepStrictEqual(writes, [], 'nothing written while servers keep coming');
    await waitFor(() => writes.length > 0, 'the write after the burst', 5000);
    assert.deepStrictEqual(writes, [['a', 'b']], 'one write, with both');
  });

  it('caps what it keeps: per server (tools kept first) and in all (oldest out)', async () => {
    const store = new MemoryStore();
    const log: string[] = [];
    const known = new KnownRunStore(store, (m) => log.push(m), { perServer: 2000, total: 3000, servers: 10 }, 0);
    const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const } });
    const run = (tools: number, resources: number) => ({
      at: Date.now(),
      features: { tools: Array.from({ length: tools }, (_, i) => tool(`t${i}`)), prompts: [], resources: Array.from({ length: resources }, (_, i) => ({ uri: `x://${i}`, name: `r${i}` })), resourceTemplates: [] },
    });
    known.remember('a', 'k', run(3, 100));
    await known.flush();
    assert.deepStrictEqual(known.get('a', 'k')?.features.resources, [], 'too big with its resources: its tools only');
    assert.strictEqual(known.get('a', 'k')?.features.tools.length, 3);
    assert.strictEqual(known.get('a', 'k')?.toolsOnly, true, 'marked: its prompts and resources are not known (the view says so)');
    assert.strictEqual(new KnownRunStore(store, () => undefined).get('a', 'k')?.toolsOnly, true, 'and read back so');
    known.remember('b', 'k', run(200, 0));
    await known.flush();
    assert.strictEqual(known.get('b', 'k'), undefined, 'too big even alone: not kept');
    assert.match(log.join('\n'), /too large to be kept/);
    for (const id of ['c', 'd', 'e', 'f']) known.remember(id, 'k', run(20, 0));
    await known.flush();
    assert.strictEqual(known.get('a', 'k'), undefined, 'the oldest went first');
    assert.ok(known.get('f', 'k'));
    assert.ok(JSON.stringify(store.get(KNOWN_RUNS_KEY)).length <= 3000 + 200);
  });
});
