// Issue 40: what Import Servers… and the registry's Install for User write into the user's files started with no trust
// question at every VS Code start (Restricted Mode included); the user had seen a preview, not what would run. Such an
// entry now asks the trust question at its first start, as a workspace's entries do, and runs as the user's others once
// trusted.
import * as assert from 'assert';
import { FirstStartMarks } from '../../src/core/host/firstStartMarks';
import { fixtureServer } from './helpers';
import { blockOf, createKit, entry, MemoryStore, serverState, stdio, userScope, waitForState, type Kit } from './hostTestKit';

const planted = () => stdio(process.execPath, [fixtureServer('basic-server.mjs')]);

describe('attack: an entry imported into the user file runs at every start without a question', function () {
  this.timeout(30_000);
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    kit = undefined;
  });

  const kitWithMarks = (store = new MemoryStore()) => {
    const firstStarts = new FirstStartMarks(store);
    kit = createKit({ firstStarts }, { trustAllServers: false });
    return { kit, firstStarts };
  };

  it('asks the trust question at the first start of an imported entry, even in Restricted Mode, and nothing runs on a "no"', async () => {
    const { kit, firstStarts } = kitWithMarks();
    kit.workspaceTrusted = false;
    await firstStarts.mark(userScope.key, ['imported']);
    kit.trustAnswers.push(false);
    await kit.update(userScope, [entry('imported', planted())], []);
    assert.deepStrictEqual(kit.trustAsked, ['imported'], 'asked about before it ran');
    assert.strictEqual(blockOf(serverState(kit, 'imported'))?.reason, 'untrusted', 'refused: not started');
    assert.ok(firstStarts.has(userScope.key, 'imported'), 'still to be asked: a "no" is no trust');
  });

  it('runs a trusted imported entry, and asks nothing at the next start (it is then one of the user\'s entries)', async () => {
    const store = new MemoryStore();
    const { kit, firstStarts } = kitWithMarks(store);
    await firstStarts.mark(userScope.key, ['imported']);
    kit.trustAnswers.push(true);
    await kit.update(userScope, [entry('imported', planted())], []);
    await waitForState(kit, 'imported', 'running');
    assert.deepStrictEqual(kit.trustAsked, ['imported']);
    assert.ok(!firstStarts.has(userScope.key, 'imported'), 'the mark is gone once trusted');
    await kit.manager.get(serverState(kit, 'imported')!.id)!.restart();
    await waitForState(kit, 'imported', 'running');
    assert.deepStrictEqual(kit.trustAsked, ['imported'], 'not asked again');
  });

  it("asks nothing for the user's own entries (written by hand), as VS Code does", async () => {
    const { kit } = kitWithMarks();
    await kit.update(userScope, [entry('mine', planted())], []);
    await waitForState(kit, 'mine', 'running');
    assert.deepStrictEqual(kit.trustAsked, []);
  });

  it('keeps marks in a store that garbage or another type in it cannot break', async () => {
    const store = new MemoryStore();
    await store.update('mcpHost.firstStartMarks', { not: 'a list' });
    const marks = new FirstStartMarks(store);
    assert.strictEqual(marks.has(userScope.key, 'x'), false);
    await marks.mark(userScope.key, ['x', 'y']);
    await marks.mark(userScope.key, ['x']);
    assert.ok(marks.has(userScope.key, 'x') && marks.has(userScope.key, 'y'));
    assert.ok(!marks.has('another file', 'x'), 'per file');
    await marks.clear(userScope.key, 'x');
    assert.ok(!marks.has(userScope.key, 'x') && marks.has(userScope.key, 'y'));
  });
});
