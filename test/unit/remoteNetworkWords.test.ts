// Issue 41, item 7: a remote server that cannot be reached was explained by Node's code ("ENOTFOUND", "EAI_AGAIN"),
// or by the raw SSE error ("SSE error: TypeError: fetch failed: getaddrinfo ENOTFOUND …"). The row says in words what
// went wrong and what to check.
import * as assert from 'assert';
import { describeStartFailure } from '../../src/core/protocol/connection/startErrors.lazy';
import type { ServerDefinition } from '../../src/core/config/serverDefinition';
import { waitFor } from './helpers';
import { createKit, entry, serverState, userScope, type Kit } from './hostTestKit';

const remote = (url: string) => ({ resolved: { type: 'sse', url } }) as unknown as ServerDefinition;

describe('a remote server that cannot be reached, in words', function () {
  this.timeout(30_000);
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.manager.disposeAsync();
    kit = undefined;
  });

  it("words the code the SSE fallback's error names only in its message", () => {
    const error = describeStartFailure(new Error('SSE error: TypeError: fetch failed: getaddrinfo ENOTFOUND events.example.com'), remote('https://events.example.com/sse'), 10_000, []);
    assert.strictEqual(error.message, 'Cannot reach events.example.com: its address could not be found (no network connection, a DNS problem, or a mistyped address). Check the URL and your network.');
  });

  it('says so in words for an address that can never be found, without the code', async () => {
    kit = createKit();
    await kit.update(userScope, [entry('nowhere', { type: 'http', url: 'http://nowhere.invalid/mcp', headers: {} })], []);
    const state = await waitFor(() => {
      const s = serverState(kit!, 'nowhere')?.state;
      return s?.kind === 'error' && s;
    }, 'nowhere in error', 20_000);
    const message = (state as { message: string }).message;
    assert.match(message, /^Cannot reach nowhere\.invalid: /);
    assert.doesNotMatch(message, /\bE[A-Z_]{3,}\b/, `no error code in: ${message}`);
  });
});
