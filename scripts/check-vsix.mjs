#!/usr/bin/env node
// npm run test:package: checks the packaged extension the way users get it.
//   1. `npm run package` -> mcp-host.vsix (--no-package reuses an existing one, --vsix=FILE checks another), whose
//      files must be the bundle, media and the package's documents only: no demo, test, source or compiled test code
//   2. `npm run compile` -> out/test/integration/packaged/index.js
//   3. installs the .vsix with code-server's --install-extension into a throw-away extensions dir
//   4. runs scripts/code-server-launcher.mjs with that extensions dir and the tiny packaged suite, which asserts
//      that mcp-host.mcp-host comes from the extensions dir (not a development path), activates, and runs the
//      workspace's one server (so the host bundle, dist/host.js, loads from the package too).
//      The test-only fake LM extension is the one development path the launcher needs.
//   5. as a Marketplace user gets it: test/demo/marketplaceInstall.test.ts installs the same .vsix into a fresh
//      code-server profile (VS Code's defaults, no test payload, no smoke-test driver, no other extension), opens a
//      folder with a .vscode/mcp.json in Chromium and uses it by clicks: Restricted Mode, trust, the server's trust
//      question, a tool called from the MCP view.
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

/** The file names in a zip archive (a .vsix), read from its central directory. */
function zipEntries(file) {
  const buf = fs.readFileSync(file);
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${file} is not a zip archive`);
  const count = buf.readUInt16LE(end + 10);
  let offset = buf.readUInt32LE(end + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(offset) !== 0x02014b50) throw new Error(`${file}: bad central directory entry`);
    const nameLength = buf.readUInt16LE(offset + 28);
    const extraLength = buf.readUInt16LE(offset + 30);
    const commentLength = buf.readUInt16LE(offset + 32);
    names.push(buf.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** What a user's .vsix may hold: the manifest, the bundles (activation, launch, host, gateway, the app view's webview script), media, and the package's own documents. */
const SHIPPED = /^(extension\.vsixmanifest|\[Content_Types\]\.xml|extension\/(package\.json|readme\.md|changelog\.md|LICENSE(\.txt)?|dist\/(extension|launch|host|gateway|webview\/appFrame)\.js|dist\/sandbox-runtime\/(launcher\.mjs|vendor\/seccomp\/(x64|arm64)\/apply-seccomp)|media\/.+))$/i;

async function main() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  if (!vsixArg && (!process.argv.includes('--no-package') || !fs.existsSync(vsix))) {
    await runCommand(npm, ['run', 'package']);
  }
  const entries = zipEntries(vsix);
  // Each bundle loads on demand (the gateway only when turned on): one left out fails only then, at a user's.
  const missing = ['extension', 'launch', 'host', 'gateway', 'webview/appFrame'].map((b) => `extension/dist/${b}.js`).filter((f) => !entries.includes(f));
  if (missing.length) {
    say(`the .vsix lacks bundles users need:\n  ${missing.join('\n  ')}`);
    process.exit(1);
  }
  const unexpected = entries.filter((name) => !SHIPPED.test(name));
  if (unexpected.length) {
    say(`the .vsix holds files users must not get (demo, tests, sources?):\n  ${unexpected.join('\n  ')}`);
    process.exit(1);
  }
  say(`${path.basename(vsix)}: only the bundle, media and documents`);
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
    // One fixture server: starting it loads the host bundle, the half of the extension activation does not load. It
    // runs confined, on Linux: the sandbox runtime the package holds (dist/sandbox-runtime) runs it.
    const workspace = path.join(sandbox.root, 'workspace');
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    const server = { command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'basic-server.mjs')], ...(process.platform === 'linux' ? { sandboxEnabled: true } : {}) };
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
  if (code === 0) {
    say('as from the Marketplace: a fresh profile, a folder with .vscode/mcp.json, in the browser');
    code = await exitCodeOf(
      process.execPath,
      [path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--bail', '--timeout', '180000', '--reporter', 'spec', path.join(repoRoot, 'out', 'test', 'demo', 'marketplaceInstall.test.js')],
      { env: { ...process.env, CS_NODE: tools.node, CS_ENTRY: tools.entry, MCPHOST_VSIX: vsix } },
    );
  }
  say(code === 0 ? 'packaged extension OK' : `packaged extension check FAILED (exit code ${code})`);
  process.exit(code);
}

main().catch((e) => {
  say(`check-vsix failed: ${e.message}`);
  process.exit(1);
});
