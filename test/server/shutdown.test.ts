import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { completeDialog } from '../helpers/dialog';
import { redisAnswers } from './helpers';

/**
 * The real server process (src/server.ts, demo mode, ephemeral ports): a
 * SIGTERM lets the request in flight finish, then the process closes its
 * store and agents and exits 0. Bad store settings stop it with one line.
 */
const ROOT = path.resolve(__dirname, '../..');
const REGISTER = path.join(__dirname, 'support/register-ts.js');
const REDIS_URL = process.env.REDIS_URL;
const withRedis = REDIS_URL !== undefined && REDIS_URL !== '' && redisAnswers(REDIS_URL);
if (!withRedis)
  console.warn(`${REDIS_URL ? 'Redis at REDIS_URL is not answering' : 'REDIS_URL is not set'}: skipping the graceful shutdown test with SESSION_STORE=redis`);

interface Running {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

function startServer(env: Record<string, string>): Running {
  const child = spawn(process.execPath, ['-r', REGISTER, path.join(ROOT, 'src/server.ts')], {
    cwd: ROOT,
    // Only what is given here: no FB_APP_ID etc. leaking in from the shell, so this is demo mode.
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', LOG_LEVEL: 'info', PORT: '0', PROVIDER_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  const stderr: string[] = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const line of parts) {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        lines.push({ msg: line });
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { child, lines, stderr, exited };
}

async function logged(run: Running, field: string, ms = 15_000): Promise<unknown> {
  const start = Date.now();
  for (;;) {
    const line = run.lines.find((l) => l[field] !== undefined);
    if (line) return line[field];
    if (run.child.exitCode !== null) throw new Error(`server exited early: ${run.stderr.join('')} ${JSON.stringify(run.lines)}`);
    if (Date.now() - start > ms) throw new Error(`no "${field}" logged within ${ms} ms: ${JSON.stringify(run.lines)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Just enough of a browser: one cookie, no redirects followed. */
function cookieFetch() {
  let cookie = '';
  return async (url: string): Promise<Response> => {
    const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('pagelight='));
    if (set) cookie = set.split(';')[0]!;
    return res;
  };
}

const on = (url: string, port: number) => {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
};

describe('the server process (issue 4: graceful shutdown, start-up errors)', () => {
  const started: Running[] = [];
  afterAll(() => {
    for (const run of started) if (run.child.exitCode === null) run.child.kill('SIGKILL');
  });

  const prefix = `pagelight-test:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const stores: [string, Record<string, string>][] = [['memory', {}]];
  if (withRedis) stores.push(['redis', { SESSION_STORE: 'redis', REDIS_URL: REDIS_URL!, REDIS_PREFIX: prefix }]);
  afterAll(async () => {
    if (!withRedis) return;
    const admin = createClient({ url: REDIS_URL! });
    await admin.connect();
    const keys: string[] = [];
    for await (const batch of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
    if (keys.length) await admin.del(keys);
    await admin.close();
  });

  it.each(stores)(
    'when SIGTERM arrives during a slow request (%s store), then that request completes, new connections are refused, and the process exits 0',
    async (_kind, env) => {
      const run = startServer(env);
      started.push(run);
      const port = (await logged(run, 'port')) as number;
      const providerUrl = (await logged(run, 'providerUrl')) as string;
      const app = `http://127.0.0.1:${port}`;
      expect((await fetch(`${app}/healthz`)).status).toBe(200);

      const browser = cookieFetch();
      const login = await browser(`${app}/auth/login`);
      expect(login.status).toBe(303);
      const dialog = new URL(login.headers.get('location')!);
      const callback = await completeDialog(on(dialog.toString(), Number(new URL(providerUrl).port)));
      // The code exchange will take 800 ms upstream.
      const latency = await fetch(`${providerUrl}/__emulator/latency`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ms: 800 }),
      });
      expect(latency.status).toBeLessThan(300);

      const t0 = Date.now();
      const inFlight = browser(on(callback.toString(), port));
      await new Promise((resolve) => setTimeout(resolve, 200));
      run.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 100));
      await expect(fetch(`${app}/healthz`)).rejects.toThrow();

      const res = await inFlight;
      const answeredAfter = Date.now() - t0;
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/pages');
      const exit = await run.exited;
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(answeredAfter).toBeGreaterThanOrEqual(800);
      expect(exit.at - t0).toBeLessThan(5000);
      expect(run.lines.map((l) => l.msg)).toContain('stopped');
      console.info(
        `shutdown (${_kind}): in-flight request answered ${answeredAfter} ms after it started, process exited ${exit.at - t0 - answeredAfter} ms later`,
      );
    },
  );

  it.each([
    ['a path that is not a database number', 'redis://127.0.0.1:6379/sessions'],
    ['another scheme', 'http://127.0.0.1:6379'],
    ['no URL at all', 'not a url'],
  ])('when REDIS_URL is %s, then the process stops at start with one line naming REDIS_URL', async (_name, url) => {
    const run = startServer({ SESSION_STORE: 'redis', REDIS_URL: url });
    started.push(run);
    const exit = await run.exited;
    expect(exit.code).toBe(1);
    const err = run.stderr.join('');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(/^pagelight: configuration error: REDIS_URL: /);
  });
});
