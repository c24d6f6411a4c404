import base from '../../jest.config.js';

/**
 * The SDK's suite (`npm run test:sdk`): its generated files are checked fresh, and the client is run against the
 * built API and worker, which the live test starts on a database and Redis prefix of its own.
 */
export default {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/server/sdk/test/**/*.test.ts'],
  setupFiles: [],
  testTimeout: 120_000,
  maxWorkers: 1,
};
