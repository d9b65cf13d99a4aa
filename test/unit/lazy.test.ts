// The lazy parts the composition root hands out (src/core/common/lazy.ts): built at their first use, once, and never
// by what only passes them around (an await, a dispose of a part never used).
import * as assert from 'assert';
import { builtPart, lazyFunction, lazyObject } from '../../src/core/common/lazy';

class Counter {
  count = 0;
  disposed = false;
  increment(by = 1): number {
    this.count += by;
    return this.count;
  }
  dispose(): void {
    this.disposed = true;
  }
}

describe('lazy parts', () => {
  it('builds an object at the first read of a member, once, with its methods bound to it', () => {
    let builds = 0;
    const counter = lazyObject(() => (builds++, new Counter()));
    assert.strictEqual(builds, 0, 'handing it out builds nothing');
    assert.strictEqual(builtPart(counter), undefined);
    const { increment } = counter;
    assert.strictEqual(builds, 1);
    assert.strictEqual(increment(2), 2, 'a method taken off the part still runs on the built object');
    assert.strictEqual(counter.increment(), 3);
    assert.strictEqual(counter.count, 3);
    assert.strictEqual(builds, 1);
    assert.ok(builtPart(counter) instanceof Counter);
  });

  it('is no thenable, and disposing a part never built builds nothing', async () => {
    let builds = 0;
    const counter = lazyObject(() => (builds++, new Counter()));
    const awaited = await (async () => counter)();
    assert.strictEqual(awaited, counter);
    counter.dispose();
    assert.strictEqual(builds, 0);
    counter.increment();
    counter.dispose();
    assert.strictEqual(builtPart(counter)?.disposed, true, 'a built part is disposed');
  });

  it('writes through to the built object', () => {
    const counter = lazyObject(() => new Counter());
    counter.count = 41;
    assert.strictEqual(counter.increment(), 42);
    assert.ok('increment' in counter);
  });

  it('builds a function at its first call, once', () => {
    let builds = 0;
    const double = lazyFunction(() => (builds++, (n: number) => n * 2));
    assert.strictEqual(builds, 0);
    assert.deepStrictEqual([double(1), double(2)], [2, 4]);
    assert.strictEqual(builds, 1);
  });

  it('says a plain object is built: it is no lazy part', () => {
    const plain = new Counter();
    assert.strictEqual(builtPart(plain), plain);
  });
});
