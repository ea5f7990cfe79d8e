import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import type { RunningEmulator } from '@pagelight/graph-emulator';
import { createApp } from '../../src/app';
import { buildContext } from '../../src/context';
import { ConfigError, loadConfig, type Config } from '../../src/config';
import { createLimitedServer, serverLimits } from '../../src/http/server-limits';
import { createLogger } from '../../src/log/logger';
import { redisFor } from '../../src/redis';
import { shutdown, type Closer } from '../../src/shutdown';
import { completeDialog } from '../support/dialog';
import { control, tokenCalls } from '../support/emulator';
import { LogCapture } from '../support/stack';
import { CookieClient } from '../support/cookie-client';
import { spawnNode } from '../support/processes';
import { configFor, startSharedEmulator } from '../support/instances';
import { redisMissing } from '../support/redis';
import { eventually } from '../support/wait';

/**
 * Graceful shutdown: the request in flight finishes, new connections are
 * refused, then the store, the provider agents and the emulator close. The
 * function is tested in process; one test sends a real SIGTERM to the real
 * server process (src/server.ts run by tsx, demo mode, ephemeral ports).
 * @see docs/architecture.md#building-and-listening
 */
const REDIS_URL = process.env.REDIS_URL;
const withRedis = redisMissing() === undefined;

const prefix = `pagelight-test:${process.pid}:${randomBytes(4).toString('hex')}:`;

/** The callback URL the dialog sent the browser to, on the server that really listens. */
const on = (url: URL | string, port: number): string => {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
};

describe('shutdown(server, closers)', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startSharedEmulator();
  });
  afterAll(async () => {
    await emulator.close();
    if (!withRedis) return;
    const admin = createClient({ url: REDIS_URL });
    await admin.connect();
    const keys: string[] = [];
    for await (const batch of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
    if (keys.length) await admin.del(keys);
    await admin.close();
  });
  afterEach(() => emulator.controls.reset());

  async function serve(config: Config) {
    const logs = new LogCapture();
    const logger = createLogger({ level: 'info', destination: logs });
    const redis = await redisFor(config, logger);
    const ctx = buildContext(config, { logger, ...(redis ? { redis } : {}) });
    const { graph, sessions } = ctx;
    const server = createLimitedServer(createApp(ctx), serverLimits());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const closed: string[] = [];
    const closers: Closer[] = [
      {
        name: 'the provider agents',
        close: () => {
          graph.close();
          closed.push('graph');
        },
      },
      {
        name: 'the session store',
        close: async () => {
          await sessions.close();
          await redis?.close();
          closed.push('store');
        },
      },
    ];
    return { server, port, url: `http://127.0.0.1:${port}`, closers, closed, logger, logs };
  }

  const stores: [string, Record<string, string>][] = [['memory', {}]];
  if (withRedis) stores.push(['redis', { SESSION_STORE: 'redis', REDIS_URL: REDIS_URL!, REDIS_KEY_PREFIX: prefix }]);

  it.each(stores)(
    'when shutdown starts during a slow login (%s store), then that request completes, new connections are refused, and the store closes after it',
    async (_kind, env) => {
      const app = await serve(configFor(emulator, env));
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
      const browser = new CookieClient(undefined, 10_000);
      const login = await browser.get(`${app.url}/auth/login`);
      expect(login.status).toBe(303);
      const callback = await completeDialog(login.headers.get('location')!);
      // The code exchange will take 800 ms upstream.
      emulator.controls.setLatency(800);

      const exchanges = tokenCalls({ emulator });
      const t0 = Date.now();
      let answered = false;
      const inFlight = browser.get(on(callback, app.port)).then((r) => {
        answered = true;
        return r;
      });
      // Shut down once the code exchange has reached the provider: the login is in flight, however slow the machine.
      await eventually(() => tokenCalls({ emulator }) > exchanges);
      const stopped = shutdown(app.server, app.closers, app.logger);
      await refused(`${app.url}/healthz`, () => answered);
      expect(app.closed).toEqual([]);

      const res = await inFlight;
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/pages');
      expect(Date.now() - t0).toBeGreaterThanOrEqual(800);
      // Shutdown ends once the request has: it resolves (the test's timeout bounds it), stores closed last.
      await stopped;
      expect(app.closed).toEqual(['graph', 'store']);
    },
  );

  it('when nothing is in flight and a keep-alive connection is idle, then it resolves at once', async () => {
    const app = await serve(configFor(emulator));
    expect((await fetch(`${app.url}/healthz`, { keepalive: true })).status).toBe(200);
    const t0 = Date.now();
    await shutdown(app.server, app.closers, app.logger);
    // Not held by the idle connection until its keep-alive bound (65 s) ends it.
    expect(Date.now() - t0).toBeLessThan(serverLimits().keepAliveTimeoutMs);
    expect(app.closed).toEqual(['graph', 'store']);
  });

  it('when one closer fails, then it is logged and the later ones still run', async () => {
    const app = await serve(configFor(emulator));
    const failing: Closer = {
      name: 'a broken store',
      close: () => {
        throw new Error('already gone');
      },
    };
    await shutdown(app.server, [failing, ...app.closers], app.logger);
    expect(app.closed).toEqual(['graph', 'store']);
    expect(app.logs.text).toContain('closing a broken store failed');
  });
});

describe('start-up errors', () => {
  it.each([
    ['a path that is not a database number', 'redis://127.0.0.1:6379/sessions'],
    ['another scheme', 'http://127.0.0.1:6379'],
    ['no URL at all', 'not a url'],
  ])('when REDIS_URL is %s, then loading the configuration fails naming REDIS_URL', (_name, url) => {
    const load = () => loadConfig({ SESSION_STORE: 'redis', REDIS_URL: url });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/^REDIS_URL: /);
  });
});

interface Running {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** src/server.ts through tsx, which reads tsconfig.json's `paths`: the emulator comes from its source, no build. */
function startServer(env: Record<string, string>): Running {
  // Only what is given here (spawnNode passes PATH alone): no FB_APP_ID etc. leaking in from the shell, so this is demo mode.
  const { proc: child } = spawnNode('the server', 'src/server.ts', {
    env: { NODE_ENV: 'production', LOG_LEVEL: 'info', PORT: '0', PROVIDER_PORT: '0', ...env },
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
    if (run.child.exitCode !== null)
      throw new Error(`server exited early: ${run.stderr.join('')} ${JSON.stringify(run.lines)}`);
    if (Date.now() - start > ms) throw new Error(`no "${field}" logged within ${ms} ms: ${JSON.stringify(run.lines)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the server process', () => {
  const started: Running[] = [];
  afterAll(() => {
    for (const run of started) if (run.child.exitCode === null) run.child.kill('SIGKILL');
  });

  it('when SIGTERM arrives during a slow request, then that request completes, new connections are refused, and the process exits 0', async () => {
    const run = startServer({});
    started.push(run);
    const port = (await logged(run, 'port')) as number;
    const providerUrl = (await logged(run, 'providerUrl')) as string;
    const app = `http://127.0.0.1:${port}`;
    expect((await fetch(`${app}/healthz`)).status).toBe(200);

    const browser = new CookieClient(undefined, 10_000);
    const login = await browser.get(`${app}/auth/login`);
    expect(login.status).toBe(303);
    const dialog = new URL(login.headers.get('location')!);
    const callback = await completeDialog(on(dialog, Number(new URL(providerUrl).port)));
    // The code exchange will take 1.5 s upstream.
    const latency = await fetch(`${providerUrl}/__emulator/latency`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 1500 }),
    });
    expect(latency.status).toBeLessThan(300);

    const exchanges = await providerTokenCalls(providerUrl);
    const t0 = Date.now();
    let answered = false;
    const inFlight = browser.get(on(callback, port)).then((r) => {
      answered = true;
      return r;
    });
    // Signal once the code exchange has reached the provider, so the slow request is really in flight.
    await eventually(async () => (await providerTokenCalls(providerUrl)) > exchanges);
    run.child.kill('SIGTERM');
    // New connections are refused once the signal is handled (how soon depends on the machine's load), while
    // the slow request is still under way.
    await refused(`${app}/healthz`, () => answered);
    expect(answered).toBe(false);

    const res = await inFlight;
    const answeredAfter = Date.now() - t0;
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/pages');
    const exit = await run.exited;
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(answeredAfter).toBeGreaterThanOrEqual(1500);
    expect(exit.at - t0).toBeGreaterThanOrEqual(answeredAfter);
    expect(run.lines.map((l) => l.msg)).toContain('stopped');
  });
});

/** Token requests an emulator running as its own process has had so far. */
async function providerTokenCalls(providerUrl: string): Promise<number> {
  return ((await control(providerUrl, 'GET', '/calls?path=oauth/access_token')) as { count: number }).count;
}

/** Resolves once a request to `url` fails to connect; rejects if it is still answered once `tooLate()` holds. */
async function refused(url: string, tooLate: () => boolean): Promise<void> {
  for (;;) {
    try {
      await (await fetch(url)).arrayBuffer();
    } catch {
      return;
    }
    if (tooLate()) throw new Error(`${url} still answered after the request in flight had completed`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
