// The leak check of the unit suites (./leakCheck.ts) sees what it must: a listener added and left, not one removed or
// whose emitter was disposed.
import * as assert from 'assert';
import { Emitter } from '../../src/core/common/events';
import { liveListeners } from './leakCheck';

describe('the unit suites’ leak check', () => {
  it('counts a listener added during the test until it is removed', () => {
    const emitter = new Emitter<number>();
    const before = liveListeners().length;
    const listening = emitter.event(() => undefined);
    assert.strictEqual(liveListeners().length, before + 1);
    assert.match(liveListeners()[before], /leakCheck\.test/, 'it says where the listener was added');
    listening.dispose();
    assert.strictEqual(liveListeners().length, before);
  });

  it('ends the listeners of an emitter disposed, and counts one listener added twice once', () => {
    const emitter = new Emitter<number>();
    const before = liveListeners().length;
    const listener = () => undefined;
    emitter.event(listener);
    emitter.event(listener);
    assert.strictEqual(liveListeners().length, before + 1);
    emitter.dispose();
    assert.strictEqual(liveListeners().length, before);
  });
});
