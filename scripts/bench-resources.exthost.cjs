// Extension-host side of scripts/bench-resources.mjs (loaded as the tests entry of a real VS Code). Measures:
// - expanding a server with 10,000 resources in the Resources view until VS Code has fetched and shown its first page,
//   and the extension host's heap held afterwards, against holding the whole list as an eager client would;
// - opening a 10 MB text resource and a 10 MB blob in an editor, against the same resources/read by a bare SDK client
//   in the same extension host.
// Writes the figures as JSON to MCPHOST_TEST_BENCH_OUT.
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');
const vscode = require('vscode');

const repoRoot = path.resolve(__dirname, '..');
const { Client } = require(path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'client'));
const { StdioClientTransport } = require(path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'client', 'dist', 'stdio.cjs'));
// The same message cap as the extension's connections (the SDK's 10 MB default cannot carry a 10 MB resource).
const MAX_STDIO_MESSAGE_BYTES = 64 * 1024 * 1024;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (n) => Math.round(n * 10) / 10;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** What the run was doing, for the error report. */
let step = 'starting';
const stderrOf = new Map();

async function waitFor(check, what, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

function heapUsed() {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** The heap a fresh copy of `value` takes (one-time allocations of the code that produced it do not count). */
let held;
function retainedBytes(value) {
  const before = heapUsed();
  held = structuredClone(value);
  const after = heapUsed();
  held = undefined;
  return after - before;
}

async function bareClient(server) {
  const client = new Client({ name: 'bench-bare', version: '0' }, { listMaxPages: 0 });
  const def = server.definition;
  const transport = new StdioClientTransport({ command: def.command, args: def.args, env: { ...process.env, ...def.env }, stderr: 'pipe', maxBufferSize: MAX_STDIO_MESSAGE_BYTES });
  let stderr = '';
  transport.stderr?.on('data', (d) => {
    stderr += d;
    stderrOf.set(server.name, stderr.slice(-2000));
  });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`${def.command} ${def.args.join(' ')}: ${e.message}\n${stderr}`);
  }
  return client;
}

function activeDocumentUri() {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined;
}

/** Closes every editor and waits until VS Code has let go of the document, so the next open reads it again. */
async function closeAll(uri) {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  if (uri) await waitFor(() => !vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()), 'document released', 20_000).catch(() => undefined);
}

async function measure() {
  const ext = vscode.extensions.getExtension('mcp-host.mcp-host');
  const api = await ext.activate();
  const testing = api.testing;
  const server = (name) => api.getServers().find((s) => s.name === name);
  const paging = await waitFor(() => server('paging')?.state.kind === 'running' && server('paging'), 'paging running');
  const big = await waitFor(() => server('big')?.state.kind === 'running' && server('big'), 'big running');
  await vscode.commands.executeCommand('mcpHost.resources.focus');
  await waitFor(() => testing.resources.renderTree().some((l) => l.startsWith('paging — ')), 'the view shows the server');
  await sleep(500);

  // 1. Expanding the 10,000-resource server.
  step = 'expanding';
  const heapBefore = heapUsed();
  const t0 = performance.now();
  await testing.resources.expandServer(paging.id);
  const expandMs = performance.now() - t0;
  const heapAfter = heapUsed();
  const loaded = server('paging').features.resources.length;
  const listRequests = (await testing.callTool(paging.id, 'count-list-requests', {})).content[0].text;

  // What an eager client would hold: every page, aggregated by the SDK.
  step = 'listing eagerly';
  const eager = await bareClient(paging);
  const e0 = performance.now();
  const all = (await eager.listResources(undefined, { cacheMode: 'bypass' })).resources;
  const eagerListMs = performance.now() - e0;
  const eagerCount = all.length;
  const fullListBytes = retainedBytes(all);
  const loadedBytes = retainedBytes(server('paging').features.resources);
  await eager.close();

  // 2. Opening 10 MB resources in an editor vs a bare SDK read.
  step = 'reading';
  const bare = await bareClient(big);
  const reads = {};
  for (const [kind, uri] of [
    ['text', 'fixture://big/text'],
    ['blob', 'fixture://big/blob'],
  ]) {
    step = `reading ${uri}`;
    await bare.readResource({ uri }); // warm-up: the fixture builds its 10 MB once
    const editor = [];
    const sdk = [];
    for (let i = 0; i < 5; i++) {
      const s0 = performance.now();
      const result = await bare.readResource({ uri });
      sdk.push(performance.now() - s0);
      if (kind === 'text' && result.contents[0].text.length !== 10 * 1024 * 1024) throw new Error('bare read: wrong size');

      const o0 = performance.now();
      const docUri = await vscode.commands.executeCommand('mcpHost.openResource', big.id, uri);
      const doc = await waitFor(() => activeDocumentUri()?.toString() === docUri?.toString() && vscode.workspace.textDocuments.find((d) => d.uri.toString() === docUri.toString()), `${uri} open`);
      editor.push(performance.now() - o0);
      if (kind === 'text' && doc.getText().length !== 10 * 1024 * 1024) throw new Error(`editor: wrong size ${doc.getText().length}`);
      if (kind === 'blob' && !/^Binary content \(application\/octet-stream\), 10,485,760 bytes\./.test(doc.getText())) throw new Error('editor: no binary notice');
      await closeAll(docUri);
    }
    reads[kind] = {
      editorMs: editor.map(round),
      bareSdkMs: sdk.map(round),
      medianEditorMs: round(median(editor)),
      medianBareSdkMs: round(median(sdk)),
      ratio: round(median(editor) / median(sdk)),
    };
  }
  await bare.close();

  const results = {
    vscode: vscode.version,
    node: process.version,
    expand: {
      resourcesOnServer: eagerCount,
      loadedAfterExpand: loaded,
      resourcesListRequests: Number(listRequests),
      expandToFirstPageShownMs: round(expandMs),
      extensionHostHeapDeltaKB: Math.round((heapAfter - heapBefore) / 1024),
      loadedResourcesHeapKB: round(loadedBytes / 1024),
      eager: { listAllMs: round(eagerListMs), fullListHeapKB: round(fullListBytes / 1024) },
    },
    read10MB: reads,
  };
  return results;
}

exports.run = async function run() {
  const out = process.env.MCPHOST_TEST_BENCH_OUT;
  try {
    fs.writeFileSync(out, JSON.stringify(await measure(), null, 2));
  } catch (e) {
    // The launcher shows no extension-host output: the driver prints this instead.
    const stderr = [...stderrOf].map(([name, text]) => `${name}: ${text}`).join('\n');
    fs.writeFileSync(out, JSON.stringify({ error: `while ${step}: ${e instanceof Error ? e.stack : String(e)}\n${stderr}` }));
    throw e;
  }
};
