// The context budget (core/features/tools/contextBudget): descriptions cut at a cap with a marker wherever a model reads
// them, each tool's size estimated or counted once per tool object, and the largest servers moved behind the tool
// search when the offer is over the budget — with the 50 × 40 tool catalogue of the tool search tests.
import * as assert from 'assert';
import { performance } from 'perf_hooks';
import {
  budgetNote,
  capText,
  contextBudget,
  DefinitionSizes,
  definitionText,
  estimateTokens,
  serverOffers,
  serversOverBudget,
  tokensText,
} from '../../src/core/features/tools/contextBudget';
import { searchResultText, searchToolDefinition, ToolOffer, SEARCH_TOOL_NAME } from '../../src/core/features/tools/toolOffer';
import { toolListForModel } from '../../src/core/features/tools/agentTools';
import { searchedToolList } from '../../src/core/features/tools/toolListSearch';
import { toolNameMap, toolNameMapOfServers, type NamedTool } from '../../src/core/features/tools/toolNames';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import { describeServerContext } from '../../src/core/features/sampling/serverContext';
import { emptyFeatures, type ServerInfo, type Tool } from '../../src/core/host/serverInfo';
import { stdio, workspaceScope } from './hostTestKit';
import { toolCatalogue, type CatalogueServer } from './toolCatalogue';

const LONG = 'Lists things. '.repeat(520); // 7,280 characters
const catalogue = toolCatalogue();

const serverOf = (s: CatalogueServer, extra: Partial<ServerInfo> = {}): ServerInfo => ({
  id: `id-${s.name}`,
  name: s.name,
  scope: workspaceScope('/a', 'file:///a'),
  definition: stdio('node', [s.name]),
  state: { kind: 'running' },
  crashCount: 0,
  features: { ...emptyFeatures(), tools: s.tools },
  ...extra,
});

/** The catalogue with three servers made heavier: their descriptions 2, 3 and 4 times as long. */
function weightedCatalogue(): CatalogueServer[] {
  const heavy: Record<string, number> = { slack: 2, github: 4, postgres: 3 };
  return catalogue.map((s) => ({ ...s, tools: s.tools.map((t) => ({ ...t, description: `${t.description} `.repeat(heavy[s.name] ?? 1).trim() })) }));
}

const named = (servers: readonly CatalogueServer[]): NamedTool[] =>
  toolNameMap(servers.flatMap((s) => s.tools.map((tool) => ({ serverId: `id-${s.name}`, serverName: s.name, consentSubject: s.name, tool })))).tools;

describe('context budget: the cap on what the model reads', () => {
  it('cuts a text over the cap with a marker that says how much was cut, and leaves a shorter one alone', () => {
    assert.strictEqual(capText('short', 2048), 'short');
    assert.strictEqual(capText('x'.repeat(2048), 2048), 'x'.repeat(2048));
    const cut = capText('y'.repeat(7258), 2048);
    assert.strictEqual(cut, `${'y'.repeat(2048)}… [cut: 5,210 characters]`);
    // A surrogate pair is never split.
    assert.strictEqual(capText(`${'a'.repeat(9)}😀b`, 10), `${'a'.repeat(9)}… [cut: 3 characters]`);
  });

  it('cuts long descriptions in what @mcp offers, in the agent tools\' list and in search results', () => {
    const tool: Tool = { name: 'list', description: LONG, inputSchema: { type: 'object' } };
    const servers = [serverOf({ name: 'big', tools: [tool] })];
    const map = toolNameMapOfServers(servers);
    const offer = new ToolOffer(map, { maxTools: 128, reserved: 0, descriptionCap: 500 });
    assert.strictEqual(offer.tools()[0].description, capText(LONG, 500));
    assert.match(offer.tools()[0].description, /… \[cut: 6,780 characters\]$/);
    const listed = JSON.parse(toolListForModel(servers, {}, 1000)) as { description: string }[];
    assert.strictEqual(listed[0].description, capText(LONG, 1000));
    const found = JSON.parse(searchResultText(map.tools, undefined, 300)) as { tools: { description: string }[] };
    assert.strictEqual(found.tools[0].description, capText(LONG, 300));
    // The default cap is 2 KB.
    assert.strictEqual(new ToolOffer(map, { maxTools: 128, reserved: 0 }).tools()[0].description, capText(LONG, 2048));
  });

  it('cuts server instructions and tool descriptions in the servers\' context a sampling request asks for', () => {
    const info = serverOf({ name: 'big', tools: [{ name: 'list', description: LONG, inputSchema: { type: 'object' } }] }, { instructions: LONG });
    const context = describeServerContext([info], info.id, 'thisServer');
    assert.ok(context.includes(`Instructions: ${capText(LONG)}\n`));
    assert.ok(context.endsWith(`- tool list: ${capText(LONG)}`));
    assert.ok(!context.includes(LONG));
  });

  it('reads alwaysOffered, and Claude Code\'s alwaysLoad, from a server\'s entry', () => {
    const parsed = parseMcpConfig('{ "servers": { "a": { "command": "node", "alwaysOffered": true }, "b": { "command": "node", "alwaysLoad": true }, "c": { "command": "node", "alwaysLoad": "yes" } } }');
    assert.deepStrictEqual(parsed.servers.map((s) => [s.name, s.server.alwaysOffered]), [['a', true], ['b', true], ['c', undefined]]);
  });
});

describe('context budget: sizes', () => {
  it('estimates about four characters a token, and says so with "≈"', () => {
    assert.strictEqual(estimateTokens('x'.repeat(401)), 101);
    assert.strictEqual(tokensText({ tokens: 812, estimated: false }), '812 tokens');
    assert.strictEqual(tokensText({ tokens: 3170, estimated: true }), '≈3.2k tokens');
    assert.strictEqual(tokensText({ tokens: 3000, estimated: true }), '≈3k tokens');
    assert.strictEqual(contextBudget(0, 100_000), 25_000);
    assert.strictEqual(contextBudget(0, undefined), 32_000);
    assert.strictEqual(contextBudget(5000, 100_000), 5000);
  });

  it('counts each tool once with the model, per tool object: an unchanged list is never counted again, a new one is', async () => {
    const tools = named(catalogue.slice(0, 2));
    const sizes = new DefinitionSizes();
    let counted = 0;
    const model = { id: 'm', countTokens: async (text: string) => (counted++, text.length) };
    assert.deepStrictEqual(sizes.sizeOf(tools[0], 2048, 'm'), { tokens: estimateTokens(definitionText(tools[0], 2048)), estimated: true });
    await sizes.count(tools, 2048, model);
    assert.strictEqual(counted, 80);
    assert.deepStrictEqual(sizes.sizeOf(tools[0], 2048, 'm'), { tokens: definitionText(tools[0], 2048).length, estimated: false });
    await sizes.count(named(catalogue.slice(0, 2)), 2048, model);
    assert.strictEqual(counted, 80, 'the same tool objects, named again: not counted again');
    await sizes.count(named(catalogue.slice(0, 2)).map((t) => ({ ...t, tool: { ...t.tool } })), 2048, model);
    assert.strictEqual(counted, 160, 'a new list: counted');
    // A count that fails keeps the estimate.
    const failing = { id: 'f', countTokens: () => Promise.reject(new Error('offline')) };
    await sizes.count(tools.slice(0, 1), 2048, failing);
    assert.strictEqual(sizes.sizeOf(tools[0], 2048, 'f').estimated, true);
  });

  it('sums each server\'s offer; estimated when any tool was', () => {
    const tools = named(catalogue.slice(0, 3));
    const offers = serverOffers(tools, (t) => ({ tokens: 10, estimated: t.serverName === 'gitlab' }), (id) => id === 'id-github');
    assert.deepStrictEqual(
      offers.map((o) => [o.serverName, o.tools, o.tokens, o.estimated, o.alwaysOffered]),
      [
        ['github', 40, 400, false, true],
        ['gitlab', 40, 400, true, false],
        ['bitbucket', 40, 400, false, false],
      ],
    );
  });

  it('sizes and budgets 2,000 tools in well under 5 ms a request once sized (printed, not asserted)', () => {
    const sizes = new DefinitionSizes();
    const first = performance.now();
    const tools = named(catalogue);
    const sizeOf = (t: NamedTool) => sizes.sizeOf(t, 2048);
    serversOverBudget(serverOffers(tools, sizeOf, () => false), 25_000);
    const cold = performance.now() - first;
    const runs = 50;
    const t = performance.now();
    for (let i = 0; i < runs; i++) serversOverBudget(serverOffers(tools, sizeOf, () => false), 25_000);
    const warm = (performance.now() - t) / runs;
    console.log(`      2,000 tools: first sizing and budget ${cold.toFixed(1)} ms; then each request's budget ${warm.toFixed(3)} ms`);
  });
});

describe('context budget: which servers go behind the search', () => {
  const servers = weightedCatalogue();
  const tools = named(servers);
  const sizes = new DefinitionSizes();
  const offers = (always: string[] = []) => serverOffers(tools, (t) => sizes.sizeOf(t, 2048), (id) => always.includes(id));
  const total = offers().reduce((n, o) => n + o.tokens, 0);

  it('moves the largest servers first, only as many as needed to get within the budget', () => {
    const all = offers();
    const bySize = [...all].sort((a, b) => b.tokens - a.tokens).map((o) => o.serverName);
    assert.deepStrictEqual(bySize.slice(0, 3), ['github', 'postgres', 'slack']);
    assert.deepStrictEqual(serversOverBudget(all, total), []);
    const github = all.find((o) => o.serverName === 'github')!;
    assert.deepStrictEqual(serversOverBudget(all, total - 1).map((o) => o.serverName), ['github']);
    const moved = serversOverBudget(all, total - github.tokens - 1);
    assert.deepStrictEqual(moved.map((o) => o.serverName), ['github', 'postgres']);
    assert.ok(total - moved.reduce((n, o) => n + o.tokens, 0) <= total - github.tokens - 1);
    assert.match(budgetNote(moved, 1234), /^2 servers' tools are offered through search to stay within the context budget \(1,234 tokens\): github \(≈[\d.]+k tokens\), postgres \(≈[\d.]+k tokens\)\.$/);
  });

  it("counts the search tool's own size once a server is moved behind it: another server goes when it does not fit", () => {
    const offer = (serverName: string, tokens: number) => ({ serverId: `id-${serverName}`, serverName, tokens, estimated: false, tools: 1, alwaysOffered: false });
    const three = [offer('a', 600), offer('b', 500), offer('c', 300)];
    // 1,400 over 850: without the search tool, moving a leaves 800; with it (100 tokens), 900 is still over.
    assert.deepStrictEqual(serversOverBudget(three, 850).map((o) => o.serverName), ['a']);
    assert.deepStrictEqual(serversOverBudget(three, 850, 100).map((o) => o.serverName), ['a', 'b']);
    assert.deepStrictEqual(serversOverBudget(three, 1400, 100), [], 'within the budget: no search tool, nothing counted');
    // The definition whose size counts is the one the request carries.
    const offerOfAll = new ToolOffer(toolNameMap(tools), { maxTools: 128, reserved: 0, searchedServers: new Set(['id-github']) });
    const carried = offerOfAll.tools().find((t) => t.name === SEARCH_TOOL_NAME);
    assert.deepStrictEqual(carried, searchToolDefinition(SEARCH_TOOL_NAME, tools.length, [...new Set(tools.map((t) => t.serverName))]));
  });

  it('never moves an always-offered server, even when it alone is over the budget', () => {
    const moved = serversOverBudget(offers(['id-github']), 1000);
    assert.ok(!moved.some((o) => o.serverName === 'github'));
    assert.strictEqual(moved.length, 49);
  });

  it('offers the other servers\' tools as they are and the moved ones\' through the search, which finds them', () => {
    const map = toolNameMap(tools.filter((t) => ['github', 'jira', 'notion'].includes(t.serverName)));
    const offer = new ToolOffer(map, { maxTools: 128, reserved: 0, searchedServers: new Set(['id-github']) });
    const first = offer.tools().map((t) => t.name);
    assert.strictEqual(first.length, 81);
    assert.ok(!first.some((n) => n.startsWith('github_')));
    assert.strictEqual(first.at(-1), SEARCH_TOOL_NAME);
    const outcome = offer.search({ query: 'open a new GitHub issue' });
    assert.strictEqual(outcome.found[0].modelName, 'github_create_issue');
    assert.ok(offer.tools().some((t) => t.name === 'github_create_issue'));
    // A server the user names is offered without a search.
    const named2 = new ToolOffer(map, { maxTools: 128, reserved: 0, searchedServers: new Set(['id-github']), mentionedServers: ['github'] });
    assert.ok(named2.tools().some((t) => t.name === 'github_list_issues'));
  });

  it('the agent tools\' list gives the moved servers by count, with a note, and the others in full', () => {
    const infos = servers.slice(0, 3).map((s) => serverOf(s, s.name === 'gitlab' ? { definition: { ...stdio('node', ['gitlab']), alwaysOffered: true } } : {}));
    const budget = { tokens: 1500, descriptionCap: 2048, sizeOf: (t: NamedTool) => sizes.sizeOf(t, 2048) };
    const list = JSON.parse(searchedToolList(infos, {}, 128, budget)!) as { note: string; searchedServers: { server: string; tools: number }[]; tools: { server: string }[] };
    assert.match(list.note, /^2 servers' tools are offered through search to stay within the context budget \(1,500 tokens\): github .*, bitbucket .*\. Call mcpHost_listTools with a "query"/);
    assert.deepStrictEqual(list.searchedServers.map((s) => [s.server, s.tools]), [['github', 40], ['bitbucket', 40]]);
    assert.deepStrictEqual([...new Set(list.tools.map((t) => t.server))], ['gitlab']);
    // Within the budget, the plain list.
    assert.strictEqual(searchedToolList(infos, {}, 128, { ...budget, tokens: 1_000_000 }), undefined);
  });
});

describe('the 50 × 40 tool catalogue with 30 tools unchecked', () => {
  it('never finds an unchecked tool, whatever the search asks', () => {
    const unchecked: string[] = catalogue.slice(0, 10).flatMap((s) => s.tools.slice(0, 3).map((t) => `${s.name}/${t.name}`));
    assert.strictEqual(unchecked.length, 30);
    const infos = catalogue.map((s) =>
      serverOf(s, { toolChoices: { off: new Set(s.tools.filter((t) => unchecked.includes(`${s.name}/${t.name}`)).map((t) => t.name)) } }),
    );
    const map = toolNameMapOfServers(infos);
    assert.strictEqual(map.tools.length, 2000 - 30);
    const offer = new ToolOffer(map, { maxTools: 128, reserved: 0 });
    const byName = new Map(catalogue.flatMap((s) => s.tools.map((t): [string, Tool] => [`${s.name}/${t.name}`, t])));
    for (const key of unchecked) {
      const tool = byName.get(key)!;
      const [server] = key.split('/');
      for (const query of [tool.name, `${server} ${tool.description}`, `${tool.title ?? tool.name} ${server}`]) {
        const found = offer.search({ query, limit: 20 }).found.map((t) => `${t.serverName}/${t.tool.name}`);
        assert.ok(!found.some((f) => unchecked.includes(f)), `"${query}" found ${found.filter((f) => unchecked.includes(f)).join(', ')}`);
      }
      const listed = JSON.parse(searchedToolList(infos, { query: `${server} ${tool.description}`, limit: 50 }, 128) ?? '[]') as { server: string; tool: string }[];
      assert.ok(listed.length > 0);
      assert.ok(!listed.some((t) => unchecked.includes(`${t.server}/${t.tool}`)));
    }
  });
});
