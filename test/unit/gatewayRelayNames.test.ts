// The gateway's tool names are made once for what the servers offer, not at every call (2,000 tools cost a call a few
// ms), and made again as soon as a server, its definition, its tools or the user's switches change.
import * as assert from 'assert';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { GatewayRelay } from '../../src/core/features/gateway/gatewayRelay';
import type { ToolCall } from '../../src/core/features/tools/toolCaller';
import type { ServerInfo, ToolChoices } from '../../src/core/host/serverInfo';
import type { SessionPort } from '../../src/core/host/serverSession';

/** A tool list that counts how often it is filtered: each time, a name map of it was being made. */
class CountedTools extends Array<Tool> {
  static filtered = 0;
  static get [Symbol.species]() {
    return Array;
  }
  override filter(...args: Parameters<Array<Tool>['filter']>): Tool[] {
    CountedTools.filtered++;
    return super.filter(...args);
  }
}

const toolsOf = (...names: string[]): Tool[] => CountedTools.from(names.map((name) => ({ name, inputSchema: { type: 'object' as const } }))) as Tool[];

const serverInfo = (name: string, tools: Tool[], toolChoices?: ToolChoices): ServerInfo =>
  ({
    id: `user::${name}`,
    name,
    scope: { kind: 'user', key: 'user', label: 'User', configPath: '/dev/null' },
    definition: { type: 'stdio', command: 'node', args: [`${name}.js`] },
    state: { kind: 'running' },
    features: { tools, prompts: [], resources: [], resourceTemplates: [] },
    crashCount: 0,
    ...(toolChoices ? { toolChoices } : {}),
  }) as unknown as ServerInfo;

describe('the gateway relay: tool names', () => {
  let servers: ServerInfo[];
  const called: string[] = [];
  const sessions = { servers: () => servers.map((s) => ({ ...s })), session: () => assert.fail('no session wanted'), onDidChangeServers: () => ({ dispose() {} }) } as unknown as SessionPort;
  const caller = {
    call: async (call: ToolCall) => {
      called.push(call.tool.name);
      return { ran: true as const, result: { content: [{ type: 'text', text: call.tool.name }] } as CallToolResult };
    },
  };
  const client = { name: 'Claude Code' };

  beforeEach(() => {
    called.length = 0;
    CountedTools.filtered = 0;
  });

  it('makes the names once while nothing changes, though each call reads the servers afresh', async () => {
    servers = [serverInfo('alpha', toolsOf('echo', 'add')), serverInfo('beta', toolsOf('search'))];
    const relay = new GatewayRelay({ sessions, caller });
    assert.deepStrictEqual(relay.tools().map((t) => t.name), ['alpha_echo', 'alpha_add', 'beta_search']);
    const made = CountedTools.filtered;
    for (let i = 0; i < 5; i++) await relay.callTool(client, 'beta_search', {});
    await relay.callTool(client, 'alpha_add', {});
    assert.deepStrictEqual(called, ['search', 'search', 'search', 'search', 'search', 'add']);
    assert.strictEqual(CountedTools.filtered, made, 'the names were made again for calls on unchanged servers');
  });

  it('makes them again when a tool list, a definition or the switches change', async () => {
    servers = [serverInfo('alpha', toolsOf('echo', 'add'))];
    const relay = new GatewayRelay({ sessions, caller });
    await relay.callTool(client, 'alpha_echo', {});
    let made = CountedTools.filtered;
    const madeAgain = (what: string) => {
      assert.ok(CountedTools.filtered > made, `the names were not made again after ${what}`);
      made = CountedTools.filtered;
    };
    // A new tool list (the server said its list changed).
    // Each change below keeps every other part of the server as it was (its definition object too).
    const changed = (patch: Partial<ServerInfo>) => (servers = [{ ...servers[0], ...patch }]);
    changed({ features: { ...servers[0].features, tools: toolsOf('echo', 'add', 'sub') } });
    await relay.callTool(client, 'alpha_sub', {});
    madeAgain('a new tool list');
    // The user switches echo off; then every tool off but add (all off, some on); then sub on too.
    changed({ toolChoices: { off: new Set(['echo']) } });
    await assert.rejects(relay.callTool(client, 'alpha_echo', {}), /switched off/);
    madeAgain('a tool switched off');
    changed({ toolChoices: { allOff: true, on: new Set(['add']) } });
    assert.deepStrictEqual(relay.tools().map((t) => t.name), ['alpha_add']);
    changed({ toolChoices: { allOff: true, on: new Set(['add', 'sub']) } });
    assert.deepStrictEqual(relay.tools().map((t) => t.name), ['alpha_add', 'alpha_sub']);
    madeAgain('a tool switched on among all off');
    // A new definition under the same name (its calls' consent is about the new one).
    changed({ toolChoices: undefined });
    await relay.callTool(client, 'alpha_echo', {});
    made = CountedTools.filtered;
    changed({ definition: { type: 'stdio', command: 'node', args: ['other.js'] } as ServerInfo['definition'] });
    await relay.callTool(client, 'alpha_echo', {});
    madeAgain('a new definition');
    assert.deepStrictEqual(called, ['echo', 'sub', 'echo', 'echo']);
  });
});
