/**
 * The reliability report's rows for attacks on what a request costs everyone (docs/operations.md#security-notes):
 * a padded Accept-Language, paths in any letter case, a long list of Pages. Each figure is a ratio to the same
 * work without the attack, measured in the same run: never a fixed time.
 */
import fc from 'fast-check';
import request from 'supertest';
import { LISTED_AT_ONCE } from '../src/pages/picker-view';
import { CookieClient } from '../test/support/cookie-client';
import { signInThrough, overFetch } from '../test/support/login';
import { manyPagesSeed, WITH_BUSINESS } from '../test/support/many-pages';
import { startServedStack } from '../test/support/stack';
import { startObservedStack } from '../test/observe/observed-stack';
import type { Row } from './attacks';

/** CPU time (µs, this process: the app and its client alike) that `work` takes. */
async function cpuOf(work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

/** Rounds of the CPU rows below, each side once a round (odd: the figure is the median round). */
const ROUNDS = 7;

/**
 * `quiet` and `attack` in turn for {@link ROUNDS} rounds, the order turned about every round, and the median of the
 * rounds' CPU ratios (attack over quiet), as the bench takes its CPU ratios (docs/performance.md#cpu-ratios): each
 * measured once, one after the other, a collection or a busy moment landing in either side moved the figure by a third.
 */
async function alternatingCpu(
  quiet: () => Promise<void>,
  attack: () => Promise<void>,
): Promise<{ median: number; rounds: string }> {
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const first = r % 2 === 0 ? quiet : attack;
    const a = await cpuOf(first);
    const b = await cpuOf(first === quiet ? attack : quiet);
    ratios.push(first === quiet ? b / Math.max(1, a) : a / Math.max(1, b));
  }
  const median = [...ratios].sort((x, y) => x - y)[Math.floor(ROUNDS / 2)]!;
  return { median, rounds: `median of ${ROUNDS} rounds: ${ratios.map((x) => x.toFixed(2)).join(', ')}` };
}

/** A figure of a row: the attack's measure, the same without the attack, and how many times that it may be. */
interface Ratio {
  attack: number;
  quiet: number;
  limit: number;
}

/**
 * A row whose figures are ratios, each one more failure past its limit; `note` words them (to two decimals), in
 * the order given.
 */
function ratioRow(row: Omit<Row, 'note'>, figures: readonly Ratio[], note: (ratios: string[]) => string): Row {
  const ratios = figures.map(({ attack, quiet }) => attack / Math.max(1, quiet));
  const over = ratios.filter((r, i) => r > figures[i]!.limit).length;
  return { ...row, failures: row.failures + over, note: note(ratios.map((r) => r.toFixed(2))) };
}

/**
 * 15 KB of `*,` sent as Accept-Language, against the same bytes sent in a header nothing reads: the CPU per
 * request must stay within 1.5× (it was 900×: every entry weighed against every language); measured once each, one
 * after the other, it read 1.57× on a fresh machine, hence {@link alternatingCpu}.
 */
export async function paddedAcceptLanguage(requests: number): Promise<Row> {
  const padding = '*,'.repeat(7_500);
  const served = await startServedStack();
  try {
    let failures = 0;
    const home = (headers: Record<string, string>, count: number) => async () => {
      for (let i = 0; i < count; i++) {
        const res = await fetch(`${served.url}/`, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) failures++;
      }
    };
    const quietHeaders = { 'x-padding': padding, 'accept-language': 'en' };
    const attackHeaders = { 'accept-language': padding };
    // Once each first, so neither side pays for the first render of the page.
    await home(quietHeaders, 1)();
    await home(attackHeaders, 1)();
    const perRound = Math.max(8, Math.floor(requests / ROUNDS));
    const cpu = await alternatingCpu(home(quietHeaders, perRound), home(attackHeaders, perRound));
    return ratioRow(
      { check: 'attack: 15 KB Accept-Language on every request', tried: 2 * perRound * ROUNDS, failures, lost: 0 },
      [{ attack: cpu.median, quiet: 1, limit: 1.5 }],
      ([cost]) => `CPU per request ${cost}× the same bytes in another header (limit 1.5×; ${cpu.rounds})`,
    );
  } finally {
    await served.close();
  }
}

/**
 * The app's paths in every letter case and with a trailing slash, after the same paths as declared: the series
 * of the metrics and the size of a scrape must not grow (they grew 975× and 115×).
 */
export async function routeSpellings(requests: number): Promise<Row> {
  const stack = await startObservedStack({ METRICS_PORT: '9464' });
  try {
    const paths = ['/', '/privacy', '/auth/login', '/auth/callback', '/pages', '/pages/123', '/pages/123/feed'];
    let failures = 0;
    const ask = async (path: string) => {
      const res = await request(stack.app).get(path);
      if (res.status >= 500) failures++;
    };
    const scrape = async () => {
      const text = (await request(stack.ctx.metrics!.handler).get('/metrics')).text;
      const series = text.split('\n').filter((l) => l.startsWith('pagelight_http_request_duration_seconds_count'));
      return { series: series.length, bytes: text.length };
    };
    for (let i = 0; i < requests; i++) await ask(paths[i % paths.length]!);
    const declared = await scrape();
    const spelling = fc
      .tuple(fc.constantFrom(...paths), fc.infiniteStream(fc.boolean()), fc.boolean())
      .map(
        ([path, upper, slash]) =>
          [...path].map((c) => (upper.next().value ? c.toUpperCase() : c)).join('') + (slash ? '/' : ''),
      );
    for (const path of fc.sample(spelling, { numRuns: requests, seed: 4 })) await ask(path);
    const spelled = await scrape();
    return ratioRow(
      { check: 'attack: paths in any letter case (metrics series)', tried: 2 * requests, failures, lost: 0 },
      [
        { attack: spelled.series, quiet: declared.series, limit: 1 },
        { attack: spelled.bytes, quiet: declared.bytes, limit: 1.1 },
      ],
      ([series, bytes]) =>
        `series ${series}× and /metrics ${bytes}× those of the same requests as declared (limits 1× and 1.1×); 5xx: ${failures}`,
    );
  } finally {
    await stack.close();
  }
}

/**
 * A person whose portfolio lists 790 Pages (all the emulator lists in the calls allowed) reloads the picker,
 * against one with 100: the CPU and bytes of a cached view must stay within 2× and 1.2× (they grew with the list).
 */
export async function longPageList(views: number): Promise<Row> {
  const few = { id: '1500000000000011', portfolio: '1500000000000012', pages: LISTED_AT_ONCE };
  const many = { id: '1500000000000021', portfolio: '1500000000000022', pages: 790 };
  const served = await startServedStack({
    seed: manyPagesSeed([few, many]),
    emulator: { accountsPageSize: 100 },
    env: { ...WITH_BUSINESS, ACCOUNTS_CACHE_TTL: '600', SESSION_RATE_LIMIT: '100000' },
  });
  try {
    let failures = 0;
    let lost = 0;
    const person = async (user: string) => {
      const client = new CookieClient(served.url);
      await signInThrough(overFetch(client), { user });
      return client;
    };
    const [fewPerson, manyPerson] = [await person(few.id), await person(many.id)];
    const bytes = { few: 0, many: 0 };
    const reloads = (client: CookieClient, side: keyof typeof bytes, count: number) => async () => {
      for (let i = 0; i < count; i++) {
        const res = await client.get('/pages');
        bytes[side] = (await res.arrayBuffer()).byteLength;
        if (res.status !== 200) failures++;
      }
    };
    const perRound = Math.max(4, Math.floor(views / ROUNDS));
    const cpu = await alternatingCpu(reloads(fewPerson, 'few', perRound), reloads(manyPerson, 'many', perRound));
    // Signed in, and still shown their Pages after reloading.
    for (const client of [fewPerson, manyPerson]) if ((await client.get('/pages')).status !== 200) lost++;
    return ratioRow(
      { check: 'attack: 790 Pages in the picker, reloaded', tried: 2 * perRound * ROUNDS, failures, lost },
      [
        { attack: cpu.median, quiet: 1, limit: 2 },
        { attack: bytes.many, quiet: bytes.few, limit: 1.2 },
      ],
      ([cpuRatio, bytesRatio]) =>
        `a cached view's CPU ${cpuRatio}× and HTML ${bytesRatio}× those of ${LISTED_AT_ONCE} Pages (limits 2× and 1.2×; CPU ${cpu.rounds})`,
    );
  } finally {
    await served.close();
  }
}
