#!/usr/bin/env node
// npm run test:package: checks the packaged extension the way users get it.
//   1. `npm run package` -> mcp-host.vsix (--no-package reuses an existing one, --vsix=FILE checks another)
//   2. `npm run compile` -> out/test/integration/packaged/index.js
//   3. installs the .vsix with code-server's --install-extension into a throw-away extensions dir
//   4. runs scripts/code-server-launcher.mjs with that extensions dir and the tiny packaged suite, which asserts
//      that mcp-host.mcp-host comes from the extensions dir (not a development path), activates, and runs the
//      workspace's one server (so the host bundle, dist/host.js, loads from the package too).
//      The test-only fake LM extension is the one development path the launcher needs.
// Exit code: 0 when the packaged extension passed, non-zero otherwise.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureTools, makeSandbox, removeTree, repoRoot, runCommand, say } from './code-server-launcher.mjs';

const vsixArg = process.argv.find((a) => a.startsWith('--vsix='));
const vsix = vsixArg ? path.resolve(vsixArg.slice('--vsix='.length)) : path.join(repoRoot, 'mcp-host.vsix');

function exitCodeOf(cmd, args, options) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: repoRoot, stdio: 'inherit', ...options });
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function main() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  if (!vsixArg && (!process.argv.includes('--no-package') || !fs.existsSync(vsix))) {
    await runCommand(npm, ['run', 'package']);
  }
  await runCommand(npm, ['run', 'compile']);
  const tools = await ensureTools();

  const sandbox = makeSandbox('mcphost-vsix-');
  let code = 1;
  try {
    say(`installing ${path.basename(vsix)} into ${sandbox.extensionsDir}`);
    await runCommand(
      tools.node,
      [tools.entry, '--user-data-dir', sandbox.userDataDir, '--extensions-dir', sandbox.extensionsDir,
        '--install-extension', vsix],
      { env: sandbox.env },
    );
    // One fixture server: starting it loads the host bundle, the half of the extension activation does not load.
    const workspace = path.join(sandbox.root, 'workspace');
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    const server = { command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'basic-server.mjs')] };
    fs.writeFileSync(path.join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { packaged: server } }, null, 2));
    const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    code = await exitCodeOf(
      process.execPath,
      [
        path.join(repoRoot, 'scripts', 'code-server-launcher.mjs'),
        workspace,
        `--extensionDevelopmentPath=${path.join(repoRoot, 'test', 'fixtures', 'fake-lm-extension')}`,
        `--extensionTestsPath=${path.join(repoRoot, 'out', 'test', 'integration', 'packaged', 'index.js')}`,
      ],
      {
        env: {
          ...process.env,
          CS_NODE: tools.node,
          CS_ENTRY: tools.entry,
          MCPHOST_TEST_EXTENSIONS_DIR: sandbox.extensionsDir,
          MCPHOST_TEST_REPO_ROOT: repoRoot,
          MCPHOST_TEST_EXPECTED_VERSION: version,
          MCPHOST_TEST_USER_SETTINGS: JSON.stringify({ 'mcpHost.trustAllServers': true }),
        },
      },
    );
  } finally {
    removeTree(sandbox.root);
  }
  say(code === 0 ? 'packaged extension OK' : `packaged extension check FAILED (exit code ${code})`);
  process.exit(code);
}

main().catch((e) => {
  say(`check-vsix failed: ${e.message}`);
  process.exit(1);
});
