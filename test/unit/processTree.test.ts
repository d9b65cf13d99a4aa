import * as assert from 'assert';
import { ChildProcess, spawn } from 'child_process';
import { isAlive, killTree, listDescendants, waitForExit } from '../../src/core/protocol/connection/processTree.lazy';
import { fixtureServer, sleep, waitFor } from './helpers';

const posixOnly = process.platform === 'win32' ? describe.skip : describe;

interface Started {
  proc: ChildProcess;
  pid: number;
  stderr: () => string;
  exited: Promise<void>;
}

posixOnly('processTree', () => {
  // Every pid a test learns about, so afterEach can SIGKILL whatever a failing test left behind.
  let pids: number[] = [];

  function start(name: string, env: Record<string, string> = {}): Started {
    const proc = spawn(process.execPath, [fixtureServer(name)], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    if (!proc.pid) throw new Error(`could not start ${name}`);
    pids.push(proc.pid);
    let err = '';
    proc.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    proc.stdout!.resume();
    // An orphaned grandchild keeps writing into these pipes; errors after the kill are expected.
    proc.stdin!.on('error', () => {});
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    return { proc, pid: proc.pid, stderr: () => err, exited };
  }

  async function childPids(s: Started, count = 1): Promise<number[]> {
    const found = await waitFor(() => {
      const m = [...s.stderr().matchAll(/^CHILD_PID (\d+)$/gm)].map((x) => Number(x[1]));
      return m.length >= count ? m : undefined;
    }, 'CHILD_PID', 10000);
    pids.push(...found);
    return found;
  }

  afterEach(async () => {
    for (const p of pids) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await waitForExit(pids, 5000);
    pids = [];
  });

  describe('isAlive', () => {
    it('is true for this process and false for invalid or exited pids', async () => {
      assert.strictEqual(isAlive(process.pid), true);
      // 0 and negatives would address process groups through kill(2).
      assert.strictEqual(isAlive(0), false);
      assert.strictEqual(isAlive(-1), false);
      assert.strictEqual(isAlive(1.5), false);
      const s = start('basic-server.mjs');
      s.proc.stdin!.end();
      await s.exited;
      assert.strictEqual(isAlive(s.pid), false);
    });
  });

  describe('listDescendants', () => {
    it('finds the server a wrapper spawned', async () => {
      const wrapper = start('wrapper-server.mjs');
      const [child] = await childPids(wrapper);
      assert.deepStrictEqual(await listDescendants(wrapper.pid), [child]);
      assert.deepStrictEqual(await listDescendants(child), []);
    });

    it('finds grandchildren, parents before children', async () => {
      const wrapper = start('wrapper-server.mjs', { FIXTURE_WRAP_DEPTH: '2' });
      const found = await childPids(wrapper, 2);
      // Each level logs its child's pid once that child is spawned: the inner wrapper's line comes second.
      assert.deepStrictEqual(await listDescendants(wrapper.pid), found);
    });

    it('returns [] for a process without children and for invalid pids', async () => {
      const s = start('basic-server.mjs');
      assert.deepStrictEqual(await listDescendants(s.pid), []);
      assert.deepStrictEqual(await listDescendants(0), []);
    });
  });

  describe('the wrapper fixture', () => {
    it('leaves its child running when only the wrapper is SIGKILLed', async () => {
      const wrapper = start('wrapper-server.mjs');
      const [child] = await childPids(wrapper);
      await waitFor(() => wrapper.stderr().includes('basic-server: ready'), 'basic-server ready', 10000);
      process.kill(wrapper.pid, 'SIGKILL');
      await wrapper.exited;
      // Node destroys our end of its stdin when the wrapper exits: the orphan sees EOF and must stay anyway.
      await waitFor(() => wrapper.stderr().includes('ignoring stdin EOF'), 'the orphan to see EOF', 5000);
      await sleep(200);
      assert.strictEqual(isAlive(wrapper.pid), false);
      assert.strictEqual(isAlive(child), true, 'the orphaned server should survive its wrapper');
      // Once orphaned it is outside the wrapper's tree: nothing is left to find from there.
      assert.deepStrictEqual(await listDescendants(wrapper.pid), []);
    });
  });

  describe('killTree', () => {
    it('kills wrapper and child with a signal nobody forwards', async () => {
      const wrapper = start('wrapper-server.mjs');
      const [child] = await childPids(wrapper);
      const signalled = await killTree(wrapper.pid, 'SIGKILL');
      assert.deepStrictEqual(signalled, [child, wrapper.pid]);
      assert.strictEqual(await waitForExit([wrapper.pid, child], 5000), true);
    });

    it('kills a three-level tree, deepest first', async () => {
      const wrapper = start('wrapper-server.mjs', { FIXTURE_WRAP_DEPTH: '2' });
      const [inner, server] = await childPids(wrapper, 2);
      const signalled = await killTree(wrapper.pid, 'SIGKILL');
      // The middle wrapper may exit on its own once its child is killed, before its turn comes (a busy machine).
      const order = [server, inner, wrapper.pid];
      assert.deepStrictEqual(signalled, order.filter((pid) => pid !== inner || signalled.includes(inner)));
      assert.strictEqual(signalled[0], server, 'the deepest first');
      assert.strictEqual(await waitForExit(order, 5000), true);
    });

    it('with SIGTERM stops a cooperative tree', async () => {
      const wrapper = start('wrapper-server.mjs');
      const [child] = await childPids(wrapper);
      assert.deepStrictEqual((await killTree(wrapper.pid, 'SIGTERM')).sort(), [wrapper.pid, child].sort());
      assert.strictEqual(await waitForExit([wrapper.pid, child], 5000), true);
    });

    it('returns [] for a process that already exited and rejects invalid pids', async () => {
      const s = start('basic-server.mjs');
      s.proc.stdin!.end();
      await s.exited;
      assert.deepStrictEqual(await killTree(s.pid, 'SIGKILL'), []);
      await assert.rejects(killTree(0, 'SIGKILL'), RangeError);
      await assert.rejects(killTree(-1, 'SIGKILL'), RangeError);
    });
  });

  describe('the stubborn fixture', () => {
    it('survives stdin EOF and SIGTERM, and dies with SIGKILL', async () => {
      const s = start('stubborn-server.mjs');
      await waitFor(() => s.stderr().includes('ready'), 'stubborn-server ready', 10000);
      s.proc.stdin!.end();
      await waitFor(() => s.stderr().includes('ignoring stdin EOF'), 'EOF ignored', 5000);
      assert.deepStrictEqual(await killTree(s.pid, 'SIGTERM'), [s.pid]);
      await waitFor(() => s.stderr().includes('IGNORED SIGTERM'), 'SIGTERM ignored', 5000);
      assert.strictEqual(await waitForExit([s.pid], 500), false, 'SIGTERM should not stop it');
      assert.deepStrictEqual(await killTree(s.pid, 'SIGKILL'), [s.pid]);
      assert.strictEqual(await waitForExit([s.pid], 5000), true);
    });

    it('under a wrapper: SIGTERM orphans it, so the pids collected first are what reaches it', async () => {
      const wrapper = start('wrapper-server.mjs', { FIXTURE_WRAP: 'stubborn-server.mjs' });
      const [child] = await childPids(wrapper);
      await waitFor(() => wrapper.stderr().includes('stubborn-server: ready'), 'stubborn-server ready', 10000);
      const tree = [wrapper.pid, ...(await listDescendants(wrapper.pid))];
      assert.deepStrictEqual(tree, [wrapper.pid, child]);
      await killTree(wrapper.pid, 'SIGTERM');
      await wrapper.exited;
      assert.strictEqual(await waitForExit(tree, 500), false, 'the stubborn server ignores SIGTERM');
      // The wrapper is gone, and its orphan with it from any tree walk: a second killTree cannot reach it.
      assert.deepStrictEqual(await killTree(wrapper.pid, 'SIGKILL'), []);
      assert.strictEqual(isAlive(child), true);
      for (const p of tree) if (isAlive(p)) process.kill(p, 'SIGKILL');
      assert.strictEqual(await waitForExit(tree, 5000), true);
    });
  });

  describe('waitForExit', () => {
    it('is true at once for no pids and false on timeout for a live one', async () => {
      assert.strictEqual(await waitForExit([], 0), true);
      const t0 = Date.now();
      assert.strictEqual(await waitForExit([process.pid], 200), false);
      assert.ok(Date.now() - t0 >= 190);
    });
  });
});
