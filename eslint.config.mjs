// ESLint flat config: type-aware typescript-eslint over src/ and test/ (run by `npm run lint`, first step of `npm test`).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { layerRules } from './scripts/eslint-layers.mjs';

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
    files: ['src/**/*.ts', 'src/**/*.mts', 'test/**/*.ts'],
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
      // `import vscode = require('vscode')`: esbuild then emits a plain require, where `import * as vscode` makes each
      // importing module copy the whole API object into a namespace of getters (at activation, for every such module).
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
    },
  },
  ...layerRules,
);
