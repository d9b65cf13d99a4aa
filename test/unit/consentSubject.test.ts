// A consent's subject (the server's definition as written) is hashed once per definition object, not at every call;
// another definition, scope or name still gets its own.
import * as assert from 'assert';
// The module itself (not an import's read-only view of it), so that its createHash can be counted.
import crypto = require('crypto');
import { consentSubject } from '../../src/core/features/consentSubject';
import type { RawServer } from '../../src/core/config/serverDefinition';

describe('consent subject', () => {
  const user = { key: 'user' };
  const workspace = { key: 'workspace:/w' };

  it('is hashed once per definition object, and differs with the definition, scope and name', () => {
    const definition = { type: 'stdio', command: 'node', args: ['server.js'] } as RawServer;
    const createHash = crypto.createHash;
    let hashes = 0;
    crypto.createHash = ((...args: Parameters<typeof crypto.createHash>) => (hashes++, createHash(...args))) as typeof crypto.createHash;
    let first: string;
    try {
      first = consentSubject(user, 'alpha', definition);
      for (let i = 0; i < 99; i++) assert.strictEqual(consentSubject(user, 'alpha', definition), first);
    } finally {
      crypto.createHash = createHash;
    }
    assert.strictEqual(hashes, 1, `hashed ${hashes} times for 100 calls`);
    // The same content in a new object (a file edited back): the same subject.
    assert.strictEqual(consentSubject(user, 'alpha', { ...definition }), first);
    assert.notStrictEqual(consentSubject(user, 'alpha', { ...definition, args: ['other.js'] } as RawServer), first);
    assert.notStrictEqual(consentSubject(workspace, 'alpha', definition), first);
    assert.notStrictEqual(consentSubject(user, 'beta', definition), first);
    assert.strictEqual(consentSubject(user, 'alpha', definition), first);
  });
});
