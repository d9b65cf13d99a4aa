// The packaged .vsix as a Marketplace user gets it: installed into a fresh code-server profile (VS Code's own defaults:
// Workspace Trust on, its built-in MCP support on, no demo model, no test extension, no smoke-test driver), then a
// folder with a .vscode/mcp.json opened in Debian's Chromium and used by clicks, reading only what the page shows.
// scripts/check-vsix.mjs (npm run test:package) runs it after its suite inside the extension host, with the .vsix it
// checked in MCPHOST_VSIX.
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { serversViewRows } from '../integration/pageRequests';
import { callGetSumFromTheView, click, clickDialogButton, dialogSaying, seen, SERVERS_ROW } from '../integration/quickStartSteps';
import { everythingServer, repoRoot } from '../unit/helpers';
import { loadLauncher, openInChromium, type Launcher } from './browserPage';

describe('the packaged .vsix, installed as from the Marketplace, on a folder with .vscode/mcp.json', function () {
  this.timeout(180_000);
  let launcher: Launcher;
  let sandbox: ReturnType<Launcher['makeSandbox']> | undefined;
  let server: Awaited<ReturnType<Launcher['startCodeServer']>> | undefined;
  let browser: { close(): Promise<void> } | undefined;

  before(async function () {
    this.timeout(20 * 60_000); // The first run installs code-server and Node 24 into .cache/.
    const vsix = path.resolve(process.env.MCPHOST_VSIX ?? path.join(repoRoot, 'mcp-host.vsix'));
    assert.ok(fs.existsSync(vsix), `${vsix} (npm run package makes it)`);
    launcher = await loadLauncher();
    const tools = await launcher.ensureTools();
    sandbox = launcher.makeSandbox('mcphost-marketplace-');
    await launcher.runCommand(tools.node, [tools.entry, '--user-data-dir', sandbox.userDataDir, '--extensions-dir', sandbox.extensionsDir, '--install-extension', vsix], {
      env: sandbox.env,
      stdio: 'ignore',
    });
    // A project of the user's: one server, as they would write it (server-everything from this repository, offline).
    const folder = path.join(sandbox.root, 'project');
    fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(folder, '.vscode', 'mcp.json'), JSON.stringify({ servers: { everything: { command: 'node', args: [everythingServer, 'stdio'] } } }, null, 2));
    server = await launcher.startCodeServer({ tools, sandbox, port: await launcher.freePort(), trust: true, logFile: path.join(sandbox.root, 'code-server.log') });
    browser = await openInChromium(launcher, `${server.url}/?folder=${encodeURIComponent(folder).replace(/%2F/g, '/')}`, server.child.pid!);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (sandbox) launcher.removeTree(sandbox.root);
  });

  it('opens in Restricted Mode, and the MCP view says why nothing runs, with the way out', async () => {
    await click('.activitybar .action-item [aria-label^="MCP"]');
    const rows = await seen(async () => {
      const shown = await serversViewRows();
      return shown.some((r) => /^Restricted Mode: /.test(r)) && shown;
    }, 'the Restricted Mode row', 60_000);
    assert.ok(rows.some((r) => /^everything restricted mode/.test(r)), rows.join('\n'));
  });

  it('trusts the folder from that row, then asks about the server, showing what it runs; the user trusts it', async () => {
    await click(`${SERVERS_ROW}:has-text("Restricted Mode")`);
    await click('.workspace-trust-editor .monaco-button:has-text("Trust")');
    const question = await dialogSaying(/MCP server "everything"/);
    assert.match(question, /server-everything\/dist\/index\.js stdio/, question);
    await clickDialogButton('Trust');
    await click('.monaco-modal-editor-block .codicon-close'); // the Workspace Trust editor, done with
  });

  it('runs the server, and a click on a tool calls it', async () => {
    await seen(async () => (await serversViewRows()).some((r) => /^everything running · (\d+ tools?|≈?[\d.]+k? tokens)/.test(r)), 'everything running', 60_000);
    await callGetSumFromTheView();
  });
});
