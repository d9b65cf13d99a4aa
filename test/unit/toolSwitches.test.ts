// Tools switched off (by the user in the Servers view, or by the server's entry: `tools`, `disabledTools`) and the
// approval policy per server (`toolApproval`, or the user's choice): decided in core/features/tools/toolSwitches,
// applied on the one list of tools offered to models (toolNameMapOfServers) and the one guarded call path (ToolCaller,
// ToolConsent), with real servers where a call is made.
import * as assert from 'assert';
import { parseMcpConfig } from '../../src/core/config/mcpConfigParser';
import type { RawServer, ToolApproval } from '../../src/core/config/serverDefinition';
import { resolveToolCall } from '../../src/core/features/tools/agentTools';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolChoiceStore } from '../../src/core/features/tools/toolChoiceStore.lazy';
import { ToolConsent, type ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import { toolNameMapOfServers } from '../../src/core/features/tools/toolNames';
import { approvalOf, offInFile, switchedOff, type ToolControlled } from '../../src/core/features/tools/toolSwitches';
import { PermissionStore } from '../../src/core/host/permissionStore';
import type { Tool } from '../../src/core/host/serverInfo';
import { everythingServer } from './helpers';
import { createKit, entry, MemoryStore, stdio, userScope, waitForState, workspaceScope, type Kit } from './hostTestKit';

const raw = (controls: Partial<RawServer> = {}): RawServer => ({ ...stdio('node'), ...controls }) as RawServer;
const server = (kind: 'user' | 'workspace', controls: Partial<RawServer> = {}, choices?: ToolControlled['toolChoices']): ToolControlled => ({
  scope: { kind },
  definition: raw(controls),
  ...(choices ? { toolChoices: choices } : {}),
});

describe('tools switched off: the entry and the user', () => {
  it('reads "tools" (an allow-list, "*" for all) and "disabledTools" (a deny-list) from the entry', () => {
    assert.strictEqual(offInFile(raw(), 'echo'), false);
    assert.strictEqual(offInFile(raw({ tools: ['search'] }), 'echo'), true);
    assert.strictEqual(offInFile(raw({ tools: ['search'] }), 'search'), false);
    assert.strictEqual(offInFile(raw({ tools: ['*'] }), 'echo'), false);
    assert.strictEqual(offInFile(raw({ tools: [] }), 'echo'), true, 'an empty list offers nothing');
    assert.strictEqual(offInFile(raw({ disabledTools: ['echo'] }), 'echo'), true);
    assert.strictEqual(offInFile(raw({ tools: ['*'], disabledTools: ['echo'] }), 'echo'), true, 'the deny-list wins');
  });

  it('says who switched a tool off: the file first, then the user', () => {
    const off = new Set(['echo', 'add']);
    assert.strictEqual(switchedOff(server('workspace', { disabledTools: ['echo'] }, { off }), 'echo'), 'file');
    assert.strictEqual(switchedOff(server('workspace', {}, { off }), 'add'), 'user');
    assert.strictEqual(switchedOff(server('workspace', {}, { off }), 'other'), undefined);
  });

  it('parses the keys from mcp.json and .mcp.json, no longer saying they are not honoured; "alwaysAllow" still is not', () => {
    const vscode = parseMcpConfig('{ "servers": { "a": { "command": "node", "tools": ["x"], "disabledTools": ["y"], "toolApproval": "askUnlessReadOnly", "alwaysAllow": ["z"] } } }');
    assert.deepStrictEqual(vscode.servers[0].server, { type: 'stdio', command: 'node', args: [], env: {}, tools: ['x'], disabledTools: ['y'], toolApproval: 'askUnlessReadOnly' });
    assert.deepStrictEqual(vscode.diagnostics.map((d) => d.code), ['not-honoured']);
    const portable = parseMcpConfig('{ "mcpServers": { "r": { "type": "http", "url": "https://example.com/mcp", "tools": ["*"] } } }', { format: 'mcpServers' });
    assert.deepStrictEqual(portable.servers[0].server.tools, ['*']);
    assert.deepStrictEqual(portable.diagnostics, []);
  });

  it('refuses a list that is not of strings, and reads an unknown "toolApproval" as not given (every call asks)', () => {
    const parsed = parseMcpConfig('{ "servers": { "a": { "command": "node", "tools": "x" }, "b": { "command": "node", "toolApproval": "sometimes" } } }');
    assert.deepStrictEqual(parsed.rejectedServers, ['a']);
    assert.match(parsed.diagnostics[0].message, /"tools" must be an array of strings/);
    assert.strictEqual(parsed.servers[0].server.toolApproval, undefined);
  });
});

describe('approval policy per server', () => {
  it('is the read-only setting when nobody chose one', () => {
    assert.strictEqual(approvalOf(server('workspace'), false, 'subject'), 'askEveryCall');
    assert.strictEqual(approvalOf(server('workspace'), true, 'subject'), 'askUnlessReadOnly');
  });

  it('for a user-level server: the user\'s choice, else its entry, "never ask" included', () => {
    assert.strictEqual(approvalOf(server('user', { toolApproval: 'neverAsk' }), false, 'subject'), 'neverAsk');
    assert.strictEqual(approvalOf(server('user', { toolApproval: 'neverAsk' }, { approval: 'askEveryCall', approvalFor: 'subject' }), false, 'subject'), 'askEveryCall');
    assert.strictEqual(approvalOf(server('user', {}, { approval: 'neverAsk', approvalFor: 'subject' }), false, 'subject'), 'neverAsk');
  });

  it('a workspace file can only tighten, and "never ask" is never a workspace server\'s', () => {
    const cases: [ToolApproval | undefined, ToolApproval | undefined, boolean, ToolApproval][] = [
      ['neverAsk', undefined, false, 'askEveryCall'],
      ['neverAsk', undefined, true, 'askUnlessReadOnly'],
      ['askUnlessReadOnly', undefined, false, 'askEveryCall'],
      ['askEveryCall', 'askUnlessReadOnly', false, 'askEveryCall'],
      ['askUnlessReadOnly', 'askUnlessReadOnly', false, 'askUnlessReadOnly'],
      [undefined, 'neverAsk', false, 'askUnlessReadOnly'],
    ];
    for (const [inFile, chosen, setting, expected] of cases) {
      const s = server('workspace', inFile ? { toolApproval: inFile } : {}, chosen ? { approval: chosen, approvalFor: 'subject' } : undefined);
      assert.strictEqual(approvalOf(s, setting, 'subject'), expected, `file ${inFile}, chosen ${chosen}, setting ${setting}`);
    }
  });

  describe('in the consent decision', () => {
    const readOnly: Tool = { name: 'list', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };
    const readOnlyButDestructive: Tool = { name: 'wipe', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: true } };
    const writer: Tool = { name: 'write', inputSchema: { type: 'object' } };
    let asked: ToolConsentQuestion[];
    let permissions: PermissionStore;
    let consent: ToolConsent;

    beforeEach(() => {
      asked = [];
      permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
      consent = new ToolConsent({ permissions, ask: async (q) => (asked.push(q), 'once'), autoAllowReadOnly: () => false });
    });

    const check = (s: ToolControlled, tool: Tool, argumentsFromCaller = false) => consent.check({ consentSubject: 'subject', serverName: 'srv', tool, arguments: {}, server: s, argumentsFromCaller });

    it('"ask unless read-only" runs an annotated tool without asking, and asks for the other', async () => {
      const s = server('workspace', {}, { approval: 'askUnlessReadOnly', approvalFor: 'subject' });
      assert.deepStrictEqual(await check(s, readOnly), { allowed: true, reason: 'read-only' });
      assert.deepStrictEqual(await check(s, writer), { allowed: true, reason: 'once' });
      assert.deepStrictEqual(await check(s, readOnlyButDestructive), { allowed: true, reason: 'once' });
      assert.deepStrictEqual(asked.map((q) => q.toolName), ['write', 'wipe']);
    });

    it('"ask for every call" in a workspace file asks even for read-only tools when the setting would not', async () => {
      consent = new ToolConsent({ permissions, ask: async (q) => (asked.push(q), 'once'), autoAllowReadOnly: () => true });
      await check(server('workspace', { toolApproval: 'askEveryCall' }), readOnly);
      assert.deepStrictEqual(asked.map((q) => q.toolName), ['list']);
    });

    it('"never ask" runs a user server\'s tools unasked, but not a workspace file\'s, nor arguments from a link', async () => {
      assert.deepStrictEqual(await check(server('user', { toolApproval: 'neverAsk' }), writer), { allowed: true, reason: 'never-ask' });
      assert.strictEqual(asked.length, 0);
      await check(server('workspace', { toolApproval: 'neverAsk' }), writer);
      await check(server('user', { toolApproval: 'neverAsk' }), writer, true);
      assert.deepStrictEqual(asked.map((q) => q.toolName), ['write', 'write']);
    });

    it('a saved "deny" still refuses under any policy', async () => {
      await permissions.set({ kind: 'tool', key: 'subject/write', label: 'write', decision: 'deny', scope: 'workspace' });
      assert.deepStrictEqual(await check(server('user', { toolApproval: 'neverAsk' }), writer), { allowed: false, reason: 'remembered' });
    });
  });
});

describe('the user\'s choices, remembered', () => {
  it('per workspace for workspace servers and per user for user servers; one object per server until it changes', async () => {
    const global = new MemoryStore();
    const workspace = new MemoryStore();
    const changed: string[] = [];
    const store = new ToolChoiceStore({ global, workspace }, (id) => changed.push(id));
    const first = store.of('ws::a', { kind: 'workspace' });
    assert.strictEqual(store.of('ws::a', { kind: 'workspace' }), first, 'the same object while nothing changed');
    await store.setOff('ws::a', { kind: 'workspace' }, ['echo', 'add'], true);
    await store.setOff('ws::a', { kind: 'workspace' }, ['add'], false);
    await store.setApproval('user::b', { kind: 'user' }, 'neverAsk', 'subject');
    assert.deepStrictEqual([...store.of('ws::a', { kind: 'workspace' })!.off!], ['echo']);
    assert.notStrictEqual(store.of('ws::a', { kind: 'workspace' }), first);
    assert.deepStrictEqual(changed, ['ws::a', 'ws::a', 'user::b']);
    assert.deepStrictEqual(workspace.get('mcpHost.toolChoices'), { 'ws::a': { off: ['echo'] } });
    assert.deepStrictEqual(global.get('mcpHost.toolChoices'), { 'user::b': { approval: 'neverAsk', approvalFor: 'subject' } });
    // Read again from storage, as in the next window.
    const again = new ToolChoiceStore({ global, workspace }, () => undefined);
    assert.deepStrictEqual([...again.of('ws::a', { kind: 'workspace' })!.off!], ['echo']);
    assert.strictEqual(again.of('user::b', { kind: 'user' })!.approval, 'neverAsk');
  });

  it("the server's checkbox: all its tools off, later ones too; a tool's checkbox then switches that one on again; checking the server turns all on", async () => {
    const store = new ToolChoiceStore({ global: new MemoryStore(), workspace: new MemoryStore() }, () => undefined);
    const scope = { kind: 'workspace' as const };
    const at = () => ({ ...server('workspace', { disabledTools: ['filed'] }), toolChoices: store.of('ws::a', scope) });
    await store.setOff('ws::a', scope, ['echo'], true);
    await store.setOff('ws::a', scope, 'all', true);
    assert.deepStrictEqual(['echo', 'add', 'added-later', 'filed'].map((t) => switchedOff(at(), t)), ['user', 'user', 'user', 'file']);
    await store.setOff('ws::a', scope, ['add'], false);
    assert.deepStrictEqual(['echo', 'add', 'added-later'].map((t) => switchedOff(at(), t)), ['user', undefined, 'user']);
    await store.setOff('ws::a', scope, ['add'], true);
    assert.strictEqual(switchedOff(at(), 'add'), 'user');
    await store.setOff('ws::a', scope, 'all', false);
    assert.deepStrictEqual(['echo', 'add', 'added-later', 'filed'].map((t) => switchedOff(at(), t)), [undefined, undefined, undefined, 'file']);
  });

  it('an approval holds for the definition it was chosen for only', async () => {
    const store = new ToolChoiceStore({ global: new MemoryStore(), workspace: new MemoryStore() }, () => undefined);
    await store.setApproval('user::b', { kind: 'user' }, 'neverAsk', 'definition-1');
    const at = (subject: string) => approvalOf({ ...server('user'), toolChoices: store.of('user::b', { kind: 'user' }) }, false, subject);
    assert.deepStrictEqual([at('definition-1'), at('definition-2')], ['neverAsk', 'askEveryCall']);
  });
});

describe('a switched-off tool of a real server is neither offered nor callable', function () {
  this.timeout(60_000);
  let kit: Kit;
  let store: ToolChoiceStore;
  let sent: string[];
  let caller: ToolCaller;
  const choicesChanged: ((id: string) => void)[] = [];

  before(async () => {
    store = new ToolChoiceStore({ global: new MemoryStore(), workspace: new MemoryStore() }, (id) => choicesChanged.forEach((l) => l(id)));
    kit = createKit({
      toolChoices: {
        of: (id, scope) => store.of(id, scope),
        onDidChange: (listener) => {
          choicesChanged.push(listener);
          return { dispose: () => choicesChanged.splice(choicesChanged.indexOf(listener), 1) };
        },
      },
    });
    await kit.update(workspaceScope(), [entry('everything', stdio(process.execPath, [everythingServer])), entry('filtered', { ...stdio(process.execPath, [everythingServer]), disabledTools: ['echo'] })], []);
    await kit.update(userScope, [entry('mine', { ...stdio(process.execPath, [everythingServer]), tools: ['get-sum'] })], []);
    for (const name of ['everything', 'filtered', 'mine']) await waitForState(kit, name, 'running');
  });

  after(() => kit.manager.disposeAsync());

  beforeEach(() => {
    sent = [];
    const active = new ActiveToolCalls();
    const begin = active.begin.bind(active);
    active.begin = (call) => (sent.push(call.toolName), begin(call));
    const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    caller = new ToolCaller(kit.manager, active, new ToolConsent({ permissions, ask: async () => 'once', autoAllowReadOnly: () => false }));
  });

  const info = (name: string) => kit.manager.servers().find((s) => s.name === name)!;
  const offered = () => toolNameMapOfServers(kit.manager.servers()).tools.map((t) => `${t.serverName}/${t.tool.name}`);
  const tool = (server: string, name: string) => info(server).features.tools.find((t) => t.name === name)!;

  it('leaves out what the entries switch off: "disabledTools" in a workspace file, "tools" in the user file', () => {
    const names = offered();
    assert.ok(names.includes('everything/echo') && names.includes('mine/get-sum'), names.join(', '));
    assert.ok(!names.includes('filtered/echo') && names.includes('filtered/get-sum'));
    assert.deepStrictEqual(names.filter((n) => n.startsWith('mine/')), ['mine/get-sum']);
  });

  it('refuses a call of a tool its file switched off, in words, sending nothing', async () => {
    await assert.rejects(caller.call({ serverId: info('filtered').id, tool: tool('filtered', 'echo'), arguments: { message: 'hi' }, origin: 'a test' }), /The tool "echo" of MCP server "filtered" is switched off in its configuration file/);
    assert.deepStrictEqual(sent, []);
  });

  it('a tool the user switches off leaves the list and is refused; the server says it changed; switched on, it runs', async () => {
    const changes: string[] = [];
    const sub = kit.manager.onDidChangeServers((ids) => changes.push(...ids));
    await store.setOff(info('everything').id, info('everything').scope, ['echo'], true);
    sub.dispose();
    assert.deepStrictEqual(changes, [info('everything').id]);
    assert.ok(!offered().includes('everything/echo'));
    assert.deepStrictEqual(resolveToolCall(kit.manager.servers(), { server: 'everything', tool: 'echo', arguments: {} }), {
      ok: false,
      message: 'The tool "echo" of MCP server "everything" is switched off in the MCP Servers view (its checkbox): it was not called. Do not retry it.',
    });
    await assert.rejects(caller.call({ serverId: info('everything').id, tool: tool('everything', 'echo'), arguments: { message: 'hi' }, origin: 'a test' }), /switched off in the MCP Servers view/);
    assert.deepStrictEqual(sent, []);
    await store.setOff(info('everything').id, info('everything').scope, ['echo'], false);
    assert.ok(offered().includes('everything/echo'));
    const outcome = await caller.call({ serverId: info('everything').id, tool: tool('everything', 'echo'), arguments: { message: 'hi' }, origin: 'a test' });
    assert.strictEqual(outcome.ran, true);
    assert.deepStrictEqual(sent, ['echo']);
  });
});
