// The server's log level follows the server's output channel: on 2026-07-28 in every request's `_meta` (that revision
// deprecates `logging/setLevel`), on 2025 sessions with `logging/setLevel`.
import * as assert from 'assert';
import { fixtureServer } from './helpers';
import { createKit, entry, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

describe('log level per request on 2026-07-28', function () {
  this.timeout(30_000);
  let kit: Kit;
  afterEach(() => kit?.manager.disposeAsync());

  async function levels(eras: string) {
    kit = createKit();
    kit.log('logs').setLevel('debug');
    await kit.update(workspaceScope(), [entry('logs', stdio(process.execPath, [fixtureServer('log-level-server.mjs')], { FIXTURE_ERAS: eras }))], []);
    const info = await waitForState(kit, 'logs', 'running');
    const call = async () => JSON.parse(((await kit.manager.session(info.id).callTool({ name: 'levels', arguments: {} })) as { content: { text: string }[] }).content[0].text) as { setLevel: string[]; meta: (string | null)[] };
    return { info, call };
  }

  it('2026-07-28: sends the level in each request and follows a change, without logging/setLevel', async () => {
    const { info, call } = await levels('modern,legacy');
    assert.strictEqual(info.protocolVersion, '2026-07-28');
    let seen = await call();
    assert.deepStrictEqual(seen.setLevel, []);
    assert.strictEqual(seen.meta.at(-1), 'debug');
    kit.log('logs').setLevel('error');
    seen = await call();
    assert.strictEqual(seen.meta.at(-1), 'error');
  });

  it('2025: logging/setLevel as before, nothing in _meta', async () => {
    const { info, call } = await levels('legacy');
    assert.notStrictEqual(info.protocolVersion, '2026-07-28');
    const seen = await call();
    assert.deepStrictEqual(seen.setLevel, ['debug']);
    assert.strictEqual(seen.meta.at(-1), null);
  });
});
