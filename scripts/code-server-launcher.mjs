#!/usr/bin/env node
// A stand-in "VS Code executable" for @vscode/test-electron's runTests({ vscodeExecutablePath }).
//
// It runs an extension's tests in a REAL VS Code extension host without a desktop VS Code:
// code-server (VS Code server + web workbench, from npm) is started in its own process group with a
// throw-away HOME/XDG/TMPDIR, and headless Chromium (driven by playwright-core) opens the workbench with
// the test "payload". The workbench reports the extension host's exit code through codeAutomationExit.
//
// Usage (what runTests passes; other flags such as --no-sandbox, --disable-updates, --skip-welcome,
// --user-data-dir=, --extensions-dir= are accepted and ignored):
//   code-server-launcher.mjs [<folder> | <file.code-workspace>]
//       --extensionDevelopmentPath=DIR [--extensionDevelopmentPath=DIR2 ...] --extensionTestsPath=FILE
//
// Environment:
//   CS_NODE, CS_ENTRY              Node 24 binary and code-server's out/node/entry.js; when missing,
//                                  scripts/ensure-vscode-tools.sh is run to install/locate them.
//   CHROME_PATH                    browser binary (default: chromium found on PATH)
//   MCPHOST_TEST_*                 forwarded to the extension host (VSCODE_* would be stripped by VS Code)
//   MCPHOST_TEST_OUTPUT_FILE       set by the launcher: the test index appends mocha's output there and
//                                  the launcher streams it to stdout
//   MCPHOST_TEST_TIMEOUT           seconds before giving up (default 600)
//   MCPHOST_TEST_WORKSPACE_TRUST=1 run with workspace trust ENABLED (default: disabled = trusted; runTests
//                                  always passes --disable-workspace-trust, so only this variable decides)
//   MCPHOST_TEST_EXTENSIONS_DIR    extensions dir for code-server (default: an empty throw-away one)
//   MCPHOST_TEST_VERBOSE=1         echo server and workbench logs to stderr
//   MCPHOST_TEST_KEEP=1            keep the temp dir (logs, user data) even when the run passes
//   MCPHOST_TEST_USER_SETTINGS     JSON object merged into the throw-away profile's user settings.json
//   MCPHOST_TEST_GLOBAL_STORAGE    <extension id>=<dir>: that extension's global storage is <dir> (kept across runs)
//   MCPHOST_TEST_BROWSER_PROFILE   <dir>: the browser's profile, kept across runs, with code-server at the port it
//                                  first had: the workbench's storage (extensions' global state) lives in the browser
//   MCPHOST_TEST_PAGE              set by the launcher: the base URL (loopback, with a random token) of the page hook,
//                                  through which tests read and click what the workbench shows, take screenshots and
//                                  press keys (see startPageHook below)
//
// Exit code: the extension host's exit code (0 = tests passed); 2 bad usage, 3 code-server failed,
// 4 browser failure, 124 timeout, 130/143 interrupted. On failure the temp dir with code-server.log,
// workbench.log, test-output.log and VS Code's own logs is kept and its path printed.
//
// The helpers below are also used by scripts/demo.mjs, scripts/check-vsix.mjs and test/demo (its page hook too).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const t0 = Date.now();
const elapsed = () => `+${((Date.now() - t0) / 1000).toFixed(1)}s`;
const tag = path.basename(process.argv[1] || 'launcher').replace(/\.m?js$/, '').replace('code-server-', '');
export const say = (...a) => process.stderr.write(`[${tag} ${elapsed()}] ${format(...a)}\n`);

// ---------------------------------------------------------------------------------------------------
// tools

/** Returns { node, entry } of code-server, running scripts/ensure-vscode-tools.sh when not in env. */
export async function ensureTools() {
  if (process.env.CS_NODE && process.env.CS_ENTRY) {
    return { node: process.env.CS_NODE, entry: process.env.CS_ENTRY };
  }
  const script = path.join(repoRoot, 'scripts', 'ensure-vscode-tools.sh');
  const out = await new Promise((resolve, reject) => {
    const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    child.stdout.on('data', (d) => (buf += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(buf) : reject(new Error(`${script} exited with ${code}`))));
  });
  const vars = Object.fromEntries(
    out.split('\n').map((l) => /^(CS_NODE|CS_ENTRY)=(.*)$/.exec(l.trim())).filter(Boolean).map((m) => [m[1], m[2]]),
  );
  if (!vars.CS_NODE || !vars.CS_ENTRY) throw new Error(`${script} did not print CS_NODE/CS_ENTRY`);
  return { node: vars.CS_NODE, entry: vars.CS_ENTRY };
}

/** The Chromium binary: $CHROME_PATH or the first chromium/chrome on PATH. */
export function findChromium() {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  const names = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];
  for (const dir of (process.env.PATH || '').split(path.delimiter).filter(Boolean)) {
    for (const name of names) {
      const p = path.join(dir, name);
      try {
        fs.accessSync(p, fs.constants.X_OK);
        return p;
      } catch {}
    }
  }
  throw new Error('no Chromium found on PATH (run scripts/ensure-vscode-tools.sh or set CHROME_PATH)');
}

/** MCPHOST_TEST_BROWSER_PROFILE: the browser's profile folder, kept across runs (its storage belongs to an address). */
const browserProfile = process.env.MCPHOST_TEST_BROWSER_PROFILE ? path.resolve(process.env.MCPHOST_TEST_BROWSER_PROFILE) : undefined;

/** The port a kept browser profile was first used with (its `port` file), so its storage is found again; else none. */
function profilePort() {
  if (!browserProfile) return undefined;
  try {
    return Number(fs.readFileSync(path.join(browserProfile, 'port'), 'utf8')) || undefined;
  } catch {
    return undefined;
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------------
// sandbox: everything code-server and Chromium write goes below one temp dir

/**
 * Creates a throw-away directory with home/, tmp/, user-data/ (with settings) and extensions/,
 * and the environment that points HOME, XDG_* and TMPDIR into it.
 */
export function makeSandbox(prefix, settings = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const home = path.join(root, 'home');
  const tmp = path.join(root, 'tmp');
  const userDataDir = path.join(root, 'user-data');
  const extensionsDir = path.join(root, 'extensions');
  for (const d of [home, tmp, path.join(userDataDir, 'User'), extensionsDir]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.enableExperiments': false,
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'extensions.ignoreRecommendations': true,
        ...settings,
      },
      null,
      2,
    ),
  );
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    XDG_RUNTIME_DIR: tmp,
    TMPDIR: tmp,
  };
  // One extension's global storage kept across runs, as in a user's profile (the bench: MCP Host's code cache).
  const [storageOf, storageDir] = (process.env.MCPHOST_TEST_GLOBAL_STORAGE ?? '').split('=');
  if (storageOf && storageDir) {
    fs.mkdirSync(path.join(userDataDir, 'User', 'globalStorage'), { recursive: true });
    fs.symlinkSync(path.resolve(storageDir), path.join(userDataDir, 'User', 'globalStorage', storageOf));
  }
  // code-server would otherwise pick these up from the caller's environment
  for (const k of ['PASSWORD', 'HASHED_PASSWORD', 'PORT', 'VSCODE_PROXY_URI', 'CS_DISABLE_FILE_DOWNLOADS']) delete env[k];
  return { root, home, tmp, userDataDir, extensionsDir, env };
}

// ---------------------------------------------------------------------------------------------------
// code-server

/**
 * Starts code-server in its own process group. Resolves once it listens.
 * @returns {{ child, port, url, stop(): Promise<void> }}
 */
export async function startCodeServer({ tools, sandbox, port, extensionsDir, trust, logFile, echo, extraArgs = [] }) {
  const config = path.join(sandbox.root, 'config.yaml');
  fs.writeFileSync(config, 'auth: none\ncert: false\n');
  const args = [
    tools.entry,
    '--config', config,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--user-data-dir', sandbox.userDataDir,
    '--extensions-dir', extensionsDir ?? sandbox.extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    ...(trust ? [] : ['--disable-workspace-trust']),
    ...extraArgs,
  ];
  const child = spawn(tools.node, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: sandbox.env });
  let stopped = false;
  const killGroup = (signal) => {
    try {
      process.kill(-child.pid, signal); // our own process group only
    } catch {}
  };
  // last resort if this process dies without cleaning up
  process.on('exit', () => stopped || killGroup('SIGKILL'));
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) killGroup('SIGTERM');
    for (let i = 0; i < 30 && child.exitCode === null && child.signalCode === null; i++) await sleep(100);
    killGroup('SIGKILL'); // stragglers of the group (extension host, language servers, MCP servers...)
  };
  await new Promise((resolve, reject) => {
    let seen = '';
    const onData = (d) => {
      const s = d.toString();
      if (logFile) fs.appendFileSync(logFile, s);
      if (echo) process.stderr.write(s.replace(/^(?=.)/gm, '[code-server] '));
      seen = (seen + s).slice(-2000);
      if (/HTTP server listening on/.test(seen)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code, signal) => reject(new Error(`code-server exited early (${code ?? signal})`)));
  });
  return { child, port, url: `http://127.0.0.1:${port}`, stop };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Removes a directory tree, tolerating races with processes that are still going away. */
export function removeTree(dir) {
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  } catch (e) {
    say(`could not remove ${dir}: ${e.message}`);
  }
}

/** Runs a command in the repository, its output on ours; rejects unless it exits with 0. */
export function runCommand(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: repoRoot, stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed (${code ?? signal})`)),
    );
  });
}

// ---------------------------------------------------------------------------------------------------
// command line

const VALUE_FLAGS = new Set([
  'extensionDevelopmentPath', 'extensionTestsPath', 'user-data-dir', 'extensions-dir', 'locale', 'log', 'profile',
  'folder-uri', 'file-uri', 'inspect-extensions', 'inspect-brk-extensions',
]);

export function parseArgs(argv) {
  const opts = { devPaths: [], testsPath: undefined, workspace: undefined, ignored: [], help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      opts.help = true;
      continue;
    }
    if (!a.startsWith('-')) {
      if (opts.workspace === undefined) opts.workspace = path.resolve(a);
      else opts.ignored.push(a);
      continue;
    }
    const m = /^--([^=]+)(?:=(.*))?$/s.exec(a);
    if (!m) {
      opts.ignored.push(a);
      continue;
    }
    let [, name, value] = m;
    if (value === undefined && VALUE_FLAGS.has(name) && i + 1 < argv.length) value = argv[++i];
    if (name === 'extensionDevelopmentPath') opts.devPaths.push(path.resolve(value));
    else if (name === 'extensionTestsPath') opts.testsPath = path.resolve(value);
    else opts.ignored.push(value === undefined ? a : `--${name}=${value}`);
  }
  return opts;
}

// ---------------------------------------------------------------------------------------------------
// the page hook: tests in the extension host cannot see the workbench, the launcher's browser can

/**
 * CPU time (ms) used so far by every thread of this launcher's descendant processes outside code-server's tree (whose
 * root is `serverPid`): the browser that draws the workbench, its renderer and helpers. Linux only (/proc: schedstat's
 * first field is a thread's nanoseconds on a CPU); null elsewhere.
 */
function browserCpuMs(serverPid) {
  if (process.platform !== 'linux') return null;
  const children = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // After the command's closing parenthesis: state, then the parent's pid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // The process ended meanwhile.
    }
  }
  let ns = 0;
  const pending = (children.get(process.pid) ?? []).filter((pid) => pid !== serverPid);
  while (pending.length) {
    const pid = pending.pop();
    pending.push(...(children.get(pid) ?? []));
    try {
      for (const tid of fs.readdirSync(`/proc/${pid}/task`)) ns += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ns / 1e6;
}

/**
 * Serves POST <base>/query on 127.0.0.1 for the tests: `{ selector, expression?, action?, value? }` finds every frame
 * of the workbench (webviews and the frames inside them included) that has an element matching `selector`, and in
 * each either evaluates `expression` (a function body returning JSON; `element` is the first match) or performs
 * `action` on the element as a user would (`click`, or `fill` with `value`). Answers `[{ url, value }]`, one entry per
 * such frame. Page-level actions answer `[]`: `screenshot` (to the path in `value`), `press` (the key in `value`), `type` (the text in `value`, key by key),
 * `clickPage` and `hoverPage` (wherever `selector` is, frames included), `profileStart` and `profileStop` (the page's
 * CPU profile, written to the path in `value`, and its timeline trace beside it, `*.trace.json`), `browserCpu` (the CPU
 * time the browser's processes have used so far, in ms: see browserCpuMs). The base URL carries a random token;
 * nothing else is served.
 */
export async function startPageHook(page, serverPid) {
  const http = await import('node:http');
  const { randomBytes } = await import('node:crypto');
  const token = randomBytes(16).toString('hex');
  let profiler;
  const server = http.createServer(async (req, res) => {
    const reply = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== `/${token}/query`) return reply(404, { error: 'not found' });
    let body = '';
    for await (const chunk of req) body += chunk;
    try {
      const { selector, expression, action, value } = JSON.parse(body);
      // Page-level actions: a screenshot of the whole workbench, a key press, a click wherever the selector is.
      if (action === 'screenshot') return reply(200, (await page.screenshot({ path: value }), []));
      if (action === 'press') return reply(200, (await page.keyboard.press(value), []));
      if (action === 'type') return reply(200, (await page.keyboard.type(String(value ?? ''), { delay: 20 }), []));
      if (action === 'browserCpu') return reply(200, browserCpuMs(serverPid));
      if (action === 'clickPage') return reply(200, (await page.click(selector, { timeout: 10_000 }), []));
      if (action === 'hoverPage') return reply(200, (await page.hover(selector, { timeout: 10_000 }), []));
      // The page's own CPU profile (the workbench's main thread), for the bench's --profile.
      if (action === 'profileStart') {
        profiler ??= await page.context().newCDPSession(page);
        await profiler.send('Profiler.enable');
        await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
        await profiler.send('Profiler.start');
        // With a timeline trace: its events' thread time (`tdur`) is the CPU the page used, where a sampled profile on
        // a busy machine also counts the time the page's thread waited for a CPU.
        await profiler.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReturnAsStream' });
        return reply(200, []);
      }
      if (action === 'profileStop') {
        const { profile } = await profiler.send('Profiler.stop');
        fs.writeFileSync(value, JSON.stringify(profile));
        const traced = new Promise((resolve) => profiler.once('Tracing.tracingComplete', resolve));
        await profiler.send('Tracing.end');
        const { stream } = await traced;
        const trace = fs.openSync(value.replace(/\.cpuprofile$/, '') + '.trace.json', 'w');
        try {
          for (let eof = false; !eof; ) {
            const chunk = await profiler.send('IO.read', { handle: stream, size: 1 << 20 });
            fs.writeSync(trace, chunk.base64Encoded ? Buffer.from(chunk.data, 'base64') : chunk.data);
            eof = chunk.eof;
          }
        } finally {
          fs.closeSync(trace);
          await profiler.send('IO.close', { handle: stream });
        }
        return reply(200, []);
      }
      const found = [];
      for (const frame of page.frames()) {
        let element;
        try {
          element = await frame.$(selector);
        } catch {
          continue; // a frame that went away while we looked
        }
        if (!element) continue;
        let result = null;
        if (action === 'click') await element.click({ timeout: 5000 });
        else if (action === 'fill') await element.fill(String(value ?? ''), { timeout: 5000 });
        // As an expression, which the browser evaluates outside the page's own policy (views forbid eval).
        else if (expression) {
          result = await frame.evaluate(`(() => { const element = document.querySelector(${JSON.stringify(selector)}); ${expression} })()`);
        }
        found.push({ url: frame.url(), value: result });
      }
      reply(200, found);
    } catch (e) {
      reply(500, { error: String(e?.message ?? e) });
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  return { url: `http://127.0.0.1:${server.address().port}/${token}`, close: () => server.close() };
}

// ---------------------------------------------------------------------------------------------------
// the test run

/** Appends new bytes of a file to stdout (the mocha output written by the extension host). */
function filePump(file) {
  let offset = 0;
  return () => {
    let fd;
    try {
      fd = fs.openSync(file, 'r');
      const buf = Buffer.alloc(64 * 1024);
      for (;;) {
        const n = fs.readSync(fd, buf, 0, buf.length, offset);
        if (n <= 0) break;
        process.stdout.write(Buffer.from(buf.subarray(0, n)));
        offset += n;
      }
    } catch {
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
    return offset;
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help || !opts.testsPath) {
    process.stderr.write(
      'usage: code-server-launcher.mjs [folder|file.code-workspace] --extensionDevelopmentPath=DIR... --extensionTestsPath=FILE\n' +
        '(see the header of this file for environment variables)\n',
    );
    process.exit(opts.help ? 0 : 2);
  }
  if (!opts.devPaths.length) {
    say('--extensionDevelopmentPath is required');
    process.exit(2);
  }
  const env = process.env;
  const verbose = env.MCPHOST_TEST_VERBOSE === '1';
  const trust = env.MCPHOST_TEST_WORKSPACE_TRUST === '1';
  const timeoutSec = Number(env.MCPHOST_TEST_TIMEOUT) > 0 ? Number(env.MCPHOST_TEST_TIMEOUT) : 600;
  if (verbose && opts.ignored.length) say('ignoring', opts.ignored.join(' '));

  const tools = await ensureTools();
  const chromiumPath = findChromium();

  const userSettings = env.MCPHOST_TEST_USER_SETTINGS ? JSON.parse(env.MCPHOST_TEST_USER_SETTINGS) : {};
  const sandbox = makeSandbox('mcphost-vscode-test-', { 'security.workspace.trust.enabled': trust, ...userSettings });
  const serverLog = path.join(sandbox.root, 'code-server.log');
  const pageLog = path.join(sandbox.root, 'workbench.log');
  const testOutput = path.join(sandbox.root, 'test-output.log');
  fs.writeFileSync(testOutput, '');
  const pump = filePump(testOutput);
  const pumpTimer = setInterval(pump, 200);

  let server;
  let browser;
  let finishing = false;
  let vscodeLogs = [];
  const finish = async (code, why) => {
    if (finishing) return;
    finishing = true;
    clearInterval(pumpTimer);
    clearTimeout(timer);
    const printed = pump();
    try {
      await browser?.close();
    } catch {}
    await server?.stop();
    if (code === 0 && env.MCPHOST_TEST_KEEP !== '1') {
      removeTree(sandbox.root);
      say(`${why}: exit code 0`);
    } else {
      // the workbench's own logs, handed over with codeAutomationExit (the server's are in user-data/logs)
      for (const { relativePath, contents } of vscodeLogs) {
        const dest = path.join(sandbox.root, 'vscode-logs', String(relativePath));
        if (!dest.startsWith(path.join(sandbox.root, 'vscode-logs') + path.sep)) continue;
        try {
          fs.mkdirSync(path.dirname(dest), { recursive: true });
          fs.writeFileSync(dest, String(contents));
        } catch {}
      }
      removeTree(sandbox.home);
      removeTree(sandbox.tmp);
      if (printed === 0 && ![129, 130, 143].includes(code)) say('the tests wrote no output (did the test index fail to load?)');
      say(`${why}: exit code ${code}; logs kept in ${sandbox.root}`);
    }
    // runTests destroys our stdout/stderr pipes as soon as it sees the exit: give it time to read the last lines
    setTimeout(() => process.exit(code), 300);
  };
  const timer = setTimeout(() => finish(124, `timed out after ${timeoutSec}s`), timeoutSec * 1000);
  process.on('SIGINT', () => finish(130, 'interrupted'));
  process.on('SIGTERM', () => finish(143, 'terminated'));
  process.on('SIGHUP', () => finish(129, 'hung up'));

  // Only ONE extensionDevelopmentPath survives the workbench payload (it becomes a Map): for several,
  // point it at a folder of symlinks; VS Code scans its subfolders as extensions.
  let devPath = opts.devPaths[0];
  if (opts.devPaths.length > 1) {
    devPath = path.join(sandbox.root, 'dev-extensions');
    fs.mkdirSync(devPath);
    opts.devPaths.forEach((p, i) => fs.symlinkSync(p, path.join(devPath, `${i}-${path.basename(p)}`)));
  }

  const extensionEnvironment = Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('MCPHOST_TEST_')));
  extensionEnvironment.MCPHOST_TEST_OUTPUT_FILE = testOutput;

  try {
    const port = profilePort() ?? (await freePort());
    server = await startCodeServer({
      tools,
      sandbox,
      port,
      extensionsDir: env.MCPHOST_TEST_EXTENSIONS_DIR ? path.resolve(env.MCPHOST_TEST_EXTENSIONS_DIR) : undefined,
      trust,
      logFile: serverLog,
      echo: verbose,
      // without this a built VS Code ignores the extensionDevelopmentPath/extensionTestsPath payload
      extraArgs: ['--vscode-option', 'enable-smoke-test-driver'],
    });
    server.child.on('exit', (c, s) => finish(3, `code-server exited unexpectedly (${c ?? s})`));
    say(`code-server listening on ${server.url}${trust ? ' (workspace trust enabled)' : ''}`);
    if (browserProfile) {
      fs.mkdirSync(browserProfile, { recursive: true });
      fs.writeFileSync(path.join(browserProfile, 'port'), String(port));
    }
  } catch (e) {
    return finish(3, `code-server failed to start: ${e.message}`);
  }

  try {
    const { chromium } = await import('playwright-core');
    const launchOptions = {
      executablePath: chromiumPath,
      headless: true,
      chromiumSandbox: false,
      // our own signal handlers close the browser, stop code-server and keep the logs
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      env: sandbox.env,
      args: ['--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-quic'],
    };
    const viewport = { width: 1280, height: 800 };
    let context;
    if (browserProfile) {
      // A user's browser profile: what the workbench keeps in the browser (every extension's global state, each
      // folder's state) is there in the next window of this profile, at the same address.
      context = browser = await chromium.launchPersistentContext(browserProfile, { ...launchOptions, viewport });
    } else {
      browser = await chromium.launch(launchOptions);
      context = await browser.newContext({ viewport });
    }
    const page = await context.newPage();
    const plog = (s) => {
      fs.appendFileSync(pageLog, s + '\n');
      if (verbose) process.stderr.write(`[workbench] ${s}\n`);
    };
    page.on('console', (m) => plog(`[console.${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => plog(`[pageerror] ${e.stack || e}`));
    page.on('crash', () => finish(4, 'the workbench page crashed'));
    // VS Code's automation hooks: the workbench calls these when they exist on window
    await page.exposeFunction('codeAutomationLog', (type, args) =>
      plog(`[${type}] ${Array.isArray(args) ? format(...args) : String(args)}`),
    );
    await page.exposeFunction('codeAutomationExit', (code, logs) => {
      vscodeLogs = Array.isArray(logs) ? logs : [];
      setImmediate(() => finish(typeof code === 'number' ? code : 1, 'extension host finished'));
    });

    const pageHook = await startPageHook(page, server.child.pid);
    extensionEnvironment.MCPHOST_TEST_PAGE = pageHook.url;

    const authority = `127.0.0.1:${server.port}`;
    const remote = (p) => `vscode-remote://${authority}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(devPath)],
      ['extensionTestsPath', remote(opts.testsPath)],
      ['extensionEnvironment', JSON.stringify(extensionEnvironment)],
      ['skipWelcome', 'true'],
    ];
    const query = new URLSearchParams();
    if (!opts.workspace) query.set('ew', 'true');
    else if (opts.workspace.endsWith('.code-workspace')) query.set('workspace', opts.workspace);
    else query.set('folder', opts.workspace);
    query.set('payload', JSON.stringify(payload));
    await page.goto(`${server.url}/?${query}`);
    say('workbench open, running tests');
  } catch (e) {
    return finish(4, `browser failure: ${e.stack || e}`);
  }
}

const invokedDirectly = (() => {
  try {
    return fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
})();
if (invokedDirectly) {
  main().catch((e) => {
    say(`launcher failed: ${e.stack || e}`);
    process.exit(4);
  });
}
