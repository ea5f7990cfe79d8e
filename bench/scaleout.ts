/**
 * Scale-out: three app instances (separate processes) sharing Redis, behind a round-robin load generator, against
 * one instance with the memory store and cache under the same load. See docs/performance.md.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { createClient } from 'redis';
import { control } from '../test/support/emulator';
import { ROOT, freePort, type Child } from '../test/support/processes';
import {
  BAKERY,
  calls,
  log,
  loginSessions,
  quantile,
  startApp,
  stopChild,
  type Bench,
  type Load,
  type Row,
} from './shared';

const INSTANCES = 3;
const SESSIONS = 30;
/** Longer than the logins and the run together: every session's token stays confirmed, so only cache misses read. */
const TTL_SEC = 60;

/**
 * GET /pages/<id> across `urls`, round robin: one autocannon per instance sharing the connections, every request
 * with the next session's cookie from one shared turn, so a session's consecutive views land on different
 * instances. Latency percentiles over every answer of every instance.
 */
async function roundRobin(urls: string[], cookies: string[], connections: number, duration: number): Promise<Load> {
  let turn = 0;
  const latencies: number[] = [];
  const runs = urls.map((url, k) => {
    const share = Math.floor(connections / urls.length) + (k < connections % urls.length ? 1 : 0);
    const instance = autocannon({
      url,
      connections: Math.max(1, share),
      duration,
      requests: [
        {
          method: 'GET',
          path: `/pages/${BAKERY}`,
          setupRequest: (req) => ({ ...req, headers: { ...req.headers, cookie: cookies[turn++ % cookies.length]! } }),
        },
      ],
    });
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status === 200) latencies.push(ms);
    });
    return instance;
  });
  const results = await Promise.all(runs);
  const bad = results.reduce((a, r) => a + r.non2xx + r.errors, 0);
  if (bad) throw new Error(`round robin: ${bad} non-2xx answers or errors`);
  latencies.sort((a, b) => a - b);
  return {
    rps: results.reduce((a, r) => a + r.requests.average, 0),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    requests: latencies.length,
  };
}

async function redisAnswers(url: string): Promise<boolean> {
  const client = createClient({ url, socket: { connectTimeout: 1000, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    if (client.isOpen) await client.close();
  }
}

/** Deletes the bench's own keys (its unique prefix) from a Redis others may share. */
async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  try {
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 }))
      if (batch.length) await client.del(batch);
  } finally {
    await client.close();
  }
}

/** Whether the built app knows PAGE_CACHE_STORE (the shared Redis page cache); else each instance caches alone. */
function sharedCacheBuilt(): boolean {
  return readFileSync(path.join(ROOT, 'dist', 'config.js'), 'utf8').includes('PAGE_CACHE_STORE');
}

/** Page reads (details and feed of the bakery, with a page token) the emulator logged since the last clear. */
function pageReads(bench: Bench): Promise<number> {
  return calls(bench, { method: 'GET', path: BAKERY, tokenKind: 'page' });
}

export async function scaleOut(bench: Bench): Promise<Row[]> {
  const { opts } = bench;
  const L = opts.latency;
  const seconds = opts.scaleSeconds;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const target = `≤ 2 page reads per page per TTL in all; p50 ≤ 2× one instance`;
  if (!(await redisAnswers(redisUrl)))
    return [{ scenario: 'scale-out: 3 instances sharing Redis', result: `skipped: no Redis at REDIS_URL`, target }];
  const shared = sharedCacheBuilt();
  const cacheKind = shared ? 'shared Redis cache' : 'per-instance cache';
  log(`scale-out: ${INSTANCES} instances, Redis sessions, ${cacheKind}, ${SESSIONS} sessions, ${seconds} s, L=${L} ms`);

  // One instance, memory store and cache, the same load generator: the p50 the three are held to.
  const single = await startApp(bench, TTL_SEC, 'single');
  const singleCookies = await loginSessions(bench.appUrl, SESSIONS);
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: L });
  await control(bench.emulatorUrl, 'DELETE', '/log');
  const one = await roundRobin([bench.appUrl], singleCookies, opts.connections, Math.max(1, Math.round(seconds / 2)));
  const oneCalls = await calls(bench);
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: 0 });
  await stopChild(bench, single);

  const prefix = `pagelight-bench-${process.pid}:`;
  bench.cleanups.push(() => deleteKeys(redisUrl, prefix));
  // Every instance answers for the same public origin, as behind a load balancer: the registered redirect URI.
  const env: Record<string, string> = {
    SESSION_STORE: 'redis',
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: prefix,
    BASE_URL: bench.appUrl,
    ...(shared ? { PAGE_CACHE_STORE: 'redis' } : {}),
  };
  // The sessions log in through an instance with the cache off, so the three start with no page cached.
  const login = await startApp(bench, 0, 'scale-login', env);
  const cookies = await loginSessions(bench.appUrl, SESSIONS);
  await stopChild(bench, login);
  const ports = [bench.appPort, await freePort(), await freePort()];
  const instances: Child[] = [];
  try {
    for (const [k, port] of ports.entries())
      instances.push(await startApp(bench, TTL_SEC, `instance ${k + 1}`, env, port));
    await control(bench.emulatorUrl, 'POST', '/latency', { ms: L });
    await control(bench.emulatorUrl, 'DELETE', '/log');
    const urls = ports.map((p) => `http://127.0.0.1:${p}`);
    const three = await roundRobin(urls, cookies, opts.connections, seconds);
    const reads = await pageReads(bench);
    const all = await calls(bench);
    await control(bench.emulatorUrl, 'POST', '/latency', { ms: 0 });
    const ratio = three.p50 / one.p50;
    return [
      {
        scenario: `scale-out: one instance, memory store and cache (${SESSIONS} sessions, L=${L} ms)`,
        ...one,
        callsPerView: oneCalls / one.requests,
        target: '—',
      },
      {
        scenario: `scale-out: ${INSTANCES} instances, Redis sessions, ${cacheKind}, round robin (${SESSIONS} sessions, ${seconds} s, L=${L} ms)`,
        ...three,
        callsPerView: all / three.requests,
        result: `${reads} page reads in one TTL (${TTL_SEC} s; details + feed); p50 ${ratio.toFixed(2)}× one instance`,
        figures: { pageReadsPerTtl: reads, upstreamCalls: all, p50Ratio: ratio, cache: cacheKind },
        target,
        pass: reads <= 2 && ratio <= 2,
      },
    ];
  } finally {
    for (const child of instances) await stopChild(bench, child);
  }
}
