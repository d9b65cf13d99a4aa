import * as assert from 'assert';
import { guardedFetch } from '../../src/core/protocol/connection/guardedFetch.lazy';

/** A reply of `total` bytes of the given type, in 64 KB chunks, made as it is read (never held whole). */
function reply(contentType: string, total: number, status = 200): Response {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return new Response(body, { status, headers: { 'content-type': contentType } });
}

describe('guarded fetch: every reply has a cap', () => {
  const MB = 1024 * 1024;
  for (const type of ['application/json', 'text/plain', 'application/octet-stream']) {
    it(`a ${type} reply (a JSON answer, OAuth metadata) over the cap: cut with an error, the session told`, async () => {
      const violations: Error[] = [];
      const fetch = guardedFetch({ serverUrl: 'https://mcp.example/mcp', maxBodyBytes: MB, onViolation: (e) => violations.push(e), fetch: async () => reply(type, 3 * MB) });
      const response = await fetch('https://mcp.example/.well-known/oauth-authorization-server');
      await assert.rejects(response.text(), /over 1 MB/);
      assert.strictEqual(violations.length, 1);
    });
  }

  it('a reply under the cap arrives whole, and a 204 stays as it is', async () => {
    const fetch = guardedFetch({ serverUrl: 'https://mcp.example/mcp', maxBodyBytes: MB, onViolation: () => assert.fail('no violation'), fetch: async () => reply('application/json', 512 * 1024) });
    assert.strictEqual((await (await fetch('https://mcp.example/mcp')).arrayBuffer()).byteLength, 512 * 1024);
    const empty = guardedFetch({ serverUrl: 'https://mcp.example/mcp', onViolation: () => undefined, fetch: async () => new Response(null, { status: 204 }) });
    assert.strictEqual((await empty('https://mcp.example/mcp')).status, 204);
  });
});
