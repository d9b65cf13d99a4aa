// The layering rules of the source tree, as ESLint configuration (used by eslint.config.mjs, and by the unit test that
// proves each rule fails on what it forbids):
// - src/core never reaches the vscode module;
// - the lazy boundary: a module whose file name ends in `.lazy.ts` loads on demand (dist/host.js, dist/launch.js or dist/gateway.js),
//   never on activation. A file that is not lazy imports nothing of a lazy module, not even a type: what it needs of
//   one is a contract it declares itself, which the lazy module implements. Only the composition root,
//   src/vscode/createHost.ts, loads a lazy bundle (its require of ./hostBundle.lazy, ./launchBundle.lazy or ./gatewayBundle.lazy) and
//   imports the bundles' types. The CLI is not bundled: it imports what it needs.
const coreLayering =
  'src/core is plain TypeScript, run and unit-tested in Node without VS Code: only src/vscode/** (and src/extension.ts) ' +
  'may use the vscode module. Give core a port (an interface or callback) and adapt it in src/vscode/.';

const lazyBoundary =
  'a *.lazy module loads on demand (dist/host.js), not on activation: declare the contract you need beside your code ' +
  '(the lazy module implements it) and take the part as a dependency: src/vscode/createHost.ts builds it lazily.';

const oneLoader =
  'only the composition root (src/vscode/createHost.ts) loads a lazy bundle: take the part you need as a dependency ' +
  '(an interface) and let createHost build it lazily.';

const vscodePath = { name: 'vscode', message: coreLayering };
const lazyPatterns = [{ regex: '\\.lazy$', message: lazyBoundary }];
const lazyTypePatterns = [{ regex: '\\.lazy$', allowTypeImports: true, message: lazyBoundary }];
const vscodeSyntax = [
  // no-restricted-imports sees import/export declarations only; these catch require('vscode'), import('vscode') and
  // import x = require('vscode').
  { selector: "ImportExpression[source.value='vscode']", message: coreLayering },
  { selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']", message: coreLayering },
  // `import vscode = require('vscode')`, the form src/vscode uses (esbuild emits a plain require for it).
  { selector: "TSExternalModuleReference[expression.value='vscode']", message: coreLayering },
];
/** A lazy module loaded at run time: require, import() or `import x = require(…)` of a `*.lazy` specifier. */
const lazyLoads = (message) => [
  { selector: "CallExpression[callee.name='require'][arguments.0.value=/\\.lazy$/]", message },
  { selector: 'ImportExpression[source.value=/\\.lazy$/]', message },
  { selector: 'TSImportEqualsDeclaration[importKind=value] > TSExternalModuleReference[expression.value=/\\.lazy$/]', message },
];
const lazyFiles = ['src/**/*.lazy.ts'];
const compositionRoot = 'src/vscode/createHost.ts';

export const layerRules = [
  {
    // The core, eager and lazy: no vscode.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [vscodePath] }],
      'no-restricted-syntax': ['error', ...vscodeSyntax, ...lazyLoads(oneLoader)],
    },
  },
  {
    // Eager core code: no vscode, nothing of a lazy module.
    files: ['src/core/**/*.ts'],
    ignores: lazyFiles,
    rules: {
      'no-restricted-imports': ['error', { paths: [vscodePath], patterns: lazyPatterns }],
      'no-restricted-syntax': ['error', ...vscodeSyntax, ...lazyLoads(oneLoader)],
    },
  },
  {
    // Eager VS Code code: nothing of a lazy module; no loading of one.
    files: ['src/extension.ts', 'src/vscode/**/*.ts', 'src/webview/**/*.ts'],
    ignores: [...lazyFiles, compositionRoot],
    rules: {
      'no-restricted-imports': ['error', { patterns: lazyPatterns }],
      'no-restricted-syntax': ['error', ...lazyLoads(oneLoader)],
    },
  },
  {
    // Lazy VS Code code: any import, but no loading of a bundle (that is the composition root's).
    files: ['src/vscode/**/*.lazy.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...lazyLoads(oneLoader)],
    },
  },
  {
    // The composition root: the lazy bundles' types, and its own requires of them.
    files: [compositionRoot],
    rules: {
      'no-restricted-imports': ['error', { patterns: lazyTypePatterns }],
    },
  },
];
