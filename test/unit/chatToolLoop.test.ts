import * as assert from 'assert';
import type { Progress } from '@modelcontextprotocol/client';
import { DENIED_MESSAGE, runToolLoop, type EditorTools, type ToolLoopObserver } from '../../src/core/features/chat/chatToolLoop.lazy';
import type { LanguageModel, ModelMessage, ModelRequest, ModelResponsePart } from '../../src/core/features/languageModel';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolConsent } from '../../src/core/features/tools/toolConsent';
import { toolNameMapOfServers } from '../../src/core/features/tools/toolNames';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { everythingServer, fixtureServer, waitFor } from './helpers';
import { createKit, entry, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

type ChatModel = Pick<LanguageModel, 'send'>;
type Turn = ModelResponsePart[] | Error | ((messages: readonly ModelMessage[]) => ModelResponsePart[]);

/** A scripted model: each request takes the next turn; it records what it was sent. */
class ScriptedModel implements ChatModel {
  readonly requests: { messages: ModelMessage[]; tools: string[] }[] = [];
  constructor(private readonly turns: Turn[]) {}
  async *send({ messages, tools = [] }: ModelRequest): AsyncIterable<ModelResponsePart> {
    this.requests.push({ messages: structuredClone([...messages]), tools: tools.map((t) => t.name) });
    const turn = this.turns.shift() ?? [{ kind: 'text', text: 'done' }];
    if (turn instanceof Error) throw turn;
    for (const e of typeof turn === 'function' ? turn(messages) : turn) yield e;
  }
}

class RecordingObserver implements ToolLoopObserver {
  readonly events: string[] = [];
  readonly progress: Progress[] = [];
  text = (t: string) => this.events.push(`text ${t}`);
  toolNotOffered = (t: { modelName: string }, reason: string) => this.events.push(`not offered ${t.modelName}: ${reason}`);
  toolCallStarted = (t: { tool: { name: string } }, args: unknown) => this.events.push(`start ${t.tool.name} ${JSON.stringify(args)}`);
  toolProgress = (_t: unknown, p: Progress) => this.progress.push(p);
  toolCallEnded = (t: { tool: { name: string } }, end: { kind: string }) => this.events.push(`end ${t.tool.name} ${end.kind}`);
  roundLimitReached = (n: number) => this.events.push(`limit ${n}`);
}

const resultText = (messages: ModelMessage[]) =>
  messages
    .flatMap((m) => m.parts)
    .flatMap((p) => (p.kind === 'toolResult' ? p.content : []))
    .map((p) => (p.kind === 'text' ? p.text : ''))
    .join('\n');

describe('chat tool loop against real servers', function () {
  this.timeout(60_000);
  let kit: Kit;
  let answers: (ConsentAnswer | undefined)[];
  let asked: string[];
  let activeCalls: ActiveToolCalls;

  before(async () => {
    kit = createKit();
    await kit.update(
      workspaceScope(),
      [entry('everything', stdio(process.execPath, [everythingServer])), entry('slow', stdio(process.execPath, [fixtureServer('slow-tool-server.mjs')]))],
      [],
    );
    await waitForState(kit, 'everything', 'running');
    await waitForState(kit, 'slow', 'running');
  });

  after(() => kit.manager.disposeAsync());

  function loop(model: ChatModel, options: { maxRounds?: number; signal?: AbortSignal; observer?: RecordingObserver; editorTools?: EditorTools } = {}) {
    answers = answers ?? [];
    const consent = new ToolConsent({
      permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }),
      ask: async (q) => {
        asked.push(`${q.serverName}/${q.toolName} ${q.argumentsJson.replace(/\s+/g, '')}`);
        return answers.shift();
      },
      autoAllowReadOnly: () => false,
    });
    return runToolLoop({
      model,
      messages: [{ role: 'user', parts: [{ kind: 'text', text: 'What is 1 + 2?' }] }],
      tools: toolNameMapOfServers(kit.manager.servers()),
      maxRounds: options.maxRounds ?? 16,
      caller: new ToolCaller(kit.manager, activeCalls, consent),
      conversion: () => ({ images: false }),
      origin: '@mcp in chat: "What is 1 + 2?"',
      signal: options.signal ?? new AbortController().signal,
      observer: options.observer ?? new RecordingObserver(),
      editorTools: options.editorTools,
    });
  }

  beforeEach(() => {
    answers = [];
    asked = [];
    activeCalls = new ActiveToolCalls();
  });

  it('offers the tools the user referenced beside the MCP tools, runs them through the editor, and keeps MCP names first', async () => {
    const calls: [string, Record<string, unknown>][] = [];
    const editorTools: EditorTools = {
      tools: [
        { name: 'workspace_search', description: 'Searches', inputSchema: { type: 'object' } },
        { name: 'everything_get-sum', description: 'An editor tool with an MCP tool\'s name', inputSchema: { type: 'object' } },
      ],
      call: async (name, input) => {
        calls.push([name, input]);
        return [{ kind: 'text', text: 'found 3 files' }];
      },
    };
    const model = new ScriptedModel([[{ kind: 'toolCall', callId: 'call-e', name: 'workspace_search', input: '{"query":"mcp"}' }], [{ kind: 'text', text: 'ok' }]]);
    const result = await loop(model, { editorTools });
    const offered = model.requests[0].tools;
    assert.ok(offered.includes('workspace_search'));
    assert.strictEqual(offered.filter((n) => n === 'everything_get-sum').length, 1, 'the MCP tool keeps its name');
    assert.deepStrictEqual(calls, [['workspace_search', { query: 'mcp' }]]);
    assert.deepStrictEqual(asked, [], 'the editor asks for its own tools');
    assert.match(resultText(result.messages), /found 3 files/);
  });

  it('runs the tool the model calls once the user allows it, and gives the result back to the model', async () => {
    const model = new ScriptedModel([
      [
        { kind: 'text', text: 'Let me add. ' },
        { kind: 'toolCall', callId: 'call-1', name: 'everything_get-sum', input: { a: 1, b: 2 } },
      ],
      [{ kind: 'text', text: 'It is 3.' }],
    ]);
    answers.push('once');
    const observer = new RecordingObserver();
    const result = await loop(model, { observer });
    assert.deepStrictEqual(asked, ['everything/get-sum {"a":1,"b":2}']);
    assert.strictEqual(result.rounds, 1);
    assert.ok(model.requests[0].tools.includes('everything_get-sum') && model.requests[0].tools.includes('slow_sleep'), 'every running server’s tools');
    const second = model.requests[1].messages;
    assert.deepStrictEqual(second.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.deepStrictEqual(second[1].parts[1], { kind: 'toolCall', callId: 'call-1', name: 'everything_get-sum', input: { a: 1, b: 2 } });
    const toolResult = second[2].parts[0];
    assert.ok(toolResult.kind === 'toolResult' && toolResult.callId === 'call-1');
    assert.match(resultText(second), /The sum of 1 and 2 is 3\./);
    assert.deepStrictEqual(observer.events, ['text Let me add. ', 'start get-sum {"a":1,"b":2}', 'end get-sum result', 'text It is 3.']);
  });

  it('tells the model when the user denies a call, without running it', async () => {
    const model = new ScriptedModel([[{ kind: 'toolCall', callId: 'c', name: 'slow_sleep', input: { ms: 1 } }], [{ kind: 'text', text: 'ok' }]]);
    answers.push('deny');
    const observer = new RecordingObserver();
    await loop(model, { observer });
    assert.strictEqual(resultText(model.requests[1].messages), DENIED_MESSAGE);
    assert.deepStrictEqual(observer.events.slice(0, 1), ['end sleep refused']);
    assert.ok(!observer.events.some((e) => e.startsWith('start')), 'never started');
  });

  it('stops after the configured number of tool rounds', async () => {
    const always: Turn = () => [{ kind: 'toolCall', callId: `c${Math.random()}`, name: 'everything_get-sum', input: { a: 1, b: 1 } }];
    const model = new ScriptedModel([always, always, always, always]);
    answers.push('once', 'once', 'once', 'once');
    const observer = new RecordingObserver();
    const result = await loop(model, { maxRounds: 2, observer });
    assert.strictEqual(result.rounds, 2);
    assert.strictEqual(result.limitReached, true);
    assert.strictEqual(model.requests.length, 3, 'two rounds of tools, then the third request’s calls are not run');
    assert.strictEqual(asked.length, 2);
    assert.strictEqual(observer.events.at(-1), 'limit 2');
  });

  it('reports tool errors and unknown tools to the model instead of failing', async () => {
    const model = new ScriptedModel([
      [
        { kind: 'toolCall', callId: 'a', name: 'nope', input: {} },
        { kind: 'toolCall', callId: 'b', name: 'everything_get-sum', input: '{"a": "x"}' },
      ],
      [{ kind: 'text', text: 'sorry' }],
    ]);
    answers.push('once');
    await loop(model);
    const text = resultText(model.requests[1].messages);
    assert.match(text, /There is no tool named "nope"/);
    assert.match(text, /The tool reported an error:\n.*Invalid arguments for tool get-sum/);
  });

  it('leaves out tools the model API refuses, says so, and tries again without them', async () => {
    const model = new ScriptedModel([new Error("Invalid schema for function 'everything_echo': bad"), [{ kind: 'text', text: 'fine' }]]);
    const observer = new RecordingObserver();
    await loop(model, { observer });
    assert.strictEqual(model.requests.length, 2);
    assert.ok(model.requests[0].tools.includes('everything_echo'));
    assert.ok(!model.requests[1].tools.includes('everything_echo'));
    assert.ok(model.requests[1].tools.includes('everything_get-sum'));
    assert.match(observer.events[0], /^not offered everything_echo: the model refused it: Invalid schema/);
  });

  it('cancelling mid-call cancels the MCP request: the server receives notifications/cancelled', async () => {
    const model = new ScriptedModel([[{ kind: 'toolCall', callId: 'c', name: 'slow_sleep', input: { ms: 30_000 } }]]);
    answers.push('once');
    const controller = new AbortController();
    const observer = new RecordingObserver();
    const running = loop(model, { signal: controller.signal, observer });
    await waitFor(() => observer.progress.length > 0, 'progress from the slow tool', 10_000);
    const slowId = kit.manager.servers().find((s) => s.name === 'slow')!.id;
    assert.deepStrictEqual(activeCalls.of(slowId).map((c) => [c.toolName, c.origin]), [['sleep', '@mcp in chat: "What is 1 + 2?"']]);
    const started = Date.now();
    controller.abort(new Error('user cancelled'));
    await assert.rejects(running);
    assert.ok(Date.now() - started < 5000, 'returns at once');
    assert.strictEqual(observer.events.at(-1), 'end sleep cancelled', 'the response says the call was cancelled');
    assert.deepStrictEqual(activeCalls.of(slowId), [], 'no longer active');
    const client = kit.manager.session(slowId);
    const received = await waitFor(async () => {
      const r = (await client.callTool({ name: 'cancellations', arguments: {} })) as { content: { text: string }[] };
      const list = JSON.parse(r.content[0].text) as { requestId: unknown; wasRunning: boolean }[];
      return list.length > 0 && list;
    }, 'the server to record the cancellation', 5000);
    assert.strictEqual(received.length, 1);
    assert.strictEqual(received[0].wasRunning, true, 'it cancelled the running sleep request');
  });

  it('a server restarted mid-call: the response and the model hear that it was cancelled because of the restart', async () => {
    const model = new ScriptedModel([[{ kind: 'toolCall', callId: 'c', name: 'slow_sleep', input: { ms: 30_000 } }], [{ kind: 'text', text: 'ok' }]]);
    answers.push('once');
    const observer = new RecordingObserver();
    const running = loop(model, { observer });
    await waitFor(() => observer.progress.length > 0, 'progress from the slow tool', 10_000);
    void kit.manager.get(kit.manager.servers().find((s) => s.name === 'slow')!.id)!.restart(false);
    const { messages } = await running;
    assert.deepStrictEqual(observer.events.filter((e) => e.startsWith('end')), ['end sleep cancelled']);
    assert.match(resultText(messages), /The tool "sleep" was cancelled: its server "slow" was restarted while the tool ran\./);
    assert.doesNotMatch(resultText(messages), /operation was aborted/);
    await waitForState(kit, 'slow', 'running');
  });
});
