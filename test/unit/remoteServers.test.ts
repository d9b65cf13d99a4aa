// Remote servers through the host, against real servers on loopback: server-everything over Streamable HTTP and
// legacy SSE, a session the server forgot (restarted server, or the spec's 404), DELETE on stop, and an SSE
// response stream cut in the middle of a tool call.
import * as assert from 'assert';
import type { RawServer } from '../../src/core/config/serverDefinition';
import { createKit, entry, serverState, userScope, waitForState, type Kit } from './hostTestKit';
import { sleep, waitFor } from './helpers';
import { startEverything, startOAuthFixture, TcpProxy, type EverythingHttp, type OAuthFixture } from './remoteTestKit';

const remote = (url: string, type: 'http' | 'sse' = 'http', headers: Record<string, string> = {}): RawServer => ({ type, url, headers });

describe('remote servers', function () {
  this.timeout(60_000);
  let kit: Kit;
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeEach(() => {
    kit = createKit();
    cleanups.push(() => kit.manager.disposeAsync());
  });

  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function everything(mode: 'streamableHttp' | 'sse', port?: number): Promise<EverythingHttp> {
    const server = await startEverything(mode, port);
    cleanups.push(() => server.stop());
    return server;
  }

  async function fixture(env: Record<string, string> = {}): Promise<OAuthFixture> {
    const server = await startOAuthFixture(env);
    cleanups.push(() => server.stop());
    return server;
  }

  const client = (name: string) => kit.manager.session(`user::${name}`);
  const echo = async (name: string, message: string) => {
    const result = await client(name).callTool({ name: 'echo', arguments: { message } });
    return (result.content as { text: string }[])[0].text;
  };

  it('runs server-everything over Streamable HTTP', async () => {
    const server = await everything('streamableHttp');
    await kit.update(userScope, [entry('remote', remote(`http://127.0.0.1:${server.port}/mcp`))], []);
    const info = await waitForState(kit, 'remote', 'running');
    assert.strictEqual(info.protocolVersion, '2025-11-25');
    assert.ok(info.features.tools.some((t) => t.name === 'echo'));
    assert.strictEqual(info.features.resources.length, 7);
    assert.strictEqual(await echo('remote', 'over http'), 'Echo: over http');
    assert.match(kit.log('remote').text, /Connecting \(Streamable HTTP\)/);
  });

  it('runs server-everything over legacy SSE, configured as "sse" or found by falling back from "http"', async () => {
    const server = await everything('sse');
    const url = `http://127.0.0.1:${server.port}/sse`;
    await kit.update(userScope, [entry('sse', remote(url, 'sse')), entry('fallback', remote(url))], []);
    await waitForState(kit, 'sse', 'running');
    const fallback = await waitForState(kit, 'fallback', 'running');
    assert.ok(fallback.features.tools.some((t) => t.name === 'echo'));
    assert.strictEqual(await echo('sse', 'a'), 'Echo: a');
    assert.strictEqual(await echo('fallback', 'b'), 'Echo: b');
    assert.doesNotMatch(kit.log('sse').text, /Streamable HTTP/);
    assert.match(kit.log('fallback').text, /The server refused the current way of connecting \(Streamable HTTP: HTTP 404\); trying the older one it may expect \(legacy SSE\)/);
  });

  it('starts a new session when the HTTP server was restarted mid-session, seen only in the log', async () => {
    const first = await everything('streamableHttp');
    await kit.update(userScope, [entry('remote', remote(`http://127.0.0.1:${first.port}/mcp`))], []);
    await waitForState(kit, 'remote', 'running');
    assert.strictEqual(await echo('remote', 'before'), 'Echo: before');
    const states: string[] = [];
    // Disposed at the end: the kit's teardown removes the server, which this listener is not about.
    const watching = kit.manager.onDidChangeServers(() => states.push(serverState(kit, 'remote')?.state.kind ?? 'removed'));
    const oldSession = kit.manager.session('user::remote').transportSessionId;

    await first.stop();
    await everything('streamableHttp', first.port);
    assert.strictEqual(await echo('remote', 'after'), 'Echo: after');

    const log = kit.log('remote').text;
    assert.match(log, /no longer knows session .* starting a new session/);
    assert.match(log, /New session \S+ started/);
    assert.notStrictEqual(kit.manager.session('user::remote').transportSessionId, oldSession);
    watching.dispose();
    assert.ok(states.every((s) => s === 'running'), `state stayed running: ${states.join(', ')}`);
  });

  it('sends the session id and protocol version, renews a session the server answers 404 for, and ends it with DELETE', async () => {
    const server = await fixture({ FIXTURE_AUTH: 'none' });
    await kit.update(userScope, [entry('fixture', remote(server.url))], []);
    await waitForState(kit, 'fixture', 'running');
    assert.strictEqual((await server.stats()).sessions, 1);
    const whoami = await client('fixture').callTool({ name: 'whoami', arguments: {} });
    const { headers } = JSON.parse((whoami.content as { text: string }[])[0].text);
    assert.strictEqual(headers['mcp-protocol-version'], '2025-11-25');
    assert.strictEqual(headers['mcp-session-id'], client('fixture').transportSessionId);
    await server.post('/_expire-sessions');
    const result = await client('fixture').callTool({ name: 'echo', arguments: { text: 'still here' } });
    assert.deepStrictEqual(result.content, [{ type: 'text', text: 'still here' }]);
    assert.strictEqual((await server.stats()).sessions, 2);
    assert.match(kit.log('fixture').text, /\(HTTP 404\): starting a new session/);
    await kit.manager.get('user::fixture')!.stop();
    assert.strictEqual((await server.stats()).deletes, 1);
  });

  it('resumes an SSE response stream cut in the middle of a tool call (Last-Event-ID)', async () => {
    const server = await everything('streamableHttp');
    const proxy = await new TcpProxy(server.port).start();
    cleanups.push(() => proxy.stop());
    await kit.update(userScope, [entry('remote', remote(`http://127.0.0.1:${proxy.port}/mcp`))], []);
    await waitForState(kit, 'remote', 'running');
    const progress: number[] = [];
    let cut = 0;
    const call = client('remote').callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 3, steps: 3 } },
      {
        onProgress: (p) => {
          progress.push(p.progress);
          // The first progress event carries an event id: the stream is resumable from here on.
          if (p.progress === 1) cut = proxy.cut();
        },
      },
    );
    const result = await call;
    assert.ok(cut > 0, 'connections were cut');
    assert.match((result.content as { text: string }[])[0].text, /Long running operation completed/);
    // The server replays from the last event id it got: a progress event may arrive twice, none is lost.
    assert.deepStrictEqual([...new Set(progress)], [1, 2, 3]);
    await waitFor(() => /Client reconnecting with Last-Event-ID/.test(server.output()), 'the resumed stream', 5000);
    await sleep(100);
    assert.strictEqual(serverState(kit, 'remote')!.state.kind, 'running');
  });
});
