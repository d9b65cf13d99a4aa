// The loopback listener that receives the browser's redirect after signing in.
import * as assert from 'assert';
import { LoopbackRedirectReceiver } from '../../src/core/protocol/auth/loopbackRedirect.lazy';

describe('loopback redirect receiver', () => {
  const receivers: LoopbackRedirectReceiver[] = [];
  const receiver = () => {
    const r = new LoopbackRedirectReceiver();
    receivers.push(r);
    return r;
  };
  afterEach(() => receivers.splice(0).forEach((r) => r.dispose()));

  it('delivers the redirect carrying the awaited state, once, and turns everything else away', async () => {
    const r = receiver();
    const port = await r.listen();
    const waiting = r.waitFor('s-123', new AbortController().signal);
    const stranger = await fetch(`http://127.0.0.1:${port}/callback?code=x&state=other`);
    assert.strictEqual(stranger.status, 404);
    const page = await fetch(`http://127.0.0.1:${port}/callback?code=abc&state=s-123&iss=https%3A%2F%2Fas.example`);
    assert.strictEqual(page.status, 200);
    assert.match(await page.text(), /Signed in/);
    const params = await waiting;
    assert.deepStrictEqual(Object.fromEntries(params), { code: 'abc', state: 's-123', iss: 'https://as.example' });
    assert.strictEqual((await fetch(`http://127.0.0.1:${port}/callback?code=abc&state=s-123`)).status, 404, 'a replay is refused');
  });

  it('tells the user when the authorization server refused', async () => {
    const r = receiver();
    const port = await r.listen();
    const waiting = r.waitFor('s', new AbortController().signal);
    const page = await fetch(`http://127.0.0.1:${port}/callback?error=access_denied&state=s`);
    assert.match(await page.text(), /did not complete/);
    assert.strictEqual((await waiting).get('error'), 'access_denied');
  });

  it('stops waiting when the sign-in is abandoned', async () => {
    const r = receiver();
    const port = await r.listen();
    const abort = new AbortController();
    const waiting = r.waitFor('s', abort.signal);
    abort.abort();
    await assert.rejects(waiting, /abandoned/);
    assert.strictEqual((await fetch(`http://127.0.0.1:${port}/callback?code=c&state=s`)).status, 404);
  });

  it('listens again after a failed attempt, rather than keeping the failure', async () => {
    const r = receiver();
    await assert.rejects(r.listen(70_000), /port/i);
    const port = await r.listen();
    assert.ok(port > 0);
  });

  it('listens on the preferred port when it is free, and on another when it is taken', async () => {
    const first = receiver();
    const port = await first.listen();
    first.dispose();
    const again = receiver();
    assert.strictEqual(await again.listen(port), port);
    const other = receiver();
    const fallback = await other.listen(port);
    assert.notStrictEqual(fallback, port);
  });
});
