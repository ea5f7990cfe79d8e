/** The emulator's own suite; the root `npm test` runs it as one of its projects. @type {import('jest').Config} */
module.exports = {
  displayName: 'graph-emulator',
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }] },
};
