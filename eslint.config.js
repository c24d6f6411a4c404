// ESLint: the JavaScript and TypeScript recommended rules over the server, the migrations, the portal and the
// benchmarks, and two type-aware rules about promises over their TypeScript. Formatting is Prettier's job (.prettierrc.json); import rules are dependency-cruiser's (.dependency-cruiser.cjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

// The hooks plugin's recommended rules (the Rules of React and the React Compiler's checks), every one an error.
const reactHooksRules = Object.fromEntries(Object.keys(reactHooks.configs.flat.recommended.rules).map((rule) => [rule, 'error']));

// Data access outside a repository: SQL, query builders, TypeORM repositories and the manager's finders and writers.
const WRITES_AND_FINDS =
  '/^(find|findBy|findOne|findOneBy|findOneOrFail|findOneByOrFail|findAndCount|findAndCountBy|count|countBy|exists|existsBy|sum|average|minimum|maximum|save|insert|update|upsert|delete|remove|softDelete|restore|increment|decrement|query)$/';
const DATA_ACCESS = [
  { selector: "CallExpression[callee.property.name='query']", message: 'SQL belongs in a repository (*.repository.ts).' },
  { selector: "CallExpression[callee.property.name='createQueryBuilder']", message: 'Query builders belong in a repository (*.repository.ts).' },
  { selector: "CallExpression[callee.property.name='getRepository']", message: 'Data access belongs in a repository (*.repository.ts).' },
  { selector: "CallExpression[callee.name='queryPrepared']", message: 'SQL belongs in a repository (*.repository.ts).' },
  { selector: "Decorator > CallExpression[callee.name='InjectRepository']", message: 'Inject a repository (*.repository.ts), not a TypeORM Repository.' },
  {
    selector: `CallExpression[callee.object.name=/^(manager|entityManager|em)$/][callee.property.name=${WRITES_AND_FINDS}]`,
    message: "The manager's finders and writers belong in a repository (*.repository.ts).",
  },
  {
    selector: `CallExpression[callee.object.property.name='manager'][callee.property.name=${WRITES_AND_FINDS}]`,
    message: "The manager's finders and writers belong in a repository (*.repository.ts).",
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'portal/build/',
      'portal/.cache/',
      'portal/public/',
      'coverage/',
      'server/sdk/dist/',
      // openapi-typescript's output, as it writes it (server/sdk/scripts/generate.ts).
      'server/sdk/src/generated/schema.ts',
    ],
  },
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
    // Repositories own the SQL (ARCHITECTURE.md, "Repositories and their SQL"). Besides them, only the database
    // plumbing, the demo data set, the CLI, preflight, migrations, tests and benchmarks talk to PostgreSQL directly.
    files: ['server/src/**/*.ts'],
    ignores: [
      'server/src/**/*.repository.ts',
      'server/src/common/database/**',
      // The list mechanism (ListSpec) builds the page query a repository hands it.
      'server/src/common/listing/**',
      'server/src/demo/**',
      'server/src/cli/**',
      'server/src/processes/preflight.ts',
      'server/src/**/*.spec.ts',
    ],
    rules: { 'no-restricted-syntax': ['error', ...DATA_ACCESS] },
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
  {
    files: ['portal/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooksRules,
  },
);
