/**
 * The house rules for imports, checked by `npm run lint` (and so by `npm test` and CI):
 * - no cycles between modules (a type-only import does not make one: it leaves no trace at run time);
 * - product code never imports the demo data set; only the CLI, `npm start`, tests and benchmarks may;
 * - the server never imports the portal and the portal never imports the server (it reads the generated OpenAPI file).
 */
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
      name: 'nothing-imports-demo',
      severity: 'error',
      comment: 'The demo data set is a tool for people, not part of the product: only the CLI and tests load it.',
      from: { path: '^server/src', pathNot: ['^server/src/demo/', '^server/src/cli/', '\\.spec\\.ts$'] },
      to: { path: '^server/src/demo/' },
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
    exclude: { path: '(^|/)(node_modules|dist|build)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
