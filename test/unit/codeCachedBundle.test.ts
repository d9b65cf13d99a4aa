// The host bundle's code cache (src/vscode/codeCachedBundle.ts): a bundle loads as `require` would, its V8 code cache
// is written once after the load and read by the next process, a cache V8 refuses is reported and written anew, and
// a new version of the bundle replaces the old one's cache. Each load that must start from an empty V8 runs in a fresh
// Node process, as a new window's extension host would.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { requireWithCodeCache } from '../../src/vscode/codeCachedBundle';
import { sleep, waitFor } from './helpers';

const loaderModule = path.resolve(__dirname, '..', '..', 'src', 'vscode', 'codeCachedBundle.js');

/** A CommonJS bundle with some functions to compile, that reports what a module sees. */
function bundleSource(version: number): string {
  const functions = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x.map((y) => y * ${i} + ${version}).filter(Boolean).length; }`).join('\n');
  return `${functions}
module.exports = { version: ${version}, file: __filename, dir: __dirname, sep: require('path').sep, self: module.id, sum: [${Array.from({ length: 200 }, (_, i) => `f${i}([1, 2])`).join(', ')}].reduce((a, b) => a + b, 0) };
`;
}

/** Loads `file` in a fresh Node process with the cache written 50 ms later; the exports and what was reported. */
function loadInFreshProcess(file: string, cacheDir: string): { exports: { version: number; file: string; dir: string; sep: string }; messages: string[] } {
  const script = `
    const { requireWithCodeCache } = require(${JSON.stringify(loaderModule)});
    const messages = [];
    const exports = requireWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)}, (m) => messages.push(m), 50);
    if (require.cache[${JSON.stringify(file)}].exports !== exports) throw new Error('not in require.cache');
    setTimeout(() => console.log(JSON.stringify({ exports, messages })), 500);
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

const cacheFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.v8cache')) : []);

describe('the host bundle loaded with a code cache', function () {
  this.timeout(30_000);
  let dir: string;
  let bundle: string;
  let cacheDir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-codecache-'));
    bundle = path.join(dir, 'host.js');
    cacheDir = path.join(dir, 'global-storage');
    fs.writeFileSync(bundle, bundleSource(1));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('loads a bundle as require would: its own module, in require.cache, loaded once', async () => {
    const messages: string[] = [];
    // The cache is written at once, and waited for: a write due after the test would make its folder again.
    const first = requireWithCodeCache(bundle, cacheDir, (m) => messages.push(m), 0) as { version: number; file: string; dir: string; self: string };
    assert.deepStrictEqual([first.version, first.file, first.dir, first.self], [1, bundle, dir, bundle]);
    assert.strictEqual(require.cache[bundle]?.exports, first);
    assert.strictEqual(module.require(bundle), first, 'a plain require gets the same module');
    assert.strictEqual(requireWithCodeCache(bundle, cacheDir, (m) => messages.push(m)), first);
    await waitFor(() => fs.existsSync(cacheDir) && fs.readdirSync(cacheDir).some((name) => name.endsWith('.v8cache')), 'the code cache', 10_000);
    await sleep(100);
    assert.deepStrictEqual(messages, []);
    delete require.cache[bundle];
  });

  it('writes the cache after the first load, and the next process uses it without writing again', () => {
    const first = loadInFreshProcess(bundle, cacheDir);
    assert.deepStrictEqual([first.exports.version, first.exports.file, first.messages], [1, bundle, []]);
    const written = cacheFiles(cacheDir);
    assert.strictEqual(written.length, 1, 'one cache file');
    assert.match(written[0], /^host-[0-9a-f]{24}\.v8cache$/);
    const file = path.join(cacheDir, written[0]);
    const before = fs.statSync(file).mtimeMs;
    const bytes = fs.readFileSync(file);
    const second = loadInFreshProcess(bundle, cacheDir);
    assert.deepStrictEqual([second.exports.version, second.messages], [1, []], 'V8 took the cache (a refused one is reported)');
    assert.strictEqual(fs.statSync(file).mtimeMs, before, 'not written again');
    assert.ok(fs.readFileSync(file).equals(bytes));
  });

  it('reports a cache V8 refuses, still loads the bundle, and writes the cache anew', () => {
    loadInFreshProcess(bundle, cacheDir);
    const file = path.join(cacheDir, cacheFiles(cacheDir)[0]);
    const good = fs.readFileSync(file);
    fs.writeFileSync(file, Buffer.alloc(good.length, 7));
    const loaded = loadInFreshProcess(bundle, cacheDir);
    assert.strictEqual(loaded.exports.version, 1);
    assert.deepStrictEqual(loaded.messages, ['The code cache of host.js did not fit this runtime: it is written again.']);
    assert.ok(!fs.readFileSync(file).equals(Buffer.alloc(good.length, 7)), 'written anew');
    assert.deepStrictEqual(loadInFreshProcess(bundle, cacheDir).messages, [], 'and taken the next time');
  });

  it("a new version of the bundle gets a cache of its own and the old version's is removed", () => {
    loadInFreshProcess(bundle, cacheDir);
    const old = cacheFiles(cacheDir);
    fs.writeFileSync(bundle, bundleSource(2));
    const loaded = loadInFreshProcess(bundle, cacheDir);
    assert.deepStrictEqual([loaded.exports.version, loaded.messages], [2, []]);
    const now = cacheFiles(cacheDir);
    assert.strictEqual(now.length, 1);
    assert.notDeepStrictEqual(now, old);
  });

  it('a cache directory that cannot be written only costs the cache', () => {
    fs.writeFileSync(cacheDir, 'a file where the directory should be');
    const loaded = loadInFreshProcess(bundle, cacheDir);
    assert.strictEqual(loaded.exports.version, 1);
    assert.strictEqual(loaded.messages.length, 1);
    assert.match(loaded.messages[0], /^The code cache of host\.js was not written: /);
  });
});
