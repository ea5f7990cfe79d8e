/**
 * `npm test`: the app's suite and the emulator package's suite, as two projects. ts-jest only transpiles
 * (`isolatedModules` in tsconfig.base.json): type checking a program per suite was most of the run's memory
 * and, with a signing key per emulator, nearly half its CPU; `npm run typecheck` checks the same files once.
 * @type {import('jest').Config}
 */
module.exports = {
  testTimeout: 20000,
  // On two cores jest would run every suite inside its own process (one worker or fewer means in band), which
  // grew past 2.6 GB; with a limit it runs them in a worker, replaced once it holds more than this after a
  // suite (README.md#tests-and-screenshots).
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
