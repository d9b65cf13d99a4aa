#!/usr/bin/env node
// Benchmark of the Resources view in a real VS Code (code-server): expanding a server with 10,000 resources until its
// first page is shown, and the memory held afterwards; opening a 10 MB text resource and a 10 MB blob in an editor,
// against the same resources/read by a bare SDK client in the same run. See scripts/bench-resources.exthost.cjs.
// Usage: node scripts/bench-resources.mjs [runs=3]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './code-server-launcher.mjs';

const runs = Number(process.argv[2] ?? 3);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
execFileSync(npm, ['run', 'build:production'], { cwd: repoRoot, stdio: 'ignore' });

const fixture = (name) => path.join(repoRoot, 'test', 'fixtures', 'servers', name);
const servers = {
  paging: { command: process.execPath, args: [fixture('paging-server.mjs')], env: { FIXTURE_RESOURCE_COUNT: '10000', FIXTURE_PAGE_SIZE: '100' } },
  big: { command: process.execPath, args: [fixture('resources-server.mjs')], env: { FIXTURE_BIG_BYTES: String(10 * 1024 * 1024) } },
};

const results = [];
for (let i = 0; i < runs; i++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-bench-resources-'));
  try {
    const workspace = path.join(dir, 'workspace');
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers }, null, 2));
    const out = path.join(dir, 'result.json');
    const r = spawnSync(
      process.execPath,
      [
        path.join(repoRoot, 'scripts', 'code-server-launcher.mjs'),
        `--extensionDevelopmentPath=${repoRoot}`,
        `--extensionTestsPath=${path.join(repoRoot, 'scripts', 'bench-resources.exthost.cjs')}`,
        workspace,
      ],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, MCPHOST_TEST_BENCH_OUT: out, MCPHOST_TEST_USER_SETTINGS: JSON.stringify({ 'mcpHost.trustAllServers': true }) },
      },
    );
    const result = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, 'utf8')) : { error: 'no result written' };
    if (r.status !== 0 || result.error) throw new Error(`bench run ${i + 1} failed (exit ${r.status}): ${result.error}`);
    results.push(result);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const median = (pick) => results.map(pick).sort((a, b) => a - b)[Math.floor(results.length / 2)];
console.log(
  JSON.stringify(
    {
      runs: results,
      median: {
        expandToFirstPageShownMs: median((r) => r.expand.expandToFirstPageShownMs),
        extensionHostHeapDeltaKB: median((r) => r.expand.extensionHostHeapDeltaKB),
        loadedResourcesHeapKB: median((r) => r.expand.loadedResourcesHeapKB),
        eagerFullListHeapKB: median((r) => r.expand.eager.fullListHeapKB),
        text10MB: { editorMs: median((r) => r.read10MB.text.medianEditorMs), bareSdkMs: median((r) => r.read10MB.text.medianBareSdkMs), ratio: median((r) => r.read10MB.text.ratio) },
        blob10MB: { editorMs: median((r) => r.read10MB.blob.medianEditorMs), bareSdkMs: median((r) => r.read10MB.blob.medianBareSdkMs), ratio: median((r) => r.read10MB.blob.ratio) },
      },
    },
    null,
    2,
  ),
);
