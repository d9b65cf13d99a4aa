#!/usr/bin/env node
// A tools/call through the gateway beside the same call made by a bare SDK client straight to the server, in plain
// Node, quick and alone (`npm run bench` has the same figures, with the client in a process of its own, in its "gateway"
// group: node scripts/bench.mjs --no-host --only=gateway). The host side is the core's server
// manager and the one guarded call path (consent answered "always" once, as a user would), with the gateway's HTTP
// server in this process, as in the extension host; the bare client speaks stdio to its own copy of the server.
// Prints the median wall time per call, sequential, then 20 clients calling at once. Run after `npm run compile`.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = (p) => require(path.join(root, 'out', p));
const { Client, StreamableHTTPClientTransport } = require('@modelcontextprotocol/client');
const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio');
const { startGateway } = out('src/core/features/gateway/gatewayHttp.lazy.js');
const { GatewayRelay } = out('src/core/features/gateway/gatewayRelay.js');
const { newGatewayPath, newGatewaySecret } = out('src/core/features/gateway/gatewayRequestCheck.js');
const { ToolCaller } = out('src/core/features/tools/toolCaller.js');
const { ToolConsent } = out('src/core/features/tools/toolConsent.js');
const { ActiveToolCalls } = out('src/core/features/tools/activeToolCalls.js');
const { PermissionStore } = out('src/core/host/permissionStore.js');
const { createKit, entry, stdio, waitForState, workspaceScope, MemoryStore } = out('test/unit/hostTestKit.js');

const server = path.join(root, 'test', 'fixtures', 'servers', 'basic-server.mjs');
const ROUNDS = Number(process.env.ROUNDS ?? 300);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timeCalls(client, name) {
  for (let i = 0; i < 20; i++) await client.callTool({ name, arguments: { text: 'warm' } });
  const samples = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = process.hrtime.bigint();
    await client.callTool({ name, arguments: { text: `call ${i}` } });
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(samples);
}

const kit = createKit();
await kit.update(workspaceScope(), [entry('alpha', stdio(process.execPath, [server]))], []);
await waitForState(kit, 'alpha', 'running');
const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
const consent = new ToolConsent({ permissions, ask: async () => 'always', autoAllowReadOnly: () => false });
const caller = new ToolCaller(kit.manager, new ActiveToolCalls(), consent);
const gateway = await startGateway({ relay: new GatewayRelay({ sessions: kit.manager, caller }), onDidChangeServers: (l) => kit.manager.onDidChangeServers(l), path: newGatewayPath(), token: newGatewaySecret(), version: 'bench' });
const headers = { Authorization: `Bearer ${gateway.address.token}` };
const connectGateway = async (name) => {
  const client = new Client({ name, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers } }));
  return client;
};

const bare = new Client({ name: 'bare', version: '1' });
await bare.connect(new StdioClientTransport({ command: process.execPath, args: [server] }));
const through = await connectGateway('bench');

const direct = await timeCalls(bare, 'echo');
const viaGateway = await timeCalls(through, 'alpha_echo');
console.log(`tools/call, median of ${ROUNDS} sequential: bare SDK client over stdio ${direct.toFixed(2)} ms; through the gateway ${viaGateway.toFixed(2)} ms (${(viaGateway / direct).toFixed(2)}x)`);

const many = await Promise.all(Array.from({ length: 20 }, (_, i) => connectGateway(`client ${i}`).catch((e) => e)));
const clients = many.filter((c) => c instanceof Client);
const t = process.hrtime.bigint();
const results = await Promise.allSettled(clients.map((c) => c.callTool({ name: 'alpha_echo', arguments: { text: 'together' } })));
const wall = Number(process.hrtime.bigint() - t) / 1e6;
console.log(`20 clients at once: ${clients.length} connected (cap 32), ${results.filter((r) => r.status === 'fulfilled').length} calls served in ${wall.toFixed(1)} ms`);

await Promise.allSettled([...clients, through, bare].map((c) => c.close()));
await gateway.stop();
await kit.manager.disposeAsync();
