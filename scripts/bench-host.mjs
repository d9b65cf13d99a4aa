// The in-host figures of `npm run bench`: MCP Host inside code-server's real extension host (the launcher of the
// integration tests, scripts/code-server-launcher.mjs), beside bare SDK clients that test/integration/bench starts in
// the same host and the same run. Each window opens the same throw-away workspace folder, as a user reopens a project;
// the first runs every figure, the others only the first server's start (a fresh window each), the side that starts
// first taking turns. The windows share one profile, as a user's do: our extension's global storage (the code cache of
// dist/host.js) and the browser's (where code-server keeps extensions' global state: which protocol a server spoke).
// The profile's first window, with nothing kept yet, gives a figure of its own.
// The samples come back as JSON lines (MCPHOST_TEST_BENCH_RESULTS); this script prints the medians as bench figures.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './code-server-launcher.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function runWindow({ root, index, plan, order, rounds, sdkFile, say, profile, storage }) {
  const workspace = path.join(root, 'workspace');
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.vscode', 'mcp.json'), '{ "servers": {} }\n');
  fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), '{}\n');
  const results = path.join(root, `results-${index}.jsonl`);
  fs.writeFileSync(results, '');
  const env = {
    ...process.env,
    MCPHOST_TEST_REPO_ROOT: repoRoot,
    MCPHOST_TEST_BENCH_RESULTS: results,
    MCPHOST_TEST_BENCH_PLAN: plan,
    MCPHOST_TEST_BENCH_ORDER: order,
    MCPHOST_TEST_BENCH_ROUNDS: String(rounds),
    MCPHOST_TEST_BENCH_SDK: sdkFile,
    MCPHOST_TEST_BENCH_SERVER: path.join(repoRoot, 'scripts', 'bench-server.mjs'),
    MCPHOST_TEST_TIMEOUT: '1800',
    // Our global storage is kept from window to window, as in a user's profile: what the extension keeps there
    // between windows (the code cache of dist/host.js) is there in every window after the first.
    MCPHOST_TEST_GLOBAL_STORAGE: `mcp-host.mcp-host=${storage}`,
    MCPHOST_TEST_BROWSER_PROFILE: path.join(root, 'browser-profile'),
    ...(profile ? { MCPHOST_TEST_BENCH_PROFILE: profile } : {}),
    // VS Code's own MCP support off (it would start the same mcp.json); servers trusted without a question.
    // Eager: the start figures add the same servers again each round, which would otherwise come back dormant (known).
    MCPHOST_TEST_USER_SETTINGS: JSON.stringify({ 'chat.mcp.access': 'none', 'mcpHost.trustAllServers': true, 'mcpHost.servers.startup': 'eager' }),
  };
  const args = [
    path.join(repoRoot, 'scripts', 'code-server-launcher.mjs'),
    workspace,
    `--extensionDevelopmentPath=${repoRoot}`,
    `--extensionDevelopmentPath=${path.join(repoRoot, 'test', 'fixtures', 'bench-extension')}`,
    `--extensionTestsPath=${path.join(repoRoot, 'out', 'test', 'integration', 'bench', 'index.js')}`,
  ];
  say(`extension host, window ${index + 1}: ${{ full: 'every figure', starts: 'the server starts only' }[plan] ?? 'first start only'}, ${order} first`);
  return new Promise((resolve, reject) => {
    // The launcher's stdout is the host's log: to our stderr, stdout keeps nothing but figures.
    const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => process.stderr.write(String(d).replace(/^(?=.)/gm, '  host: ')));
    child.stderr.on('data', (d) => process.stderr.write(String(d).replace(/^(?=.)/gm, '  host: ')));
    child.on('error', reject);
    child.on('exit', (code) => {
      const lines = fs.readFileSync(results, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      if (code !== 0) return reject(new Error(`the extension host bench exited with ${code}`));
      resolve(lines);
    });
  });
}

/**
 * With `profile` (a folder), one window only, with CPU profiles of ours there (the figures then include the profiler).
 * Runs the windows and emits the figures through `emit(figure, ours, bare, unit)` and `emitOurs(figure, ours, unit)`.
 * `sdkBundle` is the bare side's SDK bundle (the one the plain-Node activation figure loads). With `startsOnly`, the
 * first window runs only the server-start figures (first start, 10 and 50 servers), not the tool calls and trees; with
 * `dormantOnly`, one window runs only the first start, the 50 servers saved to listed, and the dormant servers' figures.
 */
export async function runHostBench({ sdkBundle, quick, emit, emitOurs, say, profile, startsOnly, dormantOnly }) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-bench-host-'));
  try {
    const sdkFile = path.join(root, 'sdk-bundle.js');
    fs.writeFileSync(sdkFile, sdkBundle);
    // The first start has one sample a side per window after the first: eight a side in a full run.
    const windows = profile || dormantOnly ? 1 : quick ? 3 : 9;
    const storage = path.join(root, 'global-storage');
    fs.mkdirSync(storage);
    const samples = [];
    for (let index = 0; index < windows; index++) {
      const lines = await runWindow({ root, index, plan: index > 0 ? 'first' : startsOnly ? 'starts' : dormantOnly ? 'dormant' : 'full', order: index % 2 ? 'bare' : 'ours', rounds: quick ? 3 : 5, sdkFile, say, profile, storage });
      for (const l of lines) if (l.error) say(`extension host: ${l.error}`);
      // The profile's first window: nothing kept from an earlier one yet (ours compiles dist/host.js without a cache,
      // and probes the server, which it has never met, for the 2026 protocol).
      if (index === 0) for (const l of lines) if (l.figure === 'first start') l.figure = 'first start, first window';
      samples.push(...lines.filter((l) => !l.error));
    }
    const of = (figure, side, key) => samples.filter((s) => s.figure === figure && s.side === side).map((s) => s[key]);
    const pair = (figure, key, name, unit) => {
      const ours = of(figure, 'ours', key);
      const bare = of(figure, 'bare', key);
      if (ours.length && bare.length) emit(name, median(ours), median(bare), unit);
      else say(`extension host: no samples for ${name}`);
    };
    for (const n of [10, 50]) {
      const figure = `${n} servers`;
      pair(figure, 'ms', `extension host, ${n} stdio servers from mcp.json to running: wall`, 'ms');
      pair(figure, 'cpuMs', `extension host, ${n} stdio servers from mcp.json to running: host CPU`, 'ms');
      // Where that CPU went: the host's main thread (V8's helper threads do most of a major collection's work), and
      // the samples that held no major collection, which collects the whole host's heap in whichever sample crosses
      // V8's limit (how many samples of each side held one is said on stderr).
      for (const side of ['ours', 'bare']) {
        const all = samples.filter((s) => s.figure === figure && s.side === side);
        say(`extension host, ${figure}: ${all.filter((s) => s.majorGcs > 0).length} of ${all.length} samples of ${side} held a major collection`);
        // Each sample's wall in the order taken (ours and bare take turns going first), to see the noise beside a median.
        say(`extension host, ${figure}: ${side}'s walls in ms: ${all.map((s) => Math.round(s.ms)).join(' ')}`);
      }
      /** The medians of `value` over each side's samples that `keep` keeps, emitted as a pair. */
      const medians = (name, value, keep = () => true) => {
        const values = (side) => samples.filter((s) => s.figure === figure && s.side === side && keep(s)).map(value).filter((v) => v !== undefined);
        const [ours, bare] = [values('ours'), values('bare')];
        if (ours.length && bare.length) emit(name, median(ours), median(bare), 'ms');
      };
      medians(`extension host, ${n} stdio servers from mcp.json to running: host main-thread CPU`, (s) => s.threads?.main);
      medians(`extension host, ${n} stdio servers from mcp.json to running: workbench (browser) CPU, to 0.5 s after`, (s) => s.workbenchCpuMs);
      medians(`extension host, ${n} stdio servers from mcp.json to running: host CPU of the samples without a major collection`, (s) => s.cpuMs, (s) => s.majorGcs === 0);
      // Issue 44: what each side allocates on the host's heap while its servers start (MB), and how many major
      // collections fell in its samples in all (a collection falls in whichever sample crosses V8's limit).
      const mb = (s) => (s.allocatedBytes ? s.allocatedBytes / 1e6 : undefined);
      const allocated = (side) => samples.filter((s) => s.figure === figure && s.side === side).map(mb).filter((v) => v !== undefined);
      if (allocated('ours').length && allocated('bare').length) emit(`extension host, ${n} stdio servers from mcp.json to running: allocated on the host's heap`, median(allocated('ours')), median(allocated('bare')), 'MB');
      const collections = (side) => samples.filter((s) => s.figure === figure && s.side === side).reduce((total, s) => total + (s.majorGcs ?? 0), 0);
      if (samples.some((s) => s.figure === figure)) emit(`extension host, ${n} stdio servers from mcp.json to running: major collections in all samples`, collections('ours'), collections('bare'), 'count');
    }
    // Issue 44: from saving mcp.json with 50 new servers to the view listing them all (≤ 0.6 s), and dormant servers.
    const listed = of('50 servers saved, listed', 'ours', 'ms');
    if (listed.length) {
      say(`extension host, 50 servers saved, listed: walls in ms: ${listed.map(Math.round).join(' ')}`);
      emitOurs('extension host, mcp.json saved with 50 new servers to all 50 listed in the Servers view: wall (no bare equivalent)', median(listed), 'ms', 1);
      emitOurs('extension host, mcp.json saved with 50 new servers to all 50 listed in the Servers view: host CPU (no bare equivalent)', median(of('50 servers saved, listed', 'ours', 'cpuMs')), 'ms', 1);
    }
    for (const figure of ['50 servers', '50 known servers, window open', 'first call of a dormant server'])
      for (const side of ['ours', 'bare']) {
        const all = samples.filter((s) => s.figure === figure && s.side === side);
        // Each sample, to see the noise beside a median: wall / host CPU (ms), (its main thread's), and * where a major
        // collection fell in it.
        if (all.length) say(`extension host, ${figure}: ${side}'s samples, wall/CPU (main thread) in ms: ${all.map((s) => `${Math.round(s.ms)}/${Math.round(s.cpuMs)}${s.threads?.main === undefined ? '' : `(${Math.round(s.threads.main)})`}${s.majorGcs ? '*' : ''}`).join(' ')}`);
      }
    pair('50 known servers, window open', 'cpuMs', 'extension host, 50 known servers come into the window (dormant, none started) vs 50 bare clients starting: host CPU', 'ms');
    // Less the floor (the same servers written to a settings file no one starts them from: VS Code's reload of its
    // configuration and the other extensions' answers), from both sides: what the servers themselves cost each side.
    const floor = of('50 known servers, window open, floor', 'bare', 'cpuMs');
    if (floor.length) {
      say(`extension host, 50 known servers, window open: the floor's samples, host CPU in ms: ${floor.map(Math.round).join(' ')}`);
      const [ours, bare] = ['ours', 'bare'].map((side) => median(of('50 known servers, window open', side, 'cpuMs')) - median(floor));
      emit('extension host, 50 known servers come into the window vs 50 bare clients starting, each less the floor: host CPU', ours, bare, 'ms');
    }
    pair('50 known servers, window open', 'ms', 'extension host, 50 known servers come into the window (dormant, none started) vs 50 bare clients starting: wall', 'ms');
    pair('first call of a dormant server', 'ms', "extension host, first call of a dormant server's tool (vscode.lm.invokeTool) vs a bare client's connect + the same call: wall", 'ms');
    pair('first call of a dormant server', 'cpuMs', "extension host, first call of a dormant server's tool (vscode.lm.invokeTool) vs a bare client's connect + the same call: host CPU", 'ms');
    for (const side of ['ours', 'bare']) say(`extension host, first start: ${side}'s walls in ms, window by window: ${of('first start', side, 'ms').map(Math.round).join(' ')}`);
    pair('first start', 'ms', 'extension host, first server in a fresh window (host bundle / SDK bundle loaded): wall', 'ms');
    pair('first start', 'cpuMs', 'extension host, first server in a fresh window (host bundle / SDK bundle loaded): host CPU', 'ms');
    pair('first start, first window', 'ms', "extension host, first server in a profile's first window (no code cache yet): wall", 'ms');
    pair('first start, first window', 'cpuMs', "extension host, first server in a profile's first window (no code cache yet): host CPU", 'ms');
    // The agent path: vscode.lm.invokeTool on our tool beside the same on a tool that calls a bare client; then beside
    // the bare client's callTool alone, which skips VS Code's round trip through the workbench.
    pair('1000 tools/call', 'ms', 'extension host, 1000 × agent tools/call (vscode.lm.invokeTool: ours / a bare SDK tool): wall', 'ms');
    pair('1000 tools/call', 'cpuMs', 'extension host, 1000 × agent tools/call (vscode.lm.invokeTool: ours / a bare SDK tool): host CPU', 'ms');
    const direct = (key, name) => {
      const ours = of('1000 tools/call', 'ours', key);
      const bare = of('1000 tools/call, SDK alone', 'bare', key);
      if (ours.length && bare.length) emit(name, median(ours), median(bare), 'ms');
    };
    direct('ms', 'extension host, 1000 × agent tools/call (ours via vscode.lm.invokeTool / bare callTool alone): wall');
    direct('cpuMs', 'extension host, 1000 × agent tools/call (ours via vscode.lm.invokeTool / bare callTool alone): host CPU');
    for (const figure of ['2,000 tools: open the Servers view', '2,000 tools: expand a server', "2,000 tools: expand a server's tools", '2,000 tools: one server restarts']) {
      const cpu = of(figure, 'ours', 'cpuMs');
      const provider = of(figure, 'ours', 'providerMs');
      if (!cpu.length) {
        say(`extension host: no samples for ${figure}`);
        continue;
      }
      // A view that asked nothing gives no sample: say how many the median is of.
      say(`extension host, ${figure}: ${cpu.length} samples, host CPU in ms: ${cpu.map((x) => Math.round(x * 10) / 10).join(' ')}`);
      emitOurs(`extension host, ${figure}: host CPU up to the view's last question (no bare equivalent)`, median(cpu), 'ms', 1);
      emitOurs(`extension host, ${figure}: time in our tree provider (no bare equivalent)`, median(provider), 'ms', 1);
    }
  } finally {
    if (process.env.MCPHOST_TEST_KEEP !== '1') fs.rmSync(root, { recursive: true, force: true });
  }
}
