/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The browser suite runs on its own (npm run test:e2e): plain `npm test` stays browser-free.
  testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
  testTimeout: 20000,
};
