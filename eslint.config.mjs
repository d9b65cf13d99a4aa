// ESLint flat config: type-aware typescript-eslint over src/ and test/ (run by `npm run lint`, first step of `npm test`).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const coreLayering =
  'src/core is plain TypeScript, run and unit-tested in Node without VS Code: only src/vscode/** (and src/extension.ts) ' +
  'may use the vscode module. Give core a port (an interface or callback) and adapt it in src/vscode/.';

export default defineConfig(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      '.cache/**',
      '.vscode-test/**',
      'test/fixtures/**',
      'demo/**',
      'scripts/**',
      'esbuild.js',
      'eslint.config.mjs',
    ],
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    // Everything recommended passes as the code is; the few deliberate exceptions carry an eslint-disable with a reason.
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // Two more promise checks from the type-checked set, cheap here: awaiting a non-promise, and handing an
      // async function to a place that ignores its promise (listeners, timers), where a rejection would vanish.
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: coreLayering }] }],
      // no-restricted-imports sees import/export declarations only; these catch require('vscode') and import('vscode').
      'no-restricted-syntax': [
        'error',
        { selector: "ImportExpression[source.value='vscode']", message: coreLayering },
        { selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']", message: coreLayering },
      ],
    },
  },
);
