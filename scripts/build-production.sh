#!/usr/bin/env bash
# The production build, in one place: the Dockerfile's build stage and CI (.ci/run) both run this,
# so the image holds what CI tested (docs/deployment.md#production-install).
#
#   1. npm ci            every dependency, exactly as package-lock.json has them (TypeScript included)
#   2. npm run build     the app and the emulator package it depends on, into dist/
#   3. npm prune         drops the dev dependencies: what is left is what `npm start` needs
#
# Afterwards `NODE_ENV=production npm start` (or `node dist/server.js`) starts the app and never
# needs a dev dependency. Run from anywhere; it works in the repository holding this script.
set -euo pipefail
cd "$(dirname "$0")/.."

# npm ci empties node_modules first; through a symlink that would empty someone else's install.
if [ -L node_modules ]; then
  echo "build-production: node_modules is a symlink (to $(readlink node_modules)); build in a copy with its own node_modules" >&2
  exit 1
fi

npm ci --no-audit --no-fund
npm run build
npm prune --omit=dev --no-audit --no-fund
