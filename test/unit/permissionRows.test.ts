// "MCP: Manage Permissions…" and "MCP: Reset Server Trust" as the user reads them, after real trust decisions: three
// servers trusted through the host's own question are three decisions (each kept under two keys), not six.
import * as assert from 'assert';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { TrustStore } from '../../src/core/host/trustStore';
import { permissionRows, rememberedServers, resetTrustQuestionText, revokeAllLabel } from '../../src/core/presentation/permissionRows';
import { fixtureServer } from './helpers';
import { createKit, entry, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

describe('Manage Permissions and Reset Server Trust, as the user reads them', function () {
  this.timeout(60_000);
  let kit: Kit | undefined;
  afterEach(async () => kit?.manager.disposeAsync());

  it('lists each trusted server once, counts decisions in Revoke All, and the reset question names how many servers ask again', async () => {
    // Trust is kept in the user's (global) store: read it as Manage Permissions does.
    const store = new MemoryStore();
    kit = createKit({}, { trustAllServers: false }, store);
    const permissions = new PermissionStore({ global: store, workspace: new MemoryStore() });
    kit.trustAnswers.push(true, true, true);
    const scope = workspaceScope();
    const names = ['alpha', 'beta', 'gamma'];
    await kit.update(scope, names.map((n) => entry(n, stdio(process.execPath, [fixtureServer('basic-server.mjs')]))), []);
    for (const n of names) await waitForState(kit, n, 'running');
    const decisions = permissions.list('server-trust');
    assert.strictEqual(decisions.length, 6, 'each trust is kept under the plan\'s key and the definition\'s');
    const rows = permissionRows(decisions);
    assert.deepStrictEqual(
      rows.map((r) => `${r.label} — ${r.description}`),
      names.map((n) => `Run server "${n} (ws)" — trusted · everywhere`),
    );
    assert.strictEqual(revokeAllLabel(rows), '$(trash) Revoke All (3)');
    assert.strictEqual(rememberedServers(decisions), 3);

    const question = resetTrustQuestionText({ servers: rememberedServers(decisions) });
    assert.strictEqual(question.message, 'Forget whether you trusted 3 MCP servers?');
    assert.match(question.detail, /^3 MCP servers will ask again before they start next: each shows what it runs and asks whether to trust it\./);
    assert.deepStrictEqual(question.buttons, [
      { label: 'Forget Trust of 3 MCP servers', answer: true },
      { label: 'Keep', answer: false },
    ]);
  });

  it('says which servers were trusted to run confined, and revoking a row forgets every key it holds', async () => {
    const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
    const trust = new TrustStore(permissions);
    await trust.set('plan-a', 'trusted', 'docs (ws)', true);
    await trust.set('definition-a', 'trusted', 'docs (ws)', true);
    await trust.set('plan-b', 'trusted', 'web (ws)');
    await trust.set('definition-c', 'denied', 'shell (ws)');
    await trust.set('command:ws:1', 'trusted', 'the VS Code command x.y for web (ws)');
    const rows = permissionRows(permissions.list());
    assert.deepStrictEqual(
      rows.map((r) => `${r.label} — ${r.description}`),
      [
        'Run server "docs (ws)" — trusted to run confined · everywhere',
        'Run server "web (ws)" — trusted · everywhere',
        'Run server "shell (ws)" — not trusted · everywhere',
        'Run server "the VS Code command x.y for web (ws)" — trusted · everywhere',
      ],
    );
    assert.strictEqual(rememberedServers(permissions.list()), 3, 'a command is not a server');
    assert.strictEqual(resetTrustQuestionText({ servers: 1 }).message, 'Forget whether you trusted 1 MCP server?');
    for (const r of rows[0].records) await permissions.remove(r.kind, r.key);
    assert.strictEqual(trust.get('plan-a'), undefined);
    assert.strictEqual(trust.get('definition-a'), undefined);
  });
});
