// ESLint: the recommended rules, and eslint-plugin-n reading package.json's engines (>=18.18), so
// an API or syntax newer than Node 18 is an error wherever it is used. Types are tsc's job
// (tsconfig.json), formatting prettier's (.prettierrc.json).
import js from '@eslint/js';
import n from 'eslint-plugin-n';
import globals from 'globals';

export default [
  { ignores: ['node_modules/', '.drivers/', '.cache/', 'out/', 'results/'] },
  js.configs.recommended,
  n.configs['flat/recommended-module'],
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // every entry point ends through lib/command.js, which sets the exit code on purpose
      'n/no-process-exit': 'off',
      // scripts are run as `node FILE` (npm scripts), the shebang is only a hint
      'n/hashbang': 'off',
      // experimental on Node 18 but present there (node:test, util.parseArgs, fetch): allowed; absent is an error
      'n/no-unsupported-features/node-builtins': ['error', { allowExperimental: true }],
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
];
