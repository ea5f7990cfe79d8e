/**
 * `npm run bench`: the emulator and the built app as separate processes,
 * sessions logged in through the real flow, then autocannon. Prints one table
 * and writes it as JSON to bench/results/latest.json (the one tracked result)
 * and bench/results/<date>.json (ignored).
 *
 *   npm run bench -- [--latency 50] [--connections 10] [--duration 10] [--sessions 50]
 *                    [--flow-seconds 5] [--flow-concurrency 4] [--memory 10000,100000] [--slices 9] [--profile]
 *                    [--posts 30] [--scale-seconds 20] [--streams 1000] [--only cold,flow,warm,post,views,previous,observe,scaleout,freshness,streams,memory,reply,publish]
 *
 * Each view and its floor are measured in alternating slices (duration / slices
 * each, one round a slice of each) so both see the same background load; the
 * cost per view is the median of the rounds' ratios of each process's own CPU
 * time (/proc schedstat) per request (bench/shared.ts alternateSlices).
 *
 * Every time target is a ratio of two figures measured in the same run (the app against bare Express doing
 * the same work), so a slow spell of the shared machine moves both sides: see TARGETS.
 *
 * --profile runs the app under `node --cpu-prof` (profiles in bench/results/profiles/).
 * The scenarios, the targets and the shortcuts they pay for: docs/performance.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SEED } from '@pagelight/graph-emulator';
import { control } from '../test/support/emulator';
import {
  freePort,
  outputOf,
  rssMB,
  spawnNode,
  startEmulatorProcess,
  stop,
  waitForOutput,
  type Child,
} from '../test/support/processes';
import { freshness, streams } from './live';
import { publishCost } from './publish';
import { replyCost } from './reply';
import { observeCost } from './observe';
import { againstPrevious } from './previous';
import { viewsAgainstCalls } from './views';
import type { MemoryRow } from './memory';
import { scaleOut } from './scaleout';
import {
  ADA,
  BAKERY,
  CREDENTIALS,
  EMULATOR_LOG_CAP,
  RESULTS,
  WEBHOOK_VERIFY_TOKEN,
  alternateSlices,
  calls,
  cpuUs,
  load,
  log,
  loginFlow,
  loginSessions,
  r1,
  roundRatio,
  startApp,
  stopChild,
  type Bench,
  type Load,
  type Options,
  type Row,
  type Sliced,
  type SliceSide,
} from './shared';

/**
 * The time targets, each the app's figure over the floor's from the same run (docs/performance.md#targets).
 * A multiple of the injected latency L would also measure how busy the machine's cores were.
 */
const TARGETS = {
  /** Cold view p50 ÷ the cold floor's p50 (alternating slices). */
  coldP50: 1.1,
  /** App CPU per cold view ÷ the cold floor's CPU per request. */
  coldCpu: 1.25,
  /** App CPU per warm view ÷ the floor's CPU per request. */
  warmCost: 1.3,
  /** App CPU per warm post view ÷ the post floor's CPU per request (the same rule as the page view's). */
  postCost: 1.3,
  /** App CPU per warm view in German or Arabic ÷ per warm view in English (docs/architecture.md#languages). */
  languageCost: 1.1,
} as const;

/**
 * Every cold view counts against its session's reads a minute (SESSION_RATE_LIMIT, 60): the slices' few thousand
 * views from 50 sessions would reach it on a quiet machine and be refused. Still counted, never refused.
 */
const COLD_VIEWS = { SESSION_RATE_LIMIT: '100000' };

/** `value ≤ bound`, as the table prints it. */
const ratio = (value: number) => value.toFixed(2);

function flags(argv: string[]): Options {
  const out: Options = {
    latency: 50,
    connections: 10,
    duration: 10,
    sessions: 50,
    flowSeconds: 5,
    flowConcurrency: 4,
    memory: '10000,100000',
    slices: 9,
    profile: false,
    only: '',
    posts: 30,
    scaleSeconds: 20,
    streams: 1000,
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

/**
 * Cold view: the cache off, every view goes upstream (two reads in parallel). Side by side with the cold
 * floor in alternating slices: bare Express making the same two reads per request (one token per session,
 * in turn, as the app's sessions do) and rendering the same page, so the rows say what the app adds to the
 * same work, in time (p50) and in CPU. Leaves the app running for the login flows.
 */
async function coldView(bench: Bench): Promise<{ rows: Row[]; app: Child }> {
  const { opts } = bench;
  const L = opts.latency;
  log(`cold view and cold floor: cache off, L=${L} ms, ${opts.connections} connections, ${opts.duration} s each`);
  const app = await startApp(bench, 0, 'cold', COLD_VIEWS);
  const cookies = await loginSessions(bench.appUrl, opts.sessions);
  const floor = await startFloor(bench, { reads: 'each', tokens: opts.sessions });
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: L });
  // Where the cores went: every view waits for CPU that the app, the emulator and autocannon (this process) share.
  const spent = { emulator: 0, load: 0, calls: 0, requests: 0 };
  const [appSide, floorSide] = await alternateSlices(opts, [
    {
      child: app,
      run: async (slice, measured) => {
        await control(bench.emulatorUrl, 'DELETE', '/log');
        const before = { emulator: cpuUs(bench.emulator!), load: process.cpuUsage() };
        const run = await load(bench.appUrl, cookies, slice);
        const used = process.cpuUsage(before.load);
        const viewCalls = await calls(bench);
        if (measured) {
          spent.emulator += (cpuUs(bench.emulator!) - before.emulator) / 1000;
          spent.load += (used.user + used.system) / 1000;
          spent.calls += viewCalls;
          spent.requests += run.requests;
        }
        return run;
      },
    },
    { child: floor, run: (slice) => load(`http://127.0.0.1:${bench.floorPort}`, [], slice) },
  ]);
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: 0 });
  const floorRss = rssMB(floor);
  await stopChild(bench, floor);
  const r = appSide!.load;
  const f = floorSide!.load;
  const cpu = {
    appCpuMsPerView: appSide!.cpuMsPerRequest,
    emulatorCpuMsPerView: spent.emulator / spent.requests,
    loadCpuMsPerView: spent.load / spent.requests,
    floorCpuMsPerRequest: floorSide!.cpuMsPerRequest,
  };
  const p50Ratio = r.p50 / f.p50;
  return {
    app,
    rows: [
      {
        scenario: `cold view (cache off, L=${L} ms)`,
        ...r,
        callsPerView: spent.calls / spent.requests,
        callsSaturated: spent.calls >= EMULATOR_LOG_CAP,
        rss: rssMB(app),
        result:
          `p50 ÷ cold floor p50 = ${ratio(p50Ratio)} (${r1(r.p50)} ÷ ${r1(f.p50)} ms); CPU per view: app ` +
          `${cpu.appCpuMsPerView.toFixed(2)} ms, emulator ${cpu.emulatorCpuMsPerView.toFixed(2)} ms, ` +
          `autocannon ${cpu.loadCpuMsPerView.toFixed(2)} ms`,
        figures: { p50Ratio, coldFloorP50: f.p50, ...cpu },
        target: `p50 ≤ ${TARGETS.coldP50.toFixed(2)} × cold floor p50`,
        pass: p50Ratio <= TARGETS.coldP50,
      },
      {
        scenario: `cold floor (bare Express, the same two reads per request and the same rendering, L=${L} ms)`,
        ...f,
        callsPerView: 2,
        rss: floorRss,
        result: `CPU per request ${cpu.floorCpuMsPerRequest.toFixed(2)} ms`,
        figures: { cpuMsPerRequest: cpu.floorCpuMsPerRequest },
        target: '—',
      },
      cpuCostRow(
        'cold cost per view: app CPU per cold view ÷ cold floor CPU per request',
        appSide!,
        floorSide!,
        TARGETS.coldCpu,
      ),
    ],
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

/**
 * The floor process (bench/floor.ts) with freshly issued page tokens: it reads the page once at start, or
 * (`reads: 'each'`, the cold floor) for every request, taking `tokens` tokens in turn.
 */
async function startFloor(bench: Bench, cold?: { reads: 'each'; tokens: number }, postId?: string): Promise<Child> {
  const tokens: string[] = [];
  for (let i = 0; i < (cold?.tokens ?? 1); i++) {
    const issued = (await control(bench.emulatorUrl, 'POST', '/tokens', { userId: ADA, pageId: BAKERY })) as {
      access_token: string;
    };
    tokens.push(issued.access_token);
  }
  const floor = spawnNode('floor', 'bench/floor.ts', {
    inheritEnv: true,
    echoStderr: true,
    env: {
      PORT: String(bench.floorPort),
      GRAPH_URL: bench.emulatorUrl,
      PAGE_ID: BAKERY,
      PAGE_TOKEN: tokens.join(','),
      APP_SECRET: CREDENTIALS.appSecret,
      ...(cold ? { FLOOR_READS: cold.reads } : {}),
      ...(postId ? { POST_ID: postId } : {}),
    },
  });
  bench.children.add(floor);
  await waitForOutput(floor, /floor listening/);
  return floor;
}

/**
 * The warm rows' cache lifetime: longer than their alternation (four sides' warm-up and nine rounds, about a
 * minute on a quiet machine, longer beside other work), so "0 upstream calls" is about the cache, not about
 * whether the run finished before the first answer expired.
 */
const WARM_TTL_SEC = 600;

/**
 * Warm view (cache on) and the floor, side by side in alternating slices so
 * that both see the same background load on a shared machine.
 */
async function warmViewAndFloor(bench: Bench): Promise<Row[]> {
  const { opts } = bench;
  const L = opts.latency;
  log(`warm view (PAGE_CACHE_TTL=${WARM_TTL_SEC}, L=${L} ms) and floor, alternating`);
  const app = await startApp(bench, WARM_TTL_SEC, 'warm');
  const cookies = await loginSessions(bench.appUrl, opts.sessions);
  const floor = await startFloor(bench);
  // The same warm view in German and Arabic, in the same alternation: what a language costs a warm view.
  const languages = ['de', 'ar'] as const;
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: L });
  await control(bench.emulatorUrl, 'DELETE', '/log');
  const [warmSide, floorSide, ...languageSides] = await alternateSlices(opts, [
    { child: app, run: (slice) => load(bench.appUrl, cookies, slice) },
    { child: floor, run: (slice) => load(`http://127.0.0.1:${bench.floorPort}`, [], slice) },
    ...languages.map((language): SliceSide => ({
      child: app,
      run: (slice) => load(bench.appUrl, cookies, slice, undefined, language),
    })),
  ]);
  const warmCalls = await calls(bench);
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: 0 });
  const warm = { ...warmSide!.load, rss: rssMB(app) };
  const callsPerView = warmCalls / warm.requests;
  const floorLoad = { ...floorSide!.load, rss: rssMB(floor) };
  await stopChild(bench, floor);
  await stopChild(bench, app);

  const share = warm.rps / floorLoad.rps;
  return [
    {
      scenario: `warm view (cache on, L=${L} ms)`,
      ...warm,
      callsPerView,
      result: `p50 ÷ floor p50 = ${ratio(warm.p50 / floorLoad.p50)}; ${Math.round(share * 100)}% of the floor's req/s`,
      figures: { p50Ratio: warm.p50 / floorLoad.p50, share },
      // Not a time: what the cache is for (no upstream call) and a share of the floor's throughput in the same run.
      target: '0 upstream calls, ≥ 50% of the floor req/s',
      pass: callsPerView === 0 && share >= 0.5,
    },
    floorRow('floor (bare Express + same template, no session/helmet/upstream)', floorLoad),
    cpuCostRow(
      'warm cost per view: app CPU per warm view ÷ floor CPU per request',
      warmSide!,
      floorSide!,
      TARGETS.warmCost,
    ),
    ...languages.map((language, i): Row =>
      cpuCostRow(
        `warm cost per view in ${language === 'de' ? 'German' : 'Arabic'} ÷ in English (Accept-Language: ${language})`,
        languageSides[i]!,
        warmSide!,
        TARGETS.languageCost,
      ),
    ),
  ];
}

/** The post the post-page rows open: the bread class, an album of six photos with nine comments (demo seed). */
const POST = DEFAULT_SEED.pages.find((p) => p.id === BAKERY)!.feed[2]!.id;

/**
 * Cold post view (cache off, comments granted): every view reads the post and its reactions by kind (one batch)
 * and the first comments upstream, in parallel. Side by side with the cold post floor in alternating slices: bare
 * Express making the same reads per request (the app's Graph client, the sessions' tokens in turn) and rendering
 * the same post page. A cold view may cost one round trip more than the aliased read it replaced, and costs none:
 * its p50 is held to the cold view's rule against a floor doing the same reads, and the round trips it waits
 * for (p50 ÷ L) are reported. @see docs/performance.md#post-page
 */
async function coldPostAndFloor(bench: Bench): Promise<Row[]> {
  const { opts } = bench;
  const L = opts.latency;
  log(`cold post view (cache off, L=${L} ms) and cold post floor, alternating`);
  const app = await startApp(bench, 0, 'post-cold', {
    ...COLD_VIEWS,
    FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content',
  });
  const cookies = await loginSessions(bench.appUrl, opts.sessions);
  const floor = await startFloor(bench, { reads: 'each', tokens: opts.sessions }, POST);
  const target = `/pages/${BAKERY}/posts/${POST}`;
  let appCalls = 0;
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: L });
  const [appSide, floorSide] = await alternateSlices(opts, [
    {
      child: app,
      // The emulator's log keeps 10 000 entries: cleared and counted around each slice.
      run: async (slice, measured) => {
        await control(bench.emulatorUrl, 'DELETE', '/log');
        const run = await load(bench.appUrl, cookies, slice, target);
        const viewCalls = await calls(bench);
        if (measured) appCalls += viewCalls;
        return run;
      },
    },
    { child: floor, run: (slice) => load(`http://127.0.0.1:${bench.floorPort}`, [], slice, target) },
  ]);
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: 0 });
  const cold = { ...appSide!.load, rss: rssMB(app) };
  const floorLoad = { ...floorSide!.load, rss: rssMB(floor) };
  await stopChild(bench, floor);
  await stopChild(bench, app);
  const p50Ratio = cold.p50 / floorLoad.p50;
  return [
    {
      scenario: `cold post view (cache off, L=${L} ms)`,
      ...cold,
      callsPerView: appCalls / cold.requests,
      callsSaturated: appCalls >= EMULATOR_LOG_CAP,
      result:
        `p50 ÷ cold post floor p50 = ${ratio(p50Ratio)} (${r1(cold.p50)} ÷ ${r1(floorLoad.p50)} ms); ` +
        `${(cold.p50 / L).toFixed(2)} × L`,
      figures: { p50Ratio, roundTrips: cold.p50 / L, coldPostFloorP50: floorLoad.p50 },
      target: `p50 ≤ ${TARGETS.coldP50.toFixed(2)} × cold post floor p50`,
      pass: p50Ratio <= TARGETS.coldP50,
    },
    {
      scenario: `cold post floor (bare Express, the same batch and comments read per request, L=${L} ms)`,
      ...floorLoad,
      callsPerView: 2,
      result: `${(floorLoad.p50 / L).toFixed(2)} × L`,
      target: '—',
    },
    cpuCostRow(
      'cold cost per post view: app CPU per cold post view ÷ cold post floor CPU per request',
      appSide!,
      floorSide!,
      TARGETS.coldCpu,
    ),
  ];
}

/**
 * Warm post view (cache on, comments granted) and the post floor (the same post and comments read once,
 * `views/post.ejs` rendered from the same view model on every request), in alternating slices.
 * @see docs/performance.md
 */
async function warmPostAndFloor(bench: Bench): Promise<Row[]> {
  const { opts } = bench;
  const L = opts.latency;
  log(`warm post view (PAGE_CACHE_TTL=${WARM_TTL_SEC}, L=${L} ms) and post floor, alternating`);
  const app = await startApp(bench, WARM_TTL_SEC, 'post', {
    FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content',
  });
  const cookies = await loginSessions(bench.appUrl, opts.sessions);
  const floor = await startFloor(bench, undefined, POST);
  const target = `/pages/${BAKERY}/posts/${POST}`;
  // One view fills the cache every session shares (the same grant and role), as the page view's login does.
  await fetch(`${bench.appUrl}${target}`, { headers: { cookie: cookies[0]! } });
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: L });
  await control(bench.emulatorUrl, 'DELETE', '/log');
  const [appSide, floorSide] = await alternateSlices(opts, [
    { child: app, run: (slice) => load(bench.appUrl, cookies, slice, target) },
    { child: floor, run: (slice) => load(`http://127.0.0.1:${bench.floorPort}`, [], slice, target) },
  ]);
  const appCalls = await calls(bench);
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: 0 });
  const warm = { ...appSide!.load, rss: rssMB(app) };
  const floorLoad = { ...floorSide!.load, rss: rssMB(floor) };
  await stopChild(bench, floor);
  await stopChild(bench, app);
  return [
    {
      scenario: `warm post view (cache on, L=${L} ms)`,
      ...warm,
      callsPerView: appCalls / warm.requests,
      result: `${Math.round((warm.rps / floorLoad.rps) * 100)}% of the post floor's req/s`,
      target: '0 upstream calls',
      pass: appCalls === 0,
    },
    floorRow('post floor (bare Express + views/post.ejs from the same view model)', floorLoad),
    cpuCostRow(
      'warm cost per post view: app CPU per warm post view ÷ post floor CPU per request',
      appSide!,
      floorSide!,
      TARGETS.postCost,
    ),
  ];
}

/** A floor's row: its own figures, no upstream call and no target (the rows beside it are measured against it). */
function floorRow(scenario: string, floorLoad: Load & { rss: number }): Row {
  return { scenario, ...floorLoad, callsPerView: 0, target: '—' };
}

/**
 * One side's CPU per request against another's (the app's against its floor's, or a language's against
 * English), both from the same alternation: the median of the rounds' ratios, each round's ratio of the two
 * slices it ran (docs/performance.md#cpu-ratios); passes at or below `target`. The CPU per request printed
 * beside it is each side's median round.
 */
function cpuCostRow(scenario: string, side: Sliced, against: Sliced, target: number): Row {
  const { ratio: costRatio, rounds } = roundRatio(side, against);
  const sorted = [...rounds].sort((a, b) => a - b);
  log(`${scenario}: rounds ${rounds.map(ratio).join(', ')}`);
  const µs = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  return {
    scenario,
    result:
      `${ratio(costRatio)}, median of ${rounds.length} rounds (${ratio(sorted[0]!)}–${ratio(sorted.at(-1)!)}; ` +
      `${µs(side.cpuMsPerRequest)} ÷ ${µs(against.cpuMsPerRequest)})`,
    figures: {
      costRatio,
      roundRatios: rounds.map(ratio).join(' '),
      cpuMsPerRequest: side.cpuMsPerRequest,
      againstCpuMsPerRequest: against.cpuMsPerRequest,
    },
    target: `≤ ${target.toFixed(2)}`,
    pass: costRatio <= target,
  };
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
  const header = ['scenario', 'result', 'req/s', 'p50 ms', 'p99 ms', 'upstream calls/view', 'RSS MB', 'target'];
  const lines = rows.map((r) => [
    r.scenario,
    r.result ?? '—',
    r.rps === undefined ? '—' : String(Math.round(r.rps)),
    r1(r.p50),
    r1(r.p99),
    r.callsPerView === undefined ? '—' : `${r.callsSaturated ? '≥ ' : ''}${r.callsPerView.toFixed(2)}`,
    r1(r.rss),
    r.pass === undefined ? r.target : `${r.pass ? 'PASS' : 'FAIL'}: ${r.target}`,
  ]);
  const out = [`${meta.date} · ${meta.command} · node ${process.version}, ${os.cpus().length} CPUs`, ''];
  out.push(`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`);
  for (const l of lines) out.push(`| ${l.join(' | ')} |`);
  process.stdout.write(`${out.join('\n')}\n`);
}

function writeResults(rows: Row[], meta: { date: string; command: string; opts: Options }, latest: boolean): void {
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
  if (latest) fs.writeFileSync(path.join(RESULTS, 'latest.json'), json);
}

/** The scenarios `--only` can name, in the order they run. */
const SCENARIOS = [
  'cold',
  'flow',
  'warm',
  'post',
  'views',
  'previous',
  'observe',
  'scaleout',
  'freshness',
  'streams',
  'memory',
  'reply',
  'publish',
] as const;
type Scenario = (typeof SCENARIOS)[number];

function selected(only: string): Set<Scenario> {
  if (only === '') return new Set(SCENARIOS);
  const names = only.split(',').filter(Boolean);
  for (const name of names) {
    // "cost" and "floor" are rows of the warm scenario.
    if (name !== 'cost' && name !== 'floor' && !(SCENARIOS as readonly string[]).includes(name))
      throw new Error(`--only: unknown scenario "${name}" (one of ${SCENARIOS.join(', ')}, cost)`);
  }
  return new Set(names.map((n) => (n === 'cost' || n === 'floor' ? 'warm' : n)) as Scenario[]);
}

async function main(): Promise<void> {
  const opts = flags(process.argv.slice(2));
  const run = selected(opts.only);
  const [emulatorPort, appPort, floorPort] = [await freePort(), await freePort(), await freePort()];
  const bench: Bench = {
    opts,
    emulatorUrl: `http://127.0.0.1:${emulatorPort}`,
    appPort: appPort,
    appUrl: `http://127.0.0.1:${appPort}`,
    floorPort: floorPort,
    children: new Set(),
    cleanups: [],
  };
  const cleanup = async () => {
    await Promise.all([...bench.children].map((c) => stop(c)));
    for (const done of bench.cleanups.splice(0)) await done().catch(() => {});
  };
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
  fs.mkdirSync(path.join(RESULTS, 'profiles'), { recursive: true });

  try {
    // The emulator registers the app's webhook (as its dashboard would); only the freshness scenario's app
    // answers the handshake and subscribes pages, the others run without webhooks as before.
    bench.emulator = await startEmulatorProcess(
      emulatorPort,
      bench.appUrl,
      CREDENTIALS,
      { inheritEnv: true, echoStderr: true },
      { FB_WEBHOOK_VERIFY_TOKEN: WEBHOOK_VERIFY_TOKEN },
    );
    bench.children.add(bench.emulator);
    const rows: Row[] = [];
    if (run.has('cold') || run.has('flow')) {
      const cold = await coldView(bench);
      if (run.has('cold')) rows.push(...cold.rows);
      if (run.has('flow')) rows.push(await loginFlows(bench, cold.app));
      await stopChild(bench, cold.app);
    }
    if (run.has('warm')) rows.push(...(await warmViewAndFloor(bench)));
    if (run.has('post')) rows.push(...(await coldPostAndFloor(bench)), ...(await warmPostAndFloor(bench)));
    if (run.has('views')) rows.push(...(await viewsAgainstCalls(bench)));
    if (run.has('previous')) rows.push(...(await againstPrevious(bench)));
    if (run.has('observe')) rows.push(...(await observeCost(bench)));
    if (run.has('scaleout')) rows.push(...(await scaleOut(bench)));
    if (run.has('freshness')) rows.push(await freshness(bench));
    if (run.has('streams')) rows.push(...(await streams(bench)));
    if (run.has('memory')) rows.push(...(await memoryPerSession(bench)));
    if (run.has('reply')) rows.push(...(await replyCost(bench)));
    if (run.has('publish')) rows.push(...(await publishCost(bench)));

    const date = new Date().toISOString();
    const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim();
    printTable(rows, { date, command });
    // A subset is not the bench's result: only a full run rewrites latest.json.
    writeResults(rows, { date, command, opts }, run.size === SCENARIOS.length);
    process.exitCode = rows.every((r) => r.pass !== false) ? 0 : 2;
  } finally {
    await cleanup();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
