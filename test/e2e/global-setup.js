// Runs once before the browser suite: refuse early without Chromium, then build dist/ (and the emulator's),
// because the suite starts the real `node dist/server.js` and `node packages/graph-emulator/dist/main.js`.
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { chromiumProblem } = require('./chromium');

module.exports = async function globalSetup() {
  const problem = chromiumProblem();
  if (problem) {
    const err = new Error(problem);
    err.stack = problem; // one line, not a trace
    throw err;
  }
  const root = path.resolve(__dirname, '..', '..');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
};
