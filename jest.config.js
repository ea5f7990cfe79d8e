/**
 * `npm test`: the app's suite and the emulator package's suite, as two projects.
 * @type {import('jest').Config}
 */
module.exports = {
  testTimeout: 20000,
  projects: [
    {
      displayName: 'app',
      preset: 'ts-jest',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.test.ts'],
      // The browser suite runs on its own (npm run test:e2e): plain `npm test` stays browser-free.
      testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
      // Tests run the emulator from its source, like tsconfig.json's `paths`: no build needed first.
      moduleNameMapper: { '^@pagelight/graph-emulator$': '<rootDir>/packages/graph-emulator/src/index.ts' },
    },
    '<rootDir>/packages/graph-emulator',
  ],
};
