// ESLint: the JavaScript and TypeScript recommended rules over the server, the migrations, the portal and the
// benchmarks. Formatting is Prettier's job (.prettierrc.json); import rules are dependency-cruiser's (.dependency-cruiser.cjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

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

// Files whose SQL has not moved into a repository yet (issue 17): whoever moves a file's SQL removes its line here.
const NOT_YET_IN_REPOSITORIES = [
  'server/src/categories/classification.ts',
  'server/src/common/auth/auth.service.ts',
  'server/src/common/idempotency/idempotency.service.ts',
  'server/src/counterparts/counterpart-registry.ts',
  'server/src/documents/document.presenter.ts',
  'server/src/documents/documents.service.ts',
  'server/src/flows/flow-coverage.ts',
  'server/src/flows/flows.service.ts',
  'server/src/imports/transactions-import.ts',
  'server/src/integrators/integrators.service.ts',
  'server/src/invoices/invoice-store.ts',
  'server/src/invoices/invoices.service.ts',
  'server/src/invoices/sdi/sdi-dispatcher.ts',
  'server/src/invoices/sdi/sdi-notifications.ts',
  'server/src/invoices/sdi/sdi-sandbox.ts',
  'server/src/invoices/sdi/sdi.processor.ts',
  'server/src/payments/payment-batches.service.ts',
  'server/src/products/products.service.ts',
  'server/src/reconciliations/auto-reconcile.ts',
  'server/src/reconciliations/reconciliation-invariants.ts',
  'server/src/reconciliations/reconciliations.service.ts',
  'server/src/sandbox/sandbox.service.ts',
  'server/src/transactions/transactions.service.ts',
];

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
      'server/src/config/preflight.ts',
      'server/src/**/*.spec.ts',
      ...NOT_YET_IN_REPOSITORIES,
    ],
    rules: { 'no-restricted-syntax': ['error', ...DATA_ACCESS] },
  },
  {
    files: ['portal/app/**/*.{ts,tsx}', 'portal/test/browser/**/*.ts', 'portal/test/components/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
