// Real MCP servers from npm, each configured in the workspace's .vscode/mcp.json as its README tells VS Code users to:
// trusted, started, listed and called once through the extension, with the result read. Each entry is the README's
// `npx` one with `--no-install` for `-y` and the pinned devDependency's version for `@latest`, run from a folder beside
// a node_modules (a link to the repository's), so npx runs the installed copy and nothing is downloaded. The trust
// question must name that local copy, and removing the entry must end every process it started (read from /proc).
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import type { TrustQuestion } from '../../src/vscode/dialogs/dialogRouter';
import { activateHost, answerDialogs, repoRoot, waitFor, WorkspaceConfig, type TestedHost } from './testKit';

interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** What a case needs: the suite's temp folder, the page the test serves, the workspace folder. */
interface Fixture {
  tmp: string;
  pageUrl: string;
  pageTitle: string;
  folder: string;
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
}

interface RealServer {
  /** The server's key in mcp.json, as its README names it. */
  name: string;
  /** The npm package (a pinned devDependency). */
  pkg: string;
  /** `serverInfo.name` it reports: the real package answered, not something else on PATH. */
  implementation: string;
  entry(f: Fixture): Record<string, unknown>;
  /** Tools it must list (the one called among them). */
  tools: string[];
  /** Calls one tool (two for memory: store, then read back) and checks the result text. */
  check(f: Fixture): Promise<void>;
  /** It drives a browser: Debian's Chromium must be among its processes, never one it fetched. */
  browser?: true;
}

/** Debian's Chromium (scripts/ensure-vscode-tools.sh installs it): a script that runs /usr/lib/chromium/chromium. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_BINARY = '/usr/lib/chromium/chromium';
const npx = (spec: string, ...args: string[]) => ({ command: 'npx', args: ['--no-install', spec, ...args] });

/** The text of a successful result. */
function textOf(result: ToolResult): string {
  const text = result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
  assert.ok(!result.isError, `the tool failed: ${text}`);
  return text;
}

const SERVERS: RealServer[] = [
  {
    name: 'memory',
    pkg: '@modelcontextprotocol/server-memory',
    implementation: 'memory-server',
    // MEMORY_FILE_PATH (README): the default file is inside the package folder.
    entry: (f) => ({ ...npx('@modelcontextprotocol/server-memory'), env: { MEMORY_FILE_PATH: path.join(f.tmp, 'memory.jsonl') } }),
    tools: ['create_entities', 'open_nodes', 'search_nodes', 'read_graph'],
    async check(f) {
      const entity = { name: 'Ada Lovelace', entityType: 'person', observations: ['wrote the first published program'] };
      textOf(await f.call('create_entities', { entities: [entity] }));
      const read = JSON.parse(textOf(await f.call('open_nodes', { names: ['Ada Lovelace'] })));
      assert.deepStrictEqual(read, { entities: [entity], relations: [] });
      assert.match(fs.readFileSync(path.join(f.tmp, 'memory.jsonl'), 'utf8'), /wrote the first published program/, 'stored in the file the env names');
    },
  },
  {
    name: 'sequential-thinking',
    pkg: '@modelcontextprotocol/server-sequential-thinking',
    implementation: 'sequential-thinking-server',
    entry: () => npx('@modelcontextprotocol/server-sequential-thinking'),
    tools: ['sequentialthinking'],
    async check(f) {
      const thought = { thought: 'First list the servers, then call each once.', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true };
      const recorded = JSON.parse(textOf(await f.call('sequentialthinking', thought)));
      assert.deepStrictEqual(recorded, { thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true, branches: [], thoughtHistoryLength: 1 });
    },
  },
  {
    name: 'filesystem',
    pkg: '@modelcontextprotocol/server-filesystem',
    implementation: 'secure-filesystem-server',
    // ${workspaceFolder}, as the README writes it: the host resolves it.
    entry: () => npx('@modelcontextprotocol/server-filesystem', '${workspaceFolder}'),
    tools: ['list_directory', 'read_text_file', 'write_file', 'list_allowed_directories'],
    async check(f) {
      const dir = path.join(f.folder, 'real-servers-listing');
      fs.mkdirSync(path.join(dir, 'nested'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'notes.txt'), 'hello');
      try {
        const listing = textOf(await f.call('list_directory', { path: dir }));
        assert.deepStrictEqual(listing.split('\n').sort(), ['[DIR] nested', '[FILE] notes.txt']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  },
  {
    name: 'everything',
    pkg: '@modelcontextprotocol/server-everything',
    implementation: 'mcp-servers/everything',
    entry: () => npx('@modelcontextprotocol/server-everything'),
    tools: ['get-structured-content', 'echo', 'get-sum'],
    // A tool no other suite calls: structured content, mirrored as JSON text.
    async check(f) {
      const result = await f.call('get-structured-content', { location: 'Chicago' });
      const weather = { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 };
      assert.deepStrictEqual(result.structuredContent, weather);
      assert.deepStrictEqual(JSON.parse(textOf(result)), weather);
    },
  },
  {
    name: 'time-mcp',
    pkg: 'time-mcp',
    implementation: 'time-mcp',
    entry: () => npx('time-mcp'),
    tools: ['current_time', 'convert_time', 'days_in_month'],
    async check(f) {
      const before = Date.now();
      const text = textOf(await f.call('current_time', { timezone: 'Asia/Kathmandu', format: 'YYYY-MM-DD HH:mm:ss' }));
      const m = /UTC time is (\S+ \S+), and the time in Asia\/Kathmandu is (\S+ \S+)\./.exec(text);
      assert.ok(m, `the time in words: ${text}`);
      const [utc, kathmandu] = [Date.parse(`${m[1].replace(' ', 'T')}Z`), Date.parse(`${m[2].replace(' ', 'T')}Z`)];
      assert.ok(Math.abs(utc - before) < 60_000, `UTC now: ${m[1]}`);
      assert.strictEqual(kathmandu - utc, (5 * 60 + 45) * 60_000, 'Kathmandu is UTC+5:45');
    },
  },
  {
    name: 'calc-mcp',
    pkg: '@coo-quack/calc-mcp',
    implementation: 'calc-mcp',
    // The README pins the version itself.
    entry: () => npx('@coo-quack/calc-mcp@2.1.1'),
    tools: ['math', 'hash', 'base64', 'date'],
    async check(f) {
      assert.strictEqual(textOf(await f.call('math', { expression: '12345 * 6789 + sqrt(144)' })), '83810217');
    },
  },
  {
    name: 'git-mcp-server',
    pkg: '@cyanheads/git-mcp-server',
    implementation: '@cyanheads/git-mcp-server',
    entry: (f) => ({
      type: 'stdio',
      ...npx('@cyanheads/git-mcp-server@2.15.3'),
      env: {
        MCP_TRANSPORT_TYPE: 'stdio',
        MCP_LOG_LEVEL: 'info',
        GIT_BASE_DIR: f.tmp,
        LOGS_DIR: path.join(f.tmp, 'git-logs'),
        GIT_USERNAME: 'MCP Host tests',
        GIT_EMAIL: 'tests@mcp-host.invalid',
        GIT_SIGN_COMMITS: 'true',
      },
    }),
    tools: ['git_log', 'git_status', 'git_commit', 'git_diff'],
    async check(f) {
      const repo = path.join(f.tmp, 'repo');
      fs.mkdirSync(repo);
      const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.invalid', ...args], { cwd: repo });
      git('init', '-q');
      git('commit', '-q', '--allow-empty', '-m', 'first: the repository exists');
      git('commit', '-q', '--allow-empty', '-m', 'second: MCP Host reads this log');
      const log = JSON.parse(textOf(await f.call('git_log', { path: repo, maxCount: 5 }))) as { commits: { subject: string; author: string }[] };
      assert.deepStrictEqual(
        log.commits.map((c) => `${c.author}: ${c.subject}`),
        ['Tester: second: MCP Host reads this log', 'Tester: first: the repository exists'],
      );
    },
  },
  {
    // ESLint's docs: { "type": "stdio", "command": "npx", "args": ["@eslint/mcp@latest"] }.
    name: 'ESLint',
    pkg: '@eslint/mcp',
    implementation: 'ESLint',
    entry: () => ({ type: 'stdio', ...npx('@eslint/mcp@0.3.13') }),
    tools: ['lint-files'],
    async check(f) {
      const dir = path.join(f.tmp, 'lint');
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'eslint.config.mjs'), 'export default [{ rules: { "prefer-const": "error", "no-unused-vars": "error" } }];\n');
      fs.writeFileSync(path.join(dir, 'sample.js'), 'let answer = 42;\nconst unused = 1;\nconsole.log(answer);\n');
      const text = textOf(await f.call('lint-files', { filePaths: [path.join(dir, 'sample.js')] }));
      const report = JSON.parse(text.split('\n').find((l) => l.startsWith('{"filePath"'))!) as { messages: { ruleId: string; line: number }[] };
      assert.deepStrictEqual(
        report.messages.map((m) => `${m.line}: ${m.ruleId}`),
        ['1: prefer-const', '2: no-unused-vars'],
      );
    },
  },
  {
    name: 'fetch',
    pkg: '@tokenizin/mcp-npx-fetch',
    implementation: '@tokenizin/mcp-npx-fetch',
    entry: () => ({ ...npx('@tokenizin/mcp-npx-fetch'), env: {} }),
    tools: ['fetch_markdown', 'fetch_html', 'fetch_txt', 'fetch_json'],
    async check(f) {
      const markdown = textOf(await f.call('fetch_markdown', { url: f.pageUrl }));
      assert.match(markdown, /Served by the test\n=+\n\nThe answer is \*\*42\*\*\./);
    },
  },
  {
    // Headless, on Debian's Chromium (README options), never a browser of Playwright's own.
    name: 'playwright',
    pkg: '@playwright/mcp',
    implementation: 'Playwright',
    entry: (f) => npx('@playwright/mcp@0.0.83', '--browser', 'chromium', '--executable-path', CHROMIUM, '--headless', '--isolated', '--output-dir', path.join(f.tmp, 'playwright')),
    tools: ['browser_navigate', 'browser_snapshot', 'browser_click', 'browser_close'],
    browser: true,
    async check(f) {
      const text = textOf(await f.call('browser_navigate', { url: f.pageUrl }));
      assert.match(text, new RegExp(`Page URL: ${f.pageUrl}\\n- Page Title: ${f.pageTitle}\\n`));
    },
  },
  {
    // Root cannot run Chrome's sandbox (CI runs as root): --chrome-arg=--no-sandbox, as its --help shows.
    name: 'chrome-devtools',
    pkg: 'chrome-devtools-mcp',
    implementation: 'chrome_devtools',
    entry: () => ({
      ...npx('chrome-devtools-mcp@1.11.0', '--headless', '--isolated', `--executablePath=${CHROMIUM}`, '--no-usage-statistics', '--chrome-arg=--no-sandbox'),
      env: { CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1' },
    }),
    tools: ['new_page', 'navigate_page', 'take_snapshot', 'evaluate_script'],
    browser: true,
    async check(f) {
      const pages = textOf(await f.call('new_page', { url: f.pageUrl }));
      assert.match(pages, new RegExp(`\\d+: ${f.pageTitle} \\(${f.pageUrl}\\) \\[selected\\]`));
    },
  },
];

/** Every process below `pid` (Linux /proc), to see that none outlives the server. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  for (let todo = [pid]; todo.length; ) {
    const next = children.get(todo.pop()!) ?? [];
    found.push(...next);
    todo.push(...next);
  }
  return found;
}

const executable = (pid: number) => {
  try {
    return fs.readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

describe('Real MCP servers from npm, configured as their READMEs say', function () {
  this.timeout(120_000);
  let api: TestedHost;
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable;
  let page: http.Server;
  let linked: string;
  const trustQuestions: TrustQuestion[] = [];
  const fixture = {} as Fixture;
  let current: ServerInfo;

  /** Ours, not the fixture's server of the same name (everything): its entry runs npx --no-install. */
  const ours = (s: ServerInfo) => (s.definition as { args?: string[] }).args?.includes('--no-install');
  const noneOfOurs = () => !api.getServers().some(ours);

  before(async () => {
    api = await activateHost();
    dialogs = answerDialogs(api, {
      confirmTrust: async (q) => {
        trustQuestions.push(q);
        return true;
      },
    });
    config = await WorkspaceConfig.read();
    // The fixture's servers that activation could not ask about (modal dialogs are refused in tests), as other suites
    // leave them: trusted and running. Our everything then changes a trusted definition, as a user's edit would.
    await waitFor(() => api.getServers().some((s) => s.name === 'everything'), 'the fixture servers configured');
    for (const s of api.getServers()) if (s.state.kind === 'stopped' || s.state.kind === 'blocked') await api.testing.startServer(s.id);
    fixture.folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    fixture.tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-real-servers-')));
    // A project that has the packages installed: npx --no-install finds them from the workspace folder up.
    linked = path.join(path.dirname(fixture.folder), 'node_modules');
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), linked, 'dir');
    fixture.pageTitle = `MCP Host page ${process.pid}`;
    page = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html><head><title>${fixture.pageTitle}</title></head><body><h1>Served by the test</h1><p>The answer is <b>42</b>.</p></body></html>`);
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    fixture.pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    fixture.call = async (name, args) => (await api.testing.callTool(current.id, name, args)) as ToolResult;
  });

  after(async () => {
    dialogs?.dispose();
    await config?.restore();
    if (api) await waitFor(noneOfOurs, "the suite's servers removed");
    page?.close();
    if (linked) fs.rmSync(linked, { force: true });
    if (fixture.tmp) fs.rmSync(fixture.tmp, { recursive: true, force: true });
  });

  for (const real of SERVERS) {
    it(`${real.pkg}: starts, lists its tools and answers ${real.tools[0]}`, async () => {
      const entry = real.entry(fixture);
      trustQuestions.length = 0;
      // The fixture's servers stay; the case's server replaces the one before (one new process at a time).
      await config.writeServers({ ...config.servers(), [real.name]: entry });
      const info = await waitFor(() => {
        const s = api.getServers().find((s) => s.name === real.name && ours(s));
        if (s?.state.kind === 'error' || s?.state.kind === 'blocked') throw new Error(`${real.name}: ${s.state.kind}: ${s.state.message}`);
        return s?.state.kind === 'running' && s.features.tools.length > 0 && s;
      }, `${real.name} running with its tools`, 60_000);
      current = info;
      const asked = trustQuestions.find((q) => q.serverName === real.name);
      assert.ok(asked, `trust was asked for ${real.name}`);
      assert.ok(asked.detail.includes(path.join(linked, ...real.pkg.split('/'))), `the question names the local copy npx runs:\n${asked.detail}`);
      assert.strictEqual(info.serverInfo?.name, real.implementation);
      const listed = info.features.tools.map((t) => t.name);
      for (const tool of real.tools) assert.ok(listed.includes(tool), `${tool} listed among ${listed.join(', ')}`);
      const processes = [info.pid!, ...descendants(info.pid!)];
      assert.ok(processes.length >= 2, `npx and the server it runs: ${processes.join(', ')}`);
      await real.check(fixture);
      // Removed from mcp.json: no process of it (npx, node, a browser) outlives it.
      processes.push(...descendants(info.pid!));
      if (real.browser) assert.ok(processes.some((pid) => executable(pid) === CHROMIUM_BINARY), `${CHROMIUM_BINARY} among its processes`);
      await config.restore();
      await waitFor(noneOfOurs, `${real.name} removed`);
      await waitFor(() => processes.every((pid) => !alive(pid)), `every process of ${real.name} ended`, 15_000).catch(() => {
        throw new Error(`${real.name} left processes running: ${processes.filter(alive).map((pid) => `${pid} ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 120)}`).join('; ')}`);
      });
    });
  }
});
