/**
 * Import boundaries, checked in CI by `npm run deps:check` (part of `npm run lint`).
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'emulator-imports-app',
      comment: 'The emulator package stands alone: it imports nothing from the app, its tests, bench or scripts.',
      severity: 'error',
      from: { path: '^packages/graph-emulator/' },
      to: { path: '^(src|test|bench|scripts)/' },
    },
    {
      name: 'app-imports-emulator-internals',
      comment: 'Outside its package, the emulator is used only through its public entry, @pagelight/graph-emulator.',
      severity: 'error',
      from: { pathNot: '^packages/graph-emulator/' },
      to: { path: '^packages/graph-emulator/', pathNot: '^packages/graph-emulator/src/index\\.ts$' },
    },
    {
      name: 'no-circular',
      comment:
        'A module that imports itself back through others. A cycle closed only by `import type` is no runtime cycle and is allowed.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['require', 'default', 'types'] },
  },
};
