// Extension-host side of scripts/bench-startup.mjs: measures activation and the time until every demo server runs,
// and the cost of loading the bundle, then writes the figures as JSON to MCPHOST_TEST_BENCH_OUT.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpHostApi } from '../../../src/vscode/publicApi';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension('mcp-host.mcp-host');
  if (!ext) throw new Error('extension not found');
  const api = (await ext.activate()) as McpHostApi;
  const timings = api.testing!.startupTimings;
  const deadline = Date.now() + 60_000;
  while (!timings.allRunningAt && Date.now() < deadline) await sleep(20);
  if (!timings.allRunningAt) throw new Error(`servers not all running: ${JSON.stringify(api.getServers().map((s) => s.state))}`);

  // Loading the bundle again from a copy, in this same extension host, shows what code loading costs on activation.
  const bundle = path.join(ext.extensionPath, 'dist', 'extension.js');
  const copy = path.join(ext.extensionPath, 'dist', `bench-load-${process.pid}.js`);
  fs.copyFileSync(bundle, copy);
  let loadMs: number;
  try {
    const t0 = performance.now();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- timing a synchronous load of the bundle is the point
    require(copy);
    loadMs = performance.now() - t0;
  } finally {
    fs.rmSync(copy, { force: true });
  }
  const results = {
    vscode: vscode.version,
    node: process.version,
    servers: api.getServers().map((s) => ({ name: s.name, tools: s.features.tools.length, protocol: s.protocolVersion })),
    bundleLoadMs: Math.round(loadMs * 10) / 10,
    activateCallMs: timings.activateMs,
    activationToAllRunningMs: timings.allRunningAt - timings.activateStartedAt,
  };
  fs.writeFileSync(process.env.MCPHOST_TEST_BENCH_OUT!, JSON.stringify(results, null, 2));
}
