// The remote session's own requests (those renewing an expired session), against a scripted transport: failures
// must reach the caller that waits for them, never surface as unhandled rejections.
import * as assert from 'assert';
import { SdkErrorCode, SdkHttpError, StreamableHTTPClientTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { RenewingTransport } from '../../src/core/protocol/connection/renewingTransport.lazy';
import { sleep } from './helpers';
import { MemoryLog } from './hostTestKit';

const initialize: JSONRPCMessage = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};

describe('remote session', () => {
  it('times out a renewal whose initialize is slow to send, without an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const inner = new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'));
      Object.defineProperty(inner, 'sessionId', { value: 'forgotten-session' });
      inner.send = async (message: JSONRPCMessage) => {
        if (!('method' in message) || !('id' in message)) return;
        if (message.method === 'tools/list') throw new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'HTTP 404', { status: 404 });
        // The renewal's own initialize: sent long after its answer was due.
        if (String(message.id).startsWith('mcp-host-session-')) await sleep(200);
      };
      const session = new RenewingTransport(inner, { log: new MemoryLog(), requestTimeoutMs: 50 });
      await session.send(initialize);
      await assert.rejects(session.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), /initialize got no answer within/);
      // Past the slow send, and a turn of the event loop for Node to report unhandled rejections.
      await sleep(300);
      assert.deepStrictEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
