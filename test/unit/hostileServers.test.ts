// Servers that attack the host through their process and pipes. Each test is named after the attack; each failed
// on the host before its own stdio transport, process groups and session lifetime.
import * as assert from 'assert';
import { readFileSync } from 'fs';
import { isAlive } from '../../src/core/protocol/connection/processTree.lazy';
import { fixtureServer, sleep, waitFor } from './helpers';
import { createKit, entry, serverState, stdio, userScope, waitForState, type Kit } from './hostTestKit';

const node = process.execPath;
const posixOnly = process.platform === 'win32' ? describe.skip : describe;
const hostile = (env: Record<string, string> = {}) => stdio(node, [fixtureServer('hostile-server.mjs')], env);
/** Field 5 of /proc/<pid>/stat: the process group. */
const processGroupOf = (pid: number) => { const stat = readFileSync(`/proc/${pid}/stat`, 'utf8'); return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]; };
const text = (result: unknown) => ((result as { content: { text: string }[] }).content[0].text);

posixOnly('hostile servers', function () {
  this.timeout(60_000);
  let kit: Kit;
  const leftovers: number[] = [];
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    for (const pid of leftovers.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
  });

  it('a server that hangs tools/list cannot hold a stop: the process is gone within 2 s', async () => {
    kit = createKit({}, { requestTimeoutMs: 60_000 });
    await kit.manager.updateScope(userScope, [entry('hung', hostile({ FIXTURE_HANG_LISTS: '1' }))], []);
    const server = kit.manager.get('user::hung')!;
    const pid = await waitFor(() => server.lastSpawnedPid, 'spawned', 10_000);
    await waitFor(() => /ready pid/.test(kit.log('hung').text), 'handshake done, lists hanging', 10_000);
    const started = Date.now();
    await server.stop();
    assert.ok(Date.now() - started < 2000, `stop took ${Date.now() - started} ms`);
    assert.strictEqual(isAlive(pid), false);
    assert.strictEqual(serverState(kit, 'hung')!.state.kind, 'stopped');
  });

  it('a server that orphans a grandchild after it started: stopping it ends the grandchild too', async () => {
    kit = createKit();
    await kit.update(userScope, [entry('forker', hostile())], []);
    await waitForState(kit, 'forker', 'running');
    const orphan = Number(text(await kit.manager.session('user::forker').callTool({ name: 'fork-orphan', arguments: {} })));
    leftovers.push(orphan);
    assert.ok(isAlive(orphan), 'the orphan runs');
    await kit.manager.get('user::forker')!.stop();
    await waitFor(() => !isAlive(orphan), 'the orphan ended with its server', 3000);
  });

  it('a server whose helper starts a detached grandchild and exits at once: Stop ends the grandchild, though it left the group and the tree before the tree was read', async () => {
    kit = createKit();
    await kit.update(userScope, [entry('detacher', hostile())], []);
    await waitForState(kit, 'detacher', 'running');
    const orphan = Number(text(await kit.manager.session('user::detacher').callTool({ name: 'detach-orphan', arguments: {} })));
    leftovers.push(orphan);
    assert.ok(isAlive(orphan), 'the detached grandchild runs');
    const server = kit.manager.get('user::detacher')!;
    assert.notStrictEqual(processGroupOf(orphan), processGroupOf(server.lastSpawnedPid!), 'it left the server\'s process group');
    await server.stop();
    await waitFor(() => !isAlive(orphan), 'the detached grandchild ended with its server', 3000);
  });

  it('a server that crashes leaving a child behind: the child is ended before the restart', async () => {
    kit = createKit();
    await kit.update(userScope, [entry('crasher', hostile())], []);
    await waitForState(kit, 'crasher', 'running');
    void kit.manager
      .session('user::crasher')
      .callTool({ name: 'crash-leaving-child', arguments: {} })
      .catch(() => undefined);
    const child = Number(await waitFor(() => kit.log('crasher').text.match(/CHILD_PID (\d+)/)?.[1], 'child pid', 5000));
    leftovers.push(child);
    await waitFor(() => /Restarting in/.test(kit.log('crasher').text), 'crash seen', 5000);
    await waitFor(() => !isAlive(child), 'the crashed server\'s child ended', 3000);
    await waitForState(kit, 'crasher', 'running');
  });

  it('a server that floods stderr with one 3 MB line: the log keeps 1 MB of it with a marker, and the server goes on', async () => {
    kit = createKit();
    await kit.update(userScope, [entry('flood', hostile())], []);
    await waitForState(kit, 'flood', 'running');
    const session = kit.manager.session('user::flood');
    assert.strictEqual(text(await session.callTool({ name: 'stderr-flood', arguments: { mb: 3 } })), 'flooded');
    const line = await waitFor(() => kit.log('flood').lines.find((l) => l.includes('[line cut at 1 MB]')), 'the cut line', 5000);
    assert.ok(line.length < 1024 * 1024 + 200, `kept ${line.length} characters`);
    await waitFor(() => kit.log('flood').lines.some((l) => l.endsWith('FLOOD_END')), 'the next line, whole', 5000);
    assert.strictEqual(serverState(kit, 'flood')!.state.kind, 'running');
  });

  it('a server that sends a message over the 64 MB cap is ended with a clear error; another server keeps running', async () => {
    kit = createKit({ restartPolicy: { maxCrashes: 1, windowMs: 60_000, baseDelayMs: 50, maxDelayMs: 50 } });
    await kit.update(userScope, [entry('huge', hostile()), entry('calm', hostile())], []);
    await waitForState(kit, 'huge', 'running');
    await waitForState(kit, 'calm', 'running');
    await assert.rejects(kit.manager.session('user::huge').callTool({ name: 'huge-message', arguments: { mb: 65 } }));
    await waitFor(() => /message over 64 MB/.test(kit.log('huge').text), 'the reason in the log', 10_000);
    await waitForState(kit, 'huge', 'error');
    await sleep(100);
    assert.strictEqual(serverState(kit, 'calm')!.state.kind, 'running');
    assert.match(text(await kit.manager.session('user::calm').callTool({ name: 'stderr-flood', arguments: { mb: 0 } })), /flooded/);
  });
});
