// The host's `load_skill` tool: offered to a model beside a skills server's tools, run through the chat tool loop
// under the tools' consent (asked, refused, or always allowed like any tool), loading a skill's instructions and its
// files only when called; a tampered skill gives the model an error, never its text.
import * as assert from 'assert';
import { runToolLoop, type ToolLoopObserver } from '../../src/core/features/chat/chatToolLoop.lazy';
import { skillAwareCaller, withSkillTools } from '../../src/core/features/skills/skillTool.lazy';
import type { LanguageModel, ModelMessage, ModelRequest, ModelResponsePart } from '../../src/core/features/languageModel';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolConsent } from '../../src/core/features/tools/toolConsent';
import { toolNameMapOfServers } from '../../src/core/features/tools/toolNames';
import { toolListForModel } from '../../src/core/features/tools/agentTools';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { fixtureServer } from './helpers';
import { createKit, entry, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

class ScriptedModel implements Pick<LanguageModel, 'send'> {
  readonly requests: { messages: ModelMessage[]; tools: { name: string; description: string }[] }[] = [];
  constructor(private readonly turns: ModelResponsePart[][]) {}
  async *send({ messages, tools = [] }: ModelRequest): AsyncIterable<ModelResponsePart> {
    this.requests.push({ messages: structuredClone([...messages]), tools: tools.map((t) => ({ name: t.name, description: t.description })) });
    for (const e of this.turns.shift() ?? [{ kind: 'text', text: 'done' }]) yield e;
  }
}

const observer: ToolLoopObserver = { text() {}, toolNotOffered() {}, toolCallStarted() {}, toolProgress() {}, toolCallEnded() {}, roundLimitReached() {} };

const resultText = (messages: readonly ModelMessage[]) =>
  messages
    .flatMap((m) => m.parts)
    .flatMap((p) => (p.kind === 'toolResult' ? p.content : []))
    .map((p) => (p.kind === 'text' ? p.text : ''))
    .join('\n');

const reads = (kit: Kit) => [...kit.log('skills').text.matchAll(/READ (\S+)/g)].map((m) => m[1]);

describe('skills for models: the load_skill tool', function () {
  this.timeout(30_000);
  let kit: Kit;
  let asked: string[];
  let answers: (ConsentAnswer | undefined)[];
  let permissions: PermissionStore;

  before(async () => {
    kit = createKit();
    await kit.update(workspaceScope(), [entry('skills', stdio(process.execPath, [fixtureServer('skills-server.mjs')])), entry('basic', stdio(process.execPath, [fixtureServer('basic-server.mjs')]))], []);
    await waitForState(kit, 'skills', 'running');
    await waitForState(kit, 'basic', 'running');
  });
  after(() => kit.manager.disposeAsync());
  beforeEach(() => {
    asked = [];
    answers = [];
    permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
  });

  function loop(model: ScriptedModel) {
    const consent = new ToolConsent({
      permissions,
      ask: async (q) => {
        asked.push(`${q.serverName}/${q.toolName} ${q.argumentsJson.replace(/\s+/g, '')}`);
        return answers.shift();
      },
      autoAllowReadOnly: () => false,
    });
    return runToolLoop({
      model,
      messages: [{ role: 'user', parts: [{ kind: 'text', text: 'Review my change' }] }],
      tools: toolNameMapOfServers(withSkillTools(kit.manager.servers())),
      maxRounds: 4,
      caller: skillAwareCaller(new ToolCaller(kit.manager, new ActiveToolCalls(), consent), kit.manager),
      conversion: () => ({ images: false }),
      origin: '@mcp in chat: "Review my change"',
      signal: new AbortController().signal,
      observer,
    });
  }

  it('is offered for a server with skills only, naming each skill, and listed to agents', async () => {
    const model = new ScriptedModel([[{ kind: 'text', text: 'ok' }]]);
    await loop(model);
    const offered = model.requests[0].tools;
    const tool = offered.find((t) => t.name === 'skills_load_skill');
    assert.ok(tool, `offered: ${offered.map((t) => t.name).join(', ')}`);
    assert.match(tool.description, /- code-review: Review a change for correctness and style/);
    assert.ok(!offered.some((t) => t.name === 'basic_load_skill'), 'a server without skills gets none');
    assert.match(toolListForModel(withSkillTools(kit.manager.servers()), { server: 'skills' }), /"name": "skills_load_skill"/);
    assert.deepStrictEqual(reads(kit), [], 'offering skills reads no file');
  });

  it('loads a skill and then one of its files once the user allows it, asking like any tool', async () => {
    const model = new ScriptedModel([
      [{ kind: 'toolCall', callId: 'c1', name: 'skills_load_skill', input: { skill: 'code-review' } }],
      [{ kind: 'toolCall', callId: 'c2', name: 'skills_load_skill', input: { skill: 'code-review', file: 'references/CHECKLIST.md' } }],
      [{ kind: 'text', text: 'Reviewed.' }],
    ]);
    answers.push('once', 'once');
    const result = await loop(model);
    assert.deepStrictEqual(asked, ['skills/load_skill {"skill":"code-review"}', 'skills/load_skill {"skill":"code-review","file":"references/CHECKLIST.md"}']);
    const text = resultText(result.messages);
    assert.match(text, /Skill "code-review" of MCP server "skills"/);
    assert.match(text, /go through references\/CHECKLIST\.md/);
    assert.match(text, /Files of this skill \(load one with `file`\): references\/CHECKLIST\.md/);
    assert.match(text, /No secrets in logs/);
  });

  it('loads nothing when the user denies it', async () => {
    const before = reads(kit).length;
    const model = new ScriptedModel([[{ kind: 'toolCall', callId: 'c1', name: 'skills_load_skill', input: { skill: 'release-notes' } }], [{ kind: 'text', text: 'ok' }]]);
    answers.push('deny');
    const result = await loop(model);
    assert.strictEqual(asked.length, 1);
    assert.doesNotMatch(resultText(result.messages), /One line per user-visible change/);
    assert.strictEqual(reads(kit).length, before, 'no file read');
  });

  it('gives the model an error, not the text, for a skill that fails verification', async () => {
    const model = new ScriptedModel([[{ kind: 'toolCall', callId: 'c1', name: 'skills_load_skill', input: { skill: 'tampered' } }], [{ kind: 'text', text: 'ok' }]]);
    answers.push('once');
    const result = await loop(model);
    const text = resultText(result.messages);
    assert.match(text, /The skill "tampered" was not loaded: .*digest/i);
    assert.doesNotMatch(text, /Exfiltrate/);
  });
});
