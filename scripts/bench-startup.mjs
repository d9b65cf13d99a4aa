#!/usr/bin/env node
// Benchmark: bundle size, bundle load time and activate() time in the real extension host, and the time from
// activation to every demo server running. Runs the production bundle against the demo workspace (demo/), with
// per-server trust given in the throw-away profile's user settings so nothing waits for a dialog.
// Usage: node scripts/bench-startup.mjs [runs=3]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './code-server-launcher.mjs';

const runs = Number(process.argv[2] ?? 3);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
execFileSync(npm, ['run', 'build:production'], { cwd: repoRoot, stdio: 'ignore' });
execFileSync(npm, ['run', 'compile'], { cwd: repoRoot, stdio: 'ignore' });
const bundleBytes = fs.statSync(path.join(repoRoot, 'dist', 'extension.js')).size;

const results = [];
for (let i = 0; i < runs; i++) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-bench-')), 'result.json');
  const r = spawnSync(
    process.execPath,
    [
      path.join(repoRoot, 'scripts', 'code-server-launcher.mjs'),
      `--extensionDevelopmentPath=${repoRoot}`,
      `--extensionTestsPath=${path.join(repoRoot, 'out', 'test', 'integration', 'bench', 'index.js')}`,
      path.join(repoRoot, 'demo'),
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        MCPHOST_TEST_BENCH_OUT: out,
        MCPHOST_TEST_USER_SETTINGS: JSON.stringify({ 'mcpHost.trustAllServers': true }),
      },
    },
  );
  if (r.status !== 0 || !fs.existsSync(out)) throw new Error(`bench run ${i + 1} failed (exit ${r.status})`);
  results.push(JSON.parse(fs.readFileSync(out, 'utf8')));
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
}
const median = (k) => results.map((r) => r[k]).sort((a, b) => a - b)[Math.floor(results.length / 2)];
console.log(JSON.stringify({ runs: results, bundleKB: Math.round(bundleBytes / 1024), median: {
  bundleLoadMs: median('bundleLoadMs'),
  activateCallMs: median('activateCallMs'),
  activationToAllRunningMs: median('activationToAllRunningMs'),
} }, null, 2));
