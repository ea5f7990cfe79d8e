/**
 * What every scenario of `npm run bench` shares: the options, the table's row, the processes it starts and the
 * load it sends. The scenarios live in run.ts (views, login flow, memory), live.ts (freshness, streams) and
 * scaleout.ts (three instances sharing Redis).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { CookieClient } from '../test/support/cookie-client';
import { control } from '../test/support/emulator';
import { startAppProcess, stop, type AppCredentials, type Child } from '../test/support/processes';
import { realLogin } from '../test/support/login';

export const RESULTS = path.join(__dirname, 'results');
export const CREDENTIALS: AppCredentials = {
  appId: '1234567890123456',
  appSecret: 'bench-app-secret-not-for-production',
  sessionSecret: 'bench-session-secret-0123456789abcdef-0123',
};
/** What the emulator's handshake presents and the app expects (FB_WEBHOOK_VERIFY_TOKEN on both). */
export const WEBHOOK_VERIFY_TOKEN = 'bench-webhook-verify-token';
export const BAKERY = SEED_IDS.pages.bakery;
export const ADA = SEED_IDS.users.ada;
/** The emulator's log keeps 10 000 entries: beyond that a call count is a floor. */
export const EMULATOR_LOG_CAP = 10_000;

export interface Options {
  latency: number;
  connections: number;
  duration: number;
  sessions: number;
  flowSeconds: number;
  flowConcurrency: number;
  memory: string;
  slices: number;
  profile: boolean;
  /** Comma-separated scenario names to run (all when empty): see SCENARIOS in run.ts. */
  only: string;
  posts: number;
  scaleSeconds: number;
  streams: number;
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
}

export interface Row {
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
  /** The scenario's own figure, as printed in the table's "result" column. */
  result?: string;
  /** The figures behind `result`, for the JSON. */
  figures?: Record<string, number | string | boolean>;
  target: string;
  pass?: boolean;
}

/** What every scenario runs against: the emulator process and the ports picked for the app and the floor. */
export interface Bench {
  opts: Options;
  emulatorUrl: string;
  appPort: number;
  appUrl: string;
  floorPort: number;
  /** The emulator process (its CPU time is part of the cold view's story: it shares the cores). */
  emulator?: Child;
  /** Children still running, stopped on the way out. */
  children: Set<Child>;
  /** Called on the way out (e.g. deleting the bench's keys from a shared Redis). */
  cleanups: (() => Promise<void>)[];
}

export const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
export const r1 = (x: number | undefined) => (x === undefined ? '—' : String(Math.round(x * 10) / 10));

/** Graph and token calls the emulator logged since the last clear, optionally filtered (its `/calls` control). */
export async function calls(bench: Bench, filter: Record<string, string> = {}): Promise<number> {
  const query = new URLSearchParams(filter).toString();
  return ((await control(bench.emulatorUrl, 'GET', `/calls${query ? `?${query}` : ''}`)) as { count: number }).count;
}

/**
 * The built app against the emulator, with the page cache at `cacheTtl` seconds, on `port` (the bench's app port
 * by default). `env` adds to or overrides the bench's settings.
 */
/** With --profile: Node's flags that write the app process's CPU profile under results/profiles, named by `tag`. */
export function profileArgs(bench: Bench, tag: string): string[] {
  return bench.opts.profile
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${path.join(RESULTS, 'profiles')}`,
        `--cpu-prof-name=app-${tag}-${Date.now()}.cpuprofile`,
      ]
    : [];
}

export async function startApp(
  bench: Bench,
  cacheTtl: number,
  tag: string,
  env: Record<string, string> = {},
  port = bench.appPort,
  extraNodeArgs: string[] = [],
): Promise<Child> {
  const nodeArgs = [...extraNodeArgs, ...profileArgs(bench, tag)];
  const child = await startAppProcess(
    port,
    bench.emulatorUrl,
    CREDENTIALS,
    // Every flow starts from one address: the per-address login limit would measure itself.
    { NODE_ENV: 'production', PAGE_CACHE_TTL: String(cacheTtl), LOGIN_RATE_LIMIT: '0', ...env },
    { inheritEnv: true, echoStderr: true, nodeArgs },
  );
  child.name = `app ${tag}`;
  bench.children.add(child);
  return child;
}

export async function stopChild(bench: Bench, child: Child): Promise<void> {
  await stop(child);
  bench.children.delete(child);
}

/** The whole flow as a person does it: home → login → dialog → Continue → callback → picker → connect → page. Returns the cookie. */
export async function loginFlow(appUrl: string): Promise<string> {
  const browser = new CookieClient(appUrl);
  const home = await browser.get('/');
  await home.arrayBuffer();
  if (home.status !== 200) throw new Error(`home: expected 200, got ${home.status}`);
  const outcome = await realLogin(appUrl, undefined, BAKERY, browser);
  if (!outcome.ok) throw new Error(`${outcome.step}: got ${outcome.status ?? 'no status'}`);
  return browser.cookieHeader();
}

/** `n` logged-in sessions, ten at a time. */
export async function loginSessions(appUrl: string, n: number): Promise<string[]> {
  const cookies: string[] = [];
  for (let done = 0; done < n; done += 10) {
    cookies.push(...(await Promise.all(Array.from({ length: Math.min(10, n - done) }, () => loginFlow(appUrl)))));
  }
  return cookies;
}

/** autocannon GET /pages/<id>, each request with the next session's cookie, in `language` when given. */
export async function load(
  url: string,
  cookies: string[],
  opts: Pick<Options, 'connections' | 'duration'>,
  /** What each request asks for: the page view unless told. */
  target = `/pages/${BAKERY}`,
  language?: string,
): Promise<Load> {
  let i = 0;
  const result = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.duration,
    requests: [
      {
        method: 'GET',
        path: target,
        ...(language ? { headers: { 'accept-language': language } } : {}),
        setupRequest: (req) =>
          cookies.length ? { ...req, headers: { ...req.headers, cookie: cookies[i++ % cookies.length]! } } : req,
      },
    ],
  });
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result['2xx'] };
}

/** The value at quantile `p` (0–1) of ascending `sorted`. */
export function quantile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN;
}

/**
 * CPU time of every thread of a process so far, in µs, from /proc/<pid>/task/<tid>/schedstat (Linux,
 * nanoseconds): /proc/<pid>/stat counts in 10 ms ticks, too coarse for slices of a second or batches of a few
 * hundred requests. Only that process: the load generator (this process) and the emulator are not in it.
 */
export function cpuUs(child: Child): number {
  const tasks = `/proc/${child.proc.pid}/task`;
  let ns = 0;
  for (const tid of readdirSync(tasks)) {
    try {
      ns += Number(readFileSync(`${tasks}/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return ns / 1000;
}

/** The middle value of `xs` (the upper one of an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * One side of an alternation: the process its slices' CPU time is charged to, and one slice of its load
 * (`measured` false for the warm-up slice, whose figures count nowhere).
 */
export interface SliceSide {
  child: Child;
  run(slice: Pick<Options, 'connections' | 'duration'>, measured: boolean): Promise<Load>;
}

/**
 * What one side measured over every slice: its load, the CPU time its process spent per request in each round
 * (ms, in round order), and their median.
 */
export interface Sliced {
  load: Load;
  cpuMsPerRequest: number;
  perRound: number[];
}

/** Slices of one side: requests/s over the whole time; latency percentiles averaged over the slices. */
function merge(runs: Load[]): Load {
  const mean = (k: 'rps' | 'p50' | 'p99') => runs.reduce((a, r) => a + r[k], 0) / runs.length;
  return { rps: mean('rps'), p50: mean('p50'), p99: mean('p99'), requests: runs.reduce((a, r) => a + r.requests, 0) };
}

/**
 * `sides` measured side by side in rounds (--slices of them, each side one slice of --duration ÷ --slices a
 * round, the order turned about every round), after an unmeasured slice of WARM_UP_SECONDS each, so that all
 * see the same background load on a shared machine. Each process's CPU time is read around its own slices only:
 * the load generator shares the cores, so wall-clock throughput alone would charge the app for autocannon's work.
 * A ratio between two sides is taken per round and the median round kept (`roundRatio`), so a slow spell of the
 * machine moves a round or two, not the figure. @see docs/performance.md#cpu-ratios
 */
/**
 * The unmeasured slice of each side before the rounds: the JIT goes on making both sides cheaper for a few
 * thousand requests (a cold post view's CPU fell by a third over its first 9 s), and not at the same pace on
 * both, so rounds that start at once measure the warm-up (docs/performance.md#cpu-ratios).
 */
const WARM_UP_SECONDS = 5;

export async function alternateSlices(opts: Options, sides: SliceSide[]): Promise<Sliced[]> {
  const rounds = Math.max(1, opts.slices);
  // Whole seconds: autocannon averages requests/s over one-second samples, and a part second would halve it.
  const slice = { ...opts, duration: Math.max(1, Math.round(opts.duration / rounds)) };
  for (const side of sides) await side.run({ ...slice, duration: WARM_UP_SECONDS }, false);
  const measured = sides.map(() => ({ runs: [] as Load[], perRound: [] as number[] }));
  for (let r = 0; r < rounds; r++) {
    const order = sides.map((_, i) => (r % 2 === 0 ? i : sides.length - 1 - i));
    for (const s of order) {
      const side = sides[s]!;
      const before = cpuUs(side.child);
      const run = await side.run(slice, true);
      measured[s]!.runs.push(run);
      measured[s]!.perRound.push((cpuUs(side.child) - before) / 1000 / run.requests);
    }
  }
  return measured.map(({ runs, perRound }) => ({ load: merge(runs), cpuMsPerRequest: median(perRound), perRound }));
}

/** `a`'s CPU per request over `b`'s: the median of the rounds' ratios, and each round's. */
export function roundRatio(a: Sliced, b: Sliced): { ratio: number; rounds: number[] } {
  const rounds = a.perRound.map((x, r) => x / b.perRound[r]!);
  return { ratio: median(rounds), rounds };
}

/** Node flags and env that load bench/heap-probe.js into an app started with startApp, on `port`. */
export function heapProbe(port: number): { nodeArgs: string[]; env: Record<string, string> } {
  return {
    nodeArgs: ['--expose-gc', '--require', path.join(__dirname, 'heap-probe.js')],
    env: { BENCH_HEAP_PORT: String(port) },
  };
}

/** The app's heap in use after a full collection, in bytes, from the probe on `port` (see heapProbe). */
export async function heapUsed(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/heap`);
  if (!res.ok) throw new Error(`heap probe: ${res.status}`);
  return ((await res.json()) as { heapUsed: number }).heapUsed;
}

/** Resident memory of a child in KB (Linux), unrounded, for per-connection deltas. */
export function rssKB(child: Child): number {
  const status = readFileSync(`/proc/${child.proc.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
}
