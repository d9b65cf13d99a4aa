// A server that crashes at start is explained by the lines of its output that say why (the error line and its code),
// not by its last line: real processes crash here, as Node and Python print their errors, and the message the user
// reads (the server's error state) is checked.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { explainCrash, meaningfulOutput } from '../../src/core/presentation/crashOutput';
import { createKit, entry, stdio, userScope, waitForState, type Kit } from './hostTestKit';

const node = process.execPath;
const python = ['python3', 'python'].find((p) => {
  try {
    execFileSync(p, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

describe('A crash at start, explained by its error line', function () {
  this.timeout(30_000);
  let dir: string;
  let kit: Kit | undefined;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-crash-'));
    fs.writeFileSync(path.join(dir, 'missing-package.mjs'), "import Database from 'better-sqlite3-not-installed';\nconsole.log(Database);\n");
    // A native module that cannot be loaded (a file that is no shared library), as after a Node upgrade.
    fs.writeFileSync(path.join(dir, 'addon.node'), 'not a shared library\n');
    fs.writeFileSync(path.join(dir, 'native.cjs'), "require('./addon.node');\n");
    // An error with properties: Node prints them after the stack, so the output ends in `}` (and its version).
    fs.writeFileSync(
      path.join(dir, 'error-object.cjs'),
      "const e = new Error('database is locked');\nObject.assign(e, { code: 'SQLITE_BUSY', errno: 5, path: 'data.db' });\nthrow e;\n",
    );
  });

  afterEach(async () => {
    await kit?.manager.disposeAsync();
    kit = undefined;
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The message of the server's error state, as its row and notification show it. */
  async function crashMessage(name: string, command: string, args: string[]): Promise<string> {
    kit = createKit();
    await kit.update(userScope, [entry(name, stdio(command, args))], []);
    const info = await waitForState(kit, name, 'error');
    return info.state.kind === 'error' ? info.state.message : '';
  }

  it('a Node server whose import of a missing package fails: the error line, not "Node.js v…" or "}"', async () => {
    const message = await crashMessage('missing', node, [path.join(dir, 'missing-package.mjs')]);
    assert.match(message, /^The server process exited with exit code 1 before it finished starting\. It printed: Error \[ERR_MODULE_NOT_FOUND\]: Cannot find package 'better-sqlite3-not-installed' imported from .*missing-package\.mjs$/);
  });

  it('a Node server whose native module fails to load: the error line and its code', async () => {
    const message = await crashMessage('native', node, [path.join(dir, 'native.cjs')]);
    assert.match(message, /It printed: Error: .*addon\.node: .+ \(code: 'ERR_DLOPEN_FAILED'\)$/, message);
  });

  it('a Node error printed as an object ending in "}": its message and code', async () => {
    const message = await crashMessage('object', node, [path.join(dir, 'error-object.cjs')]);
    assert.strictEqual(message, "The server process exited with exit code 1 before it finished starting. It printed: Error: database is locked (code: 'SQLITE_BUSY')");
  });

  (python ? it : it.skip)('a Python traceback: its last line, the exception', async () => {
    const message = await crashMessage('python', python!, ['-c', 'import json\nimport mcp_server_not_installed_xyz\n']);
    assert.strictEqual(message, "The server process exited with exit code 1 before it finished starting. It printed: ModuleNotFoundError: No module named 'mcp_server_not_installed_xyz'");
  });

  it('without an error line: the last line that says something, never punctuation or a version footer', () => {
    assert.deepStrictEqual(meaningfulOutput(['missing API key', '}', 'Node.js v20.20.2']), ['missing API key']);
    assert.strictEqual(explainCrash(['}', '   ']), undefined);
    // A code the error line already names is not repeated.
    assert.strictEqual(explainCrash(['Error: listen EADDRINUSE: address already in use :::3000', '    at Server.listen (node:net:1)', "  code: 'EADDRINUSE',", '}']), 'Error: listen EADDRINUSE: address already in use :::3000');
    assert.strictEqual(explainCrash(['panic: runtime error: index out of range [3] with length 2', '', 'goroutine 1 [running]:', 'main.main()', '\t/src/main.go:8 +0x1d']), 'panic: runtime error: index out of range [3] with length 2');
  });

  it('keeps to a cap: long lines are cut, only the last lines are read, and a huge line costs linear time', () => {
    const long = `Error: ${'x'.repeat(100_000)}`;
    assert.strictEqual(explainCrash([long])!.length, 500);
    assert.strictEqual(explainCrash(['Error: early', ...Array.from({ length: 60 }, (_, i) => `line ${i}`)]), 'line 59');
    const started = Date.now();
    explainCrash([`${'a'.repeat(200_000)}Error`, `${'Error'.repeat(50_000)}:`, `  code: '${'A'.repeat(100_000)}`]);
    assert.ok(Date.now() - started < 200, 'no backtracking on long lines');
  });
});
