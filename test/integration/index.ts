// Mocha entry point loaded by the VS Code extension host (the runTests `extensionTestsPath`).
//
// Runs every `*.test.js` next to this file (bdd UI: describe/it), or in the Restricted Mode pass every
// `*.untrusted.test.js`. Optional filters, passed through the launcher's environment: MCPHOST_TEST_FILES (comma list
// of file names, `.test.js` may be left out) and
// MCPHOST_TEST_GREP (mocha --grep). console.log cannot be reassigned in the extension host, so mocha's
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
 * The suites of this run. Suites named `*.untrusted.test.js` need Workspace Trust enabled and the workspace not
 * trusted (Restricted Mode): they run in a pass of their own (runTests.ts), with MCPHOST_TEST_WORKSPACE_TRUST=1, and
 * only there.
 */
export function selectedTestFiles(dir: string, wantedList = process.env.MCPHOST_TEST_FILES ?? '', untrustedPass = process.env.MCPHOST_TEST_WORKSPACE_TRUST === '1'): string[] {
  const wanted = wantedList
    .split(',')
    .map((s) => s.trim().replace(/(\.untrusted)?(\.test)?(\.js)?$/, ''))
    .filter(Boolean);
  const all = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.js') && f.endsWith('.untrusted.test.js') === untrustedPass)
    .sort();
  return wanted.length ? all.filter((f) => wanted.includes(f.replace(/(\.untrusted)?\.test\.js$/, ''))) : all;
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
