// The agent's side of the gateway figures of `npm run bench` (scripts/bench.mjs), in a process of its own so that the
// bench's process holds only what the extension host would (the gateway and the host): SDK clients connected to the
// gateway over HTTP, told what to do over IPC. Messages: {connect, clients} → {connected}; {calls, name} → {ms, cpuMs}
// (that many tools/call one after another, by the first client); {floorCalls, url, name} → {ms, cpuMs} (as many
// tools/call by plain fetch to the bench's plain HTTP relay, the floor); {together, name} → {ms, served} (one call by
// each client at once); {close} ends it.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json'));
const { Client, StreamableHTTPClientTransport } = require('@modelcontextprotocol/client');

const [url, token] = process.argv.slice(2);
let clients = [];

const connect = async (name) => {
  const client = new Client({ name, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
};

process.on('message', async (message) => {
  try {
    if (message.connect) {
      await Promise.allSettled(clients.map((c) => c.close()));
      const made = await Promise.allSettled(Array.from({ length: message.clients }, (_, i) => connect(`bench agent ${i}`)));
      clients = made.filter((m) => m.status === 'fulfilled').map((m) => m.value);
      process.send({ connected: clients.length });
    } else if (message.calls) {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < message.calls; i++) await clients[0].callTool({ name: message.name, arguments: { text: `hello ${i}` } });
      const { user, system } = process.cpuUsage(cpu);
      process.send({ ms: performance.now() - t0, cpuMs: (user + system) / 1000 });
    } else if (message.floorCalls) {
      // The floor: plain fetch of JSON-RPC to a plain HTTP relay (scripts/bench.mjs), no MCP client, no session.
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < message.floorCalls; i++) {
        const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: message.name, arguments: { text: `hello ${i}` } } });
        const response = await fetch(message.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        const answer = await response.json();
        if (!answer.result) throw new Error(`the floor's relay answered ${JSON.stringify(answer).slice(0, 200)}`);
      }
      const { user, system } = process.cpuUsage(cpu);
      process.send({ ms: performance.now() - t0, cpuMs: (user + system) / 1000 });
    } else if (message.together) {
      const t0 = performance.now();
      const results = await Promise.allSettled(clients.map((c) => c.callTool({ name: message.name, arguments: { text: 'together' } })));
      process.send({ ms: performance.now() - t0, served: results.filter((r) => r.status === 'fulfilled' && !r.value.isError).length });
    } else if (message.close) {
      await Promise.allSettled(clients.map((c) => c.close()));
      process.exit(0);
    }
  } catch (e) {
    process.send({ error: e instanceof Error ? e.message : String(e) });
  }
});
process.send({ ready: true });
