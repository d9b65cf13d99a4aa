import * as assert from 'assert';
import { resolveToolCall, toolListForModel } from '../../src/core/features/tools/agentTools';
import { emptyFeatures, type ServerInfo, type Tool } from '../../src/core/host/serverInfo';
import { searchedToolList } from '../../src/core/features/tools/toolListSearch';
import { stdio, workspaceScope } from './hostTestKit';
import { toolCatalogue } from './toolCatalogue';

const sum: Tool = { name: 'get-sum', description: 'Adds', inputSchema: { type: 'object', properties: { a: { type: 'number' } } }, annotations: { readOnlyHint: true } };
const echo: Tool = { name: 'echo', inputSchema: { type: 'object' } };

const server = (name: string, tools: Tool[], folder = 'file:///a', state: ServerInfo['state'] = { kind: 'running' }): ServerInfo => ({
  id: `${folder}::${name}`,
  name,
  scope: workspaceScope('/a', folder),
  definition: stdio('node', [name]),
  state,
  crashCount: 0,
  features: { ...emptyFeatures(), tools },
});

describe('MCP tools for every agent', () => {
  const servers = [server('everything', [echo, sum]), server('basic', [echo]), server('off', [sum], 'file:///a', { kind: 'stopped' })];

  it('lists the running servers\' tools with unique names, schemas and the read-only hint', () => {
    const list = JSON.parse(toolListForModel(servers)) as { name: string; server: string; tool: string; readOnly?: boolean }[];
    assert.deepStrictEqual(
      list.map((t) => [t.name, t.server, t.tool, t.readOnly ?? false]),
      [
        ['everything_echo', 'everything', 'echo', false],
        ['everything_get-sum', 'everything', 'get-sum', true],
        ['basic_echo', 'basic', 'echo', false],
      ],
    );
    assert.deepStrictEqual((JSON.parse(toolListForModel(servers, { server: 'basic' })) as unknown[]).length, 1);
    assert.match(toolListForModel(servers, { server: 'off' }), /No running MCP server "off" offers tools\. Running servers: everything, basic\./);
    assert.match(toolListForModel([]), /No running MCP server offers tools/);
  });

  it('resolves a call by server and tool, or by the listed name, and says in words what is wrong', () => {
    const ok = resolveToolCall(servers, { server: 'everything', tool: 'get-sum', arguments: { a: 1 } });
    assert.ok(ok.ok);
    assert.deepStrictEqual([ok.tool.serverId, ok.tool.tool.name, ok.arguments], ['file:///a::everything', 'get-sum', { a: 1 }]);
    const byName = resolveToolCall(servers, { name: 'basic_echo' });
    assert.ok(byName.ok && byName.tool.serverName === 'basic' && JSON.stringify(byName.arguments) === '{}');
    const message = (input: object) => {
      const r = resolveToolCall(servers, input);
      return r.ok ? 'ok' : r.message;
    };
    assert.match(message({ server: 'off', tool: 'get-sum' }), /No running MCP server "off" offers tools\. Running servers with tools: everything, basic\./);
    assert.match(message({ server: 'everything', tool: 'nope' }), /has no tool "nope"\. Its tools: echo, get-sum\./);
    assert.match(message({ server: 'everything', tool: 'echo', arguments: [1] }), /"arguments" must be a JSON object/);
    assert.match(message({ tool: 'echo' }), /Give "server" and "tool"/);
    assert.match(message({ name: 'nope' }), /No MCP tool is named "nope"/);
  });

  it('neither lists nor calls a tool meant only for its view (MCP Apps visibility ["app"])', () => {
    const viewOnly: Tool = { name: 'refresh', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://apps/v.html', visibility: ['app'] } } };
    const withView: Tool = { name: 'show', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://apps/v.html' } } };
    const apps = [server('apps', [withView, viewOnly])];
    assert.deepStrictEqual((JSON.parse(toolListForModel(apps)) as { tool: string }[]).map((t) => t.tool), ['show']);
    const byTool = resolveToolCall(apps, { server: 'apps', tool: 'refresh' });
    assert.ok(!byTool.ok && /has no tool "refresh"\. Its tools: show\./.test(byTool.message));
    assert.ok(!resolveToolCall(apps, { name: 'apps_refresh' }).ok);
    assert.ok(resolveToolCall(apps, { server: 'apps', tool: 'show' }).ok);
  });

  it('asks for the unique name when two folders have a server of the same name', () => {
    const twice = [server('everything', [echo]), server('everything', [echo], 'file:///b')];
    const r = resolveToolCall(twice, { server: 'everything', tool: 'echo' });
    assert.ok(!r.ok);
    assert.match(r.message, /one of everything_echo, everything_echo_2/);
    const second = resolveToolCall(twice, { name: 'everything_echo_2' });
    assert.ok(second.ok && second.tool.serverId === 'file:///b::everything');
  });

  it('with a query, lists only the best matches of 2,000 tools with their schemas; without one, says how to ask when they are too many', () => {
    const many = toolCatalogue().map((s) => server(s.name, s.tools));
    const list = (input: Parameters<typeof searchedToolList>[1]) => searchedToolList(many, input, 128) ?? toolListForModel(many, input);
    const ranked = JSON.parse(list({ query: 'list the tables in the postgres database', limit: 3 })) as {
      name: string;
      inputSchema: unknown;
    }[];
    assert.deepStrictEqual(ranked.map((t) => t.name), ['postgres_list_tables', 'postgres_list_database_roles', 'postgres_create_table']);
    assert.deepStrictEqual(ranked[0].inputSchema, { type: 'object', properties: { query: { type: 'string' } } });
    assert.strictEqual((JSON.parse(list({ query: 'issue' })) as unknown[]).length, 10, 'ten by default');
    assert.match(list({ query: 'zzyzx' }), /^No MCP tool matches "zzyzx"/);
    const overview = JSON.parse(list({})) as { note: string; servers: { server: string; tools: number }[] };
    assert.match(overview.note, /2000 tools, too many to list with their schemas\. Call mcpHost_listTools again with a "query"/);
    assert.deepStrictEqual(overview.servers[0], { server: 'github', tools: 40 });
    assert.strictEqual((JSON.parse(list({ server: 'jira' })) as unknown[]).length, 40, 'a server is listed whole');
    assert.strictEqual(searchedToolList(servers, {}, 128), undefined, 'few tools: the plain list');
  });
});
