// A message over the cap ends the session, and nothing after it in the same read is delivered: an answer that followed
// the oversized line (as a hostile server's "sent" after its huge message) must not settle a request.
import * as assert from 'assert';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioTransport } from '../../src/core/protocol/connection/stdioTransport.lazy';
import { ServerProcess } from '../../src/core/protocol/launch/serverProcess.lazy';
import { waitFor } from './helpers';

describe('the stdio transport’s message cap', function () {
  this.timeout(30_000);
  it('delivers nothing that follows a message over the cap, even in the same read', async () => {
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    // One write of 5 KB: the oversized line, then a valid answer; well under a pipe's buffer, so one read.
    const script = `process.stdout.write('x'.repeat(4000) + '\\n' + ${JSON.stringify(answer)} + '\\n'); setTimeout(() => {}, 5000);`;
    const messages: JSONRPCMessage[] = [];
    const errors: string[] = [];
    const transport = new StdioTransport({
      process: () => new ServerProcess({ command: process.execPath, args: ['-e', script], env: { ...(process.env as Record<string, string>) } }),
      maxMessageBytes: 1000,
      maxStderrLineBytes: 1000,
      onStderrLine: () => undefined,
    });
    transport.onmessage = (m) => messages.push(m);
    transport.onerror = (e) => errors.push(e.message);
    let closed = false;
    transport.onclose = () => (closed = true);
    await transport.start();
    try {
      await waitFor(() => errors.length > 0, 'the overflow reported', 5000);
      assert.match(errors[0], /over 0 MB: the session was ended/);
      await waitFor(() => closed, 'the session closed', 15_000);
      assert.deepStrictEqual(messages, [], 'the answer after it was not delivered');
    } finally {
      await transport.close();
    }
  });
});
