// The idle health check: a session with no traffic for the ping interval is pinged (`server/discover` at
// 2026-07-28, which has no ping); a server that does not answer within the ping timeout is put in error and the restart
// policy brings it back. Real processes: a fixture that goes deaf (alive, reading, answering nothing).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fixtureServer, sleep, waitFor } from './helpers';
import { createKit, entry, serverState, stdio, userScope, waitForState, type Kit } from './hostTestKit';

const ping = { pingIntervalMs: 300, pingTimeoutMs: 300 };

describe('idle health ping', function () {
  this.timeout(60_000);
  let kit: Kit;
  let dir: string;

  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-ping-'))));
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const spawns = () => {
    const file = path.join(dir, 'spawns');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').length : 0;
  };
  const start = async (env: Record<string, string>, settings: Parameters<typeof createKit>[1] = ping) => {
    kit = createKit({}, settings);
    await kit.update(userScope, [entry('s', stdio(process.execPath, [fixtureServer('basic-server.mjs')], { FIXTURE_SPAWN_LOG: path.join(dir, 'spawns'), ...env }))], []);
    return waitForState(kit, 's', 'running');
  };

  for (const eras of ['legacy', 'modern']) {
    it(`a server that stops answering is found by ping and restarted (${eras})`, async () => {
      const first = await start({ FIXTURE_DEAF_AFTER_MS: '1500', FIXTURE_ERAS: eras });
      assert.strictEqual(first.protocolVersion, eras === 'modern' ? '2026-07-28' : '2025-11-25');
      await waitFor(() => /did not answer ping within 0\.3 s/.test(kit.log('s').text), 'the failed ping in the log', 10_000);
      // The restart policy takes over: a new process, running again.
      await waitFor(() => spawns() >= 2 && serverState(kit, 's')?.state.kind === 'running', 'restarted', 10_000);
      assert.ok(serverState(kit, 's')!.crashCount >= 1);
      assert.match(kit.log('s').text, /did not answer ping within 0\.3 s\. Restarting in/);
    });
  }

  it('a server that answers is left alone', async () => {
    await start({});
    kit.log('s').setLevel('trace');
    await sleep(1500);
    assert.strictEqual(spawns(), 1);
    assert.strictEqual(serverState(kit, 's')!.state.kind, 'running');
    assert.match(kit.log('s').text, /"method":"ping"/, 'it was pinged');
  });

  it('interval 0 turns the check off', async () => {
    await start({ FIXTURE_DEAF_AFTER_MS: '300' }, { pingIntervalMs: 0, pingTimeoutMs: 300 });
    kit.log('s').setLevel('trace');
    await sleep(1500);
    assert.doesNotMatch(kit.log('s').text, /"method":"ping"/);
    assert.strictEqual(serverState(kit, 's')!.state.kind, 'running');
  });

  it('a request still running is not idleness: no ping while it waits', async () => {
    kit = createKit({}, ping);
    await kit.update(userScope, [entry('slow', stdio(process.execPath, [fixtureServer('slow-tool-server.mjs')]))], []);
    const info = await waitForState(kit, 'slow', 'running');
    kit.log('slow').setLevel('trace');
    // Called without a progress handler: no progress token, so the server says nothing while it sleeps.
    await kit.manager.session(info.id).callTool({ name: 'sleep', arguments: { ms: 1200 } });
    assert.doesNotMatch(kit.log('slow').text.split('"name":"sleep"')[1].split('"result"')[0], /"method":"ping"/);
  });
});
