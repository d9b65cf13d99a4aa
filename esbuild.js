// Bundles the extension to dist/extension.js. `--production` minifies, `--watch` rebuilds on change.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

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

/** The script of the webview that holds an MCP App view: browser code, loaded only by that webview. */
const appFrameOptions = {
  entryPoints: ['src/webview/appFrame.ts'],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  outfile: 'dist/webview/appFrame.js',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'silent',
  plugins: [problemMatcherPlugin],
};

async function main() {
  const frameCtx = await esbuild.context(appFrameOptions);
  const ctx = await esbuild.context({
    entryPoints: ['src/extension.ts'],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outfile: 'dist/extension.js',
    external: ['vscode'],
    // jsonc-parser's default entry is UMD, which esbuild cannot follow: use its ESM build.
    mainFields: ['module', 'main'],
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    logLevel: 'silent',
    metafile: true,
    plugins: [problemMatcherPlugin],
  });
  if (watch) {
    await Promise.all([ctx.watch(), frameCtx.watch()]);
  } else {
    const results = await Promise.all([ctx.rebuild(), frameCtx.rebuild()]);
    await Promise.all([ctx.dispose(), frameCtx.dispose()]);
    if (results.some((r) => r.errors.length)) process.exit(1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
