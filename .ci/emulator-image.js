#!/usr/bin/env node
/**
 * The emulator's image without a container daemon (packages/graph-emulator/README.md#in-a-container), run by
 * .ci/emulator-package on the folder its scripts/install-packed.sh filled, which is what the Dockerfile's build
 * stage copies into the image. From the Dockerfile's final stage it takes the ENV, the CMD and the HEALTHCHECK
 * command, and checks:
 *   1. as the image starts it (loopback), the health probe passes;
 *   2. asked to listen on every interface without EMULATOR_EXPOSE=on, it refuses with one line and exit 1;
 *   3. opened to a container network as the README says, the probe passes, and the controls answer the
 *      service's name while still refusing another;
 *   4. SIGTERM ends it with exit 0.
 * Usage: node .ci/emulator-image.js <installed folder> <Dockerfile>
 */
const { spawn, spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { connect } = require('node:net');
const path = require('node:path');
const { freePort } = require('./free-port');

const [dir, dockerfile] = process.argv.slice(2).map((p) => path.resolve(p));
const text = readFileSync(dockerfile, 'utf8').replace(/\\\n\s*/g, ' ');
const finalStage = text.slice(text.lastIndexOf('\nFROM '));

function instruction(name) {
  const m = new RegExp(`^${name} (.*)$`, 'm').exec(finalStage);
  if (m === null) throw new Error(`the Dockerfile's final stage has no ${name}`);
  return m[1];
}
const env = Object.fromEntries([...instruction('ENV').matchAll(/([A-Z_]+)=(\S+)/g)].map((m) => [m[1], m[2]]));
const cmd = JSON.parse(instruction('CMD'));
const probe = JSON.parse(/CMD (\[.*\])$/.exec(instruction('HEALTHCHECK'))[1]);

function run(extraEnv) {
  const [command, ...args] = cmd;
  const proc = spawn(command === 'node' ? process.execPath : command, args, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.on('data', (c) => (output += c));
  proc.stderr.on('data', (c) => (output += c));
  const exited = new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, exited, output: () => output };
}

async function listening(child) {
  const started = Date.now();
  while (!/listening on/.test(child.output())) {
    if (child.proc.exitCode !== null) throw new Error(`it exited at start:\n${child.output()}`);
    if (Date.now() - started > 20_000) throw new Error(`it did not start in 20 s:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function healthy(port) {
  const [command, ...args] = probe;
  const result = spawnSync(command === 'node' ? process.execPath : command, args, {
    env: { PATH: process.env.PATH ?? '', PROVIDER_PORT: String(port) },
  });
  return result.status === 0;
}

/** A control called by host name, over a raw socket, as a container on the network would (its Host header). */
function controlStatus(port, host) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end(`GET /__emulator/seed HTTP/1.1\r\nHost: ${host}:${port}\r\nConnection: close\r\n\r\n`);
    });
    let answer = '';
    socket.on('data', (c) => (answer += c));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])));
    socket.on('error', reject);
  });
}

async function stop(child) {
  child.proc.kill('SIGTERM');
  const code = await child.exited;
  if (code !== 0) throw new Error(`SIGTERM ended it with ${code}:\n${child.output()}`);
}

async function main() {
  let port = await freePort();
  const plain = run({ PROVIDER_PORT: String(port) });
  await listening(plain);
  if (!healthy(port)) throw new Error(`the HEALTHCHECK command failed:\n${plain.output()}`);
  if ((await controlStatus(port, 'graph-emulator')) !== 403)
    throw new Error('a closed emulator answered a service name');
  await stop(plain);
  console.log('-- image: loopback by default, healthy, closed to other host names, exit 0 on SIGTERM');

  const refused = run({ PROVIDER_PORT: String(port), EMULATOR_HOST: '0.0.0.0' });
  const code = await refused.exited;
  if (code !== 1 || !/EMULATOR_EXPOSE=on/.test(refused.output())) {
    throw new Error(`every interface without EMULATOR_EXPOSE=on: exit ${code}\n${refused.output()}`);
  }
  console.log(`-- image: every interface without EMULATOR_EXPOSE=on refused: ${refused.output().trim()}`);

  port = await freePort();
  const opened = run({
    PROVIDER_PORT: String(port),
    EMULATOR_HOST: '0.0.0.0',
    EMULATOR_EXPOSE: 'on',
    EMULATOR_HOSTS: 'graph-emulator',
  });
  await listening(opened);
  if (!healthy(port)) throw new Error(`the HEALTHCHECK command failed when exposed:\n${opened.output()}`);
  const [named, other] = [await controlStatus(port, 'graph-emulator'), await controlStatus(port, 'evil.example')];
  if (named !== 200 || other !== 403) throw new Error(`exposed controls: ${named} for its name, ${other} for another`);
  await stop(opened);
  console.log('-- image: exposed on a container network, healthy, controls open to its service name only');
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
