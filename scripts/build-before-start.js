#!/usr/bin/env node
/**
 * `npm start`'s first step (the `prestart` script): decides whether to build.
 *
 * - NODE_ENV=production: never builds. A production install has no TypeScript;
 *   the build happened before (`scripts/build-production.sh`, docs/deployment.md#production-install).
 *   Only checks that the build is there, and says how to make it when it is not.
 * - Otherwise (a newcomer's `npm install && npm start`): builds the app and the
 *   emulator package it depends on (`npm run build`, incremental, so a second
 *   start costs a second or two), unless TypeScript is not installed and a build exists.
 *   It says so before and after, as the first build is silent for most of a minute.
 */
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const built = ['dist/server.js', 'packages/graph-emulator/dist/index.js'].every((f) => existsSync(path.join(root, f)));

function typescriptInstalled() {
  try {
    require.resolve('typescript', { paths: [root] });
    return true;
  } catch {
    return false;
  }
}

function fail(message) {
  process.stderr.write(`pagelight: ${message}\n`);
  process.exit(1);
}

if (process.env.NODE_ENV === 'production') {
  if (!built)
    fail(
      'dist/ is missing: with NODE_ENV=production, npm start runs the build made beforehand. ' +
        'Run scripts/build-production.sh (or `npm ci && npm run build`) first; see docs/deployment.md.',
    );
} else if (typescriptInstalled()) {
  // A first build takes most of a minute on a small machine, and tsc says nothing while it works.
  const started = Date.now();
  process.stdout.write(
    built
      ? 'pagelight: compiling TypeScript changed since the last start (a few seconds)…\n'
      : 'pagelight: compiling TypeScript for the first start (about a minute; later starts take a few seconds)…\n',
  );
  const npm = process.env.npm_execpath;
  // Through npm, so `npm run build` stays the one place that says how to build.
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  process.stdout.write(`pagelight: compiled in ${Math.round((Date.now() - started) / 1000)} s, starting the app.\n`);
} else if (!built) {
  fail('dist/ is missing and TypeScript is not installed: run `npm install` (with dev dependencies), then npm start.');
}
