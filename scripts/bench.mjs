#!/usr/bin/env node
// npm run bench: every performance figure of the host beside a bare @modelcontextprotocol/client doing the same work
// in the same run, against the same server (scripts/bench-server.mjs), each printed on stdout as one JSON line
// {"figure","ours","bare","ratio","unit"} (ratio = ours / bare; lower is better), the median of several rounds.
// Ours is the core host as the extension runs it, in plain Node (the server manager with plain-Node ports, as in
// test/unit/hostTestKit.ts); only activation runs the bundles, in fresh processes (scripts/bench-activate.cjs).
// What "the same work" is for each figure is said in docs/performance.md.
//
// The figures named "extension host, …" run in code-server's real extension host instead (scripts/bench-host.mjs,
// test/integration/bench): they need the integration tests' tools (MCP_HOST_TOOLS_DIR) and take several minutes.
//
// Usage: node scripts/bench.mjs [--quick] [--no-build] [--only=<figure words>] [--host | --no-host]
//   --quick     fewer rounds (with --no-build and --no-host, under a minute)
//   --no-build  use out/ and dist/ as they are (otherwise: npm run compile, npm run build:production)
//   --only=…    run the figures whose name contains this text (e.g. --only=stderr)
//   --host      only the figures measured in the extension host; --no-host: only the plain-Node ones
//   --starts    in the extension host, only the server-start figures (first start, 10 and 50 servers)
//   --dormant   in the extension host, one window: 50 servers saved to listed in the view, and the dormant servers'
//               figures (50 known servers coming in, the first call of a dormant server's tool)
//   --profile=D CPU profiles of the extension host and of the workbench's renderer (one sample of each side per
//               figure) written to folder D; with
//               --no-build a development build (npm run build) is accepted, for names in the profiles
// Progress goes to stderr; stdout has nothing but the JSON lines.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runHostBench } from './bench-host.mjs';
import v8 from 'node:v8';
import vm from 'node:vm';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const hostOnly = args.includes('--host');
const profile = args.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
const noHost = args.includes('--no-host');
const startsOnly = args.includes('--starts');
const dormantOnly = args.includes('--dormant');
const ROUNDS = quick ? 3 : 7;
/** Unmeasured rounds of tools/call before the measured ones. */
const WARMUP_ROUNDS = 3;
const say = (text) => process.stderr.write(`bench: ${text}\n`);

if (!args.includes('--no-build')) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  say('building (npm run compile, npm run build:production)');
  execFileSync(npm, ['run', 'compile'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync(npm, ['run', 'build:production'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
}

// Development builds carry source maps; their sizes and load times are not the figures.
if (!profile && /sourceMappingURL=\S+\s*$/.test(fs.readFileSync(path.join(repoRoot, 'dist', 'extension.js'), 'utf8').slice(-300))) {
  throw new Error('dist/ holds a development build: run npm run build:production, or leave out --no-build');
}

const require = createRequire(path.join(repoRoot, 'package.json'));
const esbuild = require('esbuild');
const { Client } = require('@modelcontextprotocol/client');
const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio');
const core = (file) => require(path.join(repoRoot, 'out', 'src', 'core', file));
const { createCoreHost } = core('createCoreHost.js');
const { createConnection } = core('protocol/serverConnection.lazy.js');
const { planLaunch } = core('protocol/launch/launchPlanner.lazy.js');
const { ActiveToolCalls } = core('features/tools/activeToolCalls.js');
const { ToolCaller } = core('features/tools/toolCaller.js');
const { ToolConsent } = core('features/tools/toolConsent.js');
const { ResourceService } = core('features/resources/resourceService.js');
const { KnownRunStore } = core('host/knownRunStore.lazy.js');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const SERVER = path.join(repoRoot, 'scripts', 'bench-server.mjs');
/** The message cap of our stdio transport; the SDK's default (10 MB) cannot carry a 10 MiB resource as JSON. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const STDERR_END = 'BENCH_STDERR_END';

// ---- measuring -------------------------------------------------------------------------------------------------------

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

function emit(figure, ours, bare, unit, digits = 1) {
  const line = { figure, ours: round(ours, digits), bare: round(bare, digits), ratio: round(ours / bare, 2), unit };
  console.log(JSON.stringify(line));
}

/** A figure of ours alone: the SDK has nothing that does the same work (bare and ratio are null). */
function emitOurs(figure, ours, unit, digits = 2) {
  console.log(JSON.stringify({ figure, ours: round(ours, digits), bare: null, ratio: null, unit }));
}

function heapUsed() {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Wall time, CPU time of this process, and heap growth (after a full GC) of `work`. */
async function measure(work) {
  const heap = heapUsed();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const result = await work();
  const ms = performance.now() - t0;
  const { user, system } = process.cpuUsage(cpu);
  return { ms, cpuMs: (user + system) / 1000, heapMB: (heapUsed() - heap) / 1e6, result };
}

/** The highest heap seen (sampled every millisecond) while `work` runs, above the heap before it. */
async function peakHeapGrowth(work) {
  const base = heapUsed();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 1);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return (Math.max(peak, process.memoryUsage().heapUsed) - base) / 1e6;
}

/** Runs `ours` and `bare` `rounds` times, alternating which goes first, after one unmeasured warm-up of each. */
async function alternate(rounds, ours, bare) {
  await ours();
  await bare();
  const results = { ours: [], bare: [] };
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 ? [['bare', bare], ['ours', ours]] : [['ours', ours], ['bare', bare]];
    for (const [name, run] of order) results[name].push(await run());
  }
  return results;
}

const pick = (samples, key) => median(samples.map((s) => s[key]));

// ---- the two clients ---------------------------------------------------------------------------------------------------

class MemoryStore {
  values = new Map();
  get = (key) => this.values.get(key);
  update = async (key, value) => void (value === undefined ? this.values.delete(key) : this.values.set(key, value));
}

/** A server log that keeps nothing: counts lines and tells `watchers` about each. */
class BenchLog {
  logLevel = 'info';
  watchers = new Set();
  onDidChangeLogLevel = () => ({ dispose() {} });
  write = (line) => {
    for (const w of this.watchers) w(line);
  };
  trace = this.write;
  debug = this.write;
  info = this.write;
  warn = this.write;
  error = this.write;
  dispose() {}
}

const userScope = { kind: 'user', key: 'user', label: 'User', configPath: '/dev/null' };
const entry = (name, env = {}, extra = {}) => ({ name, server: { type: 'stdio', command: process.execPath, args: [SERVER], env, ...extra }, nameSpan: { offset: 0, length: 0 } });

/** Our host, started on `count` bench servers (user servers: no trust prompt), resolved once all run. */
async function startOurs(count, env = {}, extra = {}, known = undefined) {
  const logs = new Map();
  // Dormant servers (issue 44): known runs kept in `known.store`; servers known there come up dormant, not running.
  const knownRuns = known && new KnownRunStore(known.store, () => undefined, undefined, 0);
  const { manager, permissions } = createCoreHost({
    clientInfo: { name: 'mcp-host-bench', version: '0' },
    createConnection,
    planLaunch,
    logs: { create: (id) => logs.set(id, new BenchLog()).get(id) },
    stores: { global: new MemoryStore(), workspace: new MemoryStore() },
    trustPrompt: { askTrust: async () => true },
    inputs: { getInput: async () => undefined },
    // Long enough for a host that takes minutes over 20 MB of stderr on one line (ours did, before issue 14).
    settings: () => ({ autoStart: true, trustAllServers: true, initializeTimeoutMs: 30_000, requestTimeoutMs: 600_000, ...(known ? { startup: 'onDemand' } : {}) }),
    isWorkspaceTrusted: () => true,
    ...(knownRuns ? { knownRuns } : {}),
  });
  const ready = known?.dormant ? 'dormant' : 'running';
  let watching;
  const running = new Promise((resolve, reject) => {
    watching = manager.onDidChangeServers(() => {
      const servers = manager.servers();
      const failed = servers.find((s) => s.state.kind === 'error' || s.state.kind === 'blocked');
      if (failed) reject(new Error(`${failed.name}: ${failed.state.message}`));
      else if (servers.length === count && servers.every((s) => s.state.kind === ready)) resolve();
    });
  });
  await manager.updateScope(userScope, Array.from({ length: count }, (_, i) => entry(`s${i}`, env, extra)), []);
  // Only the bench watches: what is measured next pays for no listener of ours.
  await running.finally(() => watching.dispose());
  const ids = manager.servers().map((s) => s.id);
  // The guarded path chat and the views take: consent decided before each call (here an "always allow", given once).
  const caller = () => new ToolCaller(manager, new ActiveToolCalls(), new ToolConsent({ permissions, ask: async () => 'always', autoAllowReadOnly: () => false }));
  return { manager, ids, caller, logOf: (id) => logs.get(id), stop: () => manager.disposeAsync(), flushKnown: () => knownRuns?.flush() };
}

/** A bare SDK client on one bench server, listing what our host lists when a server starts. */
async function startBare(env = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER], env: { ...process.env, ...env }, stderr: 'pipe', maxBufferSize: MAX_MESSAGE_BYTES });
  const client = new Client({ name: 'bench-bare', version: '0' });
  await client.connect(transport);
  await Promise.all([client.listTools(), client.listPrompts(), client.request({ method: 'resources/list', params: {} }), client.listResourceTemplates()]);
  return { client, transport, stop: () => client.close() };
}

const tool = { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } };

// ---- figures ------------------------------------------------------------------------------------------------------------

const figures = {
  /** Bytes shipped, and loaded on activation, against a production bundle of the SDK client alone. */
  async bundles() {
    const sdk = await esbuild.build({
      stdin: {
        // What we use of the SDK: the client, its three transports and its OAuth; with the SDK's own defaults.
        contents: `export { Client, StreamableHTTPClientTransport, SSEClientTransport, UriTemplate, auth, refreshAuthorization } from '@modelcontextprotocol/client';
          export { StdioClientTransport } from '@modelcontextprotocol/client/stdio';`,
        resolveDir: repoRoot,
        loader: 'js',
      },
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      minify: true,
      write: false,
      metafile: true,
    });
    const sdkBytes = sdk.outputFiles[0].contents.length;
    const size = (file) => (fs.existsSync(path.join(repoRoot, 'dist', file)) ? fs.statSync(path.join(repoRoot, 'dist', file)).size : 0);
    // Every bundle we ship: the webview script of tool views too.
    emit('production bundle, in all', (size('extension.js') + size('launch.js') + size('host.js') + size('gateway.js') + size(path.join('webview', 'appFrame.js'))) / 1000, sdkBytes / 1000, 'KB');
    emit('bundle loaded on activation', size('extension.js') / 1000, sdkBytes / 1000, 'KB');
    return sdk.outputFiles[0].contents;
  },

  /** Fresh processes: require + activate() of our activation bundle with no server, against requiring the SDK bundle. */
  async activation(sdkBundle) {
    const sdkFile = path.join(os.tmpdir(), `mcphost-bench-sdk-${process.pid}.js`);
    fs.writeFileSync(sdkFile, sdkBundle);
    const sample = (kind, bundle) => {
      const r = spawnSync(process.execPath, ['--expose-gc', path.join(repoRoot, 'scripts', 'bench-activate.cjs'), kind, bundle], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`bench-activate ${kind}: ${r.stderr}`);
      return JSON.parse(r.stdout);
    };
    try {
      const samples = await alternate(quick ? 5 : 15, () => sample('ours', path.join(repoRoot, 'dist', 'extension.js')), () => sample('bare', sdkFile));
      if (samples.ours.some((s) => s.hostLoaded)) throw new Error('activating with no server loaded the host bundle');
      emit('activation: time (require + activate, no server)', pick(samples.ours, 'ms'), pick(samples.bare, 'ms'), 'ms');
      emit('activation: heap held', pick(samples.ours, 'heapMiB'), pick(samples.bare, 'heapMiB'), 'MiB', 2);
    } finally {
      fs.rmSync(sdkFile, { force: true });
    }
  },

  /** Ten servers from spawn to running (tools, prompts, templates and the first page of resources listed). */
  async 'ten stdio servers'() {
    const ours = async () => {
      const m = await measure(() => startOurs(10));
      await m.result.stop();
      return m;
    };
    const bare = async () => {
      const m = await measure(() => Promise.all(Array.from({ length: 10 }, () => startBare())));
      await Promise.all(m.result.map((c) => c.stop()));
      return m;
    };
    const s = await alternate(quick ? 2 : 5, ours, bare);
    emit('10 stdio servers to running: wall', pick(s.ours, 'ms'), pick(s.bare, 'ms'), 'ms');
    emit('10 stdio servers to running: client CPU', pick(s.ours, 'cpuMs'), pick(s.bare, 'cpuMs'), 'ms');
    emit('10 stdio servers to running: memory growth', pick(s.ours, 'heapMB'), pick(s.bare, 'heapMB'), 'MB', 2);
  },

  /**
   * 1000 tools/call of `echo`, one after another, through the path chat and "Call Tool…" take (ToolCaller). The two
   * clients take turns every 100 calls, so both meet the same moments of a busy machine. The second pair of figures
   * runs our server in this process's session rather than its own: what the process group a stop needs costs where
   * Linux shares the CPUs between sessions (autogroup) and other work competes for them.
   */
  async 'tools/call'() {
    const childProcess = require('node:child_process');
    const spawn = childProcess.spawn;
    for (const [label, sameSession] of [
      ['', false],
      [', our server in our session', true],
    ]) {
      if (sameSession) childProcess.spawn = (command, argv, options) => spawn(command, argv, { ...options, detached: false });
      const ours = await startOurs(1).finally(() => (childProcess.spawn = spawn));
      const bare = await startBare();
      try {
        const caller = ours.caller();
        const signal = new AbortController().signal;
        const sides = {
          ours: (i) => caller.call({ serverId: ours.ids[0], tool, arguments: { text: `hello ${i}` }, origin: 'bench', signal }),
          bare: (i) => bare.client.callTool({ name: 'echo', arguments: { text: `hello ${i}` } }, { signal }),
        };
        const block = async (call, totals) => {
          const cpu = process.cpuUsage();
          const t0 = performance.now();
          for (let i = 0; i < 100; i++) await call(i);
          const { user, system } = process.cpuUsage(cpu);
          totals.ms += performance.now() - t0;
          totals.cpuMs += (user + system) / 1000;
        };
        const rounds = { ours: [], bare: [] };
        // Three unmeasured rounds (1000 calls a side each) first: with one, the first pair measured still paid for our code's
        // JIT warm-up (ours 1.1–1.2× in the first pair, 1.0–1.05× in the second, whichever pair ran first).
        for (let round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
          const totals = { ours: { ms: 0, cpuMs: 0 }, bare: { ms: 0, cpuMs: 0 } };
          for (let b = 0; b < 10; b++) {
            for (const side of b % 2 ? ['bare', 'ours'] : ['ours', 'bare']) await block(sides[side], totals[side]);
          }
          // The negative rounds warm both up.
          if (round >= 0) for (const side of ['ours', 'bare']) rounds[side].push(totals[side]);
        }
        emit(`1000 × tools/call echo${label}: wall`, pick(rounds.ours, 'ms'), pick(rounds.bare, 'ms'), 'ms');
        emit(`1000 × tools/call echo${label}: client CPU`, pick(rounds.ours, 'cpuMs'), pick(rounds.bare, 'cpuMs'), 'ms');
      } finally {
        await Promise.all([ours.stop(), bare.stop()]);
      }
    }
  },

  /** 20 MB written to stderr by a running server, until its last line reached the client: ours logs every line. */
  async stderr() {
    const ours = await startOurs(1);
    const bare = await startBare();
    const bareLines = new Set();
    readline.createInterface({ input: bare.transport.stderr }).on('line', (line) => bareLines.forEach((w) => w(line)));
    const caller = ours.caller();
    /** Calls the `stderr` tool and waits until the end marker arrived through `watchers`. */
    const flood = (watchers, call) => async () => {
      const seen = new Promise((resolve) => {
        const watch = (line) => line.includes(STDERR_END) && (watchers.delete(watch), resolve());
        watchers.add(watch);
      });
      let m;
      const peak = await peakHeapGrowth(async () => (m = await measure(() => Promise.all([call(), seen]))));
      return { ...m, peakMB: peak };
    };
    try {
      const results = {};
      for (const [name, lineBytes] of [
        ['in lines of 100 B', 100],
        ['without a newline', 0],
      ]) {
        const toolArgs = { mb: 20, lineBytes };
        const s = await alternate(
          quick ? 1 : 3,
          flood(ours.logOf(ours.ids[0]).watchers, () => caller.call({ serverId: ours.ids[0], tool: { ...tool, name: 'stderr' }, arguments: toolArgs, origin: 'bench' })),
          flood(bareLines, () => bare.client.callTool({ name: 'stderr', arguments: toolArgs }, { timeout: 600_000 })),
        );
        results[lineBytes] = s;
        emit(`stderr 20 MB ${name}: client CPU`, pick(s.ours, 'cpuMs'), pick(s.bare, 'cpuMs'), 'ms');
        emit(`stderr 20 MB ${name}: peak heap growth`, pick(s.ours, 'peakMB'), pick(s.bare, 'peakMB'), 'MB');
      }
      const cpuRatio = (s) => pick(s, 'cpuMs');
      emit('stderr 20 MB: CPU without a newline / with newlines', cpuRatio(results[0].ours) / cpuRatio(results[100].ours), cpuRatio(results[0].bare) / cpuRatio(results[100].bare), '×', 2);
    } finally {
      await Promise.all([ours.stop(), bare.stop()]);
    }
  },

  /** One resources/read of a 10 MiB text resource, through the path resource documents take (ResourceService). */
  async 'resource read'() {
    const ours = await startOurs(1);
    const bare = await startBare();
    try {
      const service = new ResourceService(ours.manager);
      const timed = (read) => async () => {
        const t0 = performance.now();
        const contents = await read();
        if (contents[0].text.length !== 10 * 1024 * 1024) throw new Error('wrong size');
        return performance.now() - t0;
      };
      const s = await alternate(
        ROUNDS,
        timed(() => service.read(ours.ids[0], 'bench://big')),
        timed(async () => (await bare.client.readResource({ uri: 'bench://big' }, { cacheMode: 'bypass' })).contents),
      );
      emit('10 MiB resource read', median(s.ours), median(s.bare), 'ms');
    } finally {
      await Promise.all([ours.stop(), bare.stop()]);
    }
  },

  /**
   * Tool search over 2,000 tools (the test catalogue: 50 realistic servers × 40 tools): building the index, once per
   * @mcp request that needs it, and one search, the median over 25 questions. Ours only: the SDK has no tool search.
   */
  async 'tool search'() {
    const { toolCatalogue } = require(path.join(repoRoot, 'out', 'test', 'unit', 'toolCatalogue.js'));
    const { ToolSearchIndex } = core('features/tools/toolSearch.js');
    const { toolNameMap } = core('features/tools/toolNames.js');
    const tools = toolNameMap(toolCatalogue().flatMap((s) => s.tools.map((tool) => ({ serverId: s.name, serverName: s.name, consentSubject: s.name, tool })))).tools;
    const queries = ['create a jira ticket', 'list the tables in the postgres database', 'send a message on slack', 'delete the old kubernetes pod', 'refund a stripe customer'];
    const builds = [];
    const searches = [];
    for (let r = 0; r < ROUNDS + WARMUP_ROUNDS; r++) {
      let t0 = performance.now();
      const index = new ToolSearchIndex(tools);
      const built = performance.now() - t0;
      t0 = performance.now();
      for (let i = 0; i < 100; i++) for (const q of queries) index.search(q, 5);
      const searched = (performance.now() - t0) / (100 * queries.length);
      if (r >= WARMUP_ROUNDS) {
        builds.push(built);
        searches.push(searched);
      }
    }
    emitOurs('2,000 tools: tool search index build (no bare equivalent)', median(builds), 'ms');
    emitOurs('2,000 tools: one tool search (no bare equivalent)', median(searches), 'ms', 3);
  },

  /**
   * The context budget over 2,000 tools (the same catalogue): sizing every definition the first time (estimates), then
   * what each @mcp request costs once sized — summing each server's offer from the kept sizes and choosing the servers
   * moved behind the search — in CPU time of this process, the median over the rounds. Ours only.
   */
  async 'context budget'() {
    const { toolCatalogue } = require(path.join(repoRoot, 'out', 'test', 'unit', 'toolCatalogue.js'));
    const { DefinitionSizes, serverOffers, serversOverBudget } = core('features/tools/contextBudget.js');
    const { toolNameMap } = core('features/tools/toolNames.js');
    const entries = toolCatalogue().flatMap((s) => s.tools.map((tool) => ({ serverId: s.name, serverName: s.name, consentSubject: s.name, tool })));
    const cpuMs = (work) => {
      const t0 = process.cpuUsage();
      work();
      const d = process.cpuUsage(t0);
      return (d.user + d.system) / 1000;
    };
    const firsts = [];
    const requests = [];
    for (let r = 0; r < ROUNDS + WARMUP_ROUNDS; r++) {
      const sizes = new DefinitionSizes();
      const budget = (tools) => serversOverBudget(serverOffers(tools, (t) => sizes.sizeOf(t, 2048), () => false), 25_000);
      const first = cpuMs(() => budget(toolNameMap(entries).tools));
      // Each request names the tools anew (as it always did); the budget reads the kept sizes.
      let perRequest = 0;
      for (let i = 0; i < 20; i++) {
        const tools = toolNameMap(entries).tools;
        perRequest += cpuMs(() => budget(tools)) / 20;
      }
      if (r >= WARMUP_ROUNDS) {
        firsts.push(first);
        requests.push(perRequest);
      }
    }
    emitOurs('2,000 tools: context budget, first sizing (no bare equivalent)', median(firsts), 'ms CPU');
    emitOurs('2,000 tools: context budget per request, once sized (no bare equivalent)', median(requests), 'ms CPU', 3);
  },

  /** In code-server's extension host, ours beside bare SDK clients in the same host (scripts/bench-host.mjs). */
  async 'extension host'(sdkBundle) {
    await runHostBench({ sdkBundle, quick, emit, emitOurs, say, profile: profile && path.resolve(profile), startsOnly, dormantOnly });
  },

  /** The first page (100) of a server's 10,000 resources, and its templates: what the Resources view shows first. */
  async 'first page'() {
    const env = { BENCH_RESOURCES: '10000', BENCH_PAGE_SIZE: '100' };
    const ours = await startOurs(1, env);
    const bare = await startBare(env);
    try {
      const service = new ResourceService(ours.manager);
      const timed = (load) => async () => {
        const t0 = performance.now();
        await load();
        return performance.now() - t0;
      };
      const s = await alternate(
        ROUNDS,
        timed(() => service.refresh(ours.ids[0])),
        timed(() => Promise.all([bare.client.request({ method: 'resources/list', params: {} }), bare.client.listResourceTemplates(undefined, { cacheMode: 'refresh' })])),
      );
      emit('10,000 resources: first page', median(s.ours), median(s.bare), 'ms');
    } finally {
      await Promise.all([ours.stop(), bare.stop()]);
    }
  },
};

/**
 * A confined server (`sandboxEnabled`: the sandbox runtime, bubblewrap on Linux) beside the same server unconfined,
 * both through our host: its start (the runtime's own start, its proxy, the sandbox's namespaces) and 1000 tools/call
 * (the server's stdin and stdout are its own in the sandbox: nothing relays them). "bare" is the unconfined one here.
 */
figures.confined = async () => {
  const confined = { sandboxEnabled: true };
  const start = (extra) => async () => {
    const m = await measure(() => startOurs(1, {}, extra));
    await m.result.stop();
    return m;
  };
  const s = await alternate(quick ? 2 : 5, start(confined), start({}));
  emit('1 stdio server to running, confined vs unconfined: wall', pick(s.ours, 'ms'), pick(s.bare, 'ms'), 'ms');
  const [ours, bare] = [await startOurs(1, {}, confined), await startOurs(1)];
  try {
    const caller = ours.caller();
    const bareCaller = bare.caller();
    const signal = new AbortController().signal;
    const sides = {
      ours: (i) => caller.call({ serverId: ours.ids[0], tool, arguments: { text: `hello ${i}` }, origin: 'bench', signal }),
      bare: (i) => bareCaller.call({ serverId: bare.ids[0], tool, arguments: { text: `hello ${i}` }, origin: 'bench', signal }),
    };
    // The two take turns at every call (each call timed on its own): on a shared machine the load changes within
    // milliseconds, and blocks of 100 calls gave one side a busy moment the other did not have (0.5× to 2.1× between
    // runs, with the same CPU per call on both sides).
    const rounds = { ours: [], bare: [] };
    for (let round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
      const totals = { ours: 0, bare: 0 };
      for (let i = 0; i < 1000; i++) {
        for (const side of i % 2 ? ['bare', 'ours'] : ['ours', 'bare']) {
          const t0 = performance.now();
          await sides[side](i);
          totals[side] += performance.now() - t0;
        }
      }
      if (round >= 0) for (const side of ['ours', 'bare']) rounds[side].push(totals[side]);
    }
    emit('1000 × tools/call echo, confined vs unconfined: wall', median(rounds.ours), median(rounds.bare), 'ms');
  } finally {
    await Promise.all([ours.stop(), bare.stop()]);
  }
};

/**
 * Dormant servers (issue 44), in plain Node: a window's servers known from their last run come up dormant (no process);
 * against bare clients that start them. And the first call of a dormant server's tool (its start, its lists, the check
 * of the tool, the call) against a bare client's connect and the same call (no lists).
 */
figures['dormant servers'] = async () => {
  const count = 50;
  const store = new MemoryStore();
  // Known from a first run (not measured).
  const first = await startOurs(count, {}, {}, { store });
  await first.flushKnown();
  await first.stop();
  const open = async () => {
    const m = await measure(() => startOurs(count, {}, {}, { store, dormant: true }));
    if (m.result.manager.servers().some((s) => s.pid !== undefined)) throw new Error('a dormant server started');
    await m.result.stop();
    return m;
  };
  const bareStarts = async () => {
    const m = await measure(() => Promise.all(Array.from({ length: count }, () => startBare())));
    await Promise.all(m.result.map((c) => c.stop()));
    return m;
  };
  const s = await alternate(quick ? 2 : 3, open, bareStarts);
  emit(`${count} known servers, window open (dormant, none started) vs ${count} bare clients starting: client CPU`, pick(s.ours, 'cpuMs'), pick(s.bare, 'cpuMs'), 'ms');
  emit(`${count} known servers, window open (dormant, none started) vs ${count} bare clients starting: wall`, pick(s.ours, 'ms'), pick(s.bare, 'ms'), 'ms');
  const signal = new AbortController().signal;
  const oursCall = async () => {
    const host = await startOurs(1, {}, {}, { store, dormant: true });
    const caller = host.caller();
    const m = await measure(() => caller.call({ serverId: host.ids[0], tool, arguments: { text: 'hello' }, origin: 'bench', signal }));
    if (!m.result.ran) throw new Error('the first call did not run');
    await host.stop();
    return m;
  };
  const bareCall = async () => {
    const m = await measure(async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER], env: { ...process.env }, stderr: 'pipe', maxBufferSize: MAX_MESSAGE_BYTES });
      const client = new Client({ name: 'bench-bare', version: '0' });
      await client.connect(transport);
      await client.callTool({ name: 'echo', arguments: { text: 'hello' } }, { signal });
      return client;
    });
    await m.result.close();
    return m;
  };
  const c = await alternate(ROUNDS, oursCall, bareCall);
  emit('first call of a dormant server\'s tool vs a bare client\'s connect + call: wall', pick(c.ours, 'ms'), pick(c.bare, 'ms'), 'ms');
  emit('first call of a dormant server\'s tool vs a bare client\'s connect + call: client CPU', pick(c.ours, 'cpuMs'), pick(c.bare, 'cpuMs'), 'ms');
};

/**
 * The gateway (issue 45), in plain Node: tools/call of `echo` by an SDK client over Streamable HTTP through the gateway
 * (the host's guarded path behind it, "always allow" given once) against a bare SDK client over stdio straight to its
 * own server, and the floor (startFloorRelay: plain HTTP, no MCP server package, no checks), in blocks of 100 calls
 * taking turns, 200 a side a round. The gateway's client runs in a process of its own
 * (scripts/bench-gateway-client.mjs), so this process's CPU is the gateway and the host alone, as the extension host
 * spends it; on the bare side it is the bare client's, on the floor's the relay's and its client's. Then 20 clients of
 * the gateway each calling once, all at once.
 */
figures.gateway = async () => {
  const { startGateway } = core('features/gateway/gatewayHttp.lazy.js');
  const { GatewayRelay } = core('features/gateway/gatewayRelay.js');
  const { newGatewayPath, newGatewaySecret } = core('features/gateway/gatewayRequestCheck.js');
  const ours = await startOurs(1);
  const bare = await startBare();
  const relay = new GatewayRelay({ sessions: ours.manager, caller: ours.caller() });
  const gateway = await startGateway({ relay, onDidChangeServers: (l) => ours.manager.onDidChangeServers(l), path: newGatewayPath(), token: newGatewaySecret(), version: 'bench' });
  // The floor: the least any HTTP gateway in the extension host can cost. A plain node:http server here relays each
  // JSON-RPC tools/call body to a bare SDK client over stdio (its own copy of the server) and writes back its result as
  // JSON: no MCP server package, no checks, no consent; the agent calls it with plain fetch.
  const floorBare = await startBare();
  const floor = await startFloorRelay(floorBare.client);
  const { fork } = require('node:child_process');
  const agent = fork(path.join(repoRoot, 'scripts', 'bench-gateway-client.mjs'), [gateway.url, gateway.address.token], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ask = (message) =>
    new Promise((resolve, reject) => {
      agent.once('message', (m) => (m.error ? reject(new Error(m.error)) : resolve(m)));
      if (message) agent.send(message);
    });
  try {
    await ask(undefined); // ready
    await ask({ connect: true, clients: 1 });
    const name = `${ours.manager.servers()[0].name}_echo`;
    const block = async (side, totals) => {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      if (side === 'ours') totals.agentCpuMs += (await ask({ calls: 100, name })).cpuMs;
      else if (side === 'floor') totals.agentCpuMs += (await ask({ floorCalls: 100, url: floor.url, name: 'echo' })).cpuMs;
      else for (let i = 0; i < 100; i++) await bare.client.callTool({ name: 'echo', arguments: { text: `hello ${i}` } });
      const { user, system } = process.cpuUsage(cpu);
      totals.ms += performance.now() - t0;
      totals.cpuMs += (user + system) / 1000;
    };
    const sides = ['ours', 'bare', 'floor'];
    const rounds = { ours: [], bare: [], floor: [] };
    for (let round = -1; round < ROUNDS; round++) {
      const totals = Object.fromEntries(sides.map((side) => [side, { ms: 0, cpuMs: 0, agentCpuMs: 0 }]));
      // Two blocks of 100 a side (the figures' 200 calls), each side first, second and last in turn over the rounds.
      for (let b = 0; b < 2; b++) {
        const turn = (round + 1 + b) % sides.length;
        for (const side of [...sides.slice(turn), ...sides.slice(0, turn)]) await block(side, totals[side]);
      }
      if (round >= 0) for (const side of sides) rounds[side].push(totals[side]);
    }
    const figure = '200 × tools/call echo through the gateway (HTTP) vs a bare SDK client to the server (stdio)';
    emit(`${figure}: wall`, pick(rounds.ours, 'ms'), pick(rounds.bare, 'ms'), 'ms');
    emit(`${figure}: extension-host CPU (gateway and host; bare: the client)`, pick(rounds.ours, 'cpuMs'), pick(rounds.bare, 'cpuMs'), 'ms');
    emit(`${figure}: the agent's client CPU`, pick(rounds.ours, 'agentCpuMs'), pick(rounds.bare, 'cpuMs'), 'ms');
    // What the HTTP hop costs by itself, and what the gateway costs beyond it.
    const floorFigure = '200 × tools/call echo through the floor (a plain node:http relay to a bare SDK client, plain fetch) vs a bare SDK client to the server (stdio)';
    emit(`${floorFigure}: wall`, pick(rounds.floor, 'ms'), pick(rounds.bare, 'ms'), 'ms');
    emit(`${floorFigure}: extension-host CPU (the relay and its client; bare: the client)`, pick(rounds.floor, 'cpuMs'), pick(rounds.bare, 'cpuMs'), 'ms');
    const oursFigure = '200 × tools/call echo through the gateway vs through the floor';
    emit(`${oursFigure}: wall`, pick(rounds.ours, 'ms'), pick(rounds.floor, 'ms'), 'ms');
    emit(`${oursFigure}: extension-host CPU`, pick(rounds.ours, 'cpuMs'), pick(rounds.floor, 'cpuMs'), 'ms');
    emit(`${oursFigure}: the agent's client CPU (SDK client; the floor: plain fetch)`, pick(rounds.ours, 'agentCpuMs'), pick(rounds.floor, 'agentCpuMs'), 'ms');

    const connected = (await ask({ connect: true, clients: 20 })).connected;
    const together = [];
    for (let i = 0; i < ROUNDS; i++) together.push(await ask({ together: true, name }));
    emitOurs('20 clients of the gateway calling at once: calls served (of 20)', Math.min(connected, ...together.map((t) => t.served)), 'calls', 0);
    emitOurs('20 clients of the gateway calling at once: wall', median(together.map((t) => t.ms)), 'ms', 1);
  } finally {
    agent.send({ close: true });
    await new Promise((resolve) => agent.once('exit', resolve));
    await gateway.stop();
    await floor.stop();
    await Promise.all([ours.stop(), bare.stop(), floorBare.stop()]);
  }
};

/** The gateway's floor: a plain node:http server relaying each JSON-RPC tools/call to `client`, its result as JSON. */
async function startFloorRelay(client) {
  const http = require('node:http');
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const answer = await client.callTool(request.params).then(
        (result) => ({ jsonrpc: '2.0', id: request.id, result }),
        (e) => ({ jsonrpc: '2.0', id: request.id, error: { code: -32603, message: String(e) } }),
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

const wanted = (name) => (!only || name.includes(only)) && (name === 'extension host' ? !noHost : !hostOnly);
say(`node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}${quick ? ', quick' : ''}`);
const sdkBundle = await figures.bundles();
for (const [name, run] of Object.entries(figures)) {
  if (name === 'bundles' || !wanted(name)) continue;
  say(name);
  await run(sdkBundle);
}
process.exit(0);
