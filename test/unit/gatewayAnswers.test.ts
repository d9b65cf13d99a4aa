// How the gateway writes its answers (issue 45's cost per call): a quick answer leaves in one write, its headers with
// it; a slow one's headers do not wait for it; a client that goes away mid-call still cancels the call (the request's
// abort now fires only then, not at the end of every answered request).
import * as assert from 'assert';
import * as net from 'net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { GatewayRelay, type GatewayCaller, type RelayOptions } from '../../src/core/features/gateway/gatewayRelay';
import { startGateway, type RunningGateway } from '../../src/core/features/gateway/gatewayHttp.lazy';
import { newGatewayPath, newGatewaySecret } from '../../src/core/features/gateway/gatewayRequestCheck';
import { waitFor } from './helpers';
import { createKit, type Kit } from './hostTestKit';
import { guardedCaller, startAlphaAndSlow } from './gatewayTestKit';

/** The relay, noting the signal each tool call was given. */
class SignalNotingRelay extends GatewayRelay {
  readonly signals: AbortSignal[] = [];
  override callTool(client: GatewayCaller, name: unknown, args: unknown, options: RelayOptions = {}) {
    if (options.signal) this.signals.push(options.signal);
    return super.callTool(client, name, args, options);
  }
}

interface Received {
  /** The bytes of each read, in order, with when it came (ms after the request was written). */
  reads: { at: number; text: string }[];
  text: string;
}

describe('the gateway writing its answers', function () {
  this.timeout(60_000);
  let kit: Kit;
  let gateway: RunningGateway;
  let relay: SignalNotingRelay;
  const clients: Client[] = [];

  before(async () => {
    kit = createKit();
    await startAlphaAndSlow(kit);
    relay = new SignalNotingRelay({ sessions: kit.manager, caller: guardedCaller(kit, async () => 'always') });
    gateway = await startGateway({ relay, onDidChangeServers: (l) => kit.manager.onDidChangeServers(l), path: newGatewayPath(), token: newGatewaySecret(), version: '0.0.0' });
  });

  after(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    await gateway.stop();
    await kit.manager.disposeAsync();
  });

  /** One HTTP/1.1 exchange on a socket of its own, every read kept apart: what the gateway wrote, write by write. */
  const exchange = (body: string, headers: Record<string, string> = {}, until: (text: string) => boolean = (t) => t.endsWith('\r\n0\r\n\r\n')) =>
    new Promise<Received>((resolve, reject) => {
      const socket = net.connect(gateway.address.port, '127.0.0.1');
      const reads: Received['reads'] = [];
      let started = 0;
      const head = {
        host: `127.0.0.1:${gateway.address.port}`,
        authorization: `Bearer ${gateway.address.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': String(Buffer.byteLength(body)),
        ...headers,
      };
      socket.on('connect', () => {
        started = performance.now();
        socket.write(`POST ${gateway.address.path} HTTP/1.1\r\n${Object.entries(head).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`);
      });
      socket.on('data', (data) => {
        reads.push({ at: performance.now() - started, text: data.toString('utf8') });
        const text = reads.map((r) => r.text).join('');
        if (until(text)) {
          socket.destroy();
          resolve({ reads, text });
        }
      });
      socket.on('error', reject);
    });

  /** A 2025-era session begun by hand: its id. */
  const legacySession = async (): Promise<string> => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
    const answered = await exchange(init, {}, (t) => t.includes('"serverInfo"'));
    const id = /mcp-session-id: ([^\r\n]+)/i.exec(answered.text)?.[1];
    assert.ok(id, answered.text);
    await exchange(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, (t) => t.startsWith('HTTP/1.1 202'));
    return id;
  };
  const call = (id: number, name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

  it('a quick answer leaves in one write: its headers with its event, not a write each', async () => {
    const session = await legacySession();
    const answered = await exchange(call(2, 'alpha_echo', { text: 'one write' }), { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    assert.match(answered.text, /^HTTP\/1\.1 200/);
    assert.match(answered.text, /one write/);
    assert.match(answered.reads[0].text, /text\/event-stream[\s\S]*\r\n\r\n[\s\S]*one write/, `the first read held only: ${JSON.stringify(answered.reads[0].text)}`);
  });

  it("a slow answer's headers do not wait for it: the client has them at once", async () => {
    const session = await legacySession();
    const answered = await exchange(call(3, 'slow_sleep', { ms: 1500, silent: true }), { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    assert.match(answered.reads[0].text, /^HTTP\/1\.1 200[\s\S]*text\/event-stream/);
    assert.ok(answered.reads[0].at < 1000, `the headers came after ${Math.round(answered.reads[0].at)} ms`);
    assert.doesNotMatch(answered.reads[0].text, /slept/);
    assert.match(answered.text, /slept/);
  });

  it('a 2026-07-28 client that goes away mid-call cancels the call', async () => {
    const client = new Client({ name: 'Copilot CLI', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${gateway.address.token}` } } }));
    assert.strictEqual(client.getProtocolEra(), 'modern');
    const result = await client.callTool({ name: 'alpha_echo', arguments: { text: 'done' } });
    assert.deepStrictEqual(result.content, [{ type: 'text', text: 'done' }]);
    // Gone mid-call: the request's socket closes under a running call, which is cancelled.
    relay.signals.length = 0;
    const abort = new AbortController();
    const going = client.callTool({ name: 'slow_sleep', arguments: { ms: 20_000, silent: true } }, { signal: abort.signal }).catch(() => undefined);
    await waitFor(() => relay.signals.length === 1, 'the call to reach the relay');
    abort.abort();
    await going;
    await waitFor(() => relay.signals[0].aborted, 'the call to be cancelled');
  });
});
