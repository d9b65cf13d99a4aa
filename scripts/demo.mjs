#!/usr/bin/env node
// npm run demo: try MCP Host in a real VS Code (code-server) in your browser.
//   builds and packages the extension (mcp-host.vsix; --no-package reuses it, --vsix=FILE uses another), installs it into
//   a throw-away extensions dir, starts code-server on 127.0.0.1 (PORT env or a free port) with the demo/
//   workspace and workspace trust ENABLED (you see the real trust flow), prints the URL and runs until Ctrl-C.
// Environment: PORT, MCPHOST_DEMO_VERBOSE=1 (echo code-server's log).
import fs from 'node:fs';
import path from 'node:path';
import {
  ensureTools, freePort, makeSandbox, removeTree, repoRoot, runCommand, say, startCodeServer,
} from './code-server-launcher.mjs';

const vsixArg = process.argv.find((a) => a.startsWith('--vsix='));
const vsix = vsixArg ? path.resolve(vsixArg.slice('--vsix='.length)) : path.join(repoRoot, 'mcp-host.vsix');
const demoDir = path.join(repoRoot, 'demo');

async function main() {
  const port = process.env.PORT ? Number(process.env.PORT) : await freePort();
  if (!Number.isInteger(port) || port <= 0) throw new Error(`bad PORT: ${process.env.PORT}`);
  if (!vsixArg && (!process.argv.includes('--no-package') || !fs.existsSync(vsix))) {
    await runCommand(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'package']);
  }
  const tools = await ensureTools();

  const sandbox = makeSandbox('mcphost-demo-', { 'security.workspace.trust.enabled': true });
  const serverLog = path.join(sandbox.root, 'code-server.log');
  let server;
  let stopping = false;
  const stop = async (code, why) => {
    if (stopping) return;
    stopping = true;
    if (why) say(why);
    await server?.stop();
    if (code !== 0 && fs.existsSync(serverLog)) {
      process.stderr.write(fs.readFileSync(serverLog, 'utf8').split('\n').slice(-30).join('\n') + '\n');
    }
    removeTree(sandbox.root);
    process.exit(code);
  };
  process.on('SIGINT', () => stop(0, 'stopping the demo'));
  process.on('SIGTERM', () => stop(0, 'stopping the demo'));
  process.on('SIGHUP', () => stop(0));

  try {
    say(`installing ${path.basename(vsix)}`);
    await runCommand(
      tools.node,
      [tools.entry, '--user-data-dir', sandbox.userDataDir, '--extensions-dir', sandbox.extensionsDir,
        '--install-extension', vsix],
      { env: sandbox.env },
    );
    server = await startCodeServer({
      tools,
      sandbox,
      port,
      trust: true,
      logFile: serverLog,
      echo: process.env.MCPHOST_DEMO_VERBOSE === '1',
      extraArgs: [demoDir],
    });
  } catch (e) {
    return stop(1, `demo failed: ${e.message}`);
  }
  server.child.on('exit', (c, s) => stop(1, `code-server exited (${c ?? s})`));
  const url = `${server.url}/?folder=${encodeURIComponent(demoDir).replace(/%2F/g, '/')}`;
  process.stdout.write(
    `\nMCP Host demo is running (VS Code in your browser, workspace trust enabled):\n\n    ${url}\n\n` +
      'Open it, trust the demo folder when asked, then use the MCP Host view and commands.\n' +
      'Press Ctrl-C to stop.\n',
  );
}

main().catch((e) => {
  say(`demo failed: ${e.message}`);
  process.exit(1);
});
