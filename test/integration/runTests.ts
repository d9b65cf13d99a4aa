// Runs the integration tests (test/integration/*.test.ts) inside a real VS Code extension host.
//
// By default VS Code is code-server driven by headless Chromium, through scripts/code-server-launcher.mjs,
// which behaves like a VS Code executable for runTests. Set VSCODE_EXECUTABLE to a desktop VS Code binary
// to use that instead. Any MCPHOST_TEST_* variable in the environment reaches the tests
// (e.g. MCPHOST_TEST_FILES=smoke, MCPHOST_TEST_GREP=activates). Suites named `*.untrusted.test.ts` run in a second
// pass, with Workspace Trust enabled and the workspace not trusted (Restricted Mode); suites named `*.demo.test.ts` in a
// third, the demo of `npm run demo` as a newcomer opens it (index.ts: TestPass).
//
// The fixture workspaces (test/fixtures/workspace*, test/fixtures/*.code-workspace) are copied to a temp dir
// with {{REPO}} replaced by the repository path, so tests may edit them freely; the run opens the copied
// integration.code-workspace (multi-root, so adding folders does not restart the extension host) or,
// without one, the copied `workspace` folder.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { selectedTestFiles, TEST_PASSES, type TestPass } from './index';

const JSON_FILE = /\.(json|jsonc|code-workspace)$/;

/** Copies src to dest, replacing {{REPO}} in text files (JSON-escaped in JSON files). */
function copyFixture(src: string, dest: string, repoRoot: string): void {
  const stat = fs.statSync(src);
  if (stat.isDirectory()) {
    fs.mkdirSync(dest, { recursive: true });
    for (const entry of fs.readdirSync(src)) {
      copyFixture(path.join(src, entry), path.join(dest, entry), repoRoot);
    }
    return;
  }
  const content = fs.readFileSync(src);
  const text = content.toString('utf8');
  if (stat.size < 1024 * 1024 && text.includes('{{REPO}}')) {
    const replacement = JSON_FILE.test(src) ? JSON.stringify(repoRoot).slice(1, -1) : repoRoot;
    fs.writeFileSync(dest, text.split('{{REPO}}').join(replacement));
  } else {
    fs.writeFileSync(dest, content);
  }
}

function prepareWorkspaces(repoRoot: string): { root: string; workspace: string; open: string } {
  const fixtures = path.join(repoRoot, 'test', 'fixtures');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-it-workspaces-'));
  for (const entry of fs.readdirSync(fixtures)) {
    if (/^workspace/.test(entry) || entry.endsWith('.code-workspace')) {
      copyFixture(path.join(fixtures, entry), path.join(root, entry), repoRoot);
    }
  }
  const workspace = path.join(root, 'workspace');
  const workspaceFile = path.join(root, 'integration.code-workspace');
  return { root, workspace, open: fs.existsSync(workspaceFile) ? workspaceFile : workspace };
}

async function main(): Promise<number> {
  const repoRoot = path.resolve(__dirname, '..', '..', '..'); // out/test/integration -> repo
  const desktop = process.env.VSCODE_EXECUTABLE;
  const vscodeExecutablePath = desktop || path.join(repoRoot, 'scripts', 'code-server-launcher.mjs');
  const passes = TEST_PASSES.filter((pass) => selectedTestFiles(__dirname, undefined, pass).length);
  let exitCode = passes.length ? 0 : 1;
  if (!passes.length) console.error(`No integration test matches MCPHOST_TEST_FILES=${process.env.MCPHOST_TEST_FILES}`);
  for (const pass of passes) {
    if (pass === 'untrusted') console.log('\nRestricted Mode pass: Workspace Trust enabled, the workspace not trusted');
    if (pass === 'demo') console.log('\nDemo pass: the demo workspace as `npm run demo` opens it, Workspace Trust asked at start');
    const code = await runPass(repoRoot, vscodeExecutablePath, pass);
    if (code !== 0) exitCode = code;
  }
  return exitCode;
}

/**
 * The demo as `npm run demo` opens it, in a throw-away copy the tests may edit: demo/ without its model, beside a link to
 * the repository's node_modules (the demo's mcp.json runs `${workspaceFolder}/../node_modules/…`).
 */
function prepareDemo(repoRoot: string): { root: string; workspace: string; open: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-it-demo-'));
  const workspace = path.join(root, 'demo');
  fs.cpSync(path.join(repoRoot, 'demo'), workspace, { recursive: true, filter: (src) => path.basename(src) !== 'model' });
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return { root, workspace, open: workspace };
}

/** The user settings of `npm run demo` (scripts/demo-settings.json, its "//" comments left out). */
function demoSettings(repoRoot: string): Record<string, unknown> {
  const all = JSON.parse(fs.readFileSync(path.join(repoRoot, 'scripts', 'demo-settings.json'), 'utf8')) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(all).filter(([key]) => !key.startsWith('//')));
}

async function runPass(repoRoot: string, vscodeExecutablePath: string, pass: TestPass): Promise<number> {
  const workspaces = pass === 'demo' ? prepareDemo(repoRoot) : prepareWorkspaces(repoRoot);
  const extensionTestsEnv: Record<string, string> = {
    MCPHOST_TEST_REPO_ROOT: repoRoot,
    MCPHOST_TEST_WORKSPACE: workspaces.workspace,
  };
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('MCPHOST_TEST_') && value !== undefined) {
      extensionTestsEnv[key] = value;
    }
  }
  // The test index picks the suites by the pass; the launcher enables Workspace Trust by MCPHOST_TEST_WORKSPACE_TRUST
  // and merges MCPHOST_TEST_USER_SETTINGS into the profile.
  extensionTestsEnv.MCPHOST_TEST_PASS = pass;
  extensionTestsEnv.MCPHOST_TEST_WORKSPACE_TRUST = pass === 'main' ? '0' : '1';
  if (pass === 'demo') {
    const extra = process.env.MCPHOST_TEST_USER_SETTINGS ? (JSON.parse(process.env.MCPHOST_TEST_USER_SETTINGS) as Record<string, unknown>) : {};
    extensionTestsEnv.MCPHOST_TEST_USER_SETTINGS = JSON.stringify({ ...demoSettings(repoRoot), ...extra });
  } else if (pass === 'main') {
    // The main pass's suites put servers back (a restored mcp.json) and expect them to run, as they did before dormant
    // servers: eager there, but in dormant.test.ts, which switches the setting to the default (onDemand) itself.
    const extra = process.env.MCPHOST_TEST_USER_SETTINGS ? (JSON.parse(process.env.MCPHOST_TEST_USER_SETTINGS) as Record<string, unknown>) : {};
    extensionTestsEnv.MCPHOST_TEST_USER_SETTINGS = JSON.stringify({ 'mcpHost.servers.startup': 'eager', ...extra });
  }
  // Every extension path is passed as an --extensionDevelopmentPath flag; the launcher folds them into one. Beside
  // MCP Host: the demo model of `npm run demo`, and (not in the demo) the test-only fake model with a participant that
  // is not ours.
  const extensions = [repoRoot, ...(pass === 'demo' ? [] : [path.join(repoRoot, 'test', 'fixtures', 'fake-lm-extension')]), path.join(repoRoot, 'demo', 'model')];
  try {
    return await runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath: extensions,
      extensionTestsPath: path.join(__dirname, 'index.js'),
      launchArgs: [workspaces.open],
      extensionTestsEnv,
    });
  } catch (err) {
    console.error(`Integration tests failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    if (process.env.MCPHOST_TEST_KEEP !== '1') {
      fs.rmSync(workspaces.root, { recursive: true, force: true });
    }
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
