/**
 * `npm run bench`: the emulator and the built app as separate processes,
 * sessions logged in through the real flow, then autocannon. Prints one table
 * and writes it as JSON to bench/results/latest.json (the one tracked result)
 * and bench/results/<date>.json (ignored).
 *
 *   npm run bench -- [--latency 50] [--connections 10] [--duration 10] [--sessions 50]
 *                    [--flow-seconds 5] [--flow-concurrency 4] [--memory 10000,100000] [--slices 3] [--profile]
 *
 * Warm view and floor are measured in alternating slices (duration / slices
 * each) so both see the same background load.
 *
 * --profile runs the app under `node --cpu-prof` (profiles in bench/results/profiles/).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { CookieClient } from '../test/support/cookieClient';
import { control } from '../test/support/emulator';
import {
  freePort,
  outputOf,
  rssMB,
  spawnNode,
  startAppProcess,
  startEmulatorProcess,
  stop,
  waitForOutput,
  type AppCredentials,
  type Child,
} from '../test/support/processes';
import { realLogin } from '../test/support/realLogin';
import type { MemoryRow } from './memory';

const RESULTS = path.join(__dirname, 'results');
const CREDENTIALS: AppCredentials = {
  appId: '1234567890123456',
  appSecret: 'bench-app-secret-not-for-production',
  sessionSecret: 'bench-session-secret-0123456789abcdef-0123',
};
const BAKERY = SEED_IDS.pages.bakery;
const ADA = SEED_IDS.users.ada;
/** The emulator's log keeps 10 000 entries: beyond that a call count is a floor. */
const EMULATOR_LOG_CAP = 10_000;

interface Options {
  latency: number;
  connections: number;
  duration: number;
  sessions: number;
  flowSeconds: number;
  flowConcurrency: number;
  memory: string;
  slices: number;
  profile: boolean;
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
}

interface Row {
  scenario: string;
  rps?: number;
  p50?: number;
  p99?: number;
  requests?: number;
  flows?: number;
  callsPerView?: number;
  callsSaturated?: boolean;
  rss?: number;
  heapBytesPerSession?: number;
  heapMB?: number;
  target: string;
  pass?: boolean;
}

/** What every scenario runs against: the emulator process and the ports picked for the app and the floor. */
interface Bench {
  opts: Options;
  emulatorUrl: string;
  appPort: number;
  appUrl: string;
  floorPort: number;
  /** Children still running, stopped on the way out. */
  children: Set<Child>;
}

function flags(argv: string[]): Options {
  const out: Options = {
    latency: 50,
    connections: 10,
    duration: 10,
    sessions: 50,
    flowSeconds: 5,
    flowConcurrency: 4,
    memory: '10000,100000',
    slices: 3,
    profile: false,
  };
  const values = out as unknown as Record<string, number | string | boolean>;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const name = flag.replace(/^--/, '').replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    if (!(name in values)) throw new Error(`unknown flag ${flag}`);
    const current = values[name];
    if (typeof current === 'boolean') values[name] = true;
    else if (typeof current === 'number') {
      const n = Number(argv[++i]);
      if (!(n >= 0)) throw new Error(`${flag} needs a number`);
      values[name] = n;
    } else values[name] = argv[++i] ?? '';
  }
  return out;
}

const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
const r1 = (x: number | undefined) => (x === undefined ? '—' : String(Math.round(x * 10) / 10));

async function calls(bench: Bench): Promise<number> {
  return ((await control(bench.emulatorUrl, 'GET', '/calls')) as { count: number }).count;
}

/** The built app against the emulator, with the page cache at `cacheTtl` seconds. */
async function startApp(bench: Bench, cacheTtl: number, tag: string): Promise<Child> {
  const nodeArgs = bench.opts.profile
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${path.join(RESULTS, 'profiles')}`,
        `--cpu-prof-name=app-${tag}-${Date.now()}.cpuprofile`,
      ]
    : [];
  const child = await startAppProcess(
    bench.appPort,
    bench.emulatorUrl,
    CREDENTIALS,
    // Every flow starts from one address: the per-address login limit would measure itself.
    { NODE_ENV: 'production', PAGE_CACHE_TTL: String(cacheTtl), LOGIN_RATE_LIMIT: '0' },
    { inheritEnv: true, echoStderr: true, nodeArgs },
  );
  bench.children.add(child);
  return child;
}

async function stopChild(bench: Bench, child: Child): Promise<void> {
  await stop(child);
  bench.children.delete(child);
}

/** The whole flow as a person does it: home → login → dialog → Continue → callback → picker → connect → page. Returns the cookie. */
async function loginFlow(appUrl: string): Promise<string> {
  const browser = new CookieClient(appUrl);
  const home = await browser.get('/');
  await home.arrayBuffer();
  if (home.status !== 200) throw new Error(`home: expected 200, got ${home.status}`);
  const outcome = await realLogin(appUrl, undefined, BAKERY, browser);
  if (!outcome.ok) throw new Error(`${outcome.step}: got ${outcome.status ?? 'no status'}`);
  return browser.cookieHeader();
}

/** `n` logged-in sessions, ten at a time. */
async function loginSessions(appUrl: string, n: number): Promise<string[]> {
  const cookies: string[] = [];
  for (let done = 0; done < n; done += 10) {
    cookies.push(...(await Promise.all(Array.from({ length: Math.min(10, n - done) }, () => loginFlow(appUrl)))));
  }
  return cookies;
}

/** autocannon GET /pages/<id>, each request with the next session's cookie. */
async function load(url: string, cookies: string[], opts: Pick<Options, 'connections' | 'duration'>): Promise<Load> {
  let i = 0;
  const result = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.duration,
    requests: [
      {
        method: 'GET',
        path: `/pages/${BAKERY}`,
        setupRequest: (req) =>
          cookies.length ? { ...req, headers: { ...req.headers, cookie: cookies[i++ % cookies.length]! } } : req,
      },
    ],
  });
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result['2xx'] };
}

/** Slices of one scenario: requests/s over the whole time; latency percentiles averaged over the slices. */
function merge(runs: Load[]): Load {
  const mean = (k: 'rps' | 'p50' | 'p99') => runs.reduce((a, r) => a + r[k], 0) / runs.length;
  return { rps: mean('rps'), p50: mean('p50'), p99: mean('p99'), requests: runs.reduce((a, r) => a + r.requests, 0) };
}

/** Cold view: the cache off, every view goes upstream (two reads in parallel). Leaves the app running for the login flows. */
async function coldView(bench: Bench): Promise<{ row: Row; app: Child }> {
  const { opts } = bench;
  const L = opts.latency;
  log(`cold view: cache off, L=${L} ms, ${opts.connections} connections, ${opts.duration} s`);
  const app = await startApp(bench, 0, 'cold');
  const cookies = await loginSessions(bench.appUrl, opts.sessions);
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: L });
  await control(bench.emulatorUrl, 'DELETE', '/log');
  const r = await load(bench.appUrl, cookies, opts);
  const count = await calls(bench);
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: 0 });
  return {
    app,
    row: {
      scenario: `cold view (cache off, L=${L} ms)`,
      ...r,
      callsPerView: count / r.requests,
      callsSaturated: count >= EMULATOR_LOG_CAP,
      rss: rssMB(app),
      target: `p50 ≤ ${1.25 * L} ms`,
      pass: r.p50 <= 1.25 * L,
    },
  };
}

/** Full login flows, `flowConcurrency` at a time for `flowSeconds`, no upstream latency. */
async function loginFlows(bench: Bench, app: Child): Promise<Row> {
  const { flowSeconds, flowConcurrency } = bench.opts;
  log(`login flow: ${flowConcurrency} at a time for ${flowSeconds} s, L=0`);
  await control(bench.emulatorUrl, 'DELETE', '/log');
  const times: number[] = [];
  const started = Date.now();
  const until = started + flowSeconds * 1000;
  await Promise.all(
    Array.from({ length: flowConcurrency }, async () => {
      while (Date.now() < until) {
        const t = performance.now();
        await loginFlow(bench.appUrl);
        times.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const q = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]! * 10) / 10;
  return {
    scenario: `login flow, full (flows/s, ${flowConcurrency} at a time, L=0)`,
    rps: times.length / elapsed,
    p50: q(0.5),
    p99: q(0.99),
    flows: times.length,
    callsPerView: (await calls(bench)) / times.length,
    rss: rssMB(app),
    target: '—',
  };
}

/** The floor process (bench/floor.ts), reading the page once with a freshly issued page token. */
async function startFloor(bench: Bench): Promise<Child> {
  const issued = (await control(bench.emulatorUrl, 'POST', '/tokens', { userId: ADA, pageId: BAKERY })) as {
    access_token: string;
  };
  const floor = spawnNode('floor', 'bench/floor.ts', {
    inheritEnv: true,
    echoStderr: true,
    env: {
      PORT: String(bench.floorPort),
      GRAPH_URL: bench.emulatorUrl,
      PAGE_ID: BAKERY,
      PAGE_TOKEN: issued.access_token,
      APP_SECRET: CREDENTIALS.appSecret,
    },
  });
  bench.children.add(floor);
  await waitForOutput(floor, /floor listening/);
  return floor;
}

/**
 * Warm view (cache on) and the floor, side by side in alternating slices so
 * that both see the same background load on a shared machine.
 */
async function warmViewAndFloor(bench: Bench): Promise<Row[]> {
  const { opts } = bench;
  const L = opts.latency;
  log(`warm view (PAGE_CACHE_TTL=60, L=${L} ms) and floor, alternating`);
  const app = await startApp(bench, 60, 'warm');
  const cookies = await loginSessions(bench.appUrl, opts.sessions);
  const floor = await startFloor(bench);
  const slices = Math.max(1, opts.slices);
  const slice = { ...opts, duration: Math.max(1, Math.round(opts.duration / slices)) };
  const warmRuns: Load[] = [];
  const floorRuns: Load[] = [];
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: L });
  await control(bench.emulatorUrl, 'DELETE', '/log');
  for (let i = 0; i < slices; i++) {
    warmRuns.push(await load(bench.appUrl, cookies, slice));
    floorRuns.push(await load(`http://127.0.0.1:${bench.floorPort}`, [], slice));
  }
  const warmCalls = await calls(bench);
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: 0 });
  const warm = { ...merge(warmRuns), rss: rssMB(app) };
  const callsPerView = warmCalls / warm.requests;
  const floorLoad = { ...merge(floorRuns), rss: rssMB(floor) };
  await stopChild(bench, floor);
  await stopChild(bench, app);

  const share = warm.rps / floorLoad.rps;
  return [
    {
      scenario: `warm view (cache on, L=${L} ms)`,
      ...warm,
      callsPerView,
      target: `p50 ≤ ${0.1 * L} ms, 0 calls, ≥ 50% of floor req/s (${Math.round(share * 100)}%)`,
      pass: warm.p50 <= 0.1 * L && callsPerView === 0 && share >= 0.5,
    },
    {
      scenario: 'floor (bare Express + same template, no session/helmet/upstream)',
      ...floorLoad,
      callsPerView: 0,
      target: '—',
    },
  ];
}

/** Heap per idle session in the memory store, measured in a process of its own (bench/memory.ts). */
async function memoryPerSession(bench: Bench): Promise<Row[]> {
  log(`memory: ${bench.opts.memory} idle logged-in sessions in the memory store`);
  const child = spawnNode('memory', 'bench/memory.ts', {
    inheritEnv: true,
    echoStderr: true,
    nodeArgs: ['--expose-gc'],
    args: [bench.opts.memory],
    env: {},
  });
  const measured = JSON.parse(await outputOf(child)) as MemoryRow[];
  return measured.map((m) => ({
    scenario: `memory: ${m.sessions.toLocaleString('en')} idle sessions (heap ${(m.heapBytesPerSession / 1024).toFixed(2)} KB/session, ${m.heapMB} MB)`,
    rss: m.rssMB,
    heapBytesPerSession: m.heapBytesPerSession,
    heapMB: m.heapMB,
    target: '≤ 3 KB heap/session',
    pass: m.heapBytesPerSession <= 3072,
  }));
}

function printTable(rows: Row[], meta: { date: string; command: string }): void {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'upstream calls/view', 'RSS MB', 'target'];
  const lines = rows.map((r) => [
    r.scenario,
    r.rps === undefined ? '—' : String(Math.round(r.rps)),
    r1(r.p50),
    r1(r.p99),
    r.callsPerView === undefined ? '—' : `${r.callsSaturated ? '≥ ' : ''}${r.callsPerView.toFixed(2)}`,
    r1(r.rss),
    r.pass === undefined ? r.target : `${r.pass ? 'pass' : 'FAIL'}: ${r.target}`,
  ]);
  const out = [`${meta.date} · ${meta.command} · node ${process.version}, ${os.cpus().length} CPUs`, ''];
  out.push(`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`);
  for (const l of lines) out.push(`| ${l.join(' | ')} |`);
  process.stdout.write(`${out.join('\n')}\n`);
}

function writeResults(rows: Row[], meta: { date: string; command: string; opts: Options }): void {
  const report = {
    date: meta.date,
    command: meta.command,
    node: process.version,
    cpus: os.cpus().length,
    options: meta.opts,
    rows,
  };
  const json = `${JSON.stringify(report, null, 2)}\n`;
  fs.writeFileSync(path.join(RESULTS, `${meta.date.replace(/[:.]/g, '-')}.json`), json);
  fs.writeFileSync(path.join(RESULTS, 'latest.json'), json);
}

async function main(): Promise<void> {
  const opts = flags(process.argv.slice(2));
  const [emulatorPort, appPort, floorPort] = [await freePort(), await freePort(), await freePort()];
  const bench: Bench = {
    opts,
    emulatorUrl: `http://127.0.0.1:${emulatorPort}`,
    appPort: appPort,
    appUrl: `http://127.0.0.1:${appPort}`,
    floorPort: floorPort,
    children: new Set(),
  };
  const cleanup = () => Promise.all([...bench.children].map((c) => stop(c)));
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
  fs.mkdirSync(path.join(RESULTS, 'profiles'), { recursive: true });

  try {
    bench.children.add(
      await startEmulatorProcess(emulatorPort, bench.appUrl, CREDENTIALS, { inheritEnv: true, echoStderr: true }),
    );
    const rows: Row[] = [];
    const cold = await coldView(bench);
    rows.push(cold.row, await loginFlows(bench, cold.app));
    await stopChild(bench, cold.app);
    rows.push(...(await warmViewAndFloor(bench)));
    rows.push(...(await memoryPerSession(bench)));

    const date = new Date().toISOString();
    const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim();
    printTable(rows, { date, command });
    writeResults(rows, { date, command, opts });
    process.exitCode = rows.every((r) => r.pass !== false) ? 0 : 2;
  } finally {
    await cleanup();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
