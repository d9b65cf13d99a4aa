// The one guarded path to a tools/call (ToolCaller): consent first, keyed from the running server's definition as
// written, whatever surface calls; and no surface in src calls a tool past it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { consentSubject } from '../../src/core/features/consentSubject';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolConsent, toolPermissionKey, type ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { PermissionStore } from '../../src/core/host/permissionStore';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { everythingServer, repoRoot } from './helpers';
import { createKit, entry, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

describe('the guarded tool call path', function () {
  this.timeout(60_000);
  let kit: Kit;
  let server: ServerInfo;
  let permissions: PermissionStore;
  let answers: (ConsentAnswer | undefined)[];
  let asked: ToolConsentQuestion[];
  let sent: string[];
  let caller: ToolCaller;

  before(async () => {
    kit = createKit();
    await kit.update(workspaceScope(), [entry('everything', stdio(process.execPath, [everythingServer]))], []);
    await waitForState(kit, 'everything', 'running');
    server = kit.manager.servers().find((s) => s.name === 'everything')!;
  });

  after(() => kit.manager.disposeAsync());

  beforeEach(() => {
    permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    answers = [];
    asked = [];
    sent = [];
    const consent = new ToolConsent({
      permissions,
      ask: async (q) => {
        asked.push(q);
        return answers.shift();
      },
      autoAllowReadOnly: () => false,
    });
    // What reached the server: every call the caller sends begins an active call.
    const active = new ActiveToolCalls();
    const begin = active.begin.bind(active);
    active.begin = (call) => {
      sent.push(call.toolName);
      return begin(call);
    };
    caller = new ToolCaller(kit.manager, active, consent);
  });

  const echo = () => server.features.tools.find((t) => t.name === 'echo')!;
  const remember = (decision: 'allow' | 'deny', subject = consentSubject(server.scope, server.name, server.definition)) =>
    permissions.set({ kind: 'tool', key: toolPermissionKey(subject, 'echo'), label: 'echo', decision, scope: 'workspace' });
  const callEcho = (context = {}) => caller.call({ serverId: server.id, tool: echo(), arguments: { message: 'hi' }, origin: 'a test' }, context);

  it('refuses a call under a saved "deny" from every surface, a confirmed one and a view\'s included, and sends nothing', async () => {
    await remember('deny');
    for (const context of [{}, { confirmedByUser: true }, { argumentsFromCaller: true }, { requestedBy: 'the view of "x"' }]) {
      const outcome = await callEcho(context);
      assert.deepStrictEqual(outcome, { ran: false, consent: { allowed: false, reason: 'remembered' } });
    }
    assert.deepStrictEqual(sent, []);
    assert.deepStrictEqual(asked, []);
  });

  it('keys consent by the running server\'s definition: an "always allow" of another definition under the same name asks', async () => {
    await remember('allow', consentSubject(server.scope, server.name, stdio('node', ['another-server.js'])));
    answers.push('deny');
    const outcome = await callEcho();
    assert.strictEqual(outcome.ran, false);
    assert.deepStrictEqual(
      asked.map((q) => [q.serverName, q.toolName]),
      [['everything', 'echo']],
    );
    assert.deepStrictEqual(sent, []);
  });

  it('runs a remembered "allow" without asking, and asks for arguments that came with a command even then', async () => {
    await remember('allow');
    const allowed = await callEcho();
    assert.ok(allowed.ran && JSON.stringify(allowed.result.content).includes('hi'));
    assert.deepStrictEqual(asked, []);
    answers.push(undefined);
    assert.deepStrictEqual(await callEcho({ argumentsFromCaller: true }), { ran: false, consent: { allowed: false, reason: 'dismissed' } });
    assert.strictEqual(asked.length, 1);
    assert.deepStrictEqual(sent, ['echo']);
  });

  it('authorize asks first and sends nothing until run, which sends exactly the call that was allowed', async () => {
    answers.push('once');
    const authorized = await caller.authorize({ serverId: server.id, tool: echo(), arguments: { message: 'only this' }, origin: 'a test' });
    assert.strictEqual(asked.length, 1);
    assert.match(asked[0].argumentsJson, /only this/);
    assert.deepStrictEqual(sent, []);
    assert.ok(authorized.allowed);
    const result = await authorized.run();
    assert.match(JSON.stringify(result.content), /only this/);
    assert.deepStrictEqual(sent, ['echo']);
  });

  it('is the only way from src to a tools/call (the protocol session, the conformance client and the test API aside)', () => {
    // A protocol session's (or the SDK client's) callTool. The conformance client answers the conformance suite (no
    // user); the test API exists only in test mode.
    // The task runner (ToolTasks) sends the calls ToolCaller hands it, consent given, as tasks (or plainly when the
    // server does not run them as tasks); the protocol's task requests send `tools/call` with `task` for it.
    const allowed = new Set(['src/core/features/tools/toolCaller.ts', 'src/core/protocol/serverConnection.lazy.ts', 'src/cli/conformanceClient.ts', 'src/vscode/publicApi.ts', 'src/core/features/tasks/toolTasks.lazy.ts']);
    const taskCallAllowed = new Set(['src/core/features/tasks/toolTasks.lazy.ts', 'src/core/protocol/connection/taskRequests.lazy.ts', 'src/core/protocol/connection/taskRequestsV2.lazy.ts', 'src/core/protocol/connection/taskWire.lazy.ts']);
    const consentAllowed = new Set(['src/core/features/tools/toolCaller.ts', 'src/core/features/tools/toolConsent.ts', 'src/core/features/tools/agentCallIdentity.lazy.ts']);
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, e.name);
        if (e.isDirectory()) walk(file);
        else if (file.endsWith('.ts')) {
          const rel = path.relative(repoRoot, file).split(path.sep).join('/');
          const text = fs.readFileSync(file, 'utf8');
          if (/(?:\bsession|\bclient|\.session\([^)]*\))\.callTool\(/.test(text) && !allowed.has(rel)) offenders.push(`${rel} calls a tool`);
          if (/consent\.(check|decide)\(/.test(text) && !consentAllowed.has(rel)) offenders.push(`${rel} decides tool consent`);
          if (/(?:\.tasks\??|\brequests)\.callTool\(|method: 'tools\/call'/.test(text) && !taskCallAllowed.has(rel)) offenders.push(`${rel} calls a tool as a task`);
        }
      }
    };
    walk(path.join(repoRoot, 'src'));
    assert.deepStrictEqual(offenders, []);
  });
});
