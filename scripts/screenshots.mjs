#!/usr/bin/env node
// npm run screenshots: the README's pictures (media/screenshot-*.png), taken by the real-demo check
// (test/demo/npmRunDemo.test.ts): `npm run demo` started as a user starts it (the packaged .vsix files, no test
// payload), its address opened in Chromium, and the Quick start done by clicks and key presses (trust, the MCP view, a
// tool called from it, the demo model asked in chat). The same run checks every step, so a picture is only kept from a
// Quick start that worked.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot, say } from './code-server-launcher.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const media = path.join(repoRoot, 'media');
const run = spawnSync(npm, ['run', 'test:demo'], {
  cwd: repoRoot,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, MCPHOST_TEST_SCREENSHOT_DIR: media },
});
say(run.status === 0 ? `screenshots written to ${media}` : `screenshots failed (exit ${run.status})`);
process.exit(run.status ?? 1);
