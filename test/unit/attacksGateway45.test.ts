// Attacks on the gateway as offered to VS Code's own MCP support (issue 45): a program holding the ordinary gateway
// token that tries to be taken for VS Code's agent (its session, a look-alike name), and a hostile server whose tools
// try to pass for others in VS Code's tool picker, where every tool of the gateway is shown under one server.
// Real HTTP to the real gateway, real server processes; each test reads what the user is shown (the consent's words,
// the names and titles VS Code shows) or what the attacker gets back.
import * as assert from 'assert';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { RunningGateway } from '../../src/core/features/gateway/gatewayHttp.lazy';
import { startTestGateway } from './gatewayTestKit';
import { EDITOR_AGENT_NAME } from '../../src/core/features/gateway/gatewayClients';
import { newGatewaySecret } from '../../src/core/features/gateway/gatewayRequestCheck';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import { fixtureServer } from './helpers';
import { createKit, entry, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

/** VS Code 1.139's own id for a tool of the server "MCP Host" (its prefix, the name, cut at 64; see gatewayRelay). */
const vsCodeToolId = (name: string) => `mcp_mcp_host_gate_${name}`.replaceAll('.', '_').slice(0, 64);
/** What VS Code 1.139 shows for a tool in its picker and its confirmation's title. */
const vsCodeDisplayName = (tool: { name: string; title?: string; annotations?: { title?: string } }) => tool.annotations?.title || tool.title || tool.name;

describe('attacks on the gateway offered to VS Code (issue 45)', function () {
  this.timeout(60_000);
  let kit: Kit;
  let gateway: RunningGateway;
  const asked: ToolConsentQuestion[] = [];
  const clients: Client[] = [];
  const editorToken = newGatewaySecret();

  before(async () => {
    kit = createKit();
    await kit.update(workspaceScope(), [entry('alpha', stdio(process.execPath, [fixtureServer('basic-server.mjs')])), entry('lookalike', stdio(process.execPath, [fixtureServer('lookalike-tools-server.mjs')]))], []);
    await waitForState(kit, 'alpha', 'running');
    await waitForState(kit, 'lookalike', 'running');
    gateway = await startTestGateway(kit, async (q) => (asked.push(q), 'always'), editorToken);
  });

  after(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await gateway.stop();
    await kit.manager.disposeAsync();
  });

  const connect = async (name: string, token: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> => {
    const client = new Client({ name, version: '1.0.0' });
    clients.push(client);
    const transport = new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
    await client.connect(transport);
    return { client, transport };
  };

  it("refuses a program with the gateway token that goes on with VS Code's session (it is not asked about as VS Code's agent)", async () => {
    const { client, transport } = await connect('Visual Studio Code', editorToken);
    await client.callTool({ name: 'alpha_echo', arguments: { text: 'VS Code' } });
    assert.strictEqual(asked.at(-1)?.caller, EDITOR_AGENT_NAME);
    const before = asked.length;
    // The session id is all the program would need beside its own token.
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.address.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'mcp-session-id': transport.sessionId!,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'alpha_echo', arguments: { text: 'as VS Code' } } }),
    });
    const text = await response.text();
    assert.strictEqual(response.status, 403, text);
    assert.match(text, /this session was begun with another token/);
    assert.strictEqual(asked.length, before, "no call ran on what the user allowed VS Code's agent, and none was asked about");
    // VS Code's own session goes on.
    await client.callTool({ name: 'alpha_echo', arguments: { text: 'still VS Code' } });
  });

  for (const [what, name] of [
    ['a curly apostrophe', 'VS Code\u2019s agent'],
    ['a zero-width space', "VS Code's\u200b agent"],
    ['Cyrillic letters', "VS \u0421\u043ede's \u0430gent"],
    ['full-width letters and no apostrophe', '\uff36\uff33 Code agent'],
  ]) {
    it(`tells apart, in the consent, a client that calls itself VS Code's agent with ${what}`, async () => {
      const { client } = await connect(name, gateway.address.token);
      const before = asked.length;
      await client.callTool({ name: 'alpha_echo', arguments: { text: 'pretending' } });
      assert.strictEqual(asked.length, before + 1, 'asked: what VS Code\'s agent was always allowed is not its own');
      assert.match(asked.at(-1)!.caller!, / \(self-named\)$/, `the consent names it "${asked.at(-1)!.caller}"`);
    });
  }

  it("gives a hostile server's tools names VS Code keeps apart, and titles that name their server", async () => {
    const { client } = await connect('Visual Studio Code', editorToken);
    const { tools } = await client.listTools();
    const ids = tools.map((t) => vsCodeToolId(t.name));
    assert.strictEqual(new Set(ids).size, ids.length, `VS Code's ids collide: ${ids.join(', ')}`);
    for (const tool of tools) {
      const server = tool.name.startsWith('alpha_') ? 'alpha' : 'lookalike';
      assert.ok(vsCodeDisplayName(tool).startsWith(`${server}: `), `VS Code shows "${vsCodeDisplayName(tool)}" for ${tool.name}`);
    }
    assert.ok(tools.some((t) => vsCodeDisplayName(t) === 'lookalike: Create Issue'), 'the title claiming github is shown as lookalike\'s');

    // The consent for VS Code's agent names the exact tool (not the shortened name) and the arguments.
    const deleting = tools.find((t) => t.description === 'Deletes the branch.')!;
    await client.callTool({ name: deleting.name, arguments: { branch: 'main' } });
    const question = asked.at(-1)!;
    assert.strictEqual(question.caller, EDITOR_AGENT_NAME);
    assert.strictEqual(question.serverName, 'lookalike');
    assert.strictEqual(question.toolName, 'create_pull_request_review_comment_on_the_pending_review_and_delete_the_branch');
    assert.strictEqual(question.destructive, true);
    assert.deepStrictEqual(JSON.parse(question.argumentsJson), { branch: 'main' });
  });
});
