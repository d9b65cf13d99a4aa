// The layering rules of the source tree, as ESLint configuration (used by eslint.config.mjs, and by the unit test that
// proves each rule fails on what it forbids):
// - src/core never reaches the vscode module;
// - the lazy boundary: src/core/protocol and src/vscode/session load with the first server (dist/host.js), so code
//   outside them (and outside the CLI, which is not bundled) may import their types, never their values.
const coreLayering =
  'src/core is plain TypeScript, run and unit-tested in Node without VS Code: only src/vscode/** (and src/extension.ts) ' +
  'may use the vscode module. Give core a port (an interface or callback) and adapt it in src/vscode/.';

const lazyBoundary =
  'src/core/protocol and src/vscode/session load with the first server (dist/host.js), not on activation: import their ' +
  'types only (`import type`). Take what you need at run time as a dependency: src/vscode/createHost.ts hands in the ' +
  'session layer loader (LoadSessionLayer) and the core host its createConnection.';

const vscodePath = { name: 'vscode', message: coreLayering };
const lazyPatterns = [{ group: ['**/protocol', '**/protocol/**', '**/session', '**/session/**'], allowTypeImports: true, message: lazyBoundary }];
const vscodeSyntax = [
  // no-restricted-imports sees import/export declarations only; these catch require('vscode'), import('vscode') and
  // import x = require('vscode').
  { selector: "ImportExpression[source.value='vscode']", message: coreLayering },
  { selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']", message: coreLayering },
  // `import vscode = require('vscode')`, the form src/vscode uses (esbuild emits a plain require for it).
  { selector: "TSExternalModuleReference[expression.value='vscode']", message: coreLayering },
];
const lazySyntax = [
  { selector: "CallExpression[callee.name='require'][arguments.0.value=/(^|\\/)(protocol|session)(\\/|$)/]", message: lazyBoundary },
  { selector: 'ImportExpression[source.value=/(^|\\/)(protocol|session)(\\/|$)/]', message: lazyBoundary },
  { selector: 'TSImportEqualsDeclaration[importKind=value] > TSExternalModuleReference[expression.value=/(^|\\/)(protocol|session)(\\/|$)/]', message: lazyBoundary },
];
const lazyLayers = ['src/core/protocol/**/*.ts', 'src/vscode/session/**/*.ts', 'src/cli/**/*.ts'];

export const layerRules = [
  {
    // Activation code of the core: no vscode, and the lazy layer's types only.
    files: ['src/core/**/*.ts'],
    ignores: lazyLayers,
    rules: {
      'no-restricted-imports': ['error', { paths: [vscodePath], patterns: lazyPatterns }],
      'no-restricted-syntax': ['error', ...vscodeSyntax, ...lazySyntax],
    },
  },
  {
    // The protocol layer: no vscode.
    files: ['src/core/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [vscodePath] }],
      'no-restricted-syntax': ['error', ...vscodeSyntax],
    },
  },
  {
    // Activation code of the VS Code layer: the lazy layers' types only.
    files: ['src/extension.ts', 'src/vscode/**/*.ts'],
    ignores: lazyLayers,
    rules: {
      'no-restricted-imports': ['error', { patterns: lazyPatterns }],
      'no-restricted-syntax': ['error', ...lazySyntax],
    },
  },
];
