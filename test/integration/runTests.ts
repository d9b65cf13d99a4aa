// Runs the integration tests (test/integration/*.test.ts) inside a real VS Code extension host.
//
// By default VS Code is code-server driven by headless Chromium, through scripts/code-server-launcher.mjs,
// which behaves like a VS Code executable for runTests. Set VSCODE_EXECUTABLE to a desktop VS Code binary
// to use that instead. Any MCPHOST_TEST_* variable in the environment reaches the tests
// (e.g. MCPHOST_TEST_FILES=smoke, MCPHOST_TEST_GREP=activates). Suites named `*.untrusted.test.ts` run in a second
// pass, with Workspace Trust enabled and the workspace not trusted (Restricted Mode).
//
// The fixture workspaces (test/fixtures/workspace*, test/fixtures/*.code-workspace) are copied to a temp dir
// with {{REPO}} replaced by the repository path, so tests may edit them freely; the run opens the copied
// integration.code-workspace (multi-root, so adding folders does not restart the extension host) or,
// without one, the copied `workspace` folder.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { selectedTestFiles } from './index';

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
  const passes = [{ untrusted: false }, { untrusted: true }].filter((p) => selectedTestFiles(__dirname, undefined, p.untrusted).length);
  let exitCode = passes.length ? 0 : 1;
  if (!passes.length) console.error(`No integration test matches MCPHOST_TEST_FILES=${process.env.MCPHOST_TEST_FILES}`);
  for (const pass of passes) {
    if (pass.untrusted) console.log('\nRestricted Mode pass: Workspace Trust enabled, the workspace not trusted');
    const code = await runPass(repoRoot, vscodeExecutablePath, pass.untrusted);
    if (code !== 0) exitCode = code;
  }
  return exitCode;
}

async function runPass(repoRoot: string, vscodeExecutablePath: string, untrusted: boolean): Promise<number> {
  const workspaces = prepareWorkspaces(repoRoot);
  const extensionTestsEnv: Record<string, string> = {
    MCPHOST_TEST_REPO_ROOT: repoRoot,
    MCPHOST_TEST_WORKSPACE: workspaces.workspace,
  };
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('MCPHOST_TEST_') && value !== undefined) {
      extensionTestsEnv[key] = value;
    }
  }
  // The launcher reads it to enable Workspace Trust; the test index to pick the suites.
  extensionTestsEnv.MCPHOST_TEST_WORKSPACE_TRUST = untrusted ? '1' : '0';
  try {
    // Every extension path is passed as an --extensionDevelopmentPath flag; the launcher folds them into one. Beside
    // MCP Host: the test-only fake model (with a participant that is not ours) and the demo model of `npm run demo`.
    return await runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath: [repoRoot, path.join(repoRoot, 'test', 'fixtures', 'fake-lm-extension'), path.join(repoRoot, 'demo', 'model')],
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
