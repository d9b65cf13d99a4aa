// What a person reads about a running tool call: the server's progress text (capped, on one line), and, when the call
// is cancelled, by whom — the user, or the server's stop or restart — logged at info, never "This operation was aborted".
import * as assert from 'assert';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolConsent } from '../../src/core/features/tools/toolConsent';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { cancelledByOf, cancelledToolCall, MAX_PROGRESS_MESSAGE, progressText } from '../../src/core/presentation/toolCallText';
import { fixtureServer, sleep } from './helpers';
import { createKit, entry, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

describe('tool call text', () => {
  it('shows the server\'s step text with how far it is, and "2 of 5" when the server sends no text', () => {
    assert.strictEqual(progressText({ progress: 2, total: 5 }), '2 of 5');
    assert.strictEqual(progressText({ progress: 2, total: 5, message: 'Fetching page 2' }), 'Fetching page 2 (2 of 5)');
    assert.strictEqual(progressText({ progress: 4200, total: 30_000, message: 'sleeping' }), 'sleeping (14%)');
    assert.strictEqual(progressText({ progress: 0.5, total: 1 }), '50%');
    assert.strictEqual(progressText({ progress: 3 }), '3 so far');
    assert.strictEqual(progressText({ progress: 3, message: 'indexing' }), 'indexing (3 so far)');
  });

  it('caps the server\'s text, keeps it on one line and lets it link nothing', () => {
    const shown = progressText({ progress: 1, total: 2, message: `${'x'.repeat(500)}` });
    assert.ok(shown.length <= MAX_PROGRESS_MESSAGE + ' (1 of 2)'.length, shown);
    assert.ok(shown.includes('…'));
    assert.strictEqual(progressText({ progress: 1, total: 2, message: 'step\none [run](command:x)\u202e' }), 'step one [run] (command:x) (1 of 2)');
  });

  it('says who cancelled a call', () => {
    assert.strictEqual(cancelledToolCall('sleep', 'slow', 'you'), 'The tool "sleep" was cancelled: you cancelled it.');
    assert.strictEqual(cancelledToolCall('sleep', 'slow', 'restarted'), 'The tool "sleep" was cancelled: its server "slow" was restarted while the tool ran.');
    assert.strictEqual(cancelledToolCall('sleep', 'slow', 'stopped'), 'The tool "sleep" was cancelled: its server "slow" was stopped while the tool ran.');
  });
});

describe('a tool call cancelled on the guarded path', function () {
  this.timeout(60_000);
  let kit: Kit;
  let caller: ToolCaller;

  before(async () => {
    kit = createKit();
    await kit.update(workspaceScope(), [entry('slow', stdio(process.execPath, [fixtureServer('slow-tool-server.mjs')]))], []);
    await waitForState(kit, 'slow', 'running');
    const consent = new ToolConsent({ permissions: new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() }), ask: async () => 'once', autoAllowReadOnly: () => false });
    caller = new ToolCaller(kit.manager, new ActiveToolCalls(), consent);
  });

  after(() => kit.manager.disposeAsync());

  const sleepCall = (signal?: AbortSignal) => {
    const server = kit.manager.servers().find((s) => s.name === 'slow')!;
    const tool = server.features.tools.find((t) => t.name === 'sleep')!;
    return caller.call({ serverId: server.id, tool, arguments: { ms: 30_000 }, origin: 'a test', signal });
  };

  it('rejects with "you cancelled it" when its signal aborts, and logs it at info', async () => {
    const abort = new AbortController();
    const call = sleepCall(abort.signal);
    await sleep(500);
    abort.abort();
    await assert.rejects(call, (e: Error) => cancelledByOf(e) === 'you' && e.message === 'The tool "sleep" was cancelled: you cancelled it.');
    assert.match(kit.log('slow').text, /\[info\] The tool "sleep" was cancelled: you cancelled it\. \(a test\)/);
  });

  it('says the server was restarted while the tool ran, not "This operation was aborted"', async () => {
    const call = sleepCall(new AbortController().signal);
    await sleep(500);
    const server = kit.manager.servers().find((s) => s.name === 'slow')!;
    void kit.manager.get(server.id)!.restart(false);
    await assert.rejects(call, (e: Error) => cancelledByOf(e) === 'restarted' && e.message === 'The tool "sleep" was cancelled: its server "slow" was restarted while the tool ran.');
    assert.match(kit.log('slow').text, /\[info\] The tool "sleep" was cancelled: its server "slow" was restarted while the tool ran\./);
    await waitForState(kit, 'slow', 'running');
  });

  it('says the server was stopped while the tool ran, also for a call without a signal of its own', async () => {
    // After the restart above: its tools are listed again.
    while (!kit.manager.servers().find((s) => s.name === 'slow')?.features.tools.length) await sleep(50);
    const call = sleepCall();
    await sleep(500);
    const server = kit.manager.servers().find((s) => s.name === 'slow')!;
    void kit.manager.get(server.id)!.stop();
    await assert.rejects(call, (e: Error) => cancelledByOf(e) === 'stopped' && /its server "slow" was stopped while the tool ran/.test(e.message));
  });
});
