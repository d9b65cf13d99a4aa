#!/usr/bin/env node
// npm run demo: try MCP Host in a real VS Code (code-server) in your browser.
//   builds and packages the extension (mcp-host.vsix; --no-package reuses it, --vsix=FILE uses another) and the demo
//   language model of demo/model (a script, not an AI: chat and tool calling work without an account), installs both
//   into a throw-away extensions dir, starts code-server on 127.0.0.1 (PORT env or a free port) with the demo/
//   workspace, workspace trust ENABLED (you see the real trust flow) and VS Code's built-in MCP support off (MCP Host
//   runs the servers alone), prints the URL and runs until Ctrl-C.
// Environment: PORT, MCPHOST_DEMO_VERBOSE=1 (echo code-server's log).
import fs from 'node:fs';
import path from 'node:path';
import {
  ensureTools, freePort, makeSandbox, removeTree, repoRoot, runCommand, say, startCodeServer,
} from './code-server-launcher.mjs';

const vsixArg = process.argv.find((a) => a.startsWith('--vsix='));
const vsix = vsixArg ? path.resolve(vsixArg.slice('--vsix='.length)) : path.join(repoRoot, 'mcp-host.vsix');
const demoDir = path.join(repoRoot, 'demo');
const demoModelDir = path.join(demoDir, 'model');

async function main() {
  const port = process.env.PORT ? Number(process.env.PORT) : await freePort();
  if (!Number.isInteger(port) || port <= 0) throw new Error(`bad PORT: ${process.env.PORT}`);
  if (!vsixArg && (!process.argv.includes('--no-package') || !fs.existsSync(vsix))) {
    await runCommand(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'package']);
  }
  // The demo opens in your own browser: no Chromium needed here.
  process.env.MCPHOST_TOOLS_NO_BROWSER = '1';
  const tools = await ensureTools();

  // The demo's user settings (scripts/demo-settings.json: trust asked at start, the Welcome page, VS Code's MCP support off).
  const settings = Object.fromEntries(Object.entries(JSON.parse(fs.readFileSync(path.join(repoRoot, 'scripts', 'demo-settings.json'), 'utf8'))).filter(([k]) => !k.startsWith('//')));
  const sandbox = makeSandbox('mcphost-demo-', settings);
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
    const demoModelVsix = path.join(sandbox.root, 'mcp-host-demo-model.vsix');
    await runCommand(
      process.execPath,
      [path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--allow-missing-repository',
        '--skip-license', '-o', demoModelVsix],
      { cwd: demoModelDir, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    say(`installing ${path.basename(vsix)} and the demo model`);
    await runCommand(
      tools.node,
      [tools.entry, '--user-data-dir', sandbox.userDataDir, '--extensions-dir', sandbox.extensionsDir,
        '--install-extension', vsix, '--install-extension', demoModelVsix],
      { env: sandbox.env },
    );
    server = await startCodeServer({
      tools,
      sandbox,
      port,
      trust: true,
      logFile: serverLog,
      echo: process.env.MCPHOST_DEMO_VERBOSE === '1',
      // The demo model's agent answers in Agent mode as its default agent, which takes a proposed API.
      extraArgs: ['--enable-proposed-api', 'mcp-host-demo.mcp-host-demo-model', demoDir],
    });
  } catch (e) {
    return stop(1, `demo failed: ${e.message}`);
  }
  server.child.on('exit', (c, s) => stop(1, `code-server exited (${c ?? s})`));
  const url = `${server.url}/?folder=${encodeURIComponent(demoDir).replace(/%2F/g, '/')}`;
  process.stdout.write(
    `\nMCP Host demo is running (VS Code in your browser, workspace trust enabled):\n\n    ${url}\n\n` +
      'Open that address in your browser, trust the demo folder when asked, then open the MCP Host view in the activity bar.\n' +
      'Chat: pick "Demo model — scripted, not an AI" and ask "@mcp what is 2 + 3?" or "@mcp /tools",\n' +
      'or type "what is 2 + 3?" in Agent mode. Only @mcp and Agent mode work in the demo (the other modes need Copilot).\n' +
      'Press Ctrl-C to stop.\n',
  );
}

main().catch((e) => {
  say(`demo failed: ${e.message}`);
  process.exit(1);
});
