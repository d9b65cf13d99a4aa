// The host-owned request path beside the SDK's (RawRequests on the TracingTransport): its answers are taken off the
// wire before the SDK sees them, other messages pass, and every request ends (answer, error, timeout, signal, session end).
import * as assert from 'assert';
import { InMemoryTransport, ProtocolError, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { TracingTransport } from '../../src/core/protocol/connection/handshake.lazy';
import { RawRequests } from '../../src/core/protocol/connection/rawRequests.lazy';
import type { ServerLog } from '../../src/core/common/log';

const quietLog = { logLevel: 'info', trace() {}, debug() {}, info() {}, warn() {}, error() {} } as unknown as ServerLog;

describe('raw requests beside the SDK', () => {
  let raw: RawRequests;
  let server: InMemoryTransport;
  let toServer: JSONRPCMessage[];
  let toSdk: JSONRPCMessage[];

  beforeEach(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    server = serverSide;
    toServer = [];
    toSdk = [];
    server.onmessage = (m) => toServer.push(m);
    await server.start();
    raw = new RawRequests();
    const wire = new TracingTransport(clientSide, quietLog, undefined, undefined, undefined, (m) => raw.take(m));
    wire.onmessage = (m) => toSdk.push(m);
    await wire.start();
    raw.attach((m) => wire.send(m));
  });

  const lastRequest = async () => {
    for (let i = 0; i < 50 && !toServer.some((m) => 'id' in m && 'method' in m); i++) await new Promise((r) => setTimeout(r, 5));
    return toServer.filter((m) => 'id' in m && 'method' in m).at(-1) as { id: string; method: string; params: unknown };
  };

  it('sends with an id of its own and takes the answer off the wire; the SDK gets the rest', async () => {
    const answer = raw.request('tasks/get', { taskId: 't1' });
    const sent = await lastRequest();
    assert.strictEqual(sent.method, 'tasks/get');
    assert.deepStrictEqual(sent.params, { taskId: 't1' });
    assert.ok(typeof sent.id === 'string' && sent.id.startsWith('mcp-host-raw-'));
    await server.send({ jsonrpc: '2.0', id: 7, result: { for: 'the sdk' } });
    await server.send({ jsonrpc: '2.0', id: sent.id, result: { resultType: 'task', taskId: 't1' } });
    assert.deepStrictEqual(await answer, { resultType: 'task', taskId: 't1' });
    assert.deepStrictEqual(toSdk, [{ jsonrpc: '2.0', id: 7, result: { for: 'the sdk' } }]);
    assert.strictEqual(raw.inFlight, 0);
  });

  it('rejects with a ProtocolError on an error answer', async () => {
    const answer = raw.request('tasks/get', { taskId: 'gone' });
    const sent = await lastRequest();
    await server.send({ jsonrpc: '2.0', id: sent.id, error: { code: -32602, message: 'Unknown task' } });
    await assert.rejects(answer, (e: unknown) => e instanceof ProtocolError && e.code === -32602 && /Unknown task/.test(e.message));
    assert.deepStrictEqual(toSdk, []);
  });

  it('gives up at its timeout, tells the server, and a late answer still never reaches the SDK', async () => {
    const answer = raw.request('tasks/get', { taskId: 'slow' }, { timeout: 50 });
    const sent = await lastRequest();
    await assert.rejects(answer, /did not answer tasks\/get within/);
    assert.ok(toServer.some((m) => 'method' in m && m.method === 'notifications/cancelled' && (m.params as { requestId?: unknown }).requestId === sent.id));
    await server.send({ jsonrpc: '2.0', id: sent.id, result: {} });
    assert.deepStrictEqual(toSdk, []);
  });

  it('progress for its token restarts its timeout, as the SDK does for its own requests', async () => {
    const answer = raw.request('tools/call', { name: 'slow' }, { timeout: 150, progressToken: 'p-1' });
    const sent = await lastRequest();
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 100));
      raw.progressed('p-1');
      raw.progressed('someone else');
    }
    // 400 ms after it was sent, more than twice its timeout: still waiting, then answered.
    await server.send({ jsonrpc: '2.0', id: sent.id, result: { content: [] } });
    assert.deepStrictEqual(await answer, { content: [] });
  });

  it("ends with its caller's signal", async () => {
    const stop = new AbortController();
    const answer = raw.request('tasks/get', { taskId: 'x' }, { signal: stop.signal });
    await lastRequest();
    stop.abort(new Error('the user stopped waiting'));
    await assert.rejects(answer, /the user stopped waiting/);
    assert.strictEqual(raw.inFlight, 0);
  });

  it('ends with the session: in-flight and later requests reject, nothing hangs', async () => {
    const answer = raw.request('tasks/get', { taskId: 'x' });
    await lastRequest();
    raw.close(new Error('The session with "s" has ended.'));
    await assert.rejects(answer, /has ended/);
    await assert.rejects(raw.request('tasks/get', { taskId: 'y' }), /has ended/);
  });
});
