import base from './jest.config.js';

/**
 * The fleet suite (`npm run test:fleet`): real API and worker processes of the built server on a Redis Cluster of the
 * test's own, one file at a time, as it starts a dozen processes on a small machine.
 */
export default {
  ...base,
  testMatch: ['<rootDir>/server/fleet/**/*.test.ts'],
  testTimeout: 240_000,
  maxWorkers: 1,
};
