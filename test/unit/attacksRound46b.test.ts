// Attacks on issue 44's early start (a dormant server's tool called by an agent starts the server when VS Code
// prepares the call, before the user confirms it, if that start asks nothing), with real fixture servers: a prepare
// the user never confirms must not bring up a sign-in or a "Run Unconfined?" question, a flood of prepares must not
// queue one start each, and a confirmation the user declined must never be what a later invoke runs.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AgentCalls } from '../../src/core/features/tools/agentCallIdentity.lazy';
import { ToolConsent } from '../../src/core/features/tools/toolConsent';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { KnownRunStore } from '../../src/core/host/knownRunStore.lazy';
import { oauthProviderFactory } from '../../src/core/protocol/auth/oauthProviderFactory.lazy';
import { createConnection } from '../../src/core/protocol/serverConnection.lazy';
import { AuthStatusStore } from '../../src/core/auth/authStatus';
import type { SignInRequest } from '../../src/core/auth/authPorts';
import { headlessInteraction, MemorySecretStore } from '../../src/cli/headlessPorts';
import type { ConfigScope, RawServer, RawServerEntry } from '../../src/core/config/serverDefinition';
import type { HostSettings, ServerManagerDeps } from '../../src/core/host/serverManager';
import { fixtureServer, sleep } from './helpers';
import { createKit, entry, MemoryStore, serverState, stdio, userScope, waitForState, workspaceScope } from './hostTestKit';
import { startOAuthFixture } from './remoteTestKit';
import { ElicitationFeature } from '../../src/core/features/elicitation/elicitationFeature.lazy';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { InteractionQueue } from '../../src/core/host/interactionQueue';

const basic = (): RawServer => stdio(process.execPath, [fixtureServer('basic-server.mjs')]);
const onDemand: Partial<HostSettings> = { startup: 'onDemand' };
const REDIRECT = 'http://127.0.0.1:9/callback';

describe('Attacks, round 46b: the dormant server started at an agent call\'s prepare', function () {
  this.timeout(40_000);
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  function window(store: MemoryStore, settings: Partial<HostSettings>, deps: Partial<ServerManagerDeps> = {}, trust = new MemoryStore()) {
    const knownRuns = new KnownRunStore(store, () => undefined, undefined, 0);
    const kit = createKit({ knownRuns, ...deps }, settings, trust);
    let disposed = false;
    const dispose = async () => {
      if (!disposed) await kit.manager.disposeAsync();
      disposed = true;
    };
    cleanups.push(dispose);
    return { kit, knownRuns, dispose };
  }

  /** A first window runs the servers once, so that the store knows them (and they are dormant in the next window). */
  async function knownFromAFirstRun(store: MemoryStore, scope: ConfigScope, entries: RawServerEntry[], deps: Partial<ServerManagerDeps> = {}) {
    const { kit, knownRuns, dispose } = window(store, { ...onDemand, trustAllServers: true }, deps);
    await kit.update(scope, entries, []);
    for (const e of entries) await waitForState(kit, e.name, 'running', 20_000);
    await knownRuns.flush();
    await dispose();
    return kit;
  }

  /** The window the attack runs in: its servers dormant, and the agent's calls made over its manager. */
  async function dormantWindow(store: MemoryStore, scope: ConfigScope, entries: RawServerEntry[], settings: Partial<HostSettings> = onDemand, deps: Partial<ServerManagerDeps> = {}) {
    const { kit } = window(store, settings, deps);
    await kit.update(scope, entries, []);
    for (const e of entries) assert.strictEqual(serverState(kit, e.name)!.state.kind, 'dormant', `${e.name} is dormant`);
    const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    const consent = new ToolConsent({ permissions, ask: async () => undefined, autoAllowReadOnly: () => false });
    const calls = new AgentCalls(consent, Date.now, kit.manager);
    const servers = () => kit.manager.servers();
    return { kit, calls, servers };
  }

  it('a prepared call of a dormant remote server whose sign-in is gone asks nothing (no sign-in question) until the call is confirmed', async () => {
    const remote = await startOAuthFixture();
    cleanups.push(() => remote.stop());
    const follow = headlessInteraction(REDIRECT);
    const oauth = (secrets: MemorySecretStore, asked: SignInRequest[]): Partial<ServerManagerDeps> => ({
      authProvider: oauthProviderFactory({
        store: secrets,
        status: new AuthStatusStore(),
        clientName: 'MCP Host tests',
        interaction: { redirectUrl: follow.redirectUrl, confirmSignIn: async (q) => (asked.push(q), true), authorize: (url, signal) => follow.authorize(url, signal) },
      }),
    });
    const secured = [entry('secured', { type: 'http', url: remote.url, headers: {} })];
    const store = new MemoryStore();
    const firstAsked: SignInRequest[] = [];
    await knownFromAFirstRun(store, userScope, secured, oauth(new MemorySecretStore(), firstAsked));
    assert.strictEqual(firstAsked.length, 1, 'the first window signed in');

    // Another window (signed out, or another machine sharing the settings): its token is not there.
    const asked: SignInRequest[] = [];
    const { kit, calls, servers } = await dormantWindow(store, userScope, secured, onDemand, oauth(new MemorySecretStore(), asked));
    const input = { server: 'secured', tool: 'whoami', arguments: {} };
    const prepared = calls.prepare(servers(), input);
    assert.ok(prepared.ok && prepared.decision === 'ask', 'VS Code shows its confirmation');
    await sleep(1500);
    await kit.manager.idle();
    assert.deepStrictEqual(asked, [], 'no sign-in question for a call the user has not confirmed');
    assert.strictEqual(serverState(kit, 'secured')!.state.kind, 'dormant', 'still dormant, its tools known');
    assert.strictEqual(serverState(kit, 'secured')!.startedFor, undefined);
    // The user allowed the call: its start asks to sign in, as always, and the call runs.
    const run = await calls.takeOnceStarted(servers, input);
    assert.ok(run.ok, !run.ok ? run.message : '');
    assert.deepStrictEqual((asked as SignInRequest[]).map((a) => a.serverName), ['secured']);
    assert.strictEqual(serverState(kit, 'secured')!.state.kind, 'running');
  });

  it('a prepared call of a dormant remote server that asks to sign in only for its lists neither asks nor runs it without its tools', async () => {
    // Initialize needs no token here; tools/list does: the start ahead of the call gets as far as reading the lists.
    const remote = await startOAuthFixture({ FIXTURE_OPEN_INITIALIZE: '1' });
    cleanups.push(() => remote.stop());
    const follow = headlessInteraction(REDIRECT);
    const oauth = (secrets: MemorySecretStore, asked: SignInRequest[]): Partial<ServerManagerDeps> => ({
      authProvider: oauthProviderFactory({
        store: secrets,
        status: new AuthStatusStore(),
        clientName: 'MCP Host tests',
        interaction: { redirectUrl: follow.redirectUrl, confirmSignIn: async (q) => (asked.push(q), true), authorize: (url, signal) => follow.authorize(url, signal) },
      }),
    });
    const secured = [entry('secured', { type: 'http', url: remote.url, headers: {} })];
    const store = new MemoryStore();
    const firstAsked: SignInRequest[] = [];
    await knownFromAFirstRun(store, userScope, secured, oauth(new MemorySecretStore(), firstAsked));
    assert.strictEqual(firstAsked.length, 1, 'the first window signed in');
    const asked: SignInRequest[] = [];
    const { kit, calls, servers } = await dormantWindow(store, userScope, secured, onDemand, oauth(new MemorySecretStore(), asked));
    const input = { server: 'secured', tool: 'whoami', arguments: {} };
    assert.ok(calls.prepare(servers(), input).ok);
    await sleep(1500);
    await kit.manager.idle();
    assert.deepStrictEqual(asked, [], 'no sign-in question for a call the user has not confirmed');
    const info = serverState(kit, 'secured')!;
    assert.strictEqual(info.state.kind, 'dormant', 'dormant, not running with no tools');
    assert.ok(info.features.tools.some((t) => t.name === 'whoami'), 'its known tools kept');
    const run = await calls.takeOnceStarted(servers, input);
    assert.ok(run.ok, !run.ok ? run.message : '');
    assert.strictEqual((asked as SignInRequest[]).length, 1, 'the confirmed call\'s start asks to sign in');
  });

  it('a prepared call of a dormant remote server still signed in starts it ahead, asking nothing', async () => {
    const remote = await startOAuthFixture();
    cleanups.push(() => remote.stop());
    const follow = headlessInteraction(REDIRECT);
    const secrets = new MemorySecretStore();
    const asked: SignInRequest[] = [];
    const oauth: Partial<ServerManagerDeps> = {
      authProvider: oauthProviderFactory({
        store: secrets,
        status: new AuthStatusStore(),
        clientName: 'MCP Host tests',
        interaction: { redirectUrl: follow.redirectUrl, confirmSignIn: async (q) => (asked.push(q), true), authorize: (url, signal) => follow.authorize(url, signal) },
      }),
    };
    const secured = [entry('secured', { type: 'http', url: remote.url, headers: {} })];
    const store = new MemoryStore();
    await knownFromAFirstRun(store, userScope, secured, oauth);
    const { kit, calls, servers } = await dormantWindow(store, userScope, secured, onDemand, oauth);
    assert.ok(calls.prepare(servers(), { server: 'secured', tool: 'whoami', arguments: {} }).ok);
    const running = await waitForState(kit, 'secured', 'running');
    assert.strictEqual(running.startedFor, 'a call of whoami');
    assert.strictEqual(asked.length, 1, 'only the first window\'s sign-in');
  });

  it('a prepared call of a dormant confined server this machine cannot confine does not ask "Run Unconfined?" until the call is confirmed', async () => {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-atk46b-ws-')));
    // A PATH without the sandbox's tools: this machine cannot confine, so a start asks whether to run it unconfined.
    const bare = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-atk46b-bare-')));
    cleanups.push(async () => {
      for (const d of [ws, bare]) fs.rmSync(d, { recursive: true, force: true });
    });
    const unconfinedAsked: string[] = [];
    const deps: Partial<ServerManagerDeps> = {
      environment: { ...process.env, PATH: bare },
      createConnection: (d, log, secrets, options, events) =>
        createConnection(d, log, secrets, { ...options, runUnconfined: async (def) => (unconfinedAsked.push(def.name), true) }, events),
    };
    const scope = workspaceScope(ws);
    const confinedEntry = [entry('confined', { ...basic(), sandboxEnabled: true } as RawServer)];
    const store = new MemoryStore();
    await knownFromAFirstRun(store, scope, confinedEntry, deps);
    assert.deepStrictEqual(unconfinedAsked, ['confined'], 'the first window asked, and ran it unconfined');
    unconfinedAsked.length = 0;

    const { kit, calls, servers } = await dormantWindow(store, scope, confinedEntry, { ...onDemand, trustAllServers: true }, deps);
    const input = { server: 'confined', tool: 'echo', arguments: { text: 'x' } };
    assert.ok(calls.prepare(servers(), input).ok);
    await sleep(1000);
    await kit.manager.idle();
    assert.deepStrictEqual(unconfinedAsked, [], 'no "Run Unconfined?" for a call the user has not confirmed');
    assert.strictEqual(serverState(kit, 'confined')!.state.kind, 'dormant', 'still dormant');
    assert.strictEqual(kit.manager.get(serverState(kit, 'confined')!.id)!.lastSpawnedPid, undefined, 'no process');
    const run = await calls.takeOnceStarted(servers, input);
    assert.ok(run.ok, !run.ok ? run.message : '');
    assert.deepStrictEqual(unconfinedAsked, ['confined'], 'the confirmed call\'s start asks');
  });

  it('a flood of prepared calls of a dormant server whose start would ask prepares one start, not one per call', async () => {
    const scope = workspaceScope();
    const store = new MemoryStore();
    await knownFromAFirstRun(store, scope, [entry('basic', basic())]);
    // A window where this workspace server is not trusted yet: each start ahead of a call stops at the trust question.
    const { kit, calls, servers } = await dormantWindow(store, scope, [entry('basic', basic())], { ...onDemand, trustAllServers: false });
    for (let i = 0; i < 200; i++) assert.ok(calls.prepare(servers(), { server: 'basic', tool: 'echo', arguments: { text: `call ${i}` } }).ok);
    await kit.manager.idle();
    const log = kit.log('basic').text;
    const count = (re: RegExp) => (log.match(re) ?? []).length;
    assert.strictEqual(count(/Not started ahead of its use/g), 1, "the server's log says it once");
    assert.strictEqual(count(/Dormant: starting for/g), 1);
    assert.deepStrictEqual(kit.trustAsked, []);
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'dormant');
  });

  it('a call the user declined, left prepared, is never what a later invoke of the same input runs (a look-alike name now another server\'s)', async () => {
    // "p x" and "p_x" both make the model name p_x_echo: the first in the file that offers tools gets it.
    const servers2 = [entry('p x', basic()), entry('p_x', basic())];
    const store = new MemoryStore();
    await knownFromAFirstRun(store, userScope, servers2);
    const { kit, calls, servers } = await dormantWindow(store, userScope, servers2);
    const first = serverState(kit, 'p x')!;
    const second = serverState(kit, 'p_x')!;
    // The user stopped "p x": p_x_echo is "p_x"'s echo.
    await kit.manager.get(first.id)!.stop();
    const input = { name: 'p_x_echo', arguments: { text: 'same input' } };
    const declined = calls.prepare(servers(), input);
    assert.ok(declined.ok && declined.tool.serverName === 'p_x' && declined.decision === 'ask');
    // The user declines that confirmation: VS Code never invokes it. Then "p x" runs again, and p_x_echo is its echo.
    await kit.manager.get(first.id)!.start(true);
    await waitForState(kit, 'p x', 'running');
    await waitForState(kit, 'p_x', 'running');
    const confirmed = calls.prepare(servers(), input);
    assert.ok(confirmed.ok && confirmed.tool.serverName === 'p x', 'the confirmation the user allows names "p x"');
    const run = await calls.takeOnceStarted(servers, input);
    // Never the declined call of "p_x": refused (the model calls again, and that call is confirmed alone).
    assert.ok(!run.ok, `ran ${run.ok ? `${run.tool.tool.name} of "${run.tool.serverName}"` : ''}, which the user declined`);
    assert.match(run.message, /nothing was called\. Call it again/);
    assert.ok(second.id);
    const again = calls.prepare(servers(), input);
    assert.ok(again.ok && again.tool.serverName === 'p x');
    const rerun = await calls.takeOnceStarted(servers, input);
    assert.ok(rerun.ok && rerun.tool.serverName === 'p x', !rerun.ok ? rerun.message : rerun.tool.serverName);
  });

  it('a hostile server started ahead of a call gets no question to the user through while it starts (elicitation at its tools/list)', async () => {
    const forms: string[] = [];
    const elicitation = (): Partial<ServerManagerDeps> => ({
      features: [
        new ElicitationFeature({
          enabled: () => true,
          rateLimitPerMinute: () => 10,
          ui: { askForm: async (r) => (forms.push(r.message), { action: 'cancel' }), confirmOpenUrl: async () => undefined, openUrl: async () => false },
          permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }),
          activeToolCalls: new ActiveToolCalls(),
          queue: new InteractionQueue(),
        }),
      ],
    });
    const asking = [entry('asking', stdio(process.execPath, [fixtureServer('asking-server.mjs')], { FIXTURE_ASK_ON_LIST: '1' }))];
    const store = new MemoryStore();
    await knownFromAFirstRun(store, userScope, asking, elicitation());
    assert.deepStrictEqual(forms, ['Your API key, please'], 'the server asks while it starts');
    forms.length = 0;
    const { kit, calls, servers } = await dormantWindow(store, userScope, asking, onDemand, elicitation());
    const input = { server: 'asking', tool: 'capabilities', arguments: {} };
    assert.ok(calls.prepare(servers(), input).ok);
    await sleep(1000);
    await kit.manager.idle();
    assert.deepStrictEqual(forms, [], 'no question from a server started for a call the user has not confirmed');
    assert.strictEqual(serverState(kit, 'asking')!.state.kind, 'dormant', 'that start is not kept: its question waits for the call');
    const run = await calls.takeOnceStarted(servers, input);
    assert.ok(run.ok, !run.ok ? run.message : '');
    assert.deepStrictEqual(forms, ['Your API key, please'], 'the confirmed call\'s start lets it ask');
  });

  // Attacks refused as the change stands: kept as tests, so that they stay refused.

  it('refused: a cloned repository\'s .env edited after its server was trusted does not start it at the prepare, nor ask', async () => {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-atk46b-env-')));
    cleanups.push(async () => fs.rmSync(ws, { recursive: true, force: true }));
    fs.writeFileSync(path.join(ws, '.env'), 'GREETING=hello\n');
    const scope = workspaceScope(ws);
    const withEnvFile = [entry('basic', { ...basic(), envFile: '${workspaceFolder}/.env' } as RawServer)];
    const store = new MemoryStore();
    const trust = new MemoryStore();
    // The user trusted what it ran, in a first window.
    const first = window(store, { ...onDemand, trustAllServers: false }, {}, trust);
    first.kit.trustAnswers.push(true);
    await first.kit.update(scope, withEnvFile, []);
    await waitForState(first.kit, 'basic', 'running');
    assert.deepStrictEqual(first.kit.trustAsked, ['basic']);
    await first.knownRuns.flush();
    await first.dispose();
    // A pull changes the .env (NODE_OPTIONS: code of the repository's choosing in the server's process).
    fs.writeFileSync(path.join(ws, '.env'), 'GREETING=hello\nNODE_OPTIONS=--require ./evil.js\n');
    const { kit } = window(store, { ...onDemand, trustAllServers: false }, {}, trust);
    await kit.update(scope, withEnvFile, []);
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'dormant');
    const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    const calls = new AgentCalls(new ToolConsent({ permissions, ask: async () => undefined, autoAllowReadOnly: () => false }), Date.now, kit.manager);
    const input = { server: 'basic', tool: 'echo', arguments: { text: 'x' } };
    assert.ok(calls.prepare(kit.manager.servers(), input).ok);
    await sleep(800);
    await kit.manager.idle();
    assert.deepStrictEqual(kit.trustAsked, [], 'no trust question at the prepare');
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'dormant');
    assert.strictEqual(kit.manager.get(serverState(kit, 'basic')!.id)!.lastSpawnedPid, undefined, 'nothing ran');
    // The confirmed call's start asks about the plan as it is now; declined, nothing runs.
    kit.trustAnswers.push(false);
    await assert.rejects(calls.takeOnceStarted(() => kit.manager.servers(), input));
    assert.deepStrictEqual(kit.trustAsked, ['basic']);
    assert.strictEqual(kit.manager.get(serverState(kit, 'basic')!.id)!.lastSpawnedPid, undefined, 'nothing ran');
  });

  it('refused: a prepare runs no ${command:…} of the server\'s definition, and starts nothing in Restricted Mode', async () => {
    const ran: string[] = [];
    const deps: Partial<ServerManagerDeps> = { runCommand: async (command) => (ran.push(command), 'value') };
    const withCommand = [entry('basic', stdio(process.execPath, [fixtureServer('basic-server.mjs')], { PICKED: '${command:extension.pickSomething}' }))];
    const store = new MemoryStore();
    await knownFromAFirstRun(store, userScope, withCommand, deps);
    assert.deepStrictEqual(ran, ['extension.pickSomething']);
    ran.length = 0;
    const { kit, calls, servers } = await dormantWindow(store, userScope, withCommand, onDemand, deps);
    const input = { server: 'basic', tool: 'echo', arguments: { text: 'x' } };
    assert.ok(calls.prepare(servers(), input).ok);
    await sleep(800);
    await kit.manager.idle();
    assert.deepStrictEqual(ran, [], 'no command run for a call the user has not confirmed');
    assert.strictEqual(serverState(kit, 'basic')!.state.kind, 'dormant');
    const run = await calls.takeOnceStarted(servers, input);
    assert.ok(run.ok, !run.ok ? run.message : '');
    assert.deepStrictEqual(ran, ['extension.pickSomething'], 'the confirmed call\'s start runs it');

    // A workspace server, the workspace not trusted (Restricted Mode): nothing starts, whatever was known.
    const scope = workspaceScope();
    const other = new MemoryStore();
    await knownFromAFirstRun(other, scope, [entry('basic', basic())]);
    const restricted = window(other, onDemand);
    restricted.kit.workspaceTrusted = false;
    await restricted.kit.update(scope, [entry('basic', basic())], []);
    const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    const restrictedCalls = new AgentCalls(new ToolConsent({ permissions, ask: async () => undefined, autoAllowReadOnly: () => false }), Date.now, restricted.kit.manager);
    restrictedCalls.prepare(restricted.kit.manager.servers(), input);
    await sleep(800);
    await restricted.kit.manager.idle();
    const info = serverState(restricted.kit, 'basic')!;
    assert.notStrictEqual(info.state.kind, 'running');
    assert.strictEqual(restricted.kit.manager.get(info.id)!.lastSpawnedPid, undefined, 'nothing ran');
  });
});
