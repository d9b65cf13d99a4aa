// What a remote server's refusal reads like: legacy SSE is tried only where the spec says (the initial POST answered
// 404 or 405), and when that fallback fails too, the first, real answer is the message.
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import { createKit, entry, userScope, waitForState, type Kit } from './hostTestKit';

/** A loopback HTTP server answering every POST and GET with fixed statuses and bodies; it records what came. */
async function answering(post: { status: number; body: string }, get: { status: number; body: string }) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    const answer = req.method === 'POST' ? post : get;
    res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('remote transport errors', function () {
  this.timeout(30_000);
  let kit: Kit;
  let close: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await kit?.manager.disposeAsync();
    await close?.();
  });

  const failureOf = async (url: string) => {
    kit = createKit();
    await kit.update(userScope, [entry('remote', { type: 'http', url, headers: {} })], []);
    const info = await waitForState(kit, 'remote', 'error');
    return { message: (info.state as { message: string }).message, log: kit.log('remote').text };
  };

  it('a 400 from a server that speaks Streamable HTTP is shown as itself, with no SSE fallback', async () => {
    const server = await answering({ status: 400, body: 'Bad Request: Unsupported protocol version (supported: 2027-01-01)' }, { status: 405, body: '' });
    close = server.close;
    const { message, log } = await failureOf(server.url);
    assert.match(message, /127\.0\.0\.1:\d+ answered HTTP 400 Bad Request: Bad Request: Unsupported protocol version \(supported: 2027-01-01\)/);
    assert.doesNotMatch(log, /trying the older one it may expect \(legacy SSE\)|Connecting \(SSE\)/);
    assert.ok(!server.seen.some((s) => s.startsWith('GET')), `no SSE stream was opened: ${server.seen.join(', ')}`);
  });

  it('a 404 to the POST tries legacy SSE; when that fails too, the 404 is the message', async () => {
    const server = await answering({ status: 404, body: 'Not Found' }, { status: 500, body: 'broken' });
    close = server.close;
    const { message, log } = await failureOf(server.url);
    assert.match(log, /The server refused the current way of connecting \(Streamable HTTP: HTTP 404\); trying the older one it may expect \(legacy SSE\)/);
    assert.match(log, /The older way \(legacy SSE\) failed too/);
    assert.ok(server.seen.some((s) => s.startsWith('GET')), 'SSE was tried');
    assert.match(message, /answered HTTP 404 Not Found: Not Found/);
    assert.doesNotMatch(message, /500|broken/);
  });

  it('a 405 to the POST tries legacy SSE too', async () => {
    const server = await answering({ status: 405, body: 'Method Not Allowed' }, { status: 404, body: 'no' });
    close = server.close;
    const { message, log } = await failureOf(server.url);
    assert.match(log, /The server refused the current way of connecting \(Streamable HTTP: HTTP 405\); trying the older one it may expect \(legacy SSE\)/);
    assert.match(message, /answered HTTP 405/);
  });
});
