// Bundles the extension in four files: dist/extension.js, loaded on activation in every window (config, views,
// commands, chat registration: no SDK, zod or JSON Schema validator); dist/launch.js (src/vscode/launchBundle.lazy.ts:
// launch plans and server processes), which the first one requires when the first plan is made; dist/host.js
// (src/vscode/hostBundle.lazy.ts: every `*.lazy.ts` module, the protocol and the UI that runs only when used), which
// it requires when the first server starts or a lazy part is first used; and dist/gateway.js
// (src/vscode/gatewayBundle.lazy.ts: the gateway and the SDK's server package), required when the gateway is first
// turned on or used. Only src/vscode/createHost.ts requires them.
// `--production` minifies, `--watch` rebuilds on change.
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

/** Prints errors in the format of VS Code's esbuild problem matcher. */
const problemMatcherPlugin = {
  name: 'esbuild-problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

/**
 * The lazy boundary: the composition root's requires of the bundle entries become requires of the bundles beside
 * this one, dist/host.js, dist/launch.js and dist/gateway.js.
 */
const COMPOSITION_ROOT = path.join('src', 'vscode', 'createHost.ts');
const LAZY_BUNDLES = { './hostBundle.lazy': './host.js', './launchBundle.lazy': './launch.js', './gatewayBundle.lazy': './gateway.js' };
const lazyBoundaryPlugin = {
  name: 'lazy-boundary',
  setup(build) {
    build.onResolve({ filter: /^\.\/(host|launch|gateway)Bundle\.lazy$/ }, (args) =>
      path.relative(__dirname, args.importer) === COMPOSITION_ROOT ? { path: LAZY_BUNDLES[args.path], external: true } : undefined,
    );
  },
};

/**
 * The launch bundle's modules: those its entry re-exports (`export * from '…'`), without extension, from the root. The
 * host bundle takes them from dist/launch.js, so that each is one module at run time (its classes, its state).
 */
const LAUNCH_ENTRY = path.join('src', 'vscode', 'launchBundle.lazy.ts');
const HOST_ENTRY = path.join('src', 'vscode', 'hostBundle.lazy.ts');
const GATEWAY_ENTRY = path.join('src', 'vscode', 'gatewayBundle.lazy.ts');
function launchLayerModules() {
  const source = fs.readFileSync(path.join(__dirname, LAUNCH_ENTRY), 'utf8');
  return [...source.matchAll(/^export \* from '(\.[^']+)';$/gm)].map((m) => path.join(path.dirname(LAUNCH_ENTRY), m[1]));
}
const launchLayerPlugin = {
  name: 'launch-layer',
  setup(build) {
    const modules = new Set(launchLayerModules());
    build.onResolve({ filter: /^\./ }, (args) => {
      const target = path.relative(__dirname, path.resolve(args.resolveDir, args.path)).replace(/\.ts$/, '');
      return modules.has(target) ? { path: './launch.js', external: true } : undefined;
    });
  },
};

/**
 * Server-side code a client never runs, kept only by a top-level side effect: the SDK builds its `inputRequired`
 * helper (for servers' tools) with `Object.assign`, which esbuild must assume matters, and with it the conversion of
 * standard schemas to elicitation schemas. Marked pure here, it goes. The SDK is pinned; when it changes, this
 * fails rather than silently keeping the code.
 */
const clientOnlySdkPlugin = {
  name: 'client-only-sdk',
  setup(build) {
    const marker = 'const inputRequired = Object.assign(';
    build.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]client[\\/]dist[\\/]src-[^/\\]+\.mjs$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!source.includes(marker)) {
        throw new Error(`${args.path}: no "${marker}" any more: update or remove ${clientOnlySdkPlugin.name}`);
      }
      return { contents: source.replace(marker, `const inputRequired = /* @__PURE__ */ Object.assign(`), loader: 'js' };
    });
  },
};

/**
 * ext-apps takes zod as `import { z } from "zod/v4"`: the namespace as a value, which esbuild must build whole — every
 * locale, toJSONSchema, fromJSONSchema, z.compile — where the SDK's `import * as z` keeps only what is used (its
 * members are only ever read as `z.object`, `z.literal`, …). Read as a namespace import, it shares the SDK's zod and
 * adds only what it uses. ext-apps is pinned; when it changes, this fails rather than silently keeping all of zod.
 */
const extAppsZodPlugin = {
  name: 'ext-apps-zod',
  setup(build) {
    const pattern = /import\{z as ([A-Za-z_$][\w$]*)\}from"zod\/v4"/;
    build.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]ext-apps[\\/]dist[\\/]src[\\/]app-bridge\.js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!pattern.test(source)) {
        throw new Error(`${args.path}: no \`import{z as …}from"zod/v4"\` any more: update or remove ${extAppsZodPlugin.name}`);
      }
      return { contents: source.replace(pattern, 'import*as $1 from"zod/v4"'), loader: 'js' };
    });
    // ext-tasks' codecs (pinned too) take zod the same way.
    const tasksPattern = /import \{ z \} from "zod\/v4";/;
    build.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]ext-tasks[\\/]dist[\\/]core[\\/]v2[\\/]schemas\.js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!tasksPattern.test(source)) throw new Error(`${args.path}: no \`import { z } from "zod/v4"\` any more: update ${extAppsZodPlugin.name}`);
      return { contents: source.replace(tasksPattern, 'import * as z from "zod/v4";'), loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

/**
 * The SDK's private-key JWT and DPoP providers load jose with `import("jose")` when they first sign: a dynamic import
 * keeps all of jose (JWE, JWKS fetching, …). Pointed at scripts/jose-subset.mjs, which re-exports the six
 * functions the SDK calls, it keeps only those; it still loads (is evaluated) only when such a provider signs. When the
 * SDK calls another jose function, the bundle is still built but that call fails: the subset names what is called
 * (`jose.X` in the SDK), and this plugin checks it.
 */
const joseSubsetPlugin = {
  name: 'jose-subset',
  setup(build) {
    const subset = path.join(__dirname, 'scripts', 'jose-subset.mjs');
    build.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]client[\\/]dist[\\/]index\.mjs$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!source.includes('import("jose")')) return undefined;
      const exported = /export \{([^}]*)\}/.exec(await fs.promises.readFile(subset, 'utf8'))[1].split(',').map((n) => n.trim());
      const called = [...new Set([...source.matchAll(/\bjose\.(\w+)/g)].map((m) => m[1]))];
      const missing = called.filter((n) => !exported.includes(n));
      if (missing.length) throw new Error(`${args.path} calls jose.${missing.join(', jose.')}: add it to ${subset}`);
      return { contents: source.replaceAll('import("jose")', `import(${JSON.stringify(subset)})`), loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

/** The four bundles' options (activation, launch, host, gateway); `outdir` other than dist/ is for scripts that build a copy (check-bundles, bench). */
function bundleOptions({ production = false, outdir = 'dist' } = {}) {
  const common = {
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    // jsonc-parser's default entry is UMD, which esbuild cannot follow: use its ESM build.
    mainFields: ['module', 'main'],
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    // Non-ASCII characters (…, —) as they are, not as \u escapes of 6 bytes each.
    charset: 'utf8',
    logLevel: 'silent',
    metafile: true,
  };
  return [
    {
      ...common,
      entryPoints: ['src/extension.ts'],
      outfile: path.join(outdir, 'extension.js'),
      plugins: [lazyBoundaryPlugin],
    },
    {
      ...common,
      entryPoints: [LAUNCH_ENTRY],
      outfile: path.join(outdir, 'launch.js'),
    },
    {
      ...common,
      entryPoints: [HOST_ENTRY],
      outfile: path.join(outdir, 'host.js'),
      // The SDK's Node default JSON Schema validator is ajv (many times larger); the connection passes the SDK's
      // lighter @cfworker/json-schema one instead, so the default is swapped for it and ajv is never bundled.
      alias: { '@modelcontextprotocol/client/_shims': './scripts/sdk-shims.mjs' },
      plugins: [launchLayerPlugin, clientOnlySdkPlugin, extAppsZodPlugin, joseSubsetPlugin],
    },
    {
      ...common,
      entryPoints: [GATEWAY_ENTRY],
      outfile: path.join(outdir, 'gateway.js'),
      // The same swap for the server package the gateway uses (scripts/sdk-server-shims.mjs).
      alias: { '@modelcontextprotocol/server/_shims': './scripts/sdk-server-shims.mjs' },
    },
  ];
}

/** The script of the webview that holds an MCP App view: browser code, loaded only by that webview. */
function webviewOptions({ production = false, outdir = 'dist' } = {}) {
  return {
    entryPoints: ['src/webview/appFrame.ts'],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    outfile: path.join(outdir, 'webview', 'appFrame.js'),
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    logLevel: 'silent',
    metafile: true,
  };
}

/**
 * The sandbox runtime that confined servers run in (@anthropic-ai/sandbox-runtime), with our launcher of it
 * (src/core/protocol/launch/sandboxLauncher.mts: the runtime's `srt` for one command, its denials on a channel of
 * their own), as one file beside the runtime's seccomp helpers, for the package (which holds no node_modules): run as a
 * separate process, never loaded by the extension's bundles.
 */
const SANDBOX_RUNTIME = path.join('node_modules', '@anthropic-ai', 'sandbox-runtime');
function sandboxRuntimeOptions({ production = false, outdir = 'dist' } = {}) {
  return {
    entryPoints: [path.join('src', 'core', 'protocol', 'launch', 'sandboxLauncher.mts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile: path.join(outdir, 'sandbox-runtime', 'launcher.mjs'),
    // Its CommonJS dependencies require Node's modules: an ES module has no `require` of its own.
    banner: { js: "import { createRequire as __srtRequire } from 'node:module'; const require = __srtRequire(import.meta.url);" },
    // Windows only, optional.
    external: ['@microsoft/mxc-sdk'],
    minify: production,
    sourcemap: false,
    logLevel: 'silent',
  };
}

/** The runtime's seccomp helpers (Linux), where its bundled form looks for them: beside it, in vendor/seccomp/<arch>. */
function copySandboxRuntimeVendor(outdir = 'dist') {
  for (const arch of ['x64', 'arm64']) {
    const from = path.join(SANDBOX_RUNTIME, 'vendor', 'seccomp', arch, 'apply-seccomp');
    const to = path.join(outdir, 'sandbox-runtime', 'vendor', 'seccomp', arch, 'apply-seccomp');
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
    fs.chmodSync(to, 0o755);
  }
}

async function main() {
  const production = process.argv.includes('--production');
  const watch = process.argv.includes('--watch');
  copySandboxRuntimeVendor();
  const contexts = await Promise.all(
    [...bundleOptions({ production }), webviewOptions({ production }), sandboxRuntimeOptions({ production })].map((options) => esbuild.context({ ...options, plugins: [...(options.plugins ?? []), problemMatcherPlugin] })),
  );
  if (watch) {
    await Promise.all(contexts.map((ctx) => ctx.watch()));
    return;
  }
  const results = await Promise.all(contexts.map((ctx) => ctx.rebuild()));
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
  if (results.some((r) => r.errors.length)) process.exit(1);
}

module.exports = { bundleOptions, webviewOptions, sandboxRuntimeOptions };

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
