/**
 * `npm run report:reliability`: throws arbitrary input, injected faults and
 * concurrent logins at the app wired to the emulator, and prints what held.
 * Targets: 0 failures, 0 lost sessions. Exits 1 when a target is missed.
 * Also writes the table as JSON to bench/results/reliability.json (ignored by git).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { CookieClient } from '../test/support/cookieClient';
import { FAULTS } from '../test/support/faults';
import { realLogin } from '../test/support/realLogin';
import { listen, startStack, type Stack } from '../test/support/stack';

const INPUTS = Number(process.env.INPUTS ?? 2000);
const LOGINS = Number(process.env.CONCURRENT_LOGINS ?? 500);
const BAKERY = SEED_IDS.pages.bakery;

interface Row {
  check: string;
  tried: number;
  failures: number;
  lost: number;
  note: string;
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

/** Runs one check against its own app + emulator; `timeoutMs` is the app's provider timeout. */
async function withStack(timeoutMs: number, check: (base: string, stack: Stack) => Promise<Row>): Promise<Row> {
  // Listen first: the app's BASE_URL (the emulator's registered callback) is the port it got.
  const served = await listen();
  const stack = await startStack({ env: { BASE_URL: served.url }, timeoutMs });
  served.server.on('request', stack.app);
  try {
    return await check(served.url, stack);
  } finally {
    await served.close();
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
  writeFileSync(path.join(dir, 'reliability.json'), JSON.stringify({ at: new Date().toISOString(), rows: all }, null, 2));
  process.exitCode = total.failures === 0 && total.lost === 0 ? 0 : 1;
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
