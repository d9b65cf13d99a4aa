// The views' and status bar's refresh: a burst of changes is drawn once it settles (no change for 100 ms), never
// sooner than 250 ms after its first change, and at the latest a second after it.
import * as assert from 'assert';
import { CoalescedRefresh } from '../../src/vscode/coalescedRefresh';
import { sleep } from './helpers';

describe('the views’ coalesced refresh', () => {
  let at: number[];
  let start: number;
  let refresh: CoalescedRefresh;
  beforeEach(() => {
    at = [];
    start = performance.now();
    refresh = new CoalescedRefresh(() => at.push(performance.now() - start));
  });
  afterEach(() => refresh.dispose());

  /** Changes every `everyMs` for `forMs`; resolves with when the last one came (ms after `start`). */
  async function changes(everyMs: number, forMs: number): Promise<number> {
    const end = performance.now() + forMs;
    let last = 0;
    while (performance.now() < end) {
      refresh.schedule();
      last = performance.now() - start;
      await sleep(everyMs);
    }
    return last;
  }

  it('shows a lone change 250 ms after it, with those that came meanwhile', async () => {
    refresh.schedule();
    await sleep(100);
    refresh.schedule();
    assert.deepStrictEqual(at, [], 'not yet: a quick start ends within the delay');
    await sleep(400);
    assert.strictEqual(at.length, 1, 'one refresh for the changes of that time');
    assert.ok(at[0] >= 249 && at[0] < 450, `shown after ${Math.round(at[0])} ms`);
  });

  it('waits for servers that start together to settle: one refresh, 100 ms after the last change', async () => {
    // A change every 20 ms for 600 ms (ten servers starting on a busy machine), then none.
    const last = await changes(20, 600);
    await sleep(400);
    assert.strictEqual(at.length, 1, `refreshed at ${at.map(Math.round).join(', ')} ms for changes up to ${Math.round(last)} ms`);
    assert.ok(at[0] >= last + 99 && at[0] < last + 300, `shown ${Math.round(at[0] - last)} ms after the last change`);
  });

  it('with a timing of its own (the trust notice: once unchanged for 300 ms, however long the changes go on)', async function () {
    this.timeout(10_000);
    refresh.dispose();
    refresh = new CoalescedRefresh(() => at.push(performance.now() - start), { minDelayMs: 300, quietMs: 300, maxDelayMs: Infinity });
    const last = await changes(50, 1500);
    assert.deepStrictEqual(at, [], 'nothing while the changes go on');
    await sleep(500);
    assert.strictEqual(at.length, 1);
    assert.ok(at[0] >= last + 299 && at[0] < last + 500, `${Math.round(at[0] - last)} ms after the last change`);
  });

  it('shows a burst that goes on once a second, not at each change', async function () {
    this.timeout(10_000);
    const last = await changes(10, 2600);
    await sleep(400);
    assert.ok(at.length >= 2 && at.length <= 4, `${at.length} refreshes for changes over ${Math.round(last)} ms: ${at.map(Math.round).join(', ')}`);
    assert.ok(at[0] >= 999, `the first ${Math.round(at[0])} ms after the burst began`);
    for (let i = 1; i < at.length; i++) assert.ok(at[i] - at[i - 1] >= 249, `refreshes ${Math.round(at[i] - at[i - 1])} ms apart`);
    assert.ok(at.at(-1)! >= last + 99, 'the last change is shown once the burst ended');
  });

  it('shows a change that must be listed now at once, with the held ones, and no second time for them', async () => {
    refresh.schedule();
    await sleep(50);
    refresh.now();
    assert.strictEqual(at.length, 1, 'at once');
    assert.ok(at[0] < 100, `shown after ${Math.round(at[0])} ms`);
    await sleep(400);
    assert.strictEqual(at.length, 1, 'the held burst went with it');
    refresh.schedule();
    await sleep(400);
    assert.strictEqual(at.length, 2, 'later changes coalesce as before');
    assert.ok(at[1] - at[0] >= 249);
  });
});
