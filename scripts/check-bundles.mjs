#!/usr/bin/env node
// npm run test:bundles (part of npm test): builds every production bundle we ship (dist/extension.js, dist/launch.js,
// dist/host.js, dist/gateway.js and the tool views' webview script dist/webview/appFrame.js) into a temporary directory and fails when
// the activation bundle (dist/extension.js, loaded in every window) or the launch bundle holds any of the SDK
// (@modelcontextprotocol/*), zod or ajv, when the activation bundle holds a `*.lazy.ts` module or weighs more than
// 150 KB, when it does not reach the launch, host and gateway bundles through one lazy require each (the composition
// root's), when the host bundle holds the SDK's server package (only the gateway runs it: dist/gateway.js), when the
// host bundle holds a module of the launch bundle (it must
// take them from dist/launch.js), when the webview script holds the SDK or zod (it only relays messages), or when a
// module with a class or module state is in two bundles. Prints what each bundle weighs, all of them together, and
// what each package in them costs.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const esbuild = require('esbuild');
const { bundleOptions, webviewOptions } = require(path.join(repoRoot, 'esbuild.js'));

/** The activation bundle's limit, in bytes (its figure in docs/performance.md). */
const ACTIVATION_LIMIT = 150_000;

const FORBIDDEN = /(^|\/)node_modules\/(@modelcontextprotocol\/|zod\/|ajv\/|ajv-formats\/)/;

const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcphost-bundles-'));
try {
  const [activation, launch, host, gateway, webview] = await Promise.all(
    [...bundleOptions({ production: true, outdir }), webviewOptions({ production: true, outdir })].map(async (options) => {
      const result = await esbuild.build({ ...options, absWorkingDir: repoRoot });
      const [file, output] = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint);
      return { file: path.relative(outdir, file), output };
    }),
  );
  const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
  const shipped = [activation, launch, host, gateway, webview];
  for (const { file, output } of shipped) console.log(`${file}: ${kb(output.bytes)}`);
  console.log(`in all: ${kb(shipped.reduce((sum, { output }) => sum + output.bytes, 0))}, of which:`);
  // Minified bytes per package (what each runtime dependency costs, its own dependencies listed apart).
  const perPackage = new Map();
  for (const { output } of shipped) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'our code';
      perPackage.set(name, (perPackage.get(name) ?? 0) + bytesInOutput);
    }
  }
  for (const [name, bytes] of [...perPackage].sort((a, b) => b[1] - a[1])) console.log(`  ${kb(bytes).padStart(9)}  ${name}`);

  const problems = [];
  for (const bundle of [activation, launch]) {
    const forbidden = Object.keys(bundle.output.inputs).filter((input) => FORBIDDEN.test(input));
    if (forbidden.length) problems.push(`${bundle.file} holds what must load with the first server's session:\n  ${forbidden.join('\n  ')}`);
  }
  if (activation.output.bytes > ACTIVATION_LIMIT) {
    const ours = Object.entries(activation.output.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, 10);
    problems.push(
      `the activation bundle weighs ${kb(activation.output.bytes)}, over its ${kb(ACTIVATION_LIMIT)}: move what activation does not run into a *.lazy.ts module (see docs/architecture.md). Its largest modules:\n  ${ours.map(([input, { bytesInOutput }]) => `${kb(bytesInOutput).padStart(9)}  ${input}`).join('\n  ')}`,
    );
  }
  const serverPackage = Object.keys(host.output.inputs).filter((input) => /(^|\/)node_modules\/@modelcontextprotocol\/server\//.test(input));
  if (serverPackage.length) problems.push(`the host bundle holds the SDK's server package, which only the gateway runs (dist/gateway.js):\n  ${serverPackage.join('\n  ')}`);
  const inWebview = Object.keys(webview.output.inputs).filter((input) => FORBIDDEN.test(input));
  if (inWebview.length) problems.push(`the webview script holds what only the extension needs:\n  ${inWebview.join('\n  ')}`);
  const lazyInActivation = Object.keys(activation.output.inputs).filter((input) => input.endsWith('.lazy.ts'));
  if (lazyInActivation.length) problems.push(`the activation bundle holds lazy modules (only src/vscode/createHost.ts may load them, by requiring a bundle):\n  ${lazyInActivation.join('\n  ')}`);
  for (const bundle of ['./launch.js', './host.js', './gateway.js']) {
    const requires = activation.output.imports.filter((i) => i.external && i.path === bundle).length;
    if (requires !== 1) problems.push(`the activation bundle requires ${bundle} ${requires} times: the composition root loads each lazy bundle, once`);
  }
  // The launch bundle is one module at run time: the host bundle takes its modules from dist/launch.js (esbuild.js).
  const launchLayer = Object.keys(launch.output.inputs).filter((input) => input.endsWith('.lazy.ts'));
  const copied = launchLayer.filter((input) => host.output.inputs[input]);
  if (copied.length) problems.push(`the host bundle holds modules of the launch bundle, which it must take from dist/launch.js (re-export them whole in its entry):\n  ${copied.join('\n  ')}`);
  if (!host.output.imports.some((i) => i.external && i.path === './launch.js')) problems.push('the host bundle never requires ./launch.js: it holds its own launch modules');
  // A module in two bundles is two modules at run time: a class would fail `instanceof` across them, and module state
  // would be kept twice. Only stateless, class-free modules (functions, constants, types) may be in two.
  for (const [a, b] of [[activation, host], [activation, launch], [launch, host], [activation, gateway], [launch, gateway], [host, gateway]]) {
    const shared = Object.keys(b.output.inputs).filter((input) => input.startsWith('src/') && a.output.inputs[input]);
    const sharedBytes = shared.reduce((sum, input) => sum + b.output.inputs[input].bytesInOutput, 0);
    if (shared.length) console.log(`in ${a.file} and ${b.file} (each has its own copy, ${kb(sharedBytes)} in ${b.file}): ${shared.join(', ')}`);
    const stateful = shared.filter((input) => /^(export )?(abstract )?class |^(export )?(let|var) /m.test(fs.readFileSync(path.join(repoRoot, input), 'utf8')));
    if (stateful.length) problems.push(`modules with a class or module state are in ${a.file} and ${b.file} (each bundle gets its own copy):\n  ${stateful.join('\n  ')}`);
  }

  if (problems.length) {
    for (const p of problems) console.error(`check-bundles: ${p}`);
    process.exit(1);
  }
  console.log(`check-bundles: the activation bundle holds no SDK, zod or ajv, and weighs at most ${kb(ACTIVATION_LIMIT)}`);
} finally {
  fs.rmSync(outdir, { recursive: true, force: true });
}
