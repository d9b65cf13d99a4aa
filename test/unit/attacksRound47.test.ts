// Attack pass 47 on known runs (dormant servers): a cloned repository's mcp.json edited while the window is open must
// never leave a server showing, offering or calling what its earlier definition offered. Real fixture servers.
import * as assert from 'assert';
import type { RawServer } from '../../src/core/config/serverDefinition';
import type { HostSettings, ServerManagerDeps } from '../../src/core/host/serverManager';
import type { TrustPrompt } from '../../src/core/host/hostPorts';
import { toolNameMapOfServers } from '../../src/core/features/tools/toolNames';
import { fixtureServer } from './helpers';
import { windowWithKnownRuns, entry, MemoryStore, serverState, stdio, userScope, waitForState, workspaceScope, type Kit } from './hostTestKit';

const basic = (env: Record<string, string> = {}): RawServer => stdio(process.execPath, [fixtureServer('basic-server.mjs')], env);
const onDemand: Partial<HostSettings> = { startup: 'onDemand' };

describe('Attacks, round 47: known runs after an edit of the file', function () {
  this.timeout(30_000);
  const kits: Kit[] = [];
  afterEach(async () => {
    for (const kit of kits.splice(0)) await kit.manager.disposeAsync();
  });

  const window = (store: MemoryStore, settings: Partial<HostSettings> = onDemand, deps: Partial<ServerManagerDeps> = {}) => windowWithKnownRuns(kits, store, settings, deps);

  /** What the user sees of the server and what a model is offered of it. */
  const seen = (kit: Kit, name: string) => {
    const info = serverState(kit, name)!;
    return { state: info.state.kind, tools: info.features.tools.map((t) => t.name), offered: toolNameMapOfServers(kit.manager.servers()).tools.map((t) => t.tool.name) };
  };

  it('a pulled edit of a dormant workspace server, waiting for its trust question: the old definition\'s tools are neither shown nor offered', async () => {
    const store = new MemoryStore();
    const scope = workspaceScope();
    {
      const { kit, knownRuns } = window(store, { ...onDemand, trustAllServers: true });
      await kit.update(scope, [entry('basic', basic())], []);
      await waitForState(kit, 'basic', 'running');
      await knownRuns.flush();
    }
    // The trust question of the edited definition stays open (the user has not answered yet).
    let answer: (trusted: boolean | undefined) => void = () => undefined;
    const asked: string[] = [];
    const trustPrompt: TrustPrompt = {
      askTrust: (d) => {
        asked.push(d.name);
        return new Promise((resolve) => (answer = resolve));
      },
    };
    const { kit } = window(store, { ...onDemand, trustAllServers: false }, { trustPrompt });
    await kit.update(scope, [entry('basic', basic())], []);
    assert.strictEqual(seen(kit, 'basic').state, 'dormant');
    // `git pull` rewrites the entry: another program behind the same name.
    await kit.manager.updateScope(scope, [entry('basic', basic({ CHANGED: 'by a pull' }))], []);
    for (let i = 0; i < 50 && !asked.length; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepStrictEqual(asked, ['basic'], 'the edited definition is asked about');
    const now = seen(kit, 'basic');
    assert.strictEqual(serverState(kit, 'basic')!.knownFrom, undefined, 'not shown as known from a run of its earlier definition');
    assert.deepStrictEqual(now.tools, []);
    assert.deepStrictEqual(now.offered, []);
    answer(undefined);
    await kit.manager.idle();
    assert.deepStrictEqual(seen(kit, 'basic').offered, []);
  });

  it('an edit of an idle (dormant) server with automatic starts off: the old definition\'s tools are neither shown nor offered', async () => {
    const store = new MemoryStore();
    const { kit } = window(store, { ...onDemand, autoStart: false, idleStopMs: 300 });
    await kit.update(userScope, [entry('basic', basic())], []);
    // Started by the user, then idle: dormant, showing what it offered.
    await kit.manager.get(`${userScope.key}::basic`)!.start(true);
    await waitForState(kit, 'basic', 'dormant', 5000);
    assert.ok(seen(kit, 'basic').offered.includes('echo'));
    // The file now says another program (here the same fixture with another environment) under the same name.
    await kit.update(userScope, [entry('basic', basic({ CHANGED: 'by an edit' }))], []);
    const now = seen(kit, 'basic');
    assert.strictEqual(serverState(kit, 'basic')!.knownFrom, undefined, 'not shown as known from a run of its earlier definition');
    assert.deepStrictEqual(now.tools, []);
    assert.deepStrictEqual(now.offered, []);
  });

  it('an edit back to the definition that ran keeps it dormant with that run (nothing started for it)', async () => {
    const store = new MemoryStore();
    const { kit } = window(store, { ...onDemand, autoStart: false, idleStopMs: 300 });
    await kit.update(userScope, [entry('basic', basic())], []);
    await kit.manager.get(`${userScope.key}::basic`)!.start(true);
    await waitForState(kit, 'basic', 'dormant', 5000);
    // A reload of the same text (a new object, the same definition) keeps what is known.
    await kit.update(userScope, [entry('basic', basic())], []);
    assert.strictEqual(seen(kit, 'basic').state, 'dormant');
    assert.ok(seen(kit, 'basic').offered.includes('echo'));
  });
});
