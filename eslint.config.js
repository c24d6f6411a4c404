// ESLint: the JavaScript and TypeScript recommended rules over the server, the migrations, the portal and the
// benchmarks. Formatting is Prettier's job (.prettierrc.json); import rules are dependency-cruiser's (.dependency-cruiser.cjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

// The hooks plugin's recommended rules (the Rules of React and the React Compiler's checks), every one an error.
const reactHooksRules = Object.fromEntries(Object.keys(reactHooks.configs.flat.recommended.rules).map((rule) => [rule, 'error']));

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
    files: ['portal/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooksRules,
  },
);
