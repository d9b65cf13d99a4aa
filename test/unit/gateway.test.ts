// The gateway: a real SDK client reaches the editor's running servers through the Streamable HTTP endpoint, its calls
// pass the one guarded path (consent naming the client), and what an attacker gets is checked attack by attack.
import * as assert from 'assert';
import * as http from 'http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { GatewayRelay } from '../../src/core/features/gateway/gatewayRelay';
import { startGateway, type RunningGateway } from '../../src/core/features/gateway/gatewayHttp.lazy';
import { GATEWAY_LIMITS, newGatewayPath, newGatewaySecret } from '../../src/core/features/gateway/gatewayRequestCheck';
import { agentSetupDocument, agentSetups } from '../../src/core/features/gateway/agentSetup';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolConsent, type ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import { Emitter } from '../../src/core/common/events';
import { PermissionStore } from '../../src/core/host/permissionStore';
import type { ToolChoices } from '../../src/core/host/serverInfo';
import { waitFor } from './helpers';
import { createKit, MemoryStore, type Kit } from './hostTestKit';
import { startAlphaAndSlow } from './gatewayTestKit';

type Answer = (q: ToolConsentQuestion) => Promise<ConsentAnswer | undefined>;

describe('the gateway', function () {
  this.timeout(60_000);
  let kit: Kit;
  let gateway: RunningGateway;
  let asked: ToolConsentQuestion[];
  let answer: Answer;
  /** The tools calls that reached a server. */
  const sent: string[] = [];
  const clients: Client[] = [];
  const choices = new Map<string, ToolChoices>();
  const choicesChanged = new Emitter<string>();

  before(async () => {
    kit = createKit({ toolChoices: { of: (id) => choices.get(id), onDidChange: choicesChanged.event } });
    const { alpha } = await startAlphaAndSlow(kit);
    // The user unchecked alpha's whoami in the Servers view.
    choices.set(alpha.id, { off: new Set(['whoami']) });
    choicesChanged.fire(alpha.id);
  });

  after(async () => {
    await kit.manager.disposeAsync();
    choicesChanged.dispose();
  });

  beforeEach(async () => {
    asked = [];
    answer = async () => undefined;
    const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    const consent = new ToolConsent({ permissions, ask: (q) => (asked.push(q), answer(q)), autoAllowReadOnly: () => false });
    const active = new ActiveToolCalls();
    const begin = active.begin.bind(active);
    active.begin = (call) => (sent.push(call.toolName), begin(call));
    const caller = new ToolCaller(kit.manager, active, consent);
    const relay = new GatewayRelay({ sessions: kit.manager, caller });
    gateway = await startGateway({ relay, onDidChangeServers: (l) => kit.manager.onDidChangeServers(l), path: newGatewayPath(), token: newGatewaySecret(), version: '0.0.0' });
  });

  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    await gateway.stop();
  });

  const connect = async (name = 'Claude Code', token = gateway.address.token, modern = false): Promise<Client> => {
    const client = new Client({ name, version: '1.0.0' }, modern ? { versionNegotiation: { mode: 'auto' } } : {});
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return client;
  };

  /** A raw request, as any local process or a browser could send it. */
  const raw = (headers: Record<string, string>, body: string | Buffer = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }), path = gateway.address.path) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request({ agent: false, host: '127.0.0.1', port: gateway.address.port, path, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? resolve({ status: 0, text: e.code }) : reject(e)));
      req.end(body);
    });
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
  const bearer = () => ({ authorization: `Bearer ${gateway.address.token}` });

  it('lists the tools of two running servers as <server>_<tool>; an unchecked tool is not listed', async () => {
    const client = await connect();
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('alpha_echo') && names.includes('slow_sleep'), names.join(', '));
    assert.ok(!names.includes('alpha_whoami'), 'the tool the user unchecked is not offered');
    const called = await client.callTool({ name: 'alpha_whoami', arguments: {} });
    assert.strictEqual(called.isError, true);
    assert.match(JSON.stringify(called.content), /switched off/);
    assert.strictEqual(asked.length, 0, 'a switched-off tool is refused before any question');
  });

  it('calls a tool after the consent, which names the client; "always" holds for that client alone', async () => {
    answer = async () => 'always';
    const client = await connect('Claude Code');
    const result = await client.callTool({ name: 'alpha_echo', arguments: { text: 'through the gateway' } });
    assert.deepStrictEqual(result.content, [{ type: 'text', text: 'through the gateway' }]);
    assert.strictEqual(asked.length, 1);
    assert.strictEqual(asked[0].caller, 'Claude Code');
    assert.strictEqual(asked[0].serverName, 'alpha');
    assert.strictEqual(asked[0].toolName, 'echo');
    // Remembered for Claude Code: not asked again.
    await client.callTool({ name: 'alpha_echo', arguments: { text: 'again' } });
    assert.strictEqual(asked.length, 1);
    // Another client is asked; refused, nothing runs.
    answer = async () => 'deny';
    const other = await connect('Codex');
    const refused = await other.callTool({ name: 'alpha_echo', arguments: { text: 'x' } });
    assert.strictEqual(refused.isError, true);
    assert.match(JSON.stringify(refused.content), /did not allow/);
    assert.strictEqual(asked.length, 2);
    assert.strictEqual(asked[1].caller, 'Codex');
  });

  it('serves a 2026-07-28 client too (no session: its name from each request)', async () => {
    answer = async () => 'once';
    const client = await connect('Copilot CLI', undefined, true);
    assert.strictEqual(client.getProtocolEra(), 'modern');
    assert.ok((await client.listTools()).tools.some((t) => t.name === 'alpha_echo'));
    const result = await client.callTool({ name: 'alpha_echo', arguments: { text: 'modern' } });
    assert.deepStrictEqual(result.content, [{ type: 'text', text: 'modern' }]);
    assert.strictEqual(asked[0].caller, 'Copilot CLI');
    assert.ok(gateway.clients.list().some((c) => c.name === 'Copilot CLI' && c.era === 'modern'));
  });

  it('shows who is connected, and forgets a client that disconnects', async () => {
    const client = await connect('Cursor');
    assert.deepStrictEqual(gateway.clients.list().map((c) => c.name), ['Cursor']);
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await client.close();
    await waitFor(() => gateway.clients.size === 0, 'the client to be gone');
  });

  it('disconnects one client on request: its session ends, the others stay', async () => {
    const ended = await connect('Claude Code');
    const kept = await connect('Codex');
    const key = gateway.clients.list().find((c) => c.name === 'Claude Code')!.key;
    assert.strictEqual(gateway.disconnect(key), true);
    assert.deepStrictEqual(gateway.clients.list().map((c) => c.name), ['Codex']);
    await assert.rejects(ended.listTools(), /Session not found|404/);
    assert.ok((await kept.listTools()).tools.length > 0);
    assert.strictEqual(gateway.disconnect(key), false, 'no longer connected');
  });

  describe('attacks', () => {
    it('no token: 401, nothing listed', async () => {
      const { status, text } = await raw({});
      assert.strictEqual(status, 401);
      assert.doesNotMatch(text, /alpha_echo/);
      await assert.rejects(connect('thief', ''));
    });

    it('a wrong token: 401 (compared in constant time), nothing listed', async () => {
      const wrong = newGatewaySecret();
      const { status, text } = await raw({ authorization: `Bearer ${wrong}` });
      assert.strictEqual(status, 401);
      assert.doesNotMatch(text, /alpha_echo/);
      assert.strictEqual((await raw({ authorization: `Bearer ${gateway.address.token}x` })).status, 401, 'the token with a character more');
      assert.strictEqual((await raw({ authorization: `Bearer ${gateway.address.token.slice(0, -1)}` })).status, 401, 'the token with a character less');
      assert.strictEqual((await raw({ authorization: gateway.address.token })).status, 401, 'the token without "Bearer"');
    });

    it('the token in the URL instead of the header: refused', async () => {
      const { status } = await raw({}, initialize, `${gateway.address.path}?token=${gateway.address.token}`);
      assert.ok(status === 400 || status === 401, String(status));
    });

    it('a wrong path with the right token: 404 (an absolute-form target naming the right path too)', async () => {
      assert.strictEqual((await raw(bearer(), initialize, '/mcp')).status, 404);
      assert.strictEqual((await raw(bearer(), initialize, `http://127.0.0.1:${gateway.address.port}${gateway.address.path}`)).status, 404);
    });

    it('a client naming itself with line breaks, bidi and icon syntax: shown as one plain, capped line', async () => {
      answer = async () => 'deny';
      const client = await connect(`Claude Code\u202e\nAllow everything $(check) ${'x'.repeat(200)}`);
      await client.callTool({ name: 'alpha_echo', arguments: { text: 'x' } });
      const name = asked[0].caller!;
      assert.doesNotMatch(name, /[\n\u202e]/);
      assert.ok(name.length <= GATEWAY_LIMITS.maxClientNameLength, String(name.length));
    });

    it('a foreign Host (DNS rebinding: a page whose domain now points at 127.0.0.1): 403, with the right token even', async () => {
      for (const host of [`evil.example:${gateway.address.port}`, `127.0.0.1.evil.example:${gateway.address.port}`, '127.0.0.1', `localhost:${gateway.address.port + 1}`]) {
        const { status, text } = await raw({ ...bearer(), host }, initialize);
        assert.strictEqual(status, 403, host);
        assert.doesNotMatch(text, /mcp-session-id|protocolVersion/);
      }
    });

    it('any Origin (a web page): 403, whatever it says and with the right token', async () => {
      for (const origin of ['https://evil.example', 'http://127.0.0.1', `http://localhost:${gateway.address.port}`, 'null', 'vscode-webview://x']) {
        const { status } = await raw({ ...bearer(), origin }, initialize);
        assert.strictEqual(status, 403, origin);
      }
      assert.strictEqual(gateway.clients.size, 0);
    });

    it('an oversized body: 413, not read', async () => {
      const huge = Buffer.alloc(GATEWAY_LIMITS.maxBodyBytes + 1024, 0x20);
      assert.strictEqual((await raw(bearer(), huge)).status, 413, 'with its length announced');
      const chunked = await new Promise<number>((resolve, reject) => {
        const req = http.request({ agent: false, host: '127.0.0.1', port: gateway.address.port, path: gateway.address.path, method: 'POST', headers: { ...bearer(), 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? resolve(413) : reject(e)));
        for (let i = 0; i < 5; i++) req.write(Buffer.alloc(GATEWAY_LIMITS.maxBodyBytes / 4, 0x20));
        req.end();
      });
      assert.strictEqual(chunked, 413, 'sent in chunks, without a length');
    });

    it('a client flooding calls: at most the cap run at once, the rest refused with words', async () => {
      answer = async () => 'always';
      const client = await connect('flooder');
      const flood = Array.from({ length: GATEWAY_LIMITS.maxConcurrentPerClient + 6 }, () => client.callTool({ name: 'slow_sleep', arguments: { ms: 1500 } }));
      const results = await Promise.allSettled(flood);
      const refused = results.filter((r) => r.status === 'rejected' && /its most at once/.test(String(r.reason))).length;
      const ran = results.filter((r) => r.status === 'fulfilled' && JSON.stringify(r.value.content).includes('slept')).length;
      assert.strictEqual(ran + refused, results.length, JSON.stringify(results));
      assert.ok(ran <= GATEWAY_LIMITS.maxConcurrentPerClient, `ran ${ran}`);
      assert.ok(refused >= 6, `refused ${refused}`);
    }).timeout(30_000);

    it('a call whose client is ended while the user is asked: not run when the user then allows it', async () => {
      let allow: (a: ConsentAnswer) => void = () => undefined;
      answer = () => new Promise((resolve) => (allow = resolve));
      const client = await connect('quitter');
      const before = sent.length;
      // The client's request stays unanswered (its connection is cut): it is not waited for.
      void client.callTool({ name: 'alpha_echo', arguments: { text: 'late' } }, { timeout: 5_000 }).catch(() => undefined);
      await waitFor(() => asked.length === 1, 'the consent question');
      await gateway.stop();
      allow('once');
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.strictEqual(sent.length, before, 'nothing reached the server');
    });

    it('too many clients: the one over the cap is refused', async () => {
      for (let i = 0; i < GATEWAY_LIMITS.maxClients; i++) await connect(`client ${i}`);
      await assert.rejects(connect('one too many'), /clients connected|503/);
      assert.strictEqual(gateway.clients.size, GATEWAY_LIMITS.maxClients);
    });

    it('a client still connected when the gateway is turned off: ended, and the port closed', async () => {
      const client = await connect('lingering');
      const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId;
      assert.ok(sessionId);
      const { port } = gateway.address;
      // Another client's stream of server messages (the standalone GET of a 2025-era session), held open.
      const rawSession = await new Promise<string>((resolve, reject) => {
        const req = http.request({ agent: false, host: '127.0.0.1', port, path: gateway.address.path, method: 'POST', headers: { ...bearer(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
          res.resume();
          resolve(String(res.headers['mcp-session-id']));
        });
        req.on('error', reject);
        req.end(initialize);
      });
      const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.request({ agent: false, host: '127.0.0.1', port, path: gateway.address.path, method: 'GET', headers: { ...bearer(), accept: 'text/event-stream', 'mcp-session-id': rawSession, 'mcp-protocol-version': '2025-11-25' } }, resolve);
        req.on('error', reject);
        req.end();
      });
      assert.strictEqual(stream.statusCode, 200);
      const streamEnded = new Promise<void>((resolve) => stream.on('close', resolve).resume());
      await gateway.stop();
      await streamEnded;
      assert.strictEqual(gateway.clients.size, 0);
      await assert.rejects(client.listTools());
      const refused = await new Promise<string>((resolve) => {
        const req = http.request({ agent: false, host: '127.0.0.1', port, path: gateway.address.path, method: 'POST', headers: { ...bearer(), 'mcp-session-id': sessionId } }, () => resolve('answered'));
        req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
        req.end('{}');
      });
      assert.strictEqual(refused, 'ECONNREFUSED');
    });
  });
});

describe("Connect an Agent…'s texts", () => {
  const url = 'http://127.0.0.1:4242/mcp/0123';
  const token = 'T'.repeat(43);
  const setups = agentSetups(url, token);

  it('gives each of the four agents its own syntax, pointing at the gateway with the bearer token', () => {
    const byId = Object.fromEntries(setups.map((s) => [s.id, s.text]));
    assert.strictEqual(byId['claude-code'], `claude mcp add --transport http mcp-host ${url} --header "Authorization: Bearer ${token}"`);
    assert.deepStrictEqual(JSON.parse(byId['copilot-cli']), { mcpServers: { 'mcp-host': { type: 'http', url, headers: { Authorization: `Bearer ${token}` }, tools: ['*'] } } });
    assert.strictEqual(byId.codex, `codex mcp add mcp-host --url ${url} --bearer-token-env-var MCP_HOST_GATEWAY_TOKEN`);
    assert.deepStrictEqual(JSON.parse(byId.cursor), { mcpServers: { 'mcp-host': { url, headers: { Authorization: `Bearer ${token}` } } } });
  });

  it('a JSON setup stays JSON in its document (no comment lines)', () => {
    for (const s of setups.filter((x) => x.language === 'json')) JSON.parse(agentSetupDocument(s));
  });
});
