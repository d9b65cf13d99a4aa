// The trees' refresh: a change is shown 250 ms after it, with the others of that time; a burst of changes is drawn at
// most every 250 ms.
import * as assert from 'assert';
import { CoalescedRefresh } from '../../src/vscode/coalescedRefresh';
import { sleep } from './helpers';

describe('the trees’ coalesced refresh', () => {
  it('shows a change 250 ms after it, with those that came meanwhile, and a burst of changes at most every 250 ms', async () => {
    const at: number[] = [];
    const start = Date.now();
    const refresh = new CoalescedRefresh(() => at.push(Date.now() - start));
    try {
      refresh.schedule();
      await sleep(100);
      refresh.schedule();
      assert.strictEqual(at.length, 0, 'not yet: a quick start ends within the delay');
      await sleep(300);
      assert.strictEqual(at.length, 1, 'one refresh for the changes of that time');
      assert.ok(at[0] >= 245 && at[0] < 400, `shown after ${at[0]} ms`);
      // A change every 10 ms for about 900 ms: a refresh per 250 ms, not per change.
      const burstStart = Date.now();
      for (let i = 0; i < 90; i++) {
        refresh.schedule();
        await sleep(10);
      }
      const burstMs = Date.now() - burstStart;
      await sleep(300);
      const burst = at.slice(1);
      assert.ok(burst.length >= 2 && burst.length <= Math.ceil(burstMs / 250) + 1, `${burst.length} refreshes for 90 changes in ${burstMs} ms`);
      for (let i = 1; i < at.length; i++) assert.ok(at[i] - at[i - 1] >= 245, `refreshes ${at[i] - at[i - 1]} ms apart`);
    } finally {
      refresh.dispose();
    }
  });
});
