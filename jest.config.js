/**
 * `npm test`: the app's suite and the emulator package's suite, as two projects. ts-jest only transpiles
 * (`isolatedModules` in tsconfig.base.json): type checking a program per suite was most of the run's memory
 * and, with a signing key per emulator, nearly half its CPU; `npm run typecheck` checks the same files once.
 * @type {import('jest').Config}
 */
module.exports = {
  testTimeout: 20000,
  // A worker per core: jest's default keeps a core for its own process, which only waits on the workers, so on
  // two cores one worker ran every suite (239 s against 138 s, docs/performance.md#the-test-run).
  maxWorkers: '100%',
  // A worker is replaced once it holds more than this after a suite: a worker's memory only grew from suite to
  // suite, past 2.6 GB when one process ran them all.
  workerIdleMemoryLimit: '600MB',
  projects: [
    {
      displayName: 'app',
      preset: 'ts-jest',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.test.ts'],
      // The browser suite runs on its own (npm run test:e2e): plain `npm test` stays browser-free.
      testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
      // Decides once whether Redis answers, and says so in one line.
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      // Tests run the emulator from its source, like tsconfig.json's `paths`: no build needed first.
      moduleNameMapper: { '^@pagelight/graph-emulator$': '<rootDir>/packages/graph-emulator/src/index.ts' },
    },
    '<rootDir>/packages/graph-emulator',
  ],
};
