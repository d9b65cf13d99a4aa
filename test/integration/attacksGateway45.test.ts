// Attacks on the gateway as offered to VS Code's own MCP support (issue 45), in a real VS Code (code-server 1.139):
// VS Code's token (given in resolveMcpServerDefinition, never stored) must stop working when the gateway stops or gets
// a new token, as the gateway token does, while VS Code's agent itself goes on with the new one; and it must be found
// in no file of the profile VS Code and the browser write (VS Code keeps the definitions a provider lists).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { testLog } from './index';
import { activateHost, answerDialogs, fixtureServer, sleep, waitFor, WorkspaceConfig, type TestedHost } from './testKit';

const SERVER = 'atk45-alpha';
const echoTool = () => vscode.lm.tools.find((t) => /^mcp_mcp_host_.*atk45-alpha_echo$/.test(t.name));

/** A 2025-era initialize sent with `token`, as a program holding it would: the gateway's HTTP status and words. */
async function initializeWith(url: string, token: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }),
  });
  return { status: response.status, text: await response.text() };
}

/** Files below `root` holding `needle` (each read up to 64 MB; what cannot be read is skipped). */
function filesHolding(root: string, needles: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) {
        try {
          if (fs.statSync(full).size > 64 * 1024 * 1024) continue;
          const bytes = fs.readFileSync(full);
          if (needles.some((n) => bytes.includes(n) || bytes.includes(Buffer.from(n, 'utf16le')))) found.push(full);
        } catch {
          // A socket or a file gone meanwhile.
        }
      }
    }
  };
  walk(root);
  return found;
}

describe("attacks on the gateway offered to VS Code (issue 45)", function () {
  this.timeout(180_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable | undefined;

  before(async () => {
    api = await activateHost();
    dialogs = answerDialogs(api, { confirmTrust: async () => true, confirmToolCall: async () => 'once' });
    config = await WorkspaceConfig.read();
    await config.writeServers({ ...config.servers(), [SERVER]: { command: 'node', args: [fixtureServer('basic-server.mjs')] } });
    await api.testing.reloadConfiguration();
    const s = await waitFor(() => api.getServers().find((x) => x.name === SERVER), `${SERVER} configured`);
    if (s.state.kind !== 'running') await api.testing.startServer(s.id);
    await waitFor(() => api.getServers().find((x) => x.name === SERVER)?.state.kind === 'running', `${SERVER} running`, 60_000);
  });

  after(async () => {
    await vscode.commands.executeCommand('mcpHost.stopGateway');
    dialogs?.dispose();
    await config.restore();
    await api.testing.reloadConfiguration();
  });

  /** VS Code's agent calls the tool: it works once VS Code (re)started the server "MCP Host" with the token of now. */
  const agentCalls = async (text: string) =>
    waitFor(
      async () => {
        const tool = echoTool();
        if (!tool) return false;
        try {
          const result = await vscode.lm.invokeTool(tool.name, { input: { text }, toolInvocationToken: undefined });
          return result.content.some((p) => p instanceof vscode.LanguageModelTextPart && p.value === text);
        } catch {
          await sleep(500);
          return false;
        }
      },
      `VS Code's agent calls ${SERVER}.echo through the gateway`,
      60_000,
    );

  it("refuses VS Code's token of an earlier run after New Gateway Token and after a stop and start, and finds it in no file of the profile", async () => {
    await vscode.commands.executeCommand('mcpHost.startGateway');
    await agentCalls('first run');
    const first = api.testing.gateway()!;
    assert.ok(first.editorToken, "VS Code's token of this run");
    assert.strictEqual((await initializeWith(first.url, first.editorToken)).status, 200, "VS Code's token works while it is the gateway's");

    await vscode.commands.executeCommand('mcpHost.newGatewayToken');
    const second = await waitFor(() => api.testing.gateway(), 'the gateway running again');
    const refused = await initializeWith(second.url, first.editorToken);
    assert.strictEqual(refused.status, 401, refused.text);
    assert.match(refused.text, /Unauthorized/);
    assert.strictEqual((await initializeWith(second.url, first.token)).status, 401, 'the old gateway token is refused too');
    await agentCalls('after a new token');

    await vscode.commands.executeCommand('mcpHost.stopGateway');
    await vscode.commands.executeCommand('mcpHost.startGateway');
    const third = await waitFor(() => api.testing.gateway(), 'the gateway running again');
    assert.strictEqual((await initializeWith(third.url, second.editorToken!)).status, 401, "VS Code's token of the run before the stop is refused");
    await agentCalls('after a restart');

    // What VS Code and the browser wrote (user data, the browser's profile, temp files) lies below the sandbox's home.
    await sleep(2000);
    const sandbox = path.dirname(os.homedir());
    const cached = filesHolding(sandbox, ['127.0.0.1:1/mcp-host-gateway']);
    testLog(`       files holding the listed definition's placeholder address: ${cached.map((f) => path.relative(sandbox, f)).join(', ') || 'none'}`);
    const leaked = filesHolding(sandbox, [first.editorToken, second.editorToken!, third.editorToken!]);
    assert.deepStrictEqual(leaked, [], "VS Code's token written to disk");
  });
});
