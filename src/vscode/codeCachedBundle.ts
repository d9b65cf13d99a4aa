// The host bundle (dist/host.js) loaded with a V8 code cache of its own. Compiling it, and the functions a start
// runs, is most of what loading it costs the extension host (`npm run bench`: "first server in a fresh window"). The cache is V8's `cachedData` of this one script, kept in the extension's global storage: nothing
// process-wide (Node's compile cache would cache every extension's modules). It is written once, a while after the
// first load (so it holds the functions a start compiled), under a name made of a hash of the bundle and the runtime,
// so a new version, or another Node, never reads a stale one; V8 checks it again and refuses one that does not fit,
// and then it is written anew. Anything that goes wrong (unreadable, unwritable, refused) only costs the cache.
import * as crypto from 'crypto';
import * as fs from 'fs';
import Module from 'module';
import * as path from 'path';
import * as vm from 'vm';

/** How long after the first load the cache is written: the first server's start has compiled what it runs by then. */
export const CODE_CACHE_DELAY_MS = 10_000;
const SUFFIX = '.v8cache';

interface NodeModule {
  exports: unknown;
  filename: string;
  paths: string[];
  loaded: boolean;
  require(id: string): unknown;
}
type ModuleStatics = { new (id: string, parent?: unknown): NodeModule; wrap(source: string): string; _nodeModulePaths(dir: string): string[] };

/**
 * Loads `file` (a CommonJS bundle) as `require` would, into require's cache, compiled with the code cache kept in
 * `cacheDir` when there is one there for this very file; `report` hears why a cache could not be used or written. The
 * cache is written `writeAfterMs` after the load, when there was none or V8 refused it.
 */
export function requireWithCodeCache(file: string, cacheDir: string, report: (message: string) => void, writeAfterMs = CODE_CACHE_DELAY_MS): unknown {
  const known = require.cache[file];
  if (known) return known.exports;
  const source = fs.readFileSync(file, 'utf8');
  const key = crypto.createHash('sha256').update(source).update(`\0${process.version}\0${process.arch}`).digest('hex').slice(0, 24);
  const cacheFile = path.join(cacheDir, `${path.basename(file, '.js')}-${key}${SUFFIX}`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // None yet (the first load of this version): written below.
  }
  const M = Module as unknown as ModuleStatics;
  // Dynamic import() as in a module require loads (Node 21.7 and later; the bundle only imports what Node always has).
  const loader = (vm.constants as Partial<typeof vm.constants> | undefined)?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  const script = new vm.Script(M.wrap(source), { filename: file, cachedData, ...(loader !== undefined ? { importModuleDynamically: loader } : {}) });
  const m = new M(file, module);
  m.filename = file;
  m.paths = M._nodeModulePaths(path.dirname(file));
  require.cache[file] = m as unknown as NodeJS.Module;
  try {
    const wrapper = script.runInThisContext() as (exports: unknown, req: (id: string) => unknown, mod: NodeModule, filename: string, dirname: string) => void;
    wrapper.call(m.exports, m.exports, (id) => m.require(id), m, file, path.dirname(file));
    m.loaded = true;
  } catch (e) {
    delete require.cache[file];
    throw e;
  }
  if (cachedData && script.cachedDataRejected) report(`The code cache of ${path.basename(file)} did not fit this runtime: it is written again.`);
  if (!cachedData || script.cachedDataRejected) {
    setTimeout(() => void writeCache(script, cacheDir, cacheFile).catch((e: Error) => report(`The code cache of ${path.basename(file)} was not written: ${e.message}`)), writeAfterMs).unref();
  }
  return m.exports;
}

/** Writes the cache (whole or not at all: through a temporary file), and removes those of other versions. */
async function writeCache(script: vm.Script, cacheDir: string, cacheFile: string): Promise<void> {
  const data = script.createCachedData();
  await fs.promises.mkdir(cacheDir, { recursive: true });
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  await fs.promises.writeFile(temporary, data);
  await fs.promises.rename(temporary, cacheFile);
  const prefix = path.basename(cacheFile).replace(/-[0-9a-f]+\.v8cache$/, '-');
  for (const name of await fs.promises.readdir(cacheDir)) {
    if (name.startsWith(prefix) && name.endsWith(SUFFIX) && name !== path.basename(cacheFile)) await fs.promises.rm(path.join(cacheDir, name), { force: true });
  }
}
