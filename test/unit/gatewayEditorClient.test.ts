// The server definition MCP Host offers VS Code's own MCP support carries a token of its own (the editor's token, never
// stored): a client bearing it is named "VS Code's agent" in the consent whatever it calls itself, and another client
// that calls itself so is told apart, so that no program holding the gateway token gets what the user allowed VS Code.
import * as assert from 'assert';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { RunningGateway } from '../../src/core/features/gateway/gatewayHttp.lazy';
import { startTestGateway } from './gatewayTestKit';
import { EDITOR_AGENT_NAME } from '../../src/core/features/gateway/gatewayClients';
import { newGatewaySecret } from '../../src/core/features/gateway/gatewayRequestCheck';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import { fixtureServer } from './helpers';
import { createKit, entry, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

describe("the gateway's client from VS Code's own MCP support", function () {
  this.timeout(60_000);
  let kit: Kit;
  let gateway: RunningGateway;
  const asked: ToolConsentQuestion[] = [];
  const clients: Client[] = [];
  const editorToken = newGatewaySecret();

  before(async () => {
    kit = createKit();
    await kit.update(workspaceScope(), [entry('alpha', stdio(process.execPath, [fixtureServer('basic-server.mjs')]))], []);
    await waitForState(kit, 'alpha', 'running');
    gateway = await startTestGateway(kit, async (q) => (asked.push(q), 'always'), editorToken);
  });

  after(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await gateway.stop();
    await kit.manager.disposeAsync();
  });

  const connect = async (name: string, token: string, modern = false): Promise<Client> => {
    const client = new Client({ name, version: '1.0.0' }, modern ? { versionNegotiation: { mode: 'auto' } } : {});
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return client;
  };

  it("names the holder of the editor's token VS Code's agent, whatever it calls itself (2025 and 2026 eras)", async () => {
    const legacy = await connect('Visual Studio Code', editorToken);
    await legacy.callTool({ name: 'alpha_echo', arguments: { text: 'from VS Code' } });
    assert.strictEqual(asked.at(-1)?.caller, EDITOR_AGENT_NAME);
    assert.ok(gateway.clients.list().some((c) => c.name === EDITOR_AGENT_NAME && c.era === 'legacy'));

    const modern = await connect('Visual Studio Code', editorToken, true);
    assert.strictEqual(modern.getProtocolEra(), 'modern');
    const before = asked.length;
    await modern.callTool({ name: 'alpha_echo', arguments: { text: 'again' } });
    assert.strictEqual(asked.length, before, '"always" given to VS Code\'s agent holds for it in either era');
  });

  it("refuses the editor's privileges to a client with the gateway token that calls itself VS Code's agent", async () => {
    const impostor = await connect(EDITOR_AGENT_NAME, gateway.address.token);
    const before = asked.length;
    await impostor.callTool({ name: 'alpha_echo', arguments: { text: 'pretending' } });
    assert.strictEqual(asked.length, before + 1, 'asked: the "always" given to VS Code\'s agent is not its own');
    assert.strictEqual(asked.at(-1)?.caller, `${EDITOR_AGENT_NAME} (self-named)`);
  });
});
