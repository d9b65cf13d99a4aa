// Secrets never reach a server's log: the masking itself, and OAuth tokens a server echoes back while traffic is traced.
import * as assert from 'assert';
import { AuthStatusStore } from '../../src/core/auth/authStatus';
import { authStorageKey } from '../../src/core/auth/authRecords';
import { oauthProviderFactory } from '../../src/core/protocol/auth/oauthProviderFactory.lazy';
import { headlessInteraction, MemorySecretStore } from '../../src/cli/headlessPorts';
import { redact, redactingLog } from '../../src/core/host/redactingLog';
import { createKit, entry, MemoryLog, userScope, waitForState } from './hostTestKit';
import { startOAuthFixture } from './remoteTestKit';

describe('secret redaction in logs', function () {
  this.timeout(30_000);

  it('masks every secret, the longest first, and leaves values too short to be secrets', () => {
    assert.strictEqual(redact('Bearer abc123 and abc123xyz', ['abc123', 'abc123xyz', 'ab']), 'Bearer •••••• and ••••••');
    assert.strictEqual(redact('a b', ['a']), 'a b');
    const log = new MemoryLog();
    const secrets = ['first'];
    const masked = redactingLog(log, () => secrets);
    masked.info('first');
    secrets.push('second');
    masked.error('first second third');
    assert.deepStrictEqual(log.lines, ['[info] ••••••', '[error] •••••• •••••• third'], 'secrets are read at each line');
  });

  it('a password a server\'s JSON escapes differently (\\u00f6, \\u00F6, \\/, a surrogate pair, JSON in JSON) is masked all the same', () => {
    const secret = 'pässwörd/😀"x';
    const forms = [
      secret,
      JSON.stringify(secret).slice(1, -1),
      'p\\u00e4ssw\\u00F6rd\\/\\ud83d\\ude00\\"x',
      '\\u0070\\u00e4sswörd/😀\\"x',
      JSON.stringify(JSON.stringify(secret)).slice(3, -3).replace('ö', '\\\\u00f6'),
    ];
    for (const form of forms) assert.strictEqual(redact(`{"echo":"${form}"}`, [secret]), '{"echo":"••••••"}', form);
  });

  it('masking stays linear on a long run of backslashes', () => {
    const started = performance.now();
    redact('\\'.repeat(200_000), ['secret\\value']);
    assert.ok(performance.now() - started < 500, `took ${Math.round(performance.now() - started)} ms`);
  });

  it('never logs the OAuth tokens or the PKCE verifier, even when the server echoes the token in traced traffic', async () => {
    const fixture = await startOAuthFixture();
    const store = new MemorySecretStore();
    const kit = createKit({
      authProvider: oauthProviderFactory({ store, status: new AuthStatusStore(), interaction: headlessInteraction('http://127.0.0.1:9/callback'), clientName: 'tests' }),
    });
    try {
      kit.log('secured').setLevel('trace');
      await kit.update(userScope, [entry('secured', { type: 'http', url: fixture.url, headers: {} })], []);
      await waitForState(kit, 'secured', 'running');
      const client = kit.manager.session('user::secured');
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      const record = JSON.parse(store.data.get(authStorageKey('user::secured'))!);
      const { access_token, refresh_token } = record.tokens.tokens;
      assert.ok(JSON.stringify(result).includes(access_token), 'the server did echo the token');
      const log = kit.log('secured').text;
      assert.match(log, /Signed in as alice@example\.com/);
      for (const secret of [access_token, refresh_token, record.codeVerifier]) assert.ok(!log.includes(secret), 'secret not in the log');
      assert.match(log, /authorization.{0,10}Bearer ••••••/);
    } finally {
      await kit.manager.disposeAsync();
      await fixture.stop();
    }
  });
});
