import * as assert from 'assert';
import { runToolLoop, type ToolLoopObserver } from '../../src/core/features/chat/chatToolLoop.lazy';
import type { LanguageModel, ModelMessage, ModelRequest, ModelResponsePart } from '../../src/core/features/languageModel';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolConsent } from '../../src/core/features/tools/toolConsent';
import { SEARCH_TOOL_NAME } from '../../src/core/features/tools/toolOffer';
import { toolNameMapOfServers } from '../../src/core/features/tools/toolNames';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { fixtureServer } from './helpers';
import { createKit, entry, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

type Turn = ModelResponsePart[] | ((messages: readonly ModelMessage[]) => ModelResponsePart[]);

/** A scripted model: each request takes the next turn; it records what it was offered. */
class ScriptedModel implements Pick<LanguageModel, 'send'> {
  readonly offered: string[][] = [];
  constructor(private readonly turns: Turn[]) {}
  async *send({ messages, tools = [] }: ModelRequest): AsyncIterable<ModelResponsePart> {
    this.offered.push(tools.map((t) => t.name));
    const turn = this.turns.shift() ?? [{ kind: 'text', text: 'done' }];
    for (const e of typeof turn === 'function' ? turn(messages) : turn) yield e;
  }
}

const lastResult = (messages: readonly ModelMessage[]): string => {
  const part = messages.filter((m) => m.role === 'user').at(-1)!.parts.find((p) => p.kind === 'toolResult');
  return part?.kind === 'toolResult' ? part.content.map((c) => (c.kind === 'text' ? c.text : '')).join('') : '';
};

/** Four real servers of the catalogue: 160 tools, more than the 128 a request carries. */
const SERVERS = ['github', 'gitlab', 'jira', 'linear'];

describe('tool search in the chat tool loop, with 160 tools of 4 real servers', function () {
  this.timeout(60_000);
  let kit: Kit;

  before(async () => {
    kit = createKit();
    await kit.update(workspaceScope(), SERVERS.map((s) => entry(s, stdio(process.execPath, [fixtureServer('catalogue-server.mjs'), s]))), []);
    for (const s of SERVERS) await waitForState(kit, s, 'running');
  });

  after(() => kit.manager.disposeAsync());

  function loop(model: ScriptedModel, options: { maxTools?: number; mentionedServers?: string[]; events?: string[] } = {}) {
    const events = options.events ?? [];
    const observer: ToolLoopObserver = {
      text: () => undefined,
      toolNotOffered: (t, reason) => events.push(`not offered ${t.modelName}: ${reason}`),
      toolCallStarted: (t) => events.push(`start ${t.serverName}/${t.tool.name}`),
      toolProgress: () => undefined,
      toolCallEnded: (t, end) => events.push(`end ${t.serverName}/${t.tool.name} ${end.kind}`),
      roundLimitReached: () => undefined,
      toolsSearched: (query, found, total) => events.push(`searched ${total} for "${query}": ${found.map((t) => t.modelName).join(', ')}`),
    };
    const consent = new ToolConsent({
      permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }),
      ask: async () => 'once',
      autoAllowReadOnly: () => false,
    });
    return runToolLoop({
      model,
      messages: [{ role: 'user', parts: [{ kind: 'text', text: 'Create a Jira ticket for the login crash' }] }],
      tools: toolNameMapOfServers(kit.manager.servers()),
      maxRounds: 8,
      caller: new ToolCaller(kit.manager, new ActiveToolCalls(), consent),
      conversion: () => ({ images: false }),
      origin: '@mcp in chat: "Create a Jira ticket"',
      signal: new AbortController().signal,
      observer,
      maxTools: options.maxTools ?? 128,
      mentionedServers: options.mentionedServers,
    });
  }

  it('offers a search tool instead of 160 tools; the model searches, gets the tool with its schema, and calls it in the next round', async () => {
    const events: string[] = [];
    let schema: unknown;
    const model = new ScriptedModel([
      [{ kind: 'toolCall', callId: 's1', name: SEARCH_TOOL_NAME, input: { query: 'create a jira ticket', limit: 3 } }],
      (messages) => {
        const { tools } = JSON.parse(lastResult(messages)) as { tools: { name: string; inputSchema: unknown }[] };
        schema = tools[0].inputSchema;
        return [{ kind: 'toolCall', callId: 'c1', name: tools[0].name, input: { id: 'login crash' } }];
      },
      (messages) => [{ kind: 'text', text: `Done: ${lastResult(messages)}` }],
    ]);
    const result = await loop(model, { events });
    assert.deepStrictEqual(model.offered[0], [SEARCH_TOOL_NAME], 'no MCP tool is dropped or offered before the search');
    assert.deepStrictEqual(model.offered[1], ['jira_createIssue', 'linear_createIssue', 'jira_createSprint', SEARCH_TOOL_NAME]);
    assert.deepStrictEqual(schema, { type: 'object', properties: { id: { type: 'string' } } });
    assert.deepStrictEqual(events, [
      'searched 160 for "create a jira ticket": jira_createIssue, linear_createIssue, jira_createSprint',
      'start jira/createIssue',
      'end jira/createIssue result',
    ]);
    assert.strictEqual(result.rounds, 2);
    assert.match(lastResult(result.messages), /jira\/createIssue ran with \{"id":"login crash"\}/);
  });

  it('offers the tools of a server the user named without a search, beside the search tool', async () => {
    const model = new ScriptedModel([[{ kind: 'text', text: 'ok' }]]);
    await loop(model, { mentionedServers: ['gitlab'] });
    const offered = model.offered[0];
    assert.strictEqual(offered.length, 41);
    assert.ok(offered.slice(0, 40).every((n) => n.startsWith('gitlab_')));
    assert.strictEqual(offered[40], SEARCH_TOOL_NAME);
  });

  it('answers a search with no match or no query in words the model can act on, and offers everything when it fits', async () => {
    const model = new ScriptedModel([
      [
        { kind: 'toolCall', callId: 's1', name: SEARCH_TOOL_NAME, input: { query: 'zzyzx' } },
        { kind: 'toolCall', callId: 's2', name: SEARCH_TOOL_NAME, input: {} },
      ],
    ]);
    const result = await loop(model);
    const texts = result.messages.filter((m) => m.role === 'user').at(-1)!.parts.map((p) => (p.kind === 'toolResult' && p.content[0].kind === 'text' ? p.content[0].text : ''));
    assert.match(texts[0], /^No MCP tool matches "zzyzx"\. Try other words: .*\(github, gitlab, jira, linear\)/);
    assert.match(texts[1], /^Give "query"/);

    const roomy = new ScriptedModel([[{ kind: 'text', text: 'ok' }]]);
    await loop(roomy, { maxTools: 160 });
    assert.strictEqual(roomy.offered[0].length, 160);
    assert.ok(!roomy.offered[0].includes(SEARCH_TOOL_NAME));
  });
});
