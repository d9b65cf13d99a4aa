// The portable `.mcp.json` (`mcpServers`, shared with Claude Code, Cursor and Copilot CLI), read by the same parser.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { runCli } from '../../src/cli/cli';
import { DISABLED_IN_FILE } from '../../src/core/host/serverPreparation';
import { canBeStarted } from '../../src/core/host/serverInfo';
import { stateDisplay } from '../../src/core/presentation/serverPresentation';
import { withoutDisabled } from '../../src/core/config/serverEntryEdit.lazy';
import { buildRemotePlan } from '../../src/core/protocol/launch/launchPlanner.lazy';
import { describeLaunchPlan } from '../../src/core/presentation/describeLaunchPlan';
import { fixtureServer } from './helpers';
import { createFakeKit, inMemory, toolServer } from './fakeConnectionKit';
import { serverState, waitForState, workspaceScope } from './hostTestKit';

describe('.mcp.json (portable format)', () => {
  const text = `{
  // Claude Code writes these.
  "mcpServers": {
    "local": { "command": "node", "args": ["server.js"], "env": { "A": "1" } },
    "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "X-Key": "\${env:KEY}" } },
    "legacy": { "type": "sse", "url": "https://example.com/sse" },
    "broken": { "args": [] }
  }
}`;

  it('reads the servers under mcpServers like ours, with problems placed exactly', () => {
    const parsed = parseMcpConfig(text, { portable: true });
    assert.deepStrictEqual(parsed.servers.map((s) => [s.name, s.server.type]), [
      ['local', 'stdio'],
      ['remote', 'http'],
      ['legacy', 'sse'],
    ]);
    assert.deepStrictEqual(parsed.rejectedServers, ['broken']);
    assert.deepStrictEqual(parsed.diagnostics.map((d) => [d.code, d.severity, text.slice(d.span.offset, d.span.offset + d.span.length)]), [['missing-command', 'error', '"broken"']]);
  });

  it('warns about "servers" (the .vscode/mcp.json name) and knows no inputs', () => {
    const parsed = parseMcpConfig('{ "servers": {}, "mcpServers": { "s": { "command": "x", "env": { "T": "${input:t}" } } } }', { portable: true });
    assert.deepStrictEqual(parsed.diagnostics.map((d) => [d.code, d.message]), [
      ['unknown-property', 'Unknown property "servers" (.mcp.json lists servers under "mcpServers"; "servers" is the name in .vscode/mcp.json); it is ignored.'],
      ['unknown-input', 'Input "t" used in ${input:t} is not declared in "inputs".'],
    ]);
  });

  it('takes ${VAR} and ${VAR:-default} as environment variables, as Claude Code and Copilot CLI do: no warning there, one in .vscode/mcp.json', () => {
    const server = '{ "command": "${TOOL_HOME:-/opt}/bin/tool", "args": ["--token", "${API_TOKEN}", "${workspaceFolder}"] }';
    assert.deepStrictEqual(parseMcpConfig(`{ "mcpServers": { "t": ${server} } }`, { portable: true }).diagnostics, []);
    assert.deepStrictEqual(
      parseMcpConfig(`{ "servers": { "t": ${server} } }`).diagnostics.map((d) => d.message),
      ['Variable ${TOOL_HOME:-/opt} is not supported; the server will fail to start.', 'Variable ${API_TOKEN} is not supported; the server will fail to start.'],
    );
  });

  it('takes an input of type "command" (test/unit/commandInputs.test.ts runs it)', () => {
    const parsed = parseMcpConfig('{ "inputs": [{ "type": "command", "id": "port", "command": "extension.pickPort" }], "servers": {} }');
    assert.deepStrictEqual([parsed.diagnostics, parsed.inputs], [[], [{ type: 'command', id: 'port', command: 'extension.pickPort' }]]);
  });

  it('knows ${config:…} (a setting) and ${command:…} (a command\'s result)', () => {
    const parsed = parseMcpConfig('{ "servers": { "s": { "command": "${config:my.tool}", "args": ["${command:extension.pickPort}"] } } }');
    assert.deepStrictEqual(parsed.diagnostics.map((d) => d.message), []);
  });

  it('is not read this way in .vscode/mcp.json, which still points at "servers"', () => {
    const parsed = parseMcpConfig(text);
    assert.deepStrictEqual(parsed.servers, []);
    assert.match(parsed.diagnostics[0].message, /Unknown property "mcpServers" \(this is the Claude Desktop name/);
  });
});

describe('mcp-host with only a .mcp.json', () => {
  it('expands ${VAR} and ${VAR:-default} from the environment, and says which variable is missing', async function () {
    this.timeout(30_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-portable-'));
    try {
      const entry = { command: '${MCPHOST_NODE}', args: [fixtureServer('basic-server.mjs'), '${MCPHOST_SERVER_NAME:-named-by-default}'] };
      fs.writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { basic: entry } }));
      const run = async (env: Record<string, string | undefined>) => {
        const out: string[] = [];
        const code = await runCli(['--yes', 'call', 'basic', 'whoami', '{}'], env, dir, { ask: async () => undefined, say: (l) => out.push(l), print: (l) => out.push(l) });
        return { code, out: out.join('\n') };
      };
      const expanded = await run({ ...process.env, MCPHOST_NODE: process.execPath });
      assert.strictEqual(expanded.code, 0, expanded.out);
      assert.match(expanded.out, /"argv":\["named-by-default"\]/, 'the default of an unset variable');
      const missing = await run({ ...process.env, MCPHOST_NODE: undefined });
      assert.match(missing.out, /The environment variable MCPHOST_NODE is not set, and \$\{MCPHOST_NODE\} gives no default/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads it and runs its servers', async function () {
    this.timeout(30_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-portable-'));
    try {
      fs.writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { basic: { command: process.execPath, args: [fixtureServer('basic-server.mjs')] } } }));
      const out: string[] = [];
      const code = await runCli(['--yes', '--json', 'list'], process.env, dir, { ask: async () => undefined, say: (l) => out.push(l), print: (l) => out.push(l) });
      assert.strictEqual(code, 0, out.join('\n'));
      assert.deepStrictEqual((JSON.parse(out[out.length - 1]) as { name: string; state: string }[]).map((s) => [s.name, s.state]), [['basic', 'running']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("other hosts' keys that change what a server may do", () => {
  it('"disabled": true is kept and the server stays stopped, saying why; tool lists are said not to be honoured', async () => {
    const text = `{ "servers": {
  "off": { "command": "node", "disabled": true, "alwaysAllow": ["write_file"] },
  "on": { "type": "http", "url": "https://example.com/mcp", "disabled": false, "tools": ["search"], "disabledTools": ["delete"] },
  "odd": { "command": "node", "disabled": "yes" }
} }`;
    const parsed = parseMcpConfig(text);
    assert.deepStrictEqual(parsed.servers.map((s) => [s.name, s.server.disabled ?? false]), [['off', true], ['on', false]]);
    assert.deepStrictEqual(parsed.diagnostics.map((d) => [d.code, d.message]), [
      ['not-honoured', '"alwaysAllow" (tools to run without asking) is never honoured from a file: each tool asks before it runs, and you can allow it there for good.'],
      ['not-honoured', '"tools" (Copilot CLI: which of its tools to offer) is not honoured here: every tool of the server is offered.'],
      ['not-honoured', '"disabledTools" (tools to leave out) is not honoured here: every tool of the server is offered.'],
      ['wrong-type', '"disabled" must be true or false, not a string.'],
    ]);

    let made = 0;
    const kit = createFakeKit({ off: () => (made++, toolServer('off', ['echo'])) });
    try {
      await kit.update(workspaceScope(), [{ ...inMemory('off'), server: { ...inMemory('off').server, disabled: true } }], []);
      const off = await waitForState(kit, 'off', 'blocked', 5000);
      assert.deepStrictEqual(off.state, { kind: 'blocked', reason: 'disabled', message: DISABLED_IN_FILE });
      await kit.manager.get(off.id)!.start(true);
      assert.strictEqual(serverState(kit, 'off')?.state.kind, 'blocked', 'a start by hand is refused too');
      assert.strictEqual(made, 0, 'nothing ran');
      // The row: why, and Enable Server (not Start, which its file refuses).
      const shown = stateDisplay(serverState(kit, 'off')!);
      assert.deepStrictEqual([shown.description, shown.contextValue, shown.explanation?.action], ['disabled in its file', 'mcpServer.disabled', 'enable']);
      assert.strictEqual(canBeStarted(serverState(kit, 'off')!.state), false);
    } finally {
      await kit.manager.disposeAsync();
    }
  });

  it('"oauth" (VS Code\'s, Claude Code\'s): its clientId signs in, shown in the question; enterpriseManaged and callbackPort are said not to be honoured', () => {
    const text = JSON.stringify({
      servers: {
        slack: { type: 'http', url: 'https://mcp.slack.example/mcp', oauth: { clientId: '12348411142.11062036567072' } },
        corp: { type: 'http', url: 'https://mcp.corp.example/mcp', oauth: { enterpriseManaged: true, callbackPort: 8080 } },
        both: { type: 'http', url: 'https://b.example/mcp', oauth: { clientId: 'x' }, auth: { type: 'oauth' } },
      },
    });
    const parsed = parseMcpConfig(text);
    const slack = parsed.servers.find((s) => s.name === 'slack')!.server;
    assert.deepStrictEqual(slack.type !== 'stdio' && slack.auth, { type: 'oauth', clientId: '12348411142.11062036567072' });
    assert.deepStrictEqual(parsed.diagnostics.map((d) => [d.severity, d.code]), [
      ['warning', 'not-honoured'],
      ['warning', 'not-honoured'],
      ['error', 'conflicting-auth'],
    ]);
    assert.match(parsed.diagnostics[0].message, /"enterpriseManaged" .* is not done here: write "auth": \{ "type": "crossAppAccess"/);
    assert.match(parsed.diagnostics[1].message, /"callbackPort" is not honoured/);
    if (slack.type === 'stdio') return;
    const question = describeLaunchPlan(buildRemotePlan({ raw: slack, resolved: slack }));
    assert.match(question, /Sign-in: oauth, client id 12348411142\.11062036567072/);
  });

  it('Enable Server takes the key out of the entry, and only that: comments, other servers and a section kept', () => {
    const text = `{\n  // ours\n  "mcpServers": {\n    "off": { "command": "node", "disabled": true }, // the one\n    "other": { "command": "x", "disabled": true }\n  }\n}\n`;
    assert.strictEqual(withoutDisabled(text, 'off'), `{\n  // ours\n  "mcpServers": {\n    "off": { "command": "node" }, // the one\n    "other": { "command": "x", "disabled": true }\n  }\n}\n`);
    const settings = `{ "editor.tabSize": 2, "mcp": { "servers": { "off": { "url": "https://a.example", "disabled": true } } } }`;
    assert.strictEqual(withoutDisabled(settings, 'off', ['mcp']), `{ "editor.tabSize": 2, "mcp": { "servers": { "off": { "url": "https://a.example" } } } }`);
    assert.throws(() => withoutDisabled(text, 'gone'), /the server "gone" is not in the file/);
  });
});
