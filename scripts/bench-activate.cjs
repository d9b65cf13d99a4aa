// One sample of the activation figure of `npm run bench`, in a fresh Node process (node --expose-gc):
//   ours <bundle>  requires the activation bundle and calls activate() with no server configured, against a stand-in
//                  `vscode` module that answers every call (the cost of VS Code's own API is not ours to count);
//   bare <bundle>  requires a bundle of the SDK alone: what an extension that imports the SDK pays on activation.
// Prints {"ms","heapMiB","hostLoaded"}: wall time of require + activate, the heap they leave after a full GC, and
// whether a lazy bundle (dist/host.js, dist/launch.js) was loaded (neither may be, for ours).
const Module = require('node:module');
const path = require('node:path');

const [kind, bundle] = process.argv.slice(2);
const gc = global.gc;
if (!gc || !bundle || (kind !== 'ours' && kind !== 'bare')) {
  console.error('usage: node --expose-gc scripts/bench-activate.cjs ours|bare <bundle>');
  process.exit(2);
}

/** Anything, forever: a callable, constructible object whose every property is another one (never a thenable). */
function standIn(name, prototype) {
  const children = new Map();
  const target = function () {};
  return new Proxy(target, {
    get(_, key) {
      if (key === 'then') return undefined;
      if (key === Symbol.iterator) return function* () {};
      if (key === Symbol.toPrimitive) return () => name;
      if (key === 'prototype') return target.prototype;
      if (!children.has(key)) children.set(key, standIn(`${name}.${String(key)}`));
      return children.get(key);
    },
    set: () => true,
    // A bundle's `__toESM(require('vscode'))` copies own properties and inherits the rest from the prototype.
    getPrototypeOf: () => prototype ?? Function.prototype,
    apply: () => standIn(`${name}()`),
    construct: () => standIn(`new ${name}`),
  });
}

function memento() {
  const values = new Map();
  return { get: (k, d) => (values.has(k) ? values.get(k) : d), update: async (k, v) => void values.set(k, v), keys: () => [...values.keys()], setKeysForSync() {} };
}

const vscode = standIn('vscode', standIn('vscode'));
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? vscode : load.call(this, request, ...rest);
};

const repoRoot = path.resolve(__dirname, '..');
const context = {
  subscriptions: [],
  globalState: memento(),
  workspaceState: memento(),
  secrets: { get: async () => undefined, store: async () => {}, delete: async () => {}, onDidChange: standIn('onDidChange') },
  extension: { packageJSON: require(path.join(repoRoot, 'package.json')) },
  extensionMode: 1,
  extensionPath: repoRoot,
  extensionUri: standIn('extensionUri'),
  globalStorageUri: standIn('globalStorageUri'),
  logUri: standIn('logUri'),
};

// Node's own modules that VS Code's extension host has loaded before any extension activates (its proxy support
// patches http, https, net and tls; it spawns and hashes): neither side is charged for them.
for (const builtin of ['child_process', 'crypto', 'events', 'fs', 'http', 'https', 'net', 'os', 'path', 'stream', 'tls', 'url', 'util', 'zlib']) {
  require(builtin);
}

gc();
gc();
const heapBefore = process.memoryUsage().heapUsed;
const t0 = performance.now();
const loaded = require(path.resolve(bundle));
if (kind === 'ours') loaded.activate(context);
const ms = performance.now() - t0;
gc();
gc();
const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
console.log(JSON.stringify({ ms, heapMiB, hostLoaded: Object.keys(require.cache).some((f) => /[\\/](host|launch)\.js$/.test(f)) }));
process.exit(0);
