/**
 * Child processes for the suites that need real ones (the browser suite, the
 * bench): the built app, the emulator's own process, the bench's floor. Each
 * starts on a port picked here and is waited for until it answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

/** The built app and the built emulator, as an operator runs them. */
export const APP_MAIN = 'dist/server.js';
export const EMULATOR_MAIN = 'packages/graph-emulator/dist/main.js';

/** A port the OS just handed out and released: free, barring a race we accept in tests. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Child {
  name: string;
  proc: ChildProcess;
  /** The last 200 chunks of stdout and stderr, for a failure message. */
  output: string[];
}

export interface SpawnOptions {
  env: Record<string, string>;
  /** Node flags before the script (`--cpu-prof`, `--expose-gc`…). */
  nodeArgs?: string[];
  /** Arguments after the script. */
  args?: string[];
  /** Start from this process's environment (the bench) instead of PATH alone (the tests). */
  inheritEnv?: boolean;
  /** Copy the child's stderr to ours, each chunk prefixed with `[name]`. */
  echoStderr?: boolean;
  /** Another checkout to run the script from (the bench's previous release); this repository unless told. */
  root?: string;
}

/**
 * Starts `node <script>` from the repository root. A `.ts` script runs through
 * tsx; the app and the emulator are started from their builds (APP_MAIN, EMULATOR_MAIN).
 */
export function spawnNode(name: string, script: string, options: SpawnOptions): Child {
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const root = options.root ?? ROOT;
  const baseEnv = options.inheritEnv ? process.env : { PATH: process.env.PATH ?? '', NODE_ENV: 'test' };
  const proc = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), ...loader, path.join(root, script), ...(options.args ?? [])],
    {
      cwd: root,
      env: { ...baseEnv, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  if (options.echoStderr)
    proc.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
  return { name, proc, output };
}

function exitedEarly(child: Child): Error | undefined {
  if (child.proc.exitCode === null && child.proc.signalCode === null) return undefined;
  return new Error(
    `${child.name} exited with ${child.proc.exitCode ?? child.proc.signalCode}:\n${child.output.join('')}`,
  );
}

/** Polls `url` until it answers 2xx; fails with the child's output if it exits or takes too long. */
export async function waitForUrl(child: Child, url: string, timeoutMs = 15000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const exited = exitedEarly(child);
    if (exited) throw exited;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`${child.name} did not answer ${url} within ${timeoutMs} ms:\n${child.output.join('')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the child has printed a line matching `ready`. */
export async function waitForOutput(child: Child, ready: RegExp, timeoutMs = 15000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (ready.test(child.output.join(''))) return;
    const exited = exitedEarly(child);
    if (exited) throw exited;
    if (Date.now() > deadline)
      throw new Error(`${child.name} did not print ${ready} within ${timeoutMs} ms:\n${child.output.join('')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The child's whole stdout, once it has exited 0. */
export function outputOf(child: Child): Promise<string> {
  let out = '';
  child.proc.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.proc.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${child.name} exited ${code}:\n${child.output.join('')}`)),
    ),
  );
}

/** Signals the child (SIGTERM by default) and waits for it to exit; SIGKILL after 3 s. */
export async function stop(child: Child | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.proc.once('exit', () => resolve()));
  child.proc.kill(signal);
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

/** Resident memory of a child, in MB with one decimal (Linux). */
export function rssMB(child: Child): number {
  const status = readFileSync(`/proc/${child.proc.pid}/status`, 'utf8');
  return Math.round((Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024) * 10) / 10;
}

/** What the app and the emulator process must agree on. */
export interface AppCredentials {
  appId: string;
  appSecret: string;
  sessionSecret: string;
}

type ProcessOptions = Pick<SpawnOptions, 'inheritEnv' | 'echoStderr' | 'nodeArgs' | 'root'>;

/** The built emulator on `port`, its one client calling back to `appUrl`; resolves once it answers. */
export async function startEmulatorProcess(
  port: number,
  appUrl: string,
  creds: AppCredentials,
  options: ProcessOptions = {},
  env: Record<string, string> = {},
): Promise<Child> {
  const child = spawnNode('the emulator', EMULATOR_MAIN, {
    ...options,
    env: {
      PROVIDER_PORT: String(port),
      FB_APP_ID: creds.appId,
      FB_APP_SECRET: creds.appSecret,
      BASE_URL: appUrl,
      // The name the dialog and the provider's settings page show (the emulator's own default is a neutral demo app).
      EMULATOR_APP_NAME: 'Pagelight',
      ...env,
    },
  });
  await waitForUrl(child, `http://127.0.0.1:${port}/__emulator/seed`);
  return child;
}

/** The built app on `port`, configured like an operator would against the emulator at `providerUrl`; resolves once /healthz answers. */
export async function startAppProcess(
  port: number,
  providerUrl: string,
  creds: AppCredentials,
  env: Record<string, string> = {},
  options: ProcessOptions = {},
): Promise<Child> {
  const appUrl = `http://127.0.0.1:${port}`;
  const child = spawnNode('the app', APP_MAIN, {
    ...options,
    env: {
      PORT: String(port),
      BASE_URL: appUrl,
      FB_APP_ID: creds.appId,
      FB_APP_SECRET: creds.appSecret,
      FB_AUTH_URL: providerUrl,
      FB_GRAPH_URL: providerUrl,
      // The emulator serves its seed's pictures on its own origin.
      FB_IMAGE_ORIGINS: providerUrl,
      // And its videos.
      FB_MEDIA_ORIGINS: providerUrl,
      SESSION_SECRET: creds.sessionSecret,
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  await waitForUrl(child, `${appUrl}/healthz`);
  return child;
}
