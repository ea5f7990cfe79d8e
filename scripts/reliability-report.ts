/**
 * `npm run report:reliability`: throws arbitrary input, injected faults and
 * concurrent logins at the app wired to the emulator, and prints what held.
 * Targets: 0 failures, 0 lost sessions. Exits 1 when a target is missed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { SessionData } from 'express-session';
import fc from 'fast-check';
import { SEED_IDS } from '../src/provider';
import { CookieClient } from '../test/helpers/cookieClient';
import { completeDialog } from '../test/helpers/dialog';
import { realLogin } from '../test/helpers/realLogin';
import { startStack, type Stack } from '../test/helpers/stack';
import { FAULTS } from '../test/reliability/faultTable';

const INPUTS = Number(process.env.INPUTS ?? 2000);
const LOGINS = Number(process.env.CONCURRENT_LOGINS ?? 500);
/** autocannon ships no types: the part of its result this report reads. */
interface CannonResult {
  requests: { sent: number };
  errors: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number } | undefined>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (opts: { url: string; connections: number; amount: number }) => Promise<CannonResult>;

const FLOOD_HITS = Number(process.env.FLOOD_HITS ?? 101_000);
const RACES = Number(process.env.LOGOUT_RACES ?? 20);
const BAKERY = SEED_IDS.pages.bakery;

interface Row {
  check: string;
  tried: number;
  failures: number;
  lost: number;
  note: string;
}

async function listen(stack: (base: string) => Promise<Stack>): Promise<{ stack: Stack; base: string; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const built = await stack(base);
  server.on('request', built.app);
  return { stack: built, base, server };
}

async function connected(base: string, user = SEED_IDS.users.ada): Promise<CookieClient> {
  const client = new CookieClient(base);
  const outcome = await realLogin(base, user, BAKERY, client);
  if (!outcome.ok) throw new Error(`setup login failed at ${outcome.step}`);
  return client;
}

/** Arbitrary query strings and paths: never a 5xx, never an upstream call. */
async function inputs(base: string, stack: Stack): Promise<Row> {
  const person = await connected(base);
  const before = stack.emulator.controls.calls();
  let failures = 0;
  const text = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.nat(3000).map((n) => 'x'.repeat(n)),
  );
  const query = fc
    .array(fc.tuple(fc.oneof(fc.constantFrom('code', 'state', 'error', 'after', 'before', 'rerequest'), fc.string({ maxLength: 10 })), text), { maxLength: 6 })
    .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
  const target = fc.oneof(
    query.map((q) => `/auth/callback?${q}`),
    fc
      .tuple(fc.string({ maxLength: 30 }), query)
      .filter(([id]) => id !== BAKERY && id !== '' && id !== '.')
      .map(([id, q]) => `/pages/${encodeURIComponent(id)}/feed?${q}`),
    fc
      .string({ maxLength: 30 })
      .filter((id) => id !== BAKERY && id !== '' && id !== '.')
      .map((id) => `/pages/${encodeURIComponent(id)}`),
  );
  for (const url of fc.sample(target, { numRuns: INPUTS, seed: 42 })) {
    const res = await person.get(url);
    await res.arrayBuffer();
    if (res.status >= 500) failures++;
  }
  const upstream = stack.emulator.controls.calls() - before;
  const still = await person.get(`/pages/${BAKERY}`);
  return {
    check: 'arbitrary input (callback, page, feed)',
    tried: INPUTS,
    failures: failures + upstream,
    lost: still.status === 200 ? 0 : 1,
    note: `5xx: ${failures}, upstream calls: ${upstream}`,
  };
}

/** Each provider fault: the expected page, a healthy process, and the person still connected afterwards. */
async function faults(base: string, stack: Stack): Promise<Row> {
  const person = await connected(base);
  let failures = 0;
  let lost = 0;
  const wrong: string[] = [];
  for (const [name, status, failure, text] of FAULTS) {
    stack.emulator.controls.failNext(6, failure);
    const res = await person.get(`/pages/${BAKERY}`);
    const body = await res.text();
    stack.emulator.controls.reset();
    if (res.status !== status || !text.test(body)) {
      failures++;
      wrong.push(`${name}: ${res.status}`);
    }
    if ((await person.get('/healthz')).status !== 200) failures++;
    if ((await person.get(`/pages/${BAKERY}`)).status !== 200) lost++;
  }
  return { check: 'provider faults during a page view', tried: FAULTS.length, failures, lost, note: wrong.join('; ') || 'each gave its page' };
}

/** Many logins at once, separate cookie jars: all complete, none sees another's page. */
async function concurrency(base: string): Promise<Row> {
  const people = [
    { user: SEED_IDS.users.ada, page: BAKERY, name: 'Lovelace Analytical Bakery' },
    { user: SEED_IDS.users.grace, page: SEED_IDS.pages.cafe, name: 'Hopper Compiler Café' },
  ];
  const started = Date.now();
  const outcomes = await Promise.all(
    Array.from({ length: LOGINS }, (_, i) => {
      const who = people[i % people.length]!;
      return realLogin(base, who.user, who.page).then(
        (o) => ({ who, o }),
        () => ({ who, o: { ok: false, pageName: undefined } }),
      );
    }),
  );
  const failed = outcomes.filter(({ o }) => !o.ok);
  const failures = failed.length;
  const crossed = outcomes.filter(({ who, o }) => o.ok && o.pageName !== who.name).length;
  return {
    check: 'simultaneous logins (real flow)',
    tried: LOGINS,
    failures,
    lost: crossed,
    note: `${((Date.now() - started) / 1000).toFixed(1)} s; sessions that saw another's page: ${crossed}${failures ? `; failed at: ${[...new Set(failed.map(({ o }) => ('step' in o ? `${o.step}:${o.status}` : 'error')))].join(', ')}` : ''}`,
  };
}

/**
 * 101,000 anonymous login starts from one address (autocannon): answered 303
 * or 429, a logged-in idle person still connected afterwards, and the store
 * holding no more pending logins than the rate limit lets through.
 */
async function storeFlood(base: string, stack: Stack): Promise<Row> {
  const person = await connected(base);
  const started = Date.now();
  const result = await autocannon({ url: `${base}/auth/login`, connections: 50, amount: FLOOD_HITS });
  const other = result.non2xx - (result.statusCodeStats['303']?.count ?? 0) - (result.statusCodeStats['429']?.count ?? 0);
  const sessions = await new Promise<Record<string, SessionData>>((resolve, reject) =>
    stack.sessions.store.all!((err, all) => (err ? reject(err) : resolve((all ?? {}) as Record<string, SessionData>))),
  );
  const pending = Object.values(sessions).filter((s) => !s.connection).length;
  // The limit is per minute: a flood that spans several windows may store that many times the limit.
  const windows = Math.ceil((Date.now() - started) / 60_000);
  const limit = stack.config.loginRateLimit * windows;
  const still = await person.get(`/pages/${BAKERY}`);
  return {
    check: 'anonymous store flood (/auth/login)',
    tried: result.requests.sent,
    failures: other + result.errors + (pending > limit ? 1 : 0),
    lost: still.status === 200 ? 0 : 1,
    note: `${((Date.now() - started) / 1000).toFixed(1)} s; 303: ${result.statusCodeStats['303']?.count ?? 0}, 429: ${result.statusCodeStats['429']?.count ?? 0}; pending sessions stored: ${pending} (at most ${limit}: ${stack.config.loginRateLimit}/min over ${windows} min)`,
  };
}

/** Log out while a slow first page view is in flight: once it finishes, the old cookie must not be connected. */
async function logoutRace(base: string, stack: Stack): Promise<Row> {
  let failures = 0;
  let resurrected = 0;
  for (let i = 0; i < RACES; i++) {
    const browser = new CookieClient(base);
    const start = await browser.get('/auth/login');
    const callback = await completeDialog(start.headers.get('location')!, { user: SEED_IDS.users.ada });
    await browser.get(`${callback.pathname}${callback.search}`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await (await browser.get('/pages')).text())?.[1] ?? '';
    await browser.post(`/pages/${BAKERY}/connect`, { _csrf: csrf });
    stack.emulator.controls.setLatency(300);
    const view = browser.get(`/pages/${BAKERY}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const out = await browser.post('/auth/logout', { _csrf: csrf });
    const viewed = await view;
    await viewed.arrayBuffer();
    stack.emulator.controls.setLatency(0);
    if (out.status !== 303 || viewed.status !== 200) failures++;
    const after = await browser.get(`/pages/${BAKERY}`);
    await after.arrayBuffer();
    if (after.status !== 401) resurrected++;
  }
  return {
    check: 'logout race (slow first view in flight)',
    tried: RACES,
    failures: failures + resurrected,
    lost: 0,
    note: `sessions written back after logout: ${resurrected}`,
  };
}

/** Runs one check against its own app + emulator; `timeoutMs` is the app's provider timeout. */
async function withStack(timeoutMs: number, check: (base: string, stack: Stack) => Promise<Row>, env: Record<string, string> = {}): Promise<Row> {
  const { stack, base, server } = await listen((baseUrl) => startStack({ env: { BASE_URL: baseUrl, ...env }, timeoutMs }));
  try {
    return await check(base, stack);
  } finally {
    server.closeAllConnections();
    server.close();
    await stack.close();
  }
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  rows.push(await withStack(1000, inputs));
  // Short timeout so the latency and hang faults resolve quickly.
  rows.push(await withStack(300, faults));
  // The production default timeout: this is load, not a fault.
  rows.push(await withStack(5000, (base) => concurrency(base)));
  // The production default limit: the flood is what it is there for.
  rows.push(await withStack(5000, storeFlood, { LOGIN_RATE_LIMIT: '30' }));
  rows.push(await withStack(5000, logoutRace));
  const total = {
    check: 'total',
    tried: rows.reduce((n, r) => n + r.tried, 0),
    failures: rows.reduce((n, r) => n + r.failures, 0),
    lost: rows.reduce((n, r) => n + r.lost, 0),
    note: 'targets: 0 failures, 0 lost sessions',
  };
  const all = [...rows, total];
  const widths = [42, 8, 9, 6];
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < widths.length ? c.padEnd(widths[i]!) : c)).join(' | ')} |`;
  console.log(`\nPagelight reliability report — ${new Date().toISOString()}\n`);
  console.log(line(['check', 'tried', 'failures', 'lost', 'note']));
  console.log(line(['-'.repeat(42), '-'.repeat(8), '-'.repeat(9), '-'.repeat(6), '----']));
  for (const r of all) console.log(line([r.check, String(r.tried), String(r.failures), String(r.lost), r.note]));
  const dir = path.join(__dirname, '..', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'reliability-latest.json'), JSON.stringify({ at: new Date().toISOString(), rows: all }, null, 2));
  process.exitCode = total.failures === 0 && total.lost === 0 ? 0 : 1;
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
