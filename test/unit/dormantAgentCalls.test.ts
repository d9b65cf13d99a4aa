// An agent's call (mcpHost_callTool) of a dormant server's tool, with real fixture servers: the server starts already
// when VS Code prepares the call (so that its start overlaps VS Code's way to the invoke and the user's confirmation),
// only if that start asks the user nothing; a call refused at its prepare starts nothing; the invoke waits for the
// start and checks the call against what the server offers now (a tool that changed since its last run is not called
// unseen); a server started ahead of a call that never comes goes dormant again when idle.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AgentCalls } from '../../src/core/features/tools/agentCallIdentity.lazy';
import { ToolConsent, toolPermissionKey } from '../../src/core/features/tools/toolConsent';
import { consentSubject } from '../../src/core/features/consentSubject';
import { PermissionStore } from '../../src/core/host/permissionStore';
import type { ConfigScope, InputDefinition, RawServer } from '../../src/core/config/serverDefinition';
import type { HostSettings } from '../../src/core/host/serverManager';
import { fixtureServer, sleep } from './helpers';
import { windowWithKnownRuns, entry, MemoryStore, serverState, stdio, userScope, waitForState, workspaceScope, type Kit } from './hostTestKit';

const basic = (args: string[] = [], env: Record<string, string> = {}): RawServer => stdio(process.execPath, [fixtureServer('basic-server.mjs'), ...args], env);
const onDemand: Partial<HostSettings> = { startup: 'onDemand' };

describe('Dormant servers: an agent\'s call starts the server at its prepare', function () {
  this.timeout(30_000);
  const kits: Kit[] = [];
  afterEach(async () => {
    for (const kit of kits.splice(0)) await kit.manager.disposeAsync();
  });

  const window = (store: MemoryStore, settings: Partial<HostSettings> = onDemand) => windowWithKnownRuns(kits, store, settings);

  /** A first window runs the server once (trusting all servers), so that the store knows it. */
  async function knownFromAFirstRun(store: MemoryStore, raw: RawServer, scope: ConfigScope = userScope, inputs: InputDefinition[] = []) {
    const { kit, knownRuns } = window(store, { ...onDemand, trustAllServers: true });
    kit.inputAnswers.set('token', 'secret-token');
    await kit.update(scope, [entry('basic', raw)], inputs);
    await waitForState(kit, 'basic', 'running');
    await knownRuns.flush();
    await kit.manager.disposeAsync();
    kits.splice(kits.indexOf(kit), 1);
  }

  /** A window where the server is dormant, and the agent calls made over its manager. */
  async function dormantWindow(store: MemoryStore, raw: RawServer, settings: Partial<HostSettings> = onDemand, scope: ConfigScope = userScope, inputs: InputDefinition[] = []) {
    const { kit } = window(store, settings);
    await kit.update(scope, [entry('basic', raw)], inputs);
    const info = serverState(kit, 'basic')!;
    assert.strictEqual(info.state.kind, 'dormant');
    const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    const consent = new ToolConsent({ permissions, ask: async () => undefined, autoAllowReadOnly: () => false });
    const calls = new AgentCalls(consent, Date.now, kit.manager);
    const servers = () => kit.manager.servers();
    return { kit, calls, servers, permissions, id: info.id };
  }

  it('starts a dormant server when the call is prepared, before its invoke; the invoke runs the tool the server offers now', async () => {
    const store = new MemoryStore();
    await knownFromAFirstRun(store, basic());
    const { kit, calls, servers } = await dormantWindow(store, basic());
    const input = { server: 'basic', tool: 'echo', arguments: { text: 'early' } };
    const prepared = calls.prepare(servers(), input);
    assert.ok(prepared.ok && prepared.decision === 'ask', 'VS Code will show its confirmation');
    // While the user reads the confirmation, it starts: no invoke has come yet.
    const running = await waitForState(kit, 'basic', 'running');
    assert.strictEqual(running.startedFor, 'a call of echo');
    assert.ok(kit.manager.get(running.id)!.lastSpawnedPid, 'its process runs');
    const run = await calls.takeOnceStarted(servers, input);
    assert.ok(run.ok, !run.ok ? run.message : '');
    assert.strictEqual(run.tool.tool, running.features.tools.find((t) => t.name === 'echo'), 'the tool as the running server lists it');
    assert.deepStrictEqual(run.arguments, { text: 'early' });
  });

  it('an invoke that comes while the start ahead of it is still under way waits for it, then runs', async () => {
    const store = new MemoryStore();
    await knownFromAFirstRun(store, basic());
    const { kit, calls, servers } = await dormantWindow(store, basic());
    const input = { server: 'basic', tool: 'echo', arguments: { text: 'at once' } };
    assert.ok(calls.prepare(servers(), input).ok);
    const run = await calls.takeOnceStarted(servers, input);
    assert.ok(run.ok, !run.ok ? run.message : '');
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'running');
    assert.strictEqual(serverState(kit, 'basic')!.startedFor, 'a call of echo');
  });

  it('a call refused at its prepare (a saved "deny") starts nothing', async () => {
    const store = new MemoryStore();
    await knownFromAFirstRun(store, basic());
    const { kit, calls, servers, permissions } = await dormantWindow(store, basic());
    const info = serverState(kit, 'basic')!;
    await permissions.set({ kind: 'tool', key: toolPermissionKey(consentSubject(info.scope, info.name, info.definition), 'echo'), label: 'echo', decision: 'deny', scope: 'workspace' });
    const input = { server: 'basic', tool: 'echo', arguments: { text: 'no' } };
    const prepared = calls.prepare(servers(), input);
    assert.ok(prepared.ok && prepared.decision !== 'ask' && !prepared.decision.allowed);
    await sleep(500);
    const run = await calls.takeOnceStarted(servers, input);
    assert.ok(!run.ok && run.denied);
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'dormant');
    assert.strictEqual(kit.manager.get(info.id)!.lastSpawnedPid, undefined, 'no process');
  });

  it('does not start it at the prepare when that start would ask (trust, an input): the invoke\'s start asks, as always', async () => {
    const store = new MemoryStore();
    const scope = workspaceScope();
    await knownFromAFirstRun(store, basic(), scope);
    // Another window, where workspace servers ask for trust: what it would run is not trusted there yet.
    const { kit, calls, servers, id } = await dormantWindow(store, basic(), { ...onDemand, trustAllServers: false }, scope);
    const input = { server: 'basic', tool: 'echo', arguments: { text: 'asked' } };
    assert.ok(calls.prepare(servers(), input).ok);
    await sleep(800);
    assert.deepStrictEqual(kit.trustAsked, [], 'no trust question from a prepare the user may never confirm');
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'dormant', 'still dormant');
    assert.strictEqual(serverState(kit, 'basic')!.startedFor, undefined);
    assert.strictEqual(kit.manager.get(id)!.lastSpawnedPid, undefined, 'nothing ran');
    // The invoke (the user allowed the call): its start asks, and the call runs.
    kit.trustAnswers.push(true);
    const run = await calls.takeOnceStarted(servers, input);
    assert.ok(run.ok, !run.ok ? run.message : '');
    assert.deepStrictEqual(kit.trustAsked, ['basic']);
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'running');

    // An input this window has not stored: not asked for at the prepare either.
    const withInput = basic([], { TOKEN: '${input:token}' });
    const inputs: InputDefinition[] = [{ id: 'token', type: 'promptString', description: 'A token', password: true }];
    const other = new MemoryStore();
    await knownFromAFirstRun(other, withInput, userScope, inputs);
    const second = await dormantWindow(other, withInput, onDemand, userScope, inputs);
    assert.ok(second.calls.prepare(second.servers(), input).ok);
    await sleep(800);
    assert.deepStrictEqual(second.kit.inputAsked, [], 'no input asked for at the prepare');
    assert.strictEqual(serverState(second.kit, 'basic')!.state.kind, 'dormant');
  });

  it('does not call a tool that changed since the last run (confirmed as it was known): the model is told to call again', async () => {
    // The same definition, the server upgraded between runs: echo's schema is read from a file the definition names.
    const schemaFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-schema-')), 'echo-schema.json');
    const schema = (properties: object, required: string[]) => fs.writeFileSync(schemaFile, JSON.stringify({ type: 'object', properties, required }));
    try {
      schema({ text: { type: 'string' } }, ['text']);
      const raw = basic([`--echo-schema=${schemaFile}`]);
      const store = new MemoryStore();
      await knownFromAFirstRun(store, raw);
      schema({ text: { type: 'string' }, times: { type: 'integer' } }, ['text']);
      const { calls, servers } = await dormantWindow(store, raw);
      // Arguments that fit both: the confirmation showed the tool as known, which is not what the server now offers.
      const input = { server: 'basic', tool: 'echo', arguments: { text: 'hi' } };
      assert.ok(calls.prepare(servers(), input).ok);
      const run = await calls.takeOnceStarted(servers, input);
      assert.ok(!run.ok && /changed after it was confirmed: nothing was called/.test(run.message), JSON.stringify(run));
      // Called again, it is prepared (and confirmed) as the server offers it now, and runs.
      assert.ok(calls.prepare(servers(), input).ok);
      const again = await calls.takeOnceStarted(servers, input);
      assert.ok(again.ok && again.tool.tool.inputSchema.properties?.times, 'the tool as it is now');
    } finally {
      fs.rmSync(path.dirname(schemaFile), { recursive: true, force: true });
    }
  });

  it('a server started ahead of a call that never comes (the user declined it) goes dormant again when idle', async () => {
    const store = new MemoryStore();
    await knownFromAFirstRun(store, basic());
    const { kit, calls, servers } = await dormantWindow(store, basic(), { ...onDemand, idleStopMs: 400 });
    assert.ok(calls.prepare(servers(), { server: 'basic', tool: 'echo', arguments: { text: 'declined' } }).ok);
    await waitForState(kit, 'basic', 'running');
    await waitForState(kit, 'basic', 'dormant', 5000);
  });
});
