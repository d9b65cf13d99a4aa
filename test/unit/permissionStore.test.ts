import * as assert from 'assert';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { TrustStore } from '../../src/core/host/trustStore';
import { MemoryStore } from './hostTestKit';

describe('PermissionStore', () => {
  const make = () => new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });

  it('keeps each decision once, where it applies, and a workspace decision wins', async () => {
    const store = make();
    await store.set({ kind: 'tool', key: 's/t', label: 'Tool t', decision: 'allow', scope: 'global' });
    assert.strictEqual(store.get('tool', 's/t')?.decision, 'allow');
    await store.set({ kind: 'tool', key: 's/t', label: 'Tool t', decision: 'deny', scope: 'workspace' });
    assert.strictEqual(store.get('tool', 's/t')?.decision, 'deny');
    assert.strictEqual(store.list().length, 1, 'setting again replaces, in whichever scope it was');
    assert.strictEqual(store.get('sampling', 's/t'), undefined, 'kinds are separate');
  });

  it('removes one decision, or resets by kind, and tells listeners', async () => {
    const store = make();
    let changes = 0;
    const listening = store.onDidChange(() => changes++);
    await store.set({ kind: 'tool', key: 'a', label: 'a', decision: 'allow', scope: 'workspace' });
    await store.set({ kind: 'sampling', key: 'b', label: 'b', decision: 'allow', scope: 'global' });
    await store.set({ kind: 'server-trust', key: 'c', label: 'c', decision: 'trusted', scope: 'global' });
    await store.remove('tool', 'a');
    assert.deepStrictEqual(store.list().map((r) => r.key).sort(), ['b', 'c']);
    assert.strictEqual(await store.reset('sampling'), 1);
    assert.deepStrictEqual(store.list().map((r) => r.key), ['c']);
    assert.strictEqual(await store.reset(), 1);
    assert.deepStrictEqual(store.list(), []);
    assert.strictEqual(changes, 6);
    listening.dispose();
  });

  it('holds server trust as one kind among the others', async () => {
    const permissions = make();
    const trust = new TrustStore(permissions);
    await trust.set('hash1', 'trusted', 'everything');
    await permissions.set({ kind: 'tool', key: 'x', label: 'x', decision: 'allow', scope: 'global' });
    assert.strictEqual(trust.get('hash1'), 'trusted');
    assert.match(permissions.list('server-trust')[0].label, /everything/);
    await trust.reset();
    assert.strictEqual(trust.get('hash1'), undefined);
    assert.strictEqual(permissions.list().length, 1, 'other decisions kept');
  });
});
