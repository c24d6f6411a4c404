/**
 * The house rules for imports (its floors), checked by `npm run lint` (and so by `npm test` and CI), in the spirit of
 * domain-driven-hexagon's .dependency-cruiser.js. ARCHITECTURE.md ("Floors") says why each holds.
 * - no cycles between modules (a type-only import does not make one: it leaves no trace at run time), and none between
 *   the folders of server/src either: test-support/dependency-floors.mjs checks that one over this cruise's result;
 * - common/ (the floor every domain stands on) imports no domain folder: modules register their own entities;
 * - the worker loads nothing of the OpenAPI builder, and the API only for the route that serves the document;
 * - the pure libraries (FatturaPA, SEPA, the courtesy copy) load no framework, database or queue client, and no
 *   domain folder (a type-only import of the domain's vocabulary leaves nothing at run time);
 * - product code never imports the demo data set; only the CLI, `npm start`, tests and benchmarks may;
 * - the server never imports the portal and the portal never imports the server (it reads the generated OpenAPI file).
 */

/**
 * Libraries with no Nest, no database and no queue: the model of an e-invoice, the signed-file (.p7m) reader that the XML
 * pool's children run with it, the pain.001 writer, the courtesy copy.
 */
const PURE_LIBRARIES = [
  '^server/src/invoices/fatturapa/',
  '^server/src/invoices/signed/signed-file\\.ts$',
  '^server/src/payments/sepa/',
  '^server/src/shares/courtesy-copy\\.ts$',
];
/** The few ground-floor helpers the pure libraries use (dates and identifiers), held to the same rule. */
const PURE_HELPERS = ['^server/src/common/validation/(calendar-date|uuid)\\.ts$'];
const TESTS = ['\\.spec\\.ts$', '^server/test/', '^server/fleet/'];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make start-up order and responsibilities unclear; move what both sides need down a floor.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'common-imports-no-domain',
      severity: 'error',
      comment:
        'common/ is the floor under every domain folder: it names none of them. A domain registers its entities in its own module (TypeOrmModule.forFeature); server/src/entities.ts lists them for the data sources outside Nest.',
      from: { path: '^server/src/common/', pathNot: TESTS },
      to: { path: '^server/src/', pathNot: ['^server/src/common/', '^server/src/config/'] },
    },
    {
      name: 'config-is-the-ground',
      severity: 'error',
      comment: 'config/ is read by every floor, so it stands on none: it imports nothing else of the server.',
      from: { path: '^server/src/config/', pathNot: TESTS },
      to: { path: '^server/src/', pathNot: ['^server/src/config/'] },
    },
    {
      name: 'worker-without-openapi',
      severity: 'error',
      comment:
        'The worker has no HTTP: it must not load the OpenAPI builder and its examples. API_VERSION and BASE_PATH live in config/api-version.ts.',
      from: { path: '^server/src/(worker|worker\\.module)\\.ts$' },
      to: { path: '^server/src/openapi/', reachable: true },
    },
    {
      name: 'openapi-only-for-the-document',
      severity: 'error',
      comment:
        'The OpenAPI builder is for the route that serves the document (app.ts) and for `npm run openapi` (openapi-file.ts); runtime code reads API_VERSION and BASE_PATH from config/api-version.ts.',
      from: { path: '^server/src/', pathNot: ['^server/src/openapi/', '^server/src/(app|openapi-file)\\.ts$', ...TESTS] },
      to: { path: '^server/src/openapi/' },
    },
    {
      name: 'pure-libraries-load-no-framework',
      severity: 'error',
      comment: 'The pure libraries run anywhere (a worker thread, a script, a test without services): no Nest, TypeORM, pg, Redis or BullMQ.',
      from: { path: [...PURE_LIBRARIES, ...PURE_HELPERS], pathNot: TESTS },
      to: { path: '^node_modules/(@nestjs/|typeorm/|pg/|pg-copy-streams/|pg-protocol/|ioredis/|bullmq/)' },
    },
    {
      name: 'pure-libraries-stand-alone',
      severity: 'error',
      comment:
        'A pure library loads only itself, another pure library and the pure helpers: never a domain folder (their types may be named: a type-only import leaves nothing at run time).',
      from: { path: PURE_LIBRARIES, pathNot: TESTS },
      to: {
        path: '^server/src/',
        pathNot: [...PURE_LIBRARIES, ...PURE_HELPERS],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'nothing-imports-demo',
      severity: 'error',
      comment: 'The demo data set is a tool for people, not part of the product: only the CLI and tests load it.',
      from: { path: '^server/src', pathNot: ['^server/src/demo/', '^server/src/cli/', '\\.spec\\.ts$'] },
      to: { path: '^server/src/demo/' },
    },
    {
      name: 'sdk-stands-alone',
      severity: 'error',
      comment:
        "The SDK (server/sdk) is a package of its own, installed by integrators: it knows the API only through the OpenAPI document it is generated from, never the server's code (its tests start the built server as processes).",
      from: { path: '^server/sdk/' },
      to: { path: '^(server/(src|test|fleet)|portal|bench|migrations|test-support)/' },
    },
    {
      name: 'server-and-portal-apart',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^portal/' },
    },
    {
      name: 'portal-and-server-apart',
      severity: 'error',
      from: { path: '^portal/' },
      to: { path: '^server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|build)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
