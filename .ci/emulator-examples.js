#!/usr/bin/env node
/**
 * Run by .ci/emulator-package in an empty folder where the packed emulator was installed: starts
 * `npx graph-emulator` there, then runs every example the package README marks with
 * `<!-- example: NAME -->` against it (EMULATOR_URL in their environment), as a user would paste them:
 *   sh     with bash -euo pipefail (the curl example);
 *   python with `python3 -m pytest` (pytest and requests);
 *   js     with `node --test` (Node's own test runner and fetch).
 * Then SIGTERM to npx's process group: the emulator must say it is closing, and exit 0 (npm itself, killed
 * by the same signal, may end by it). Prints the start time.
 * Usage: node .ci/emulator-examples.js <folder with the package installed> <README.md> [more markdown files]
 */
const { spawn, spawnSync } = require('node:child_process');
const { readFileSync, writeFileSync } = require('node:fs');
const { freePort } = require('./free-port');
const path = require('node:path');

const [dir, ...documents] = process.argv.slice(2).map((p) => path.resolve(p));

/** The README's marked examples, in order: `<!-- example: curl -->` then a fenced block. */
function examples(markdown) {
  const found = [];
  const re = /<!-- example: ([a-z-]+) -->\s*\n```(\w+)\n([\s\S]*?)\n```/g;
  for (let m = re.exec(markdown); m !== null; m = re.exec(markdown)) found.push({ name: m[1], lang: m[2], code: m[3] });
  return found;
}

const RUNNERS = {
  sh: (file) => ['bash', ['-euo', 'pipefail', file]],
  python: (file) => ['python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', file]],
  js: (file) => [process.execPath, ['--test', file]],
};
const FILES = { sh: 'example.sh', python: 'test_example.py', js: 'example.test.mjs' };

async function main() {
  const found = documents.flatMap((file) => examples(readFileSync(file, 'utf8')));
  const langs = new Set(found.map((e) => e.lang));
  for (const lang of ['sh', 'python', 'js']) if (!langs.has(lang)) throw new Error(`README has no ${lang} example`);

  const port = await freePort();
  const started = Date.now();
  const proc = spawn('npx', ['--no-install', 'graph-emulator'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, PROVIDER_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: npx's child gets the signal too
  });
  let output = '';
  proc.stdout.on('data', (c) => (output += c));
  proc.stderr.on('data', (c) => (output += c));
  const exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  const stop = () => {
    try {
      process.kill(-proc.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  try {
    const url = `http://127.0.0.1:${port}`;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`graph-emulator exited at start:\n${output}`);
      if (/listening on/.test(output)) break;
      if (Date.now() - started > 30_000) throw new Error(`graph-emulator did not start in 30 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    console.log(`-- npx graph-emulator listening after ${Date.now() - started} ms`);

    for (const example of found) {
      const file = path.join(dir, FILES[example.lang]);
      writeFileSync(file, `${example.code}\n`);
      const [command, args] = RUNNERS[example.lang](file);
      const t = Date.now();
      const run = spawnSync(command, args, { cwd: dir, env: { ...process.env, EMULATOR_URL: url }, encoding: 'utf8' });
      if (run.status !== 0) {
        throw new Error(`README example "${example.name}" (${example.lang}) failed:\n${run.stdout}\n${run.stderr}`);
      }
      console.log(`-- README example "${example.name}" (${example.lang}) passed in ${Date.now() - t} ms`);
    }
  } finally {
    stop();
  }
  const { code, signal } = await exited;
  if (!(code === 0 || signal === 'SIGTERM') || !/SIGTERM received, closing/.test(output)) {
    throw new Error(`graph-emulator did not close on SIGTERM (${code ?? signal}):\n${output}`);
  }
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
