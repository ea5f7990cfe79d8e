#!/usr/bin/env bash
# Packs this package and installs the tarball, with its production dependencies only, into an empty folder:
# what someone outside this repository gets from `npm install`. The Dockerfile's build stage and CI
# (.ci/emulator-package at the repository root) both run it, so the image holds what CI started.
#   usage: scripts/install-packed.sh <empty folder>      (run from a copy of this package, any folder)
set -euo pipefail
dest="$(mkdir -p "$1" && cd "$1" && pwd)"
cd "$(dirname "$0")/.."

# Its own dev dependencies (TypeScript, types): it builds with nothing from around it.
npm install --prefer-offline --no-audit --no-fund --no-package-lock --loglevel=error >/dev/null
tarball="$(npm pack --silent --pack-destination "$dest")"
echo "install-packed: $tarball, $(stat -c %s "$dest/$tarball") bytes"

cd "$dest"
[ -f package.json ] || echo '{"private":true}' >package.json
started=$(date +%s%N)
npm install "./$tarball" --omit=dev --prefer-offline --no-audit --no-fund --loglevel=error >/dev/null
rm "$tarball"
echo "install-packed: installed into $dest in $(( ($(date +%s%N) - started) / 1000000 )) ms"
