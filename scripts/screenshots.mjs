#!/usr/bin/env node
// npm run screenshots: the README's pictures (media/screenshot-*.png), taken from the real UI by the integration
// tests' Quick start (test/integration/quickStart.demo.test.ts): the demo opened as `npm run demo` opens it, and driven
// as a newcomer does it (trust, the MCP view, a tool called from it, the demo model asked in chat). The same run checks
// every step, so a picture is only kept from a Quick start that worked.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot, say } from './code-server-launcher.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
for (const script of ['build', 'compile']) {
  if (spawnSync(npm, ['run', script], { cwd: repoRoot, stdio: 'ignore' }).status !== 0) throw new Error(`npm run ${script} failed`);
}
const media = path.join(repoRoot, 'media');
const run = spawnSync(process.execPath, [path.join(repoRoot, 'out', 'test', 'integration', 'runTests.js')], {
  cwd: repoRoot,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, MCPHOST_TEST_FILES: 'quickStart.demo', MCPHOST_TEST_SCREENSHOT_DIR: media },
});
say(run.status === 0 ? `screenshots written to ${media}` : `screenshots failed (exit ${run.status})`);
process.exit(run.status ?? 1);
