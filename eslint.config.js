// ESLint: the JavaScript and TypeScript recommended rules over the server, the migrations, the portal and the
// benchmarks, and two type-aware rules about promises over their TypeScript. Formatting is Prettier's job (.prettierrc.json); import rules are dependency-cruiser's (.dependency-cruiser.cjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'portal/build/', 'portal/.cache/', 'portal/public/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-console': 'off',
    },
  },
  {
    files: ['portal/app/**/*.{ts,tsx}', 'portal/test/browser/**/*.ts', 'portal/test/components/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Type-aware rules, each file read with its own tsconfig: a promise nobody awaits loses its failure (an unhandled
    // rejection ends the process), and an async callback where a void one is expected runs unwatched. Fire and forget
    // ends in a `.catch` that logs; `void` marks only a call whose result holds nothing to wait for.
    files: ['server/**/*.ts', 'migrations/**/*.ts', 'bench/**/*.ts', 'test-support/**/*.{ts,mts}', 'portal/**/*.{ts,tsx}'],
    ignores: ['**/*.d.ts', '**/*.d.mts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
);
