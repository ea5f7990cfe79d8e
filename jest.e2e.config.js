/**
 * The browser suite (npm run test:e2e): real Chromium against the built app and the
 * emulator, each in its own process. Serial, because the tests share one emulator.
 * @type {import('jest').Config}
 */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/e2e'],
  testMatch: ['**/*.e2e.test.ts'],
  globalSetup: '<rootDir>/test/e2e/global-setup.js',
  // A bound on a hang, not a speed target: the same tests took three times as long on a busy CI machine.
  testTimeout: 120000,
  maxWorkers: 1,
  moduleNameMapper: { '^@pagelight/graph-emulator$': '<rootDir>/packages/graph-emulator/src/index.ts' },
};
