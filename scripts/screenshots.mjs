#!/usr/bin/env node
// npm run screenshots: the README's screenshots, taken from the real UI. Runs the extension (and the demo model) in
// code-server on the demo workspace, lets test/integration/screenshots set the scene (servers running, a tool called,
// the demo model asked in chat), and has the launcher's playwright page take the pictures into media/.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot, say } from './code-server-launcher.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
for (const script of ['build', 'compile']) {
  if (spawnSync(npm, ['run', script], { cwd: repoRoot, stdio: 'ignore' }).status !== 0) throw new Error(`npm run ${script} failed`);
}
const media = path.join(repoRoot, 'media');
const run = spawnSync(
  process.execPath,
  [
    path.join(repoRoot, 'scripts', 'code-server-launcher.mjs'),
    `--extensionDevelopmentPath=${repoRoot}`,
    `--extensionDevelopmentPath=${path.join(repoRoot, 'demo', 'model')}`,
    `--extensionTestsPath=${path.join(repoRoot, 'out', 'test', 'integration', 'screenshots', 'index.js')}`,
    path.join(repoRoot, 'demo'),
  ],
  {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      MCPHOST_TEST_SCREENSHOT_DIR: media,
      // As in `npm run demo`: VS Code's own MCP support off, so only MCP Host runs the demo's servers.
      MCPHOST_TEST_USER_SETTINGS: JSON.stringify({ 'chat.mcp.access': 'none', 'workbench.startupEditor': 'none' }),
    },
  },
);
say(run.status === 0 ? `screenshots written to ${media}` : `screenshots failed (exit ${run.status})`);
process.exit(run.status ?? 1);
