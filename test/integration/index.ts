// Mocha entry point loaded by the VS Code extension host (the runTests `extensionTestsPath`).
//
// Runs the `*.test.js` next to this file (bdd UI: describe/it) of this run's pass (see selectedTestFiles). Optional
// filters, passed through the launcher's environment: MCPHOST_TEST_FILES (comma list of file names, `.test.js` may be
// left out) and MCPHOST_TEST_GREP (mocha --grep). console.log cannot be reassigned in the extension host, so mocha's
// reporter output is appended to MCPHOST_TEST_OUTPUT_FILE, which scripts/code-server-launcher.mjs streams
// to its stdout. The last line is always `N passed, M failed`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';

/** Writes a line to the test output (the launcher's stdout) and to the extension host's console. */
export function testLog(...args: unknown[]): void {
  const line = format(...args);
  const out = process.env.MCPHOST_TEST_OUTPUT_FILE;
  if (out) {
    fs.appendFileSync(out, line + '\n');
  }
  console.log(line);
}

export function createMocha(options: Mocha.MochaOptions = {}): Mocha {
  Mocha.reporters.Base.consoleLog = testLog;
  return new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    color: false,
    timeout: 60_000,
    grep: process.env.MCPHOST_TEST_GREP || undefined,
    ...options,
  });
}

/** Runs the suites added to `mocha`, prints `N passed, M failed`, rejects when anything failed. */
export function runMocha(mocha: Mocha): Promise<void> {
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        testLog(`${runner.stats?.passes ?? 0} passed, ${failures} failed`);
        if (failures > 0) {
          reject(new Error(`${failures} test(s) failed.`));
        } else {
          resolve();
        }
      });
    } catch (err) {
      testLog(err instanceof Error ? (err.stack ?? err.message) : String(err));
      testLog('0 passed, 1 failed');
      reject(err);
    }
  });
}

/**
 * The three passes of the integration run (runTests.ts), each its own VS Code:
 * - `main`: every `*.test.js` not named below, in the fixture workspaces, Workspace Trust off (trusted);
 * - `untrusted`: `*.untrusted.test.js`, Workspace Trust on and the workspace not trusted (Restricted Mode);
 * - `demo`: `*.demo.test.js`, the demo of `npm run demo` as a newcomer opens it (a copy of demo/, the demo model only,
 *   Workspace Trust on and asked at start).
 */
export type TestPass = 'main' | 'untrusted' | 'demo';
export const TEST_PASSES: readonly TestPass[] = ['main', 'untrusted', 'demo'];

/**
 * Suites run before the others of their pass. VS Code ticks a walkthrough step on its event once per window (a step
 * reset by `resetGettingStartedProgress` does not tick again in the same window): the walkthrough's suite must see its
 * steps' events before other suites call tools and run prompts.
 */
const RUN_FIRST = ['walkthrough.test.js'];

const passOfFile = (file: string): TestPass => (file.endsWith('.untrusted.test.js') ? 'untrusted' : file.endsWith('.demo.test.js') ? 'demo' : 'main');

/** The suites of `pass` (this run's MCPHOST_TEST_PASS), filtered by MCPHOST_TEST_FILES. */
export function selectedTestFiles(dir: string, wantedList = process.env.MCPHOST_TEST_FILES ?? '', pass = (process.env.MCPHOST_TEST_PASS ?? 'main') as TestPass): string[] {
  const wanted = wantedList
    .split(',')
    .map((s) => s.trim().replace(/(\.untrusted|\.demo)?(\.test)?(\.js)?$/, ''))
    .filter(Boolean);
  const all = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.js') && passOfFile(f) === pass)
    .sort((a, b) => Number(RUN_FIRST.includes(b)) - Number(RUN_FIRST.includes(a)) || a.localeCompare(b));
  return wanted.length ? all.filter((f) => wanted.includes(f.replace(/(\.untrusted|\.demo)?\.test\.js$/, ''))) : all;
}

export function run(): Promise<void> {
  const files = selectedTestFiles(__dirname);
  if (!files.length) {
    testLog(`no test files selected in ${__dirname} (MCPHOST_TEST_FILES=${process.env.MCPHOST_TEST_FILES ?? ''})`);
    testLog('0 passed, 1 failed');
    return Promise.reject(new Error('no test files'));
  }
  const mocha = createMocha();
  for (const f of files) {
    mocha.addFile(path.join(__dirname, f));
  }
  return runMocha(mocha);
}
