import * as assert from 'assert';
import { isAlive } from '../../src/core/protocol/connection/processTree.lazy';
import { fixtureServer, sleep, waitFor } from './helpers';
import { createKit, serverState, startUserServer, type Kit } from './hostTestKit';

describe("every process a server started ends with it, whichever session it moved to", function () {
  this.timeout(30_000);
  let kit: Kit;
  let helper: number | undefined;
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    if (helper !== undefined && isAlive(helper)) process.kill(helper, 'SIGKILL');
  });

  const startWithHelper = async () => {
    kit = createKit();
    const server = await startUserServer(kit, 'd', fixtureServer('detached-child-server.mjs'));
    const line = await waitFor(() => /HELPER_PID (\d+)/.exec(kit.log('d').text), 'the helper pid', 5000);
    helper = Number(line[1]);
    assert.ok(isAlive(helper));
    // The host reads the tree every second: give it one read.
    await sleep(1500);
    return server;
  };

  it("a crashed server's child that left its session (setsid) is ended after the crash", async function () {
    if (process.platform === 'win32') this.skip();
    await startWithHelper();
    process.kill(serverState(kit, 'd')!.pid!, 'SIGKILL');
    await waitFor(() => !isAlive(helper!), 'the helper ended after the crash', 10_000);
  });

  it("a stopped server's child that left its session (setsid) is ended with it", async function () {
    if (process.platform === 'win32') this.skip();
    const { id } = await startWithHelper();
    await kit.manager.get(id)!.stop();
    assert.ok(!isAlive(helper!), 'ended by the time stop returns');
  });
});
