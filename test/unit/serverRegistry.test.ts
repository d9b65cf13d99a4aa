import * as assert from 'assert';
import type { ChildProcess } from 'child_process';
import { InteractionQueue } from '../../src/core/host/interactionQueue';
import { isAlive } from '../../src/core/protocol/connection/processTree.lazy';
import { RESTRICTED_MODE_REASON } from '../../src/core/host/serverManager';
import { NOT_TRUSTED_EDITED } from '../../src/core/host/editedTrust';
import type { ServerStateKind } from '../../src/core/host/serverInfo';
import { Emitter } from '../../src/core/common/events';
import { ToolChoiceStore } from '../../src/core/features/tools/toolChoiceStore.lazy';
import { everythingServer, fixtureServer, sleep, waitFor } from './helpers';
import {
  blockOf,
  createKit,
  entry,
  MemoryStore,
  serverState,
  startEverythingHttp,
  stdio,
  userScope,
  waitForState,
  workspaceScope,
  type Kit,
} from './hostTestKit';

const node = process.execPath;
const scope = workspaceScope();

describe('ServerManager against real servers', function () {
  this.timeout(60_000);
  let kit: Kit;
  const httpServers: ChildProcess[] = [];

  afterEach(async () => {
    await kit?.manager.disposeAsync();
    for (const p of httpServers.splice(0)) p.kill('SIGKILL');
  });

  it('runs server-everything over stdio and shows protocol, capabilities and every feature', async () => {
    kit = createKit();
    await kit.update(scope, [entry('everything', stdio(node, [everythingServer]))], []);
    const info = await waitForState(kit, 'everything', 'running');
    // server-everything is built on the 2025 SDK: the probe falls back to initialize, at the newest 2025 revision.
    assert.strictEqual(info.protocolVersion, '2025-11-25');
    assert.ok(info.capabilities?.tools && info.capabilities.prompts && info.capabilities.resources);
    assert.ok(info.features.tools.some((t) => t.name === 'echo'));
    assert.ok(info.features.tools.some((t) => t.name === 'get-roots-list'), 'roots-dependent tool offered: roots declared');
    assert.ok(!info.features.tools.some((t) => t.name === 'trigger-sampling-request'), 'sampling is not declared yet');
    assert.deepStrictEqual(
      info.features.prompts.map((p) => p.name).sort(),
      ['args-prompt', 'completable-prompt', 'resource-prompt', 'simple-prompt'],
    );
    assert.strictEqual(info.features.resources.length, 7);
    assert.strictEqual(info.features.resourceTemplates.length, 2);
    assert.ok(info.pid && isAlive(info.pid));
    assert.strictEqual(info.serverInfo?.name?.length ? true : false, true);
  });

  it('runs server-everything over Streamable HTTP on loopback', async () => {
    const { port, process: p } = await startEverythingHttp('streamableHttp');
    httpServers.push(p);
    kit = createKit();
    await kit.update(scope, [entry('remote', { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} })], []);
    const info = await waitForState(kit, 'remote', 'running');
    assert.ok(info.features.tools.some((t) => t.name === 'get-sum'));
    const result = (await kit.manager.session(info.id).callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } })) as {
      content: { text: string }[];
    };
    assert.match(result.content[0].text, /5/);
    assert.match(kit.log('remote').text, /Streamable HTTP/);
  });

  it('falls back to legacy SSE when Streamable HTTP is refused', async () => {
    const { port, process: p } = await startEverythingHttp('sse');
    httpServers.push(p);
    kit = createKit();
    await kit.update(scope, [entry('legacy', { type: 'http', url: `http://127.0.0.1:${port}/sse`, headers: {} })], []);
    const info = await waitForState(kit, 'legacy', 'running');
    assert.ok(info.features.tools.length > 0);
    assert.match(kit.log('legacy').text, /trying the older one it may expect \(legacy SSE\)/);
  });

  it('follows pagination on every list and refreshes on list_changed', async () => {
    kit = createKit();
    await kit.update(scope, [entry('paged', stdio(node, [fixtureServer('basic-server.mjs')], { FIXTURE_PAGE_SIZE: '2' }))], []);
    const info = await waitForState(kit, 'paged', 'running');
    assert.strictEqual(info.features.tools.length, 5, 'all tools over 3 pages');
    const client = kit.manager.session(info.id);
    await client.callTool({ name: 'add-tool', arguments: { name: 'fresh' } });
    await waitFor(() => serverState(kit, 'paged')?.features.tools.some((t) => t.name === 'fresh'), 'list_changed refresh', 5000);
  });

  it("keeps one snapshot of a server while nothing in it changed, and makes a new one when its lists or state change", async () => {
    kit = createKit();
    await kit.update(scope, [entry('snap', stdio(node, [fixtureServer('basic-server.mjs')]))], []);
    const first = await waitForState(kit, 'snap', 'running');
    // Every surface asks for every server at each change of any one: the same object while it is the same.
    assert.strictEqual(serverState(kit, 'snap'), first);
    await kit.manager.session(first.id).callTool({ name: 'add-tool', arguments: { name: 'later' } });
    await waitFor(() => serverState(kit, 'snap')?.features.tools.some((t) => t.name === 'later'), 'list_changed refresh', 5000);
    const after = serverState(kit, 'snap')!;
    assert.notStrictEqual(after, first);
    assert.ok(!first.features.tools.some((t) => t.name === 'later'), 'a snapshot given out is never changed under its holder');
    assert.strictEqual(serverState(kit, 'snap'), after);
    await kit.manager.get(first.id)!.stop();
    assert.strictEqual(serverState(kit, 'snap')?.state.kind, 'stopped');
    assert.strictEqual(serverState(kit, 'snap')?.pid, undefined);
  });

  it("shows a change of the user's tool choices in the server's next snapshot", async () => {
    const changed = new Emitter<string>();
    const store = new ToolChoiceStore({ global: new MemoryStore(), workspace: new MemoryStore() }, (id) => changed.fire(id));
    kit = createKit({ toolChoices: { of: (id, at) => store.of(id, at), onDidChange: changed.event } });
    await kit.update(scope, [entry('chosen', stdio(node, [fixtureServer('basic-server.mjs')]))], []);
    const first = await waitForState(kit, 'chosen', 'running');
    assert.deepStrictEqual([...(first.toolChoices?.off ?? [])], []);
    await store.setOff(first.id, scope, ['echo'], true);
    assert.deepStrictEqual([...(serverState(kit, 'chosen')?.toolChoices?.off ?? [])], ['echo'], 'switched off, at once');
    changed.dispose();
  });

  it('reconciles: starts added, stops removed, restarts changed and leaves the rest untouched', async () => {
    kit = createKit();
    const basic = (tag: string) => stdio(node, [fixtureServer('basic-server.mjs'), tag]);
    await kit.update(scope, [entry('a', basic('a1')), entry('b', basic('b')), entry('keep', basic('k'))], []);
    const a1 = (await waitForState(kit, 'a', 'running')).pid!;
    const b = (await waitForState(kit, 'b', 'running')).pid!;
    const keep = (await waitForState(kit, 'keep', 'running')).pid!;
    await kit.update(scope, [entry('a', basic('a2')), entry('keep', basic('k')), entry('c', basic('c'))], []);
    const a2 = (await waitForState(kit, 'a', 'running')).pid!;
    await waitForState(kit, 'c', 'running');
    assert.notStrictEqual(a2, a1, 'changed server restarted');
    assert.strictEqual(serverState(kit, 'keep')!.pid, keep, 'unchanged server untouched');
    assert.strictEqual(serverState(kit, 'b'), undefined, 'removed server forgotten');
    await waitFor(() => !isAlive(b) && !isAlive(a1), 'old processes gone', 5000);
  });

  it('restarts a crashing server with backoff, then stays in error and says so', async () => {
    kit = createKit();
    const states: ServerStateKind[] = [];
    const failures: string[] = [];
    kit.manager.onDidChangeServers(() => {
      const s = serverState(kit, 'crashy')?.state.kind;
      if (s && s !== states.at(-1)) states.push(s);
    });
    kit.manager.onDidFail(({ message }) => failures.push(message));
    const crashy = stdio(node, [fixtureServer('crash-server.mjs')], { FIXTURE_CRASH: 'after-init', FIXTURE_CRASH_AFTER_MS: '100' });
    await kit.update(scope, [entry('crashy', crashy)], []);
    await waitFor(() => failures.length === 1, 'give up after 3 crashes', 20_000);
    const info = serverState(kit, 'crashy')!;
    assert.strictEqual(info.state.kind, 'error');
    assert.match(info.state.kind === 'error' ? info.state.message : '', /crashed 3 times.*not restarted/);
    assert.strictEqual(info.crashCount, 3);
    assert.deepStrictEqual(states.slice(states.indexOf('starting'), states.indexOf('starting') + 4), ['starting', 'running', 'error', 'starting']);
    await sleep(400);
    assert.strictEqual(serverState(kit, 'crashy')!.state.kind, 'error', 'no more restarts');
    assert.match(kit.log('crashy').text, /Restarting in 0\.1 s/);
  });

  it('puts a server that never answers initialize in error after the timeout, and kills it', async () => {
    kit = createKit({}, { initializeTimeoutMs: 800 });
    await kit.update(scope, [entry('silent', stdio(node, [fixtureServer('silent-server.mjs')]))], []);
    const info = await waitForState(kit, 'silent', 'error');
    assert.match(info.state.kind === 'error' ? info.state.message : '', /did not answer initialize within 1 s/);
    const pid = kit.manager.get(info.id)!.lastSpawnedPid;
    assert.ok(pid, 'a process was spawned');
    assert.ok(!isAlive(pid), 'and it is gone');
    assert.strictEqual(info.crashCount, 0, 'a timeout is not retried as a crash');
  });

  it('survives a server that prints garbage on stdout', async () => {
    kit = createKit();
    await kit.update(scope, [entry('garbage', stdio(node, [fixtureServer('garbage-server.mjs')]))], []);
    const info = await waitForState(kit, 'garbage', 'running');
    const result = (await kit.manager.session(info.id).callTool({ name: 'echo', arguments: { text: 'hi' } })) as {
      content: { text: string }[];
    };
    assert.match(result.content[0].text, /hi/);
    assert.match(kit.log('garbage').text, /\[warn\] Protocol:/);
  });

  it('logs what a server writes to stderr at info: servers log there by design', async () => {
    kit = createKit();
    await kit.update(scope, [entry('basic', stdio(node, [fixtureServer('basic-server.mjs')]))], []);
    await waitForState(kit, 'basic', 'running');
    await waitFor(() => /\[info\] \[stderr\] basic-server: ready/.test(kit.log('basic').text), 'the stderr line', 5000);
    assert.doesNotMatch(kit.log('basic').text, /\[warn\] \[stderr\]/);
  });

  it('explains a missing command and does not retry it', async () => {
    kit = createKit();
    await kit.update(scope, [entry('missing', stdio('definitely-not-a-command-mcp-host'))], []);
    const info = await waitForState(kit, 'missing', 'error');
    assert.match(info.state.kind === 'error' ? info.state.message : '', /command "definitely-not-a-command-mcp-host" was not found/);
    assert.strictEqual(info.crashCount, 0);
  });

  it('starts a failed server again once its definition is fixed, but not one the user stopped', async () => {
    kit = createKit();
    await kit.update(scope, [entry('fixme', stdio('definitely-not-a-command-mcp-host')), entry('paused', stdio(node, [fixtureServer('basic-server.mjs')]))], []);
    await waitForState(kit, 'fixme', 'error');
    await kit.manager.get((await waitForState(kit, 'paused', 'running')).id)!.stop();
    await kit.update(
      scope,
      [entry('fixme', stdio(node, [fixtureServer('basic-server.mjs')])), entry('paused', stdio(node, [fixtureServer('basic-server.mjs'), 'edited']))],
      [],
    );
    await waitForState(kit, 'fixme', 'running');
    assert.strictEqual(serverState(kit, 'paused')!.state.kind, 'stopped');
  });

  it('one failing server never takes the others down', async () => {
    kit = createKit();
    await kit.update(
      scope,
      [entry('bad', stdio('definitely-not-a-command-mcp-host')), entry('good', stdio(node, [fixtureServer('basic-server.mjs')]))],
      [],
    );
    await waitForState(kit, 'bad', 'error');
    await waitForState(kit, 'good', 'running');
  });

  it('stop leaves no process behind: an npx-like wrapper and its child both go', async () => {
    kit = createKit();
    await kit.update(scope, [entry('wrapped', stdio(node, [fixtureServer('wrapper-server.mjs')]))], []);
    const info = await waitForState(kit, 'wrapped', 'running');
    const childPid = Number(await waitFor(() => kit.log('wrapped').text.match(/CHILD_PID (\d+)/)?.[1], 'child pid', 5000));
    assert.ok(isAlive(info.pid!) && isAlive(childPid));
    await kit.manager.get(info.id)!.stop();
    assert.ok(!isAlive(info.pid!), 'wrapper gone');
    await waitFor(() => !isAlive(childPid), 'child gone', 3000);
  });

  it('stop escalates to SIGKILL for a server that ignores stdin EOF and SIGTERM', async () => {
    kit = createKit();
    await kit.update(scope, [entry('stubborn', stdio(node, [fixtureServer('stubborn-server.mjs')]))], []);
    const info = await waitForState(kit, 'stubborn', 'running');
    await kit.manager.get(info.id)!.stop();
    assert.ok(!isAlive(info.pid!));
    assert.match(kit.log('stubborn').text, /sending SIGKILL/);
  });

  it('disposing the registry (deactivate) stops every server and its children', async () => {
    kit = createKit();
    await kit.update(
      scope,
      [
        entry('one', stdio(node, [fixtureServer('basic-server.mjs')])),
        entry('wrapped', stdio(node, [fixtureServer('wrapper-server.mjs')])),
        entry('stubborn', stdio(node, [fixtureServer('stubborn-server.mjs')])),
      ],
      [],
    );
    const pids = [(await waitForState(kit, 'one', 'running')).pid!, (await waitForState(kit, 'wrapped', 'running')).pid!, (await waitForState(kit, 'stubborn', 'running')).pid!];
    pids.push(Number(await waitFor(() => kit.log('wrapped').text.match(/CHILD_PID (\d+)/)?.[1], 'child pid', 5000)));
    assert.ok(pids.every(isAlive));
    await kit.manager.disposeAsync();
    await waitFor(() => pids.every((p) => !isAlive(p)), 'every process gone', 3000);
    assert.deepStrictEqual(kit.manager.servers(), []);
  });

  it('a stop during a start that hangs in initialize ends it at once and leaves no process', async () => {
    kit = createKit({}, { initializeTimeoutMs: 60_000 });
    await kit.manager.updateScope(scope, [entry('hanging', stdio(node, [fixtureServer('silent-server.mjs')]))], []);
    const server = kit.manager.get((await waitForState(kit, 'hanging', 'starting')).id)!;
    const pid = await waitFor(() => server.lastSpawnedPid, 'spawned', 5000);
    const t0 = Date.now();
    await server.stop();
    assert.ok(Date.now() - t0 < 5000, `stopped in ${Date.now() - t0} ms, not after the 60 s timeout`);
    assert.strictEqual(serverState(kit, 'hanging')!.state.kind, 'stopped');
    await waitFor(() => !isAlive(pid), 'process gone', 3000);
  });

  it('a wrapper that died on its own does not leave its child behind when the server stops', async () => {
    kit = createKit();
    await kit.update(scope, [entry('wrapped', stdio(node, [fixtureServer('wrapper-server.mjs')]))], []);
    const info = await waitForState(kit, 'wrapped', 'running');
    const childPid = Number(await waitFor(() => kit.log('wrapped').text.match(/CHILD_PID (\d+)/)?.[1], 'child pid', 5000));
    // The child keeps the session's pipes, so the session goes on; but the child is no longer in the wrapper's tree.
    process.kill(info.pid!, 'SIGKILL');
    await waitFor(() => !isAlive(info.pid!), 'wrapper gone', 3000);
    await kit.manager.get(info.id)!.stop();
    await waitFor(() => !isAlive(childPid), 'the orphaned child killed too', 5000);
  });

  it('says at once, with its exit code and in plain words, that a server exits as soon as it starts', async () => {
    kit = createKit();
    const failures: string[] = [];
    kit.manager.onDidFail(({ message }) => failures.push(message));
    const started = Date.now();
    await kit.update(scope, [entry('quitter', stdio(node, ['-e', 'console.error("missing API key"); process.exit(3)']))], []);
    await waitFor(() => failures.length === 1, 'the failure told', 10_000);
    assert.ok(Date.now() - started < 8_000, `told after ${Date.now() - started} ms, not after the restarts' backoff`);
    const info = serverState(kit, 'quitter')!;
    const message = info.state.kind === 'error' ? info.state.message : '';
    assert.strictEqual(message, 'The server process exited with exit code 3 before it finished starting. It printed: missing API key');
    assert.strictEqual(failures[0], message);
    assert.strictEqual(info.crashCount, 0, 'not restarted');
    const log = kit.log('quitter').text;
    assert.doesNotMatch(log, /server\/discover|legacy|\.\. Restarting|Restarting in/, log);
    assert.match(log, /exit code 3/);
  });

  it('keeps secrets out of error messages shown in the UI', async () => {
    kit = createKit();
    kit.inputAnswers.set('token', 'leaky-secret-123');
    const leaky = stdio(node, ['-e', 'console.error("token is " + process.env.TOKEN); process.exit(1)'], { TOKEN: '${input:token}' });
    const notified: string[] = [];
    kit.manager.onDidFail(({ message }) => notified.push(message));
    await kit.update(scope, [entry('leaky', leaky)], [{ type: 'promptString', id: 'token', description: 'Token', password: true }]);
    const info = await waitFor(() => serverState(kit, 'leaky')?.state.kind === 'error' && serverState(kit, 'leaky'), 'error', 10_000);
    const message = info.state.kind === 'error' ? info.state.message : '';
    assert.match(message, /token is/, `the stderr tail is shown: ${message}`);
    assert.ok(!message.includes('leaky-secret-123'), message);
    await waitFor(() => notified.length > 0, 'failure notified', 10_000);
    assert.ok(notified.every((m) => /token is/.test(m) && !m.includes('leaky-secret-123')), notified.join('\n'));
  });

  it('refuses a remote URL that only after resolution turns out not to be a URL, and says why', async () => {
    kit = createKit();
    const remote = { type: 'http' as const, url: '${env:MCP_HOST_TEST_UNSET_URL}', headers: {} };
    await kit.update(scope, [entry('nowhere', remote)], []);
    const info = serverState(kit, 'nowhere')!;
    assert.deepStrictEqual(blockOf(info)?.reason, 'config');
    assert.strictEqual(blockOf(info)!.message, 'The URL is empty once its variables are filled in: a variable it uses is not set.');
  });

  it('gives servers the workspace folders as roots and tells them when they change', async () => {
    kit = createKit();
    kit.manager.setRoots([{ uri: 'file:///tmp/one', name: 'one' }]);
    await kit.update(scope, [entry('roots', stdio(node, [fixtureServer('basic-server.mjs')]))], []);
    const info = await waitForState(kit, 'roots', 'running');
    const client = () => kit.manager.session(info.id);
    const rootsSeen = async () => ((await client().callTool({ name: 'get-roots', arguments: {} })) as { content: { text: string }[] }).content[0].text;
    await waitFor(async () => /file:\/\/\/tmp\/one/.test(await rootsSeen()), 'first roots', 5000);
    kit.manager.setRoots([
      { uri: 'file:///tmp/one', name: 'one' },
      { uri: 'file:///tmp/two', name: 'two' },
    ]);
    await waitFor(async () => /file:\/\/\/tmp\/two/.test(await rootsSeen()), 'roots after list_changed', 5000);
  });

  it('asks for inputs once, keeps secrets out of the log even at trace level', async () => {
    kit = createKit();
    kit.inputAnswers.set('token', 'sup3r-secret-value');
    const server = stdio(node, [fixtureServer('basic-server.mjs')], { TOKEN: '${input:token}', FIXTURE_ECHO_ENV: 'TOKEN' });
    const inputs = [{ type: 'promptString' as const, id: 'token', description: 'Token', password: true }];
    kit.log('secretive').setLevel('trace');
    await kit.update(scope, [entry('secretive', server)], inputs);
    const info = await waitForState(kit, 'secretive', 'running');
    const result = (await kit.manager.session(info.id).callTool({ name: 'whoami', arguments: {} })) as {
      content: { text: string }[];
    };
    assert.match(result.content[0].text, /sup3r-secret-value/, 'the server got the secret');
    await kit.manager.get(info.id)!.restart();
    await waitForState(kit, 'secretive', 'running');
    assert.deepStrictEqual(kit.inputAsked, ['token'], 'asked once');
    assert.match(kit.log('secretive').text, /▶ .*tools\/call/, 'traffic is traced');
    assert.ok(!kit.log('secretive').text.includes('sup3r-secret-value'), 'secret never logged');
  });

  it('does not start a server whose input was cancelled, and says why', async () => {
    kit = createKit();
    const server = stdio(node, [fixtureServer('basic-server.mjs')], { TOKEN: '${input:token}' });
    await kit.update(scope, [entry('cancelled', server)], [{ type: 'promptString', id: 'token', description: 'Token', password: false }]);
    const info = await waitFor(() => blockOf(serverState(kit, 'cancelled')) && serverState(kit, 'cancelled'), 'blocked', 5000);
    assert.match(blockOf(info)!.message, /token/);
    assert.strictEqual(blockOf(info)!.reason, 'input');
  });
});

describe('Server trust', function () {
  this.timeout(30_000);
  let kit: Kit;
  afterEach(async () => kit?.manager.disposeAsync());
  const basic = () => stdio(node, [fixtureServer('basic-server.mjs')]);

  it('asks before starting a workspace server, and runs nothing when refused', async () => {
    kit = createKit({}, { trustAllServers: false });
    kit.trustAnswers.push(false);
    await kit.update(scope, [entry('ws-server', basic())], []);
    const info = serverState(kit, 'ws-server')!;
    assert.deepStrictEqual(kit.trustAsked, ['ws-server']);
    assert.match(blockOf(info)!.message, /Not trusted/);
    assert.strictEqual(blockOf(info)!.reason, 'untrusted');
    assert.strictEqual(info.pid, undefined);
    // An automatic start respects the remembered "no"; the user's own start asks again.
    await kit.manager.startIdle();
    assert.strictEqual(kit.trustAsked.length, 1);
    kit.trustAnswers.push(true);
    await kit.manager.get(info.id)!.start(true);
    assert.strictEqual(serverState(kit, 'ws-server')!.state.kind, 'running');
  });

  it('remembers trust per exact definition: an edited definition asks again', async () => {
    kit = createKit({}, { trustAllServers: false });
    kit.trustAnswers.push(true);
    await kit.update(scope, [entry('s', basic())], []);
    await waitForState(kit, 's', 'running');
    await kit.manager.get(serverState(kit, 's')!.id)!.restart();
    assert.strictEqual(kit.trustAsked.length, 1, 'same definition: not asked again');
    kit.trustAnswers.push(undefined);
    await kit.update(scope, [entry('s', stdio(node, [fixtureServer('basic-server.mjs'), '--edited']))], []);
    assert.strictEqual(kit.trustAsked.length, 2, 'edited definition: asked again');
    assert.strictEqual(blockOf(serverState(kit, 's'))?.reason, 'untrusted');
    await kit.trustStore.reset();
  });

  it('asks about the servers of a file when it loads, but not about servers added or changed while it is being edited', async () => {
    let editing = false;
    kit = createKit({ isConfigBeingEdited: (p) => editing && p === scope.configPath }, { trustAllServers: false });
    kit.trustAnswers.push(true);
    await kit.update(scope, [entry('first', basic())], []);
    await waitForState(kit, 'first', 'running');
    assert.deepStrictEqual(kit.trustAsked, ['first']);
    editing = true;
    // Auto-save wrote a server being typed: no dialog takes the keyboard.
    await kit.update(scope, [entry('first', basic()), entry('typed', stdio(node, [fixtureServer('basic-server.mjs'), 'typed']))], []);
    await kit.manager.idle();
    assert.deepStrictEqual(kit.trustAsked, ['first'], 'not asked');
    assert.deepStrictEqual(blockOf(serverState(kit, 'typed')), { kind: 'blocked', reason: 'untrusted', message: NOT_TRUSTED_EDITED });
    assert.strictEqual(serverState(kit, 'typed')!.pid, undefined);
    await kit.manager.startIdle();
    assert.deepStrictEqual(kit.trustAsked, ['first'], 'an automatic start does not ask either');
    kit.trustAnswers.push(true);
    await kit.manager.get(serverState(kit, 'typed')!.id)!.start(true);
    assert.deepStrictEqual(kit.trustAsked, ['first', 'typed'], 'the user\'s own start asks');
    assert.strictEqual(serverState(kit, 'typed')!.state.kind, 'running');
    // Changed while edited: the same.
    await kit.update(scope, [entry('first', stdio(node, [fixtureServer('basic-server.mjs'), 'changed'])), entry('typed', stdio(node, [fixtureServer('basic-server.mjs'), 'typed']))], []);
    await kit.manager.idle();
    assert.deepStrictEqual(blockOf(serverState(kit, 'first')), { kind: 'blocked', reason: 'untrusted', message: NOT_TRUSTED_EDITED });
    // A file written while nobody edits it (another tool, a checkout) asks as on load.
    editing = false;
    kit.trustAnswers.push(true);
    await kit.update(scope, [entry('first', basic()), entry('typed', stdio(node, [fixtureServer('basic-server.mjs'), 'typed'])), entry('third', stdio(node, [fixtureServer('basic-server.mjs'), 'third']))], []);
    await kit.manager.idle();
    assert.deepStrictEqual(kit.trustAsked, ['first', 'typed', 'third']);
    await kit.trustStore.reset();
  });

  it('runs nothing from the workspace in Restricted Mode, but user servers still run', async () => {
    kit = createKit({}, { trustAllServers: true });
    kit.workspaceTrusted = false;
    await kit.update(scope, [entry('ws-server', basic())], []);
    await kit.update(userScope, [entry('mine', basic())], []);
    assert.strictEqual(blockOf(serverState(kit, 'ws-server'))?.message, RESTRICTED_MODE_REASON);
    assert.strictEqual(blockOf(serverState(kit, 'ws-server'))?.reason, 'restricted');
    await waitForState(kit, 'mine', 'running');
    kit.workspaceTrusted = true;
    await kit.manager.startIdle();
    await waitForState(kit, 'ws-server', 'running');
  });

  it('a stop while the trust question is open ends the start without waiting for an answer', async () => {
    kit = createKit({
      trustPrompt: { askTrust: () => new Promise(() => undefined) },
    }, { trustAllServers: false });
    await kit.manager.updateScope(scope, [entry('pending', basic())], []);
    const server = kit.manager.get(serverState(kit, 'pending')!.id)!;
    await sleep(100);
    await Promise.race([server.stop(), sleep(3000).then(() => Promise.reject(new Error('the stop waited for the dialog')))]);
    assert.strictEqual(serverState(kit, 'pending')!.state.kind, 'stopped');
    await kit.manager.disposeAsync();
  });

  it('never runs a definition other than the one the user just trusted', async () => {
    let answerFirst: (v: boolean) => void = () => undefined;
    const asked: string[] = [];
    kit = createKit({
      trustPrompt: {
        askTrust: (d) => {
          asked.push(d.raw.type === 'stdio' ? d.raw.args.join(' ') : '');
          return asked.length === 1 ? new Promise<boolean>((r) => (answerFirst = r)) : Promise.resolve(true);
        },
      },
    }, { trustAllServers: false });
    const original = stdio(node, [fixtureServer('basic-server.mjs'), 'original']);
    const edited = stdio(node, [fixtureServer('basic-server.mjs'), 'edited']);
    await kit.manager.updateScope(scope, [entry('s', original)], []);
    await waitFor(() => asked.length === 1, 'first question', 5000);
    // The file is edited while the user still looks at the question about the original definition.
    await kit.manager.updateScope(scope, [entry('s', edited)], []);
    answerFirst(true);
    await kit.manager.idle();
    const info = await waitForState(kit, 's', 'running');
    const argv = JSON.parse(((await kit.manager.session(info.id).callTool({ name: 'whoami', arguments: {} })) as { content: { text: string }[] }).content[0].text).argv;
    assert.ok(argv.includes('edited'), `runs the edited definition: ${argv}`);
    assert.ok(asked.some((a) => a.endsWith('edited')), `the edited definition was asked about: ${asked.join(' | ')}`);
  });

  it('granting Workspace Trust starts waiting servers, not those the user stopped', async () => {
    kit = createKit({}, { trustAllServers: true });
    kit.workspaceTrusted = false;
    await kit.update(scope, [entry('waiting', basic()), entry('stopped', basic())], []);
    await kit.manager.get(serverState(kit, 'stopped')!.id)!.stop();
    kit.workspaceTrusted = true;
    await kit.manager.startIdle();
    assert.strictEqual(serverState(kit, 'waiting')!.state.kind, 'running');
    assert.strictEqual(serverState(kit, 'stopped')!.state.kind, 'stopped');
  });

  it('a trust question waits while another question (a sampling or elicitation dialog) is open', async () => {
    const interactions = new InteractionQueue();
    let closeOther: () => void = () => undefined;
    const other = interactions.run(() => new Promise<void>((r) => (closeOther = r)));
    kit = createKit({ interactions }, { trustAllServers: false });
    kit.trustAnswers.push(true);
    await kit.manager.updateScope(scope, [entry('later', basic())], []);
    await sleep(300);
    assert.deepStrictEqual(kit.trustAsked, [], 'not asked over the open question');
    closeOther();
    await other;
    await waitForState(kit, 'later', 'running');
    assert.deepStrictEqual(kit.trustAsked, ['later']);
  });

  it('the trust-all setting starts workspace servers without asking', async () => {
    kit = createKit({}, { trustAllServers: true });
    await kit.update(scope, [entry('auto', basic())], []);
    await waitForState(kit, 'auto', 'running');
    assert.deepStrictEqual(kit.trustAsked, []);
  });

  it('with auto-start off nothing starts until asked', async () => {
    kit = createKit({}, { autoStart: false });
    await kit.update(scope, [entry('manual', basic())], []);
    assert.strictEqual(serverState(kit, 'manual')!.state.kind, 'stopped');
    await kit.manager.get(serverState(kit, 'manual')!.id)!.start(true);
    assert.strictEqual(serverState(kit, 'manual')!.state.kind, 'running');
  });
});
