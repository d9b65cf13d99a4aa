import * as assert from 'assert';
import { ChildProcess, spawn } from 'child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { isAlive, killTree, waitForExit } from '../../src/core/protocol/connection/processTree.lazy';
import { fixtureServer, repoRoot, sleep, waitFor } from './helpers';

// The fixtures are only useful if they are exactly as (mis)behaved as documented; these tests pin that down
// over raw stdio, and check the well-formed ones against the real SDK client the host uses.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire messages are checked by the assertions, not by the type system.
type Json = any;

interface RpcResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: Json;
  error?: { code: number; message: string; data?: Json };
}

/** A tiny newline-delimited JSON-RPC client over a spawned fixture's stdio. */
class RawServer {
  readonly messages: Json[] = [];
  /** stdout lines that were not JSON at all. */
  readonly nonJson: string[] = [];
  stderr = '';
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly exited: Promise<void>;
  /** Answers server-to-client requests (roots/list); the default refuses them. */
  onRequest: (method: string, params: Json) => Json = (method) => {
    throw { code: -32601, message: `not supported: ${method}` };
  };
  private nextId = 1;
  private buffer = '';
  private readonly waiters = new Map<number, (r: RpcResponse) => void>();

  constructor(readonly proc: ChildProcess) {
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => this.onData(d));
    proc.stderr!.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    proc.stdin!.on('error', () => {});
    this.exited = new Promise((r) =>
      proc.once('exit', (code, signal) => {
        this.exit = { code, signal };
        r();
      }),
    );
  }

  get pid(): number {
    return this.proc.pid!;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  private onData(d: string) {
    this.buffer += d;
    let i;
    while ((i = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, i);
      this.buffer = this.buffer.slice(i + 1);
      let msg: Json;
      try {
        msg = JSON.parse(line);
      } catch {
        this.nonJson.push(line);
        continue;
      }
      this.messages.push(msg);
      if (msg && typeof msg.method === 'string' && msg.id !== undefined) this.answer(msg);
      else if (msg && typeof msg.id === 'number') this.waiters.get(msg.id)?.(msg);
    }
  }

  private answer(msg: Json) {
    try {
      this.send({ jsonrpc: '2.0', id: msg.id, result: this.onRequest(msg.method, msg.params) });
    } catch (error) {
      this.send({ jsonrpc: '2.0', id: msg.id, error });
    }
  }

  send(msg: Json): void {
    this.proc.stdin!.write(JSON.stringify(msg) + '\n');
  }

  notify(method: string, params?: Json): void {
    this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  request(method: string, params?: Json, timeoutMs = 5000): Promise<RpcResponse> {
    const id = this.nextId++;
    return new Promise<RpcResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        reject(new Error(`timed out waiting for the response to ${method}`));
      }, timeoutMs);
      this.waiters.set(id, (r) => {
        clearTimeout(timer);
        this.waiters.delete(id);
        resolve(r);
      });
      this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    });
  }

  /** request() that fails the test on a JSON-RPC error. */
  async call(method: string, params?: Json): Promise<Json> {
    const r = await this.request(method, params);
    if (r.error) throw new Error(`${method}: ${r.error.code} ${r.error.message}`);
    return r.result;
  }

  async initialize(protocolVersion = '2025-11-25', capabilities: Json = {}): Promise<Json> {
    const result = await this.call('initialize', { protocolVersion, capabilities, clientInfo: { name: 'fixture-test', version: '0.0.0' } });
    this.notify('notifications/initialized');
    return result;
  }

  async toolText(name: string, args: Json = {}): Promise<string> {
    const r = await this.call('tools/call', { name, arguments: args });
    return r.content[0].text;
  }

  waitForStderr(re: RegExp, timeoutMs = 5000): Promise<RegExpMatchArray> {
    return waitFor(() => this.stderr.match(re) ?? undefined, `stderr ${re}`, timeoutMs);
  }
}

describe('fixture servers', () => {
  let pids: number[] = [];
  let clients: Client[] = [];

  function start(name: string, env: Record<string, string> = {}, cwd = repoRoot): RawServer {
    const proc = spawn(process.execPath, [fixtureServer(name)], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env }, cwd });
    if (!proc.pid) throw new Error(`could not start ${name}`);
    pids.push(proc.pid);
    return new RawServer(proc);
  }

  async function connectSdk(name: string, env: Record<string, string> = {}, options: ConstructorParameters<typeof Client>[1] = {}) {
    const client = new Client({ name: 'fixture-test', version: '0.0.0' }, options);
    clients.push(client);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [fixtureServer(name)],
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: 'pipe',
    });
    await client.connect(transport);
    pids.push(transport.pid!);
    return { client, transport };
  }

  afterEach(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    for (const p of pids) await killTree(p, 'SIGKILL').catch(() => []);
    await waitForExit(pids, 5000);
    pids = [];
    clients = [];
  });

  describe('basic-server', () => {
    it('negotiates the protocol version and declares its capabilities', async () => {
      for (const v of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']) {
        const s = start('basic-server.mjs');
        const r = await s.initialize(v);
        assert.strictEqual(r.protocolVersion, v);
        s.proc.stdin!.end();
      }
      const s = start('basic-server.mjs');
      const r = await s.initialize('1999-01-01');
      assert.strictEqual(r.protocolVersion, '2025-11-25');
      assert.deepStrictEqual(r.serverInfo, { name: 'basic-server', version: '1.0.0' });
      assert.deepStrictEqual(r.capabilities, {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true },
      });
    });

    it('answers ping, rejects unknown methods with -32601, and ignores notifications', async () => {
      const s = start('basic-server.mjs');
      await s.initialize();
      assert.deepStrictEqual(await s.call('ping'), {});
      assert.strictEqual((await s.request('no/such/method')).error?.code, -32601);
      const before = s.messages.length;
      s.notify('notifications/whatever');
      await s.call('ping');
      assert.strictEqual(s.messages.length, before + 1, 'a notification must not be answered');
    });

    it('exits when stdin closes', async () => {
      const s = start('basic-server.mjs');
      await s.initialize();
      s.proc.stdin!.end();
      await s.exited;
      assert.strictEqual(s.exit?.code, 0);
    });

    it('serves echo, whoami, the greet prompt and the readme resource', async () => {
      const s = start('basic-server.mjs', { FIXTURE_ECHO_ENV: 'FIXTURE_A, FIXTURE_UNSET', FIXTURE_A: 'a-value' }, __dirname);
      await s.initialize();
      const tools = (await s.call('tools/list')).tools.map((t: Json) => t.name);
      assert.deepStrictEqual(tools, ['echo', 'whoami', 'add-tool', 'crash', 'get-roots']);
      assert.strictEqual(await s.toolText('echo', { text: 'hello' }), 'hello');
      assert.strictEqual((await s.call('tools/call', { name: 'echo', arguments: {} })).isError, true);
      assert.strictEqual((await s.request('tools/call', { name: 'nope' })).error?.code, -32602);

      const who = JSON.parse(await s.toolText('whoami'));
      assert.strictEqual(who.pid, s.pid);
      assert.strictEqual(who.cwd, __dirname);
      assert.deepStrictEqual(who.env, { FIXTURE_A: 'a-value', FIXTURE_UNSET: null });

      assert.deepStrictEqual((await s.call('prompts/list')).prompts.map((p: Json) => p.name), ['greet']);
      const prompt = await s.call('prompts/get', { name: 'greet', arguments: { name: 'Ada' } });
      assert.strictEqual(prompt.messages[0].content.text, 'Hello, Ada!');
      assert.strictEqual((await s.request('prompts/get', { name: 'greet', arguments: {} })).error?.code, -32602);

      assert.deepStrictEqual((await s.call('resources/list')).resources.map((r: Json) => r.uri), ['fixture://readme']);
      const read = await s.call('resources/read', { uri: 'fixture://readme' });
      assert.match(read.contents[0].text, /Fixture/);
      assert.strictEqual((await s.request('resources/read', { uri: 'fixture://nope' })).error?.code, -32002);
      assert.deepStrictEqual(await s.call('resources/templates/list'), { resourceTemplates: [] });
    });

    it('add-tool adds a tool and sends tools/list_changed', async () => {
      const s = start('basic-server.mjs');
      await s.initialize();
      assert.strictEqual(await s.toolText('add-tool', { name: 'extra' }), 'added extra');
      await waitFor(() => s.messages.some((m) => m.method === 'notifications/tools/list_changed'), 'list_changed', 5000);
      assert.ok((await s.call('tools/list')).tools.some((t: Json) => t.name === 'extra'));
      assert.strictEqual(await s.toolText('extra'), 'extra called');
      assert.strictEqual(await s.toolText('add-tool'), 'added dynamic-2');
    });

    it('crash exits with code 3', async () => {
      const s = start('basic-server.mjs');
      await s.initialize();
      s.send({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'crash', arguments: {} } });
      await s.exited;
      assert.strictEqual(s.exit?.code, 3);
      assert.ok(!s.messages.some((m) => m.id === 99), 'crash must not answer');
    });

    it('asks for roots when the client has the capability, and again on roots/list_changed', async () => {
      const s = start('basic-server.mjs');
      let roots = [{ uri: 'file:///one', name: 'one' }];
      s.onRequest = (method) => {
        assert.strictEqual(method, 'roots/list');
        return { roots };
      };
      await s.initialize('2025-11-25', { roots: { listChanged: true } });
      await s.waitForStderr(/^ROOTS \[\{"uri":"file:\/\/\/one"/m);
      assert.deepStrictEqual(JSON.parse(await s.toolText('get-roots')), roots);

      roots = [{ uri: 'file:///two', name: 'two' }];
      s.notify('notifications/roots/list_changed');
      await s.waitForStderr(/^ROOTS \[\{"uri":"file:\/\/\/two"/m);
      assert.deepStrictEqual(JSON.parse(await s.toolText('get-roots')), roots);
    });

    it('does not ask for roots without the capability', async () => {
      const s = start('basic-server.mjs');
      await s.initialize();
      await sleep(200);
      assert.ok(!s.messages.some((m) => m.method === 'roots/list'));
      assert.strictEqual(await s.toolText('get-roots'), 'null');
    });

    it('paginates with FIXTURE_PAGE_SIZE', async () => {
      const s = start('basic-server.mjs', { FIXTURE_PAGE_SIZE: '2' });
      await s.initialize();
      const names: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await s.call('tools/list', cursor ? { cursor } : {});
        assert.ok(page.tools.length <= 2);
        names.push(...page.tools.map((t: Json) => t.name));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      assert.strictEqual(pages, 3);
      assert.deepStrictEqual(names, ['echo', 'whoami', 'add-tool', 'crash', 'get-roots']);
      assert.strictEqual((await s.call('prompts/list')).nextCursor, undefined);
      assert.strictEqual((await s.request('tools/list', { cursor: 'bogus' })).error?.code, -32602);
    });

    it('works with the SDK client: pages followed, roots answered, list_changed delivered', async () => {
      let toolsChanged = 0;
      const client = new Client(
        { name: 'fixture-test', version: '0.0.0' },
        { capabilities: { roots: { listChanged: true } }, listChanged: { tools: { onChanged: () => toolsChanged++ } } },
      );
      clients.push(client);
      client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///sdk', name: 'sdk' }] }));
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [fixtureServer('basic-server.mjs')],
        env: { ...(process.env as Record<string, string>), FIXTURE_PAGE_SIZE: '2' },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      await client.connect(transport);
      pids.push(transport.pid!);

      assert.strictEqual(client.getServerVersion()?.name, 'basic-server');
      assert.strictEqual(client.getNegotiatedProtocolVersion(), '2025-11-25');
      assert.strictEqual((await client.listTools()).tools.length, 5);
      const echo = await client.callTool({ name: 'echo', arguments: { text: 'via sdk' } });
      assert.deepStrictEqual(echo.content, [{ type: 'text', text: 'via sdk' }]);
      await waitFor(() => stderr.includes('ROOTS [{"uri":"file:///sdk"'), 'roots via SDK', 5000);
      await client.callTool({ name: 'add-tool', arguments: {} });
      await waitFor(() => toolsChanged > 0, 'tools list_changed via SDK', 5000);
    });
  });

  describe('crash-server', () => {
    it('before-init: prints to stderr and exits 1 without a word on stdout', async () => {
      const s = start('crash-server.mjs', { FIXTURE_CRASH: 'before-init' });
      await s.exited;
      assert.strictEqual(s.exit?.code, 1);
      assert.match(s.stderr, /crashing before initialize/);
      assert.strictEqual(s.messages.length + s.nonJson.length, 0);
    });

    it('after-init: handshakes, then exits 1 FIXTURE_CRASH_AFTER_MS after initialized', async () => {
      const s = start('crash-server.mjs', { FIXTURE_CRASH: 'after-init', FIXTURE_CRASH_AFTER_MS: '300' });
      const r = await s.call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } });
      assert.strictEqual(r.protocolVersion, '2025-06-18');
      await sleep(500);
      assert.ok(s.running, 'no crash before notifications/initialized');
      assert.ok((await s.call('tools/list')).tools.length > 0);
      const t0 = Date.now();
      s.notify('notifications/initialized');
      await s.exited;
      assert.strictEqual(s.exit?.code, 1);
      assert.ok(Date.now() - t0 >= 250, `crashed after ${Date.now() - t0} ms`);
      assert.match(s.stderr, /crashing after initialize/);
    });
  });

  describe('silent-server', () => {
    it('never answers, not even initialize, and exits on stdin EOF', async () => {
      const s = start('silent-server.mjs');
      await assert.rejects(s.request('initialize', { protocolVersion: '2025-11-25', capabilities: {} }, 1000), /timed out/);
      await s.waitForStderr(/ignoring initialize/);
      assert.strictEqual(s.messages.length + s.nonJson.length, 0);
      assert.ok(isAlive(s.pid));
      s.proc.stdin!.end();
      await s.exited;
      assert.strictEqual(s.exit?.code, 0);
    });
  });

  describe('garbage-server', () => {
    it('pollutes stdout before and between valid messages, which still parse', async () => {
      const s = start('garbage-server.mjs');
      await waitFor(() => s.nonJson.length >= 4, 'startup garbage', 5000);
      const startup = s.nonJson.length;
      await s.initialize();
      const tools = await s.call('tools/list');
      assert.deepStrictEqual(tools.tools.map((t: Json) => t.name), ['echo']);
      assert.strictEqual(await s.toolText('echo', { text: 'clean' }), 'clean');
      assert.ok(s.nonJson.length > startup, 'garbage between responses too');
      assert.ok(s.nonJson.some((l) => l.includes('\ufffd')), 'binary-ish bytes');
      assert.ok(s.nonJson.some((l) => l.startsWith('{"jsonrpc"')), 'partial JSON');
      // Valid JSON that is not a JSON-RPC message is part of the mix as well.
      assert.ok(s.messages.some((m) => m && m.jsonrpc === undefined));
    });

    it('works with the SDK client despite the noise', async () => {
      const { client } = await connectSdk('garbage-server.mjs');
      const r = await client.callTool({ name: 'echo', arguments: { text: 'through the noise' } });
      assert.deepStrictEqual(r.content, [{ type: 'text', text: 'through the noise' }]);
    });
  });

  describe('wrapper-server', () => {
    it('runs basic-server as its child over the same stdio', async () => {
      const s = start('wrapper-server.mjs', { FIXTURE_ECHO_ENV: 'FIXTURE_IGNORE_STDIN_EOF' });
      const child = Number((await s.waitForStderr(/^CHILD_PID (\d+)$/m))[1]);
      pids.push(child);
      const r = await s.initialize();
      assert.strictEqual(r.serverInfo.name, 'basic-server');
      const who = JSON.parse(await s.toolText('whoami'));
      assert.strictEqual(who.pid, child);
      assert.strictEqual(who.ppid, s.pid);
      assert.deepStrictEqual(who.env, { FIXTURE_IGNORE_STDIN_EOF: '1' });
    });

    it('forwards SIGTERM only with FIXTURE_WRAP_FORWARD_SIGNALS=1', async () => {
      const plain = start('wrapper-server.mjs');
      const plainChild = Number((await plain.waitForStderr(/^CHILD_PID (\d+)$/m))[1]);
      pids.push(plainChild);
      const forwarding = start('wrapper-server.mjs', { FIXTURE_WRAP_FORWARD_SIGNALS: '1' });
      const forwardedChild = Number((await forwarding.waitForStderr(/^CHILD_PID (\d+)$/m))[1]);
      pids.push(forwardedChild);
      await Promise.all([plain.waitForStderr(/basic-server: ready/), forwarding.waitForStderr(/basic-server: ready/)]);

      plain.proc.kill('SIGTERM');
      forwarding.proc.kill('SIGTERM');
      await Promise.all([plain.exited, forwarding.exited]);
      assert.strictEqual(await waitForExit([forwardedChild], 5000), true);
      // The forwarding wrapper mirrors its child's death by SIGTERM in its exit code.
      assert.strictEqual(forwarding.exit?.code, 128 + 15);
      assert.strictEqual(isAlive(plainChild), true);
    });
  });

  describe('stubborn-server', () => {
    it('is a valid server that ignores stdin EOF and SIGTERM', async () => {
      const s = start('stubborn-server.mjs');
      await s.initialize();
      assert.deepStrictEqual((await s.call('tools/list')).tools.map((t: Json) => t.name), ['echo']);
      s.proc.stdin!.end();
      s.proc.kill('SIGTERM');
      await s.waitForStderr(/IGNORED SIGTERM/);
      await s.waitForStderr(/ignoring stdin EOF/);
      await sleep(200);
      assert.ok(s.running);
      s.proc.kill('SIGKILL');
      await s.exited;
      assert.strictEqual(s.exit?.signal, 'SIGKILL');
    });

    it('still gives up after FIXTURE_MAX_LIFETIME_MS', async () => {
      const s = start('stubborn-server.mjs', { FIXTURE_MAX_LIFETIME_MS: '300' });
      s.proc.stdin!.end();
      await s.exited;
      assert.strictEqual(s.exit?.code, 70);
    });
  });

  describe('paging-server', () => {
    it('serves 10000 resources in pages of 100 behind opaque cursors', async () => {
      const s = start('paging-server.mjs');
      const init = await s.initialize();
      assert.deepStrictEqual(init.capabilities, { resources: {}, tools: {}, completions: {} });
      const uris: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await s.call('resources/list', cursor ? { cursor } : {});
        assert.ok(page.resources.length <= 100);
        uris.push(...page.resources.map((r: Json) => r.uri));
        assert.ok(!page.nextCursor || !/^\d+$/.test(page.nextCursor), 'the cursor should not be a bare offset');
        cursor = page.nextCursor;
      } while (cursor);
      assert.strictEqual(uris.length, 10000);
      assert.strictEqual(new Set(uris).size, 10000);
      assert.strictEqual(uris[0], 'fixture://item/1');
      assert.strictEqual(uris[9999], 'fixture://item/10000');
      assert.strictEqual(await s.toolText('count-list-requests'), '100');
      assert.strictEqual((await s.request('resources/list', { cursor: '!!' })).error?.code, -32602);
    });

    it('reads items and rejects unknown URIs with -32002', async () => {
      const s = start('paging-server.mjs', { FIXTURE_RESOURCE_COUNT: '50' });
      await s.initialize();
      assert.strictEqual((await s.call('resources/read', { uri: 'fixture://item/42' })).contents[0].text, 'Item 42 of 50');
      assert.match((await s.call('resources/read', { uri: 'fixture://search/books/dune' })).contents[0].text, /dune/);
      for (const uri of ['fixture://item/51', 'fixture://item/0', 'fixture://other', 'fixture://search/nope/x']) {
        const r = await s.request('resources/read', { uri });
        assert.strictEqual(r.error?.code, -32002, uri);
      }
    });

    it('lists two templates and completes their arguments', async () => {
      const s = start('paging-server.mjs');
      await s.initialize();
      const templates = (await s.call('resources/templates/list')).resourceTemplates.map((t: Json) => t.uriTemplate);
      assert.deepStrictEqual(templates, ['fixture://item/{id}', 'fixture://search/{category}/{term}']);
      const search = { type: 'ref/resource', uri: 'fixture://search/{category}/{term}' };
      const complete = async (argument: Json, context?: Json) =>
        (await s.call('completion/complete', { ref: search, argument, ...(context ? { context } : {}) })).completion.values;
      assert.deepStrictEqual(await complete({ name: 'category', value: 'g' }), ['games', 'gardening']);
      assert.deepStrictEqual(await complete({ name: 'category', value: '' }), ['books', 'games', 'gardening', 'movies', 'music']);
      assert.deepStrictEqual(await complete({ name: 'term', value: 'a' }, { arguments: { category: 'movies' } }), ['alien', 'amelie', 'arrival']);
      assert.deepStrictEqual(await complete({ name: 'term', value: '' }, { arguments: { category: 'games' } }), ['chess', 'go', 'tetris']);
      assert.deepStrictEqual(await complete({ name: 'term', value: 'a' }), []);
      const ids = (await s.call('completion/complete', { ref: { type: 'ref/resource', uri: 'fixture://item/{id}' }, argument: { name: 'id', value: '999' } })).completion;
      assert.deepStrictEqual(ids.values, ['999', '9990', '9991', '9992', '9993', '9994', '9995', '9996', '9997', '9998', '9999']);
      assert.strictEqual(ids.hasMore, false);
      const many = (await s.call('completion/complete', { ref: { type: 'ref/resource', uri: 'fixture://item/{id}' }, argument: { name: 'id', value: '1' } })).completion;
      assert.strictEqual(many.values.length, 100);
      assert.strictEqual(many.hasMore, true);
    });

    it('with the SDK client: one page per cursor call, all pages without one', async () => {
      const { client } = await connectSdk('paging-server.mjs', { FIXTURE_RESOURCE_COUNT: '250' });
      const all = await client.listResources();
      assert.strictEqual(all.resources.length, 250);
      assert.strictEqual(all.nextCursor, undefined);
      // Without a cursor the SDK always walks every page, so the first cursor comes from a raw session
      // (cursors are opaque but deterministic across instances with the same settings).
      const raw = start('paging-server.mjs', { FIXTURE_RESOURCE_COUNT: '250' });
      await raw.initialize();
      const cursor: string = (await raw.call('resources/list')).nextCursor;
      const second = await client.listResources({ cursor });
      assert.strictEqual(second.resources.length, 100);
      assert.strictEqual(second.resources[0].uri, 'fixture://item/101');
      const third = await client.listResources({ cursor: second.nextCursor! });
      assert.deepStrictEqual([third.resources.length, third.nextCursor], [50, undefined]);
      const completion = await client.complete({
        ref: { type: 'ref/resource', uri: 'fixture://search/{category}/{term}' },
        argument: { name: 'term', value: 'd' },
        context: { arguments: { category: 'books' } },
      });
      assert.deepStrictEqual(completion.completion.values, ['dune']);
    });

    it("exceeds the SDK's default 64-page auto-walk with its defaults, so a host must raise listMaxPages", async () => {
      const { client } = await connectSdk('paging-server.mjs');
      await assert.rejects(client.listResources());
      const { client: unlimited } = await connectSdk('paging-server.mjs', {}, { listMaxPages: 0 });
      assert.strictEqual((await unlimited.listResources()).resources.length, 10000);
    });
  });
});
