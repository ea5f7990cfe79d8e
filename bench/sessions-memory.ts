/**
 * Memory per session, and the heap after 100k sessions have come and gone
 * (the memory store stays flat, docs/architecture.md#stores). A figure, not a timed test:
 *
 *   npm run bench:sessions            (memory store; plus Redis when REDIS_URL is set)
 *
 * Each session is what a connected person holds: the cookie, a sealed user
 * token, one connected page with its sealed token, the granted scopes and a
 * CSRF token.
 */
import { randomBytes } from 'node:crypto';
import type { SessionData, Store } from 'express-session';
import { createLogger } from '../src/log/logger';
import { TokenSealer } from '../src/session/sealer';
import { createMemorySessionStore } from '../src/session/store';
import { Redis } from '../src/redis';
import { createRedisSessionStore } from '../src/session/redis';

const COUNT = Number(process.env.BENCH_SESSIONS ?? 100_000);
const TTL_SEC = 4;
const sealer = new TokenSealer([randomBytes(32).toString('base64url')]);

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with node --expose-gc (npm run bench:sessions does)');
  for (let i = 0; i < 3; i++) collect();
}

const heapMb = () => process.memoryUsage().heapUsed / 1024 / 1024;
const token = () => `EAA${randomBytes(150).toString('base64url')}`;

function loggedIn(now: number): SessionData {
  return {
    cookie: {
      originalMaxAge: TTL_SEC * 1000,
      expires: new Date(now + TTL_SEC * 1000),
      httpOnly: true,
      sameSite: 'lax',
      secure: false,
      path: '/',
    },
    signIn: {
      userToken: sealer.seal(token()),
      expiresAt: now + 60 * 24 * 3600 * 1000,
      loggedInAt: now,
      scopes: ['pages_show_list', 'pages_read_engagement', 'pages_read_user_content'],
      pages: { '100000000000001': { token: sealer.seal(token()), name: 'Lovelace Analytical Bakery' } },
    },
    csrf: randomBytes(24).toString('base64url'),
  } as unknown as SessionData;
}

function set(store: Store, sid: string, sess: SessionData): Promise<void> {
  return new Promise((resolve, reject) => store.set(sid, sess, (err?: Error) => (err ? reject(err) : resolve())));
}

async function memoryStore(): Promise<[string, string][]> {
  const handle = createMemorySessionStore({ sessionIdleSec: TTL_SEC });
  const store = handle.store as Store & { prune(): void; store: { length: number } };
  const rows: [string, string][] = [];
  gc();
  const base = heapMb();
  rows.push(['heap before (MB)', base.toFixed(1)]);
  const sample = JSON.stringify(loggedIn(Date.now()));
  for (let round = 1; round <= 2; round++) {
    for (let i = 0; i < COUNT; i++)
      await set(store, `r${round}-${i}-${randomBytes(8).toString('hex')}`, loggedIn(Date.now()));
    const lastSet = Date.now();
    gc();
    const full = heapMb();
    rows.push([`round ${round}: ${COUNT} sessions held (MB)`, full.toFixed(1)]);
    if (round === 1) rows.push(['heap per session (bytes)', (((full - base) * 1024 * 1024) / COUNT).toFixed(0)]);
    // Wait out the TTL, then let the prune the store runs every minute happen now.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastSet + TTL_SEC * 1000 + 200 - Date.now())));
    store.prune();
    gc();
    rows.push([`round ${round}: all expired and pruned (MB), ${store.store.length} left`, heapMb().toFixed(1)]);
  }
  rows.push(['serialized session (bytes)', String(Buffer.byteLength(sample))]);
  await handle.close();
  return rows;
}

async function redisStore(url: string): Promise<[string, string][]> {
  const prefix = `pagelight-bench:${process.pid}:`;
  const logger = createLogger({ level: 'silent' });
  const redis = await Redis.connect({ redisUrl: url }, logger, { startWaitMs: 1000 });
  const handle = createRedisSessionStore(redis, { redisKeyPrefix: prefix });
  if (!handle.healthy()) {
    await redis.close();
    return [['redis', `not reachable at ${url}`]];
  }
  const { createClient } = await import('redis');
  const admin = createClient({ url });
  await admin.connect();
  const n = 2000;
  const sids = Array.from({ length: n }, (_, i) => `b${i}-${randomBytes(8).toString('hex')}`);
  for (const sid of sids)
    await set(handle.store, sid, {
      ...loggedIn(Date.now()),
      cookie: { ...loggedIn(Date.now()).cookie, expires: new Date(Date.now() + 600_000) },
    });
  let usage = 0;
  let length = 0;
  for (const sid of sids) {
    usage += Number(await admin.sendCommand(['MEMORY', 'USAGE', `${prefix}sess:${sid}`, 'SAMPLES', '0']));
    length += Number(await admin.strLen(`${prefix}sess:${sid}`));
  }
  await admin.del(sids.map((sid) => `${prefix}sess:${sid}`));
  await admin.close();
  await redis.close();
  return [
    ['redis: MEMORY USAGE per session key (bytes)', (usage / n).toFixed(0)],
    ['redis: stored value per session (bytes)', (length / n).toFixed(0)],
  ];
}

async function main(): Promise<void> {
  const rows = await memoryStore();
  if (process.env.REDIS_URL) rows.push(...(await redisStore(process.env.REDIS_URL)));
  else rows.push(['redis', 'skipped: REDIS_URL is not set']);
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`\nSessions: ${COUNT} logged-in sessions per round, TTL ${TTL_SEC} s (node ${process.version})\n`);
  console.log(`| ${'measure'.padEnd(width)} | value |`);
  console.log(`|${'-'.repeat(width + 2)}|-------|`);
  for (const [k, v] of rows) console.log(`| ${k.padEnd(width)} | ${v} |`);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
