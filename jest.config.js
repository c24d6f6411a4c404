/**
 * The server's jest suite. Tests are TypeScript run as native ESM (start jest with `node --experimental-vm-modules`),
 * compiled by @swc/jest with the same decorator semantics as tsc (legacy decorators + emitted metadata, which Nest and
 * TypeORM read). Relative imports are written with `.js` as NodeNext requires; the mapper points them at the `.ts`
 * sources. The portal has its own jest configuration (`npm test -w portal`).
 */
export default {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/server/**/*.spec.ts'],
  setupFiles: ['<rootDir>/server/test/setup-env.ts'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/portal/'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'es6' },
      },
    ],
  },
  // Tests talk to a real PostgreSQL and Redis and create their own databases (server/test/database.ts).
  testTimeout: 60_000,
  // The suite waits on PostgreSQL more than it computes: two workers keep both cores busy.
  maxWorkers: 2,
};
