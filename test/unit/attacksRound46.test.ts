// Attacks on this round's changes (issue 46): snapshots kept while nothing changed, tool choices read once, the
// consent subject kept per definition object, the gateway's tool name map kept. Real server processes, the real
// gateway over HTTP, the real choice store; each test reads what a model or an agent is offered, and what a call gets.
import * as assert from 'assert';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Emitter } from '../../src/core/common/events';
import { EDITOR_AGENT_NAME } from '../../src/core/features/gateway/gatewayClients';
import type { RunningGateway } from '../../src/core/features/gateway/gatewayHttp.lazy';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import { checkGatewayRequest, newGatewayPath, newGatewaySecret, type GatewayAddress } from '../../src/core/features/gateway/gatewayRequestCheck';
import { ToolChoiceStore } from '../../src/core/features/tools/toolChoiceStore.lazy';
import { KNOWN_RUNS_KEY } from '../../src/core/host/knownRuns';
import { KnownRunStore } from '../../src/core/host/knownRunStore.lazy';
import { createConnection } from '../../src/core/protocol/serverConnection.lazy';
import { consentSubject } from '../../src/core/features/consentSubject';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolConsent } from '../../src/core/features/tools/toolConsent';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { startTestGateway } from './gatewayTestKit';
import { fixtureServer, sleep } from './helpers';
import { createKit, entry, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

describe('attacks on the snapshots and maps kept (issue 46)', function () {
  this.timeout(60_000);

  describe('a tool the user switched off, after a window reload', () => {
    let kit: Kit;
    let gateway: RunningGateway;
    let client: Client;
    let store: ToolChoiceStore;

    before(async () => {
      // The user switched "whoami" off in an earlier window: it is in the workspace's storage.
      const workspace = new MemoryStore();
      await workspace.update('mcpHost.toolChoices', { 'file:///ws::alpha': { off: ['whoami'] } });
      const changed = new Emitter<string>();
      store = new ToolChoiceStore({ global: new MemoryStore(), workspace }, (id) => changed.fire(id));
      // As in VS Code (createHost): the store is in the host bundle, which the first connection loads; until then the
      // choices are not known.
      let bundleLoaded = false;
      kit = createKit(
        {
          toolChoices: { of: (id, scope) => (bundleLoaded ? store.of(id, scope) : undefined), onDidChange: changed.event },
          createConnection: (...args) => ((bundleLoaded = true), createConnection(...args)),
        },
        { autoStart: false },
      );
      await kit.update(workspaceScope(), [entry('alpha', stdio(process.execPath, [fixtureServer('basic-server.mjs')]))], []);
      // The Servers view shows the server, not started yet (every surface asks for the snapshots at activation).
      assert.strictEqual(kit.manager.servers()[0].state.kind, 'stopped');
      await kit.manager.get('file:///ws::alpha')!.start(false);
      await waitForState(kit, 'alpha', 'running');
      gateway = await startTestGateway(kit, async () => 'always');
      client = new Client({ name: 'an agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${gateway.address.token}` } } }));
    });

    after(async () => {
      await client?.close();
      await gateway?.stop();
      await kit.manager.disposeAsync();
    });

    it('is not offered through the gateway once the choices load after the first look', async () => {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'alpha_echo'), 'the server runs and offers its tools');
      assert.ok(!tools.some((t) => t.name === 'alpha_whoami'), `the tool switched off is offered: ${tools.map((t) => t.name).join(', ')}`);
      assert.deepStrictEqual([...(kit.manager.servers()[0].toolChoices?.off ?? [])], ['whoami'], 'the Servers view shows its checkbox cleared');
    });

    it('is not callable through the gateway once the choices load after the first look', async () => {
      const result = (await client.callTool({ name: 'alpha_whoami', arguments: {} })) as { isError?: boolean; content: { text: string }[] };
      assert.strictEqual(result.isError, true, `the tool switched off ran: ${result.content[0]?.text.slice(0, 80)}`);
      assert.match(result.content[0].text, /switched off in the MCP Servers view/);
    });

    it('switched to "all off but these" while it runs: only those are offered and callable, at once', async () => {
      const scope = workspaceScope();
      // The server's checkbox cleared, then one tool's checked again (what the view's checkboxes write).
      await store.setOff('file:///ws::alpha', scope, 'all', true);
      await store.setOff('file:///ws::alpha', scope, ['echo'], false);
      const { tools } = await client.listTools();
      assert.deepStrictEqual(tools.map((t) => t.name), ['alpha_echo']);
      const result = (await client.callTool({ name: 'alpha_get-roots', arguments: {} })) as { isError?: boolean; content: { text: string }[] };
      assert.strictEqual(result.isError, true, 'a tool of the server switched off ran');
      assert.match(result.content[0].text, /switched off in the MCP Servers view/);
      const echoed = (await client.callTool({ name: 'alpha_echo', arguments: { text: 'on' } })) as { isError?: boolean };
      assert.notStrictEqual(echoed.isError, true);
    });
  });

  it('"ask every call", chosen for a server in an earlier window, still asks before its "read-only" tool once the choices load', async () => {
    const scope = workspaceScope();
    const raw = stdio(process.execPath, [fixtureServer('slow-tool-server.mjs')]);
    // The user chose "ask every call" for this server (Set Tool Approval…), against the setting that lets read-only tools run.
    const workspace = new MemoryStore();
    await workspace.update('mcpHost.toolChoices', { 'file:///ws::slow': { approval: 'askEveryCall', approvalFor: consentSubject(scope, 'slow', raw) } });
    const store = new ToolChoiceStore({ global: new MemoryStore(), workspace }, () => undefined);
    let bundleLoaded = false;
    const kit = createKit(
      {
        toolChoices: { of: (id, s) => (bundleLoaded ? store.of(id, s) : undefined), onDidChange: () => ({ dispose: () => undefined }) },
        createConnection: (...args) => ((bundleLoaded = true), createConnection(...args)),
      },
      { autoStart: false },
    );
    try {
      await kit.update(scope, [entry('slow', raw)], []);
      assert.strictEqual(kit.manager.servers()[0].state.kind, 'stopped', 'shown before it starts');
      await kit.manager.get('file:///ws::slow')!.start(false);
      const running = await waitForState(kit, 'slow', 'running');
      const asked: string[] = [];
      const consent = new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async (q) => (asked.push(q.toolName), undefined), autoAllowReadOnly: () => true });
      const caller = new ToolCaller(kit.manager, new ActiveToolCalls(), consent);
      // The server says its tool only reads: that is its own claim.
      const tool = running.features.tools.find((t) => t.name === 'cancellations')!;
      const outcome = await caller.call({ serverId: running.id, tool, arguments: {}, origin: 'an agent' });
      assert.deepStrictEqual(asked, ['cancellations'], 'the call ran without asking');
      assert.strictEqual(outcome.ran, false);
    } finally {
      await kit.manager.disposeAsync();
    }
  });

  describe("the gateway door's token digests, made once", () => {
    const door = (address: GatewayAddress, token: string) =>
      checkGatewayRequest(address, { method: 'POST', url: address.path, headers: { host: `127.0.0.1:${address.port}`, authorization: `Bearer ${token}` } });

    it('refuses the token (and the editor token) of the run before a new token was made, whose digests are kept', () => {
      const path = newGatewayPath();
      const before: GatewayAddress = { port: 4321, path, token: newGatewaySecret(), editorToken: newGatewaySecret() };
      assert.strictEqual(door(before, before.token).ok, true);
      assert.deepStrictEqual(door(before, before.editorToken!), { ok: true, editor: true });
      // "Make a New Gateway Token": the gateway starts again with new tokens, on the same path.
      const renewed: GatewayAddress = { port: 4321, path, token: newGatewaySecret(), editorToken: newGatewaySecret() };
      assert.strictEqual(door(renewed, before.token).ok, false, 'the old token still opens the door');
      assert.strictEqual(door(renewed, before.editorToken!).ok, false, "the old editor token still opens the door");
      assert.strictEqual(door(renewed, renewed.token).ok, true);
      // Many gateways in one process (more than the digests kept): each still knows its own token, and only it.
      const others = Array.from({ length: 20 }, () => ({ port: 4321, path, token: newGatewaySecret() }));
      for (const other of others) assert.strictEqual(door(other, other.token).ok, true);
      assert.strictEqual(door(renewed, others[0].token).ok, false);
      assert.strictEqual(door(renewed, renewed.token).ok, true);
    });
  });

  describe('what servers offered, written once changes settle', () => {
    it('a server whose lists change without end is written anyway, within six delays, and holds one pending run', async () => {
      const writes: number[] = [];
      const store = new MemoryStore();
      const update = store.update.bind(store);
      store.update = async (key: string, value: unknown) => {
        if (key === KNOWN_RUNS_KEY) writes.push(Date.now());
        await update(key, value);
      };
      const delayMs = 50;
      const known = new KnownRunStore(store, () => undefined, undefined, delayMs);
      const started = Date.now();
      // notifications/tools/list_changed every 10 ms, each with another list: each is remembered (featuresChanged).
      for (let i = 0; Date.now() - started < 20 * delayMs; i++) {
        known.remember('file:///ws::hostile', 'k', { at: Date.now(), features: { tools: [{ name: `t${i}`, inputSchema: { type: 'object' } }], prompts: [], resources: [], resourceTemplates: [] } });
        await sleep(10);
      }
      assert.ok(writes.length >= 2, `written ${writes.length} times in ${20 * delayMs} ms of changes`);
      assert.ok(writes[0] - started <= 8 * delayMs, `the first write came ${writes[0] - started} ms after the first change`);
      const kept = (store.get(KNOWN_RUNS_KEY) as { servers: Record<string, { run: { features: { tools: { name: string }[] } } }> }).servers;
      assert.deepStrictEqual(Object.keys(kept), ['file:///ws::hostile'], 'one entry for the server, not one per change');
      await known.flush();
    });
  });

  describe("a known 2025-era session's requests, no longer classified by the SDK", () => {
    let kit: Kit;
    let gateway: RunningGateway;
    const asked: ToolConsentQuestion[] = [];
    const editorToken = newGatewaySecret();
    let vsCode: Client;
    let vsCodeSession: string;

    before(async () => {
      kit = createKit();
      await kit.update(workspaceScope(), [entry('alpha', stdio(process.execPath, [fixtureServer('basic-server.mjs')]))], []);
      await waitForState(kit, 'alpha', 'running');
      gateway = await startTestGateway(kit, async (q) => (asked.push(q), 'always'), editorToken);
      vsCode = new Client({ name: 'Visual Studio Code', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${editorToken}` } } });
      await vsCode.connect(transport);
      vsCodeSession = transport.sessionId!;
    });

    after(async () => {
      await vsCode?.close();
      await gateway?.stop();
      await kit.manager.disposeAsync();
    });

    const post = (token: string, headers: Record<string, string>, body: unknown) =>
      fetch(gateway.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });

    for (const [what, version] of [
      ['a 2026-07-28 request', '2026-07-28'],
      ['a 2025-era request', '2025-11-25'],
    ] as const) {
      it(`refuses ${what} with the gateway token that names VS Code's session: nothing runs as VS Code's agent`, async () => {
        await vsCode.callTool({ name: 'alpha_echo', arguments: { text: 'VS Code' } });
        assert.strictEqual(asked.at(-1)?.caller, EDITOR_AGENT_NAME);
        const before = asked.length;
        const response = await post(
          gateway.address.token,
          { 'mcp-protocol-version': version, 'mcp-session-id': vsCodeSession },
          { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'alpha_whoami', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': version } } },
        );
        const text = await response.text();
        assert.strictEqual(response.status, 403, text);
        assert.match(text, /this session was begun with another token/);
        assert.strictEqual(asked.length, before, 'a call was asked about');
      });
    }

    it("refuses a GET stream and a DELETE of VS Code's session with the gateway token; VS Code's session goes on", async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await fetch(gateway.url, { method, headers: { authorization: `Bearer ${gateway.address.token}`, accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': vsCodeSession } });
        assert.strictEqual(response.status, 403, `${method}: ${await response.text()}`);
      }
      const result = (await vsCode.callTool({ name: 'alpha_echo', arguments: { text: 'still here' } })) as { isError?: boolean };
      assert.notStrictEqual(result.isError, true);
    });
  });
});
