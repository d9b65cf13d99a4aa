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

async function main() {
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
    await ctx.watch();
  } else {
    const result = await ctx.rebuild();
    await ctx.dispose();
    if (result.errors.length) process.exit(1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
