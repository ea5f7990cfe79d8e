// Where the browser suite finds Chromium, and the one line it prints when there is none.
// Plain JS so `npm run test:e2e` can check before jest (and ts-jest) start.
const fs = require('node:fs');

const DEFAULT_PATH = '/usr/bin/chromium';

/** The Chromium executable to drive: $CHROMIUM_PATH, else the Debian package's. */
function chromiumPath() {
  return process.env.CHROMIUM_PATH || DEFAULT_PATH;
}

/** A one-line reason when Chromium cannot be used, else undefined. */
function chromiumProblem() {
  const file = chromiumPath();
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return undefined;
  } catch {
    return (
      `browser tests: Chromium not found at ${file}` +
      (process.env.CHROMIUM_PATH ? ' (from CHROMIUM_PATH)' : '') +
      ' — install it with `apt-get update && apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary'
    );
  }
}

module.exports = { chromiumPath, chromiumProblem };

if (require.main === module) {
  const problem = chromiumProblem();
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
