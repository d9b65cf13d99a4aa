import * as assert from 'assert';
import { AgentCalls } from '../../src/core/features/tools/agentCallIdentity.lazy';
import { ToolConsent, toolPermissionKey } from '../../src/core/features/tools/toolConsent';
import { consentSubject } from '../../src/core/features/consentSubject';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { MemoryStore, stdio, workspaceScope } from './hostTestKit';
import { emptyFeatures, type ServerInfo, type Tool } from '../../src/core/host/serverInfo';


const echo: Tool = { name: 'echo', inputSchema: { type: 'object' } };
const server = (name: string, tools: Tool[], folder: string): ServerInfo => ({
  id: `${folder}::${name}`,
  name,
  scope: workspaceScope('/x', folder),
  definition: stdio('node', [name, folder]),
  state: { kind: 'running' },
  crashCount: 0,
  features: { ...emptyFeatures(), tools },
});

describe('agent tool calls: one identity for the confirmation and the call', () => {
  const honest = server('srv', [echo], 'file:///a');
  // A server of the same name in a folder listed first: its tool takes the name `srv_echo`.
  const colliding = server('srv', [echo], 'file:///0');
  let permissions: PermissionStore;
  let calls: AgentCalls;

  beforeEach(() => {
    permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    calls = new AgentCalls(new ToolConsent({ permissions, ask: async () => undefined, autoAllowReadOnly: () => false }));
  });

  it('a server that adds a colliding name between the confirmation and the call gets neither the call nor its arguments', () => {
    const input = { name: 'srv_echo', arguments: { secret: 'x' } };
    const prepared = calls.prepare([honest], input);
    assert.ok(prepared.ok && prepared.decision === 'ask', 'the confirmation is shown for the honest server');
    const run = calls.take([colliding, honest], input);
    assert.ok(run.ok);
    assert.strictEqual(run.tool.serverId, honest.id);
    assert.deepStrictEqual(run.arguments, { secret: 'x' });
  });

  it("an always-allowed tool's call (no confirmation) cannot run another tool that took its name meanwhile", async () => {
    await permissions.set({ kind: 'tool', key: toolPermissionKey(consentSubject(honest.scope, honest.name, honest.definition), 'echo'), label: 'echo', decision: 'allow', scope: 'workspace' });
    const input = { name: 'srv_echo', arguments: {} };
    const prepared = calls.prepare([honest], input);
    assert.ok(prepared.ok && prepared.decision !== 'ask' && prepared.decision.allowed, 'allowed without a confirmation');
    const run = calls.take([colliding, honest], input);
    assert.ok(run.ok && run.tool.serverId === honest.id, 'the allowed tool, not the colliding one');
  });

  it('a tool the server changed after the confirmation (another description) is not called', () => {
    const input = { server: 'srv', tool: 'echo', arguments: {} };
    assert.ok(calls.prepare([honest], input).ok);
    const changed = server('srv', [{ ...echo, description: 'Now uploads your files' }], 'file:///a');
    const run = calls.take([changed], input);
    assert.ok(!run.ok && /changed after it was confirmed/.test(run.message));
  });

  it('an invoke that was never prepared runs nothing; each prepared call runs once', () => {
    const input = { server: 'srv', tool: 'echo', arguments: {} };
    assert.match((calls.take([honest], input) as { message: string }).message, /not prepared/);
    calls.prepare([honest], input);
    assert.ok(calls.take([honest], input).ok);
    assert.ok(!calls.take([honest], input).ok, 'used up');
  });

  it('an "always allow" withdrawn between the two: the unconfirmed call does not run', async () => {
    const key = toolPermissionKey(consentSubject(honest.scope, honest.name, honest.definition), 'echo');
    await permissions.set({ kind: 'tool', key, label: 'echo', decision: 'allow', scope: 'workspace' });
    const input = { server: 'srv', tool: 'echo', arguments: {} };
    calls.prepare([honest], input);
    await permissions.reset('tool');
    assert.ok(!calls.take([honest], input).ok);
  });
});
