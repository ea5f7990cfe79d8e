/**
 * The security review's attacks on what is kept and shared: caches, Redis, the provider's callbacks and
 * webhooks (docs/architecture.md#security-rules). Each row as in ./attacks.ts.
 */
import { randomBytes } from 'node:crypto';
import { SEED_IDS, type RunningEmulator } from '@pagelight/graph-emulator';
import type { MemoryPageCache } from '../src/cache/memory-page-cache';
import type { Config } from '../src/config';
import { escapeHtml } from '../src/html';
import { englishLocale } from '../src/i18n/catalogs';
import { createLogger } from '../src/log/logger';
import { Redis } from '../src/redis';
import { createRedisSessionStore } from '../src/session/redis';
import { MAX_SESSIONS_PER_PERSON } from '../src/session/user-index';
import { HANDSHAKE_LIMIT, REFUSED_DELIVERY_LIMIT } from '../src/webhooks/routes';
import { CookieClient } from '../test/support/cookie-client';
import { signInAndConnect } from '../test/support/flow';
import { configFor, startSharedEmulator, storeLoggedInSession } from '../test/support/instances';
import { connectedClient, csrfFrom, signInThrough, signInAndConnectThrough, overFetch } from '../test/support/login';
import { keysUnder, REDIS_URL, redisAnswers, redisClient, valueOfKey, type RedisClient } from '../test/support/redis';
import { signedRequest } from '../test/support/signed-request';
import { agentFor, APP_SECRET, startInstance, startStack, type Stack, type Instance } from '../test/support/stack';
import { deliver, feedDelivery } from '../test/webhooks/deliver';

import type { Row } from './attacks';

const BAKERY = SEED_IDS.pages.bakery;
const ADA = SEED_IDS.users.ada;

const SPARSE = SEED_IDS.pages.sparse;
const GRACE = SEED_IDS.users.grace;
const VERIFY_TOKEN = 'verify-token-for-the-report';

const skippedNoRedis = (check: string): Row => ({ check, tried: 0, failures: 0, lost: 0, note: 'skipped: no Redis' });

/** An app instance as src/server.ts builds one, its context at hand (its caches are what some rows search). */
const startOwn = (config: Config, now?: () => number): Promise<Instance> => startInstance(config, now ? { now } : {});

/** What a Redis row is handed: a fresh emulator, an admin client, and a prefix of the run's own. */
interface RedisRun {
  emulator: RunningEmulator;
  admin: RedisClient;
  prefix: string;
  /** configFor with sessions and page cache in Redis under `prefix`. */
  config(env?: Record<string, string>): Config;
  /** Closed with the run. */
  keep<T extends { close(): Promise<void> }>(instance: T): T;
}

/** Runs `check` when Redis at REDIS_URL answers (else "skipped: no Redis"); its keys are deleted afterwards. */
async function withRedis(check: string, run: (r: RedisRun) => Promise<Row>): Promise<Row> {
  if (REDIS_URL === '' || !redisAnswers(REDIS_URL)) return skippedNoRedis(check);
  const prefix = `pagelight-report:${process.pid}-${randomBytes(4).toString('hex')}:`;
  const emulator = await startSharedEmulator();
  const admin = redisClient();
  await admin.connect();
  const running: { close(): Promise<void> }[] = [];
  try {
    return await run({
      emulator,
      admin,
      prefix,
      config: (env = {}) =>
        configFor(emulator, {
          SESSION_STORE: 'redis',
          PAGE_CACHE_STORE: 'redis',
          REDIS_URL,
          REDIS_KEY_PREFIX: prefix,
          PAGE_CACHE_TTL: '60',
          ...env,
        }),
      keep: (instance) => (running.push(instance), instance),
    });
  } finally {
    await Promise.all(running.map((i) => i.close()));
    const left = await keysUnder(admin, prefix);
    if (left.length) await admin.del(left);
    await admin.close();
    await emulator.close();
  }
}

/** Does `value` hold one of `tokens`, as it is or as a URL carries it, or any `access_token=`? */
const holdsToken = (value: unknown, tokens: string[]): boolean => {
  const text = JSON.stringify(value) ?? '';
  return text.includes('access_token') || tokens.some((t) => text.includes(t) || text.includes(encodeURIComponent(t)));
};

/** The page, every "Older posts" page to the end, and the picker; the number of feed pages seen. */
async function walkTheFeed(url: string): Promise<number> {
  const person = await connectedClient(url, BAKERY, ADA);
  let html = await (await person.get(`/pages/${BAKERY}`)).text();
  let pages = 1;
  for (let older = olderLink(html); older !== undefined && pages < 100; older = olderLink(html)) {
    html = await (await person.get(older)).text();
    pages++;
  }
  await (await person.get('/pages')).arrayBuffer();
  return pages;
}

function olderLink(html: string): string | undefined {
  return /<a class="button" rel="next" href="([^"]+)">Older posts<\/a>/.exec(html)?.[1]?.replace(/&amp;/g, '&');
}

/** After a walk through the feed, no cache entry (memory, accounts, every Redis key of the run) holds an issued token. */
export async function noTokenAtRest(): Promise<Row> {
  const check = 'attack: a token read from a cache after a feed walk';
  let tried = 0;
  let failures = 0;
  let walked = 0;
  const emulator = await startSharedEmulator();
  try {
    const own = await startOwn(configFor(emulator, { PAGE_CACHE_TTL: '60', ACCOUNTS_CACHE_TTL: '60' }));
    try {
      walked += await walkTheFeed(own.url);
      const entries = [...(own.ctx.pageCache as MemoryPageCache).entries(), ...own.ctx.accounts.entries()];
      tried += entries.length;
      failures += entries.filter((e) => holdsToken(e, emulator.controls.issuedTokens())).length;
    } finally {
      await own.close();
    }
  } finally {
    await emulator.close();
  }
  const shared = await withRedis(check, async (r) => {
    const own = r.keep(await startOwn(r.config({ ACCOUNTS_CACHE_TTL: '60' })));
    const pages = await walkTheFeed(own.url);
    const tokens = r.emulator.controls.issuedTokens();
    let leaking = 0;
    const keys = await keysUnder(r.admin, r.prefix);
    for (const key of keys) if (holdsToken([key, await valueOfKey(r.admin, key)], tokens)) leaking++;
    const lists = own.ctx.accounts.entries();
    leaking += lists.filter((e) => holdsToken(e, tokens)).length;
    return { check, tried: keys.length + lists.length, failures: leaking, lost: 0, note: `${pages}` };
  });
  return {
    check,
    tried: tried + shared.tried,
    failures: failures + shared.failures,
    lost: 0,
    note: `memory: ${tried} entries after ${walked} feed pages; Redis: ${shared.note === 'skipped: no Redis' ? 'skipped: no Redis' : `${shared.tried} keys and lists after ${shared.note} feed pages`}; holding a token: ${failures + shared.failures}`,
  };
}

/**
 * A session whose token was revoked loads the page on Redis; others join that load on its instance and on
 * another: only the revoked one is signed out, each round.
 */
export function joinersKeepTheirToken(rounds: number): Promise<Row> {
  const check = "attack: a joined load's token error (Redis, 2 instances)";
  return withRedis(check, async (r) => {
    const config = r.config({ PROVIDER_TIMEOUT_MS: '4000' });
    const one = r.keep(await startInstance(config));
    const two = r.keep(await startInstance(config));
    const joiner = await connectedClient(one.url, BAKERY, ADA);
    const other = await connectedClient(two.url, BAKERY, ADA);
    let failures = 0;
    let lost = 0;
    for (let i = 0; i < rounds; i++) {
      const before = new Set(r.emulator.controls.issuedTokens());
      const revoked = await connectedClient(one.url, BAKERY, ADA);
      for (const token of r.emulator.controls.issuedTokens().filter((t) => !before.has(t)))
        r.emulator.controls.revokeTokens({ token });
      // What another instance's drop does: the next view loads again.
      await r.admin.hIncrBy(`${r.prefix}cache:{${BAKERY}}:v`, 'details', 1);
      await r.admin.hIncrBy(`${r.prefix}cache:{${BAKERY}}:v`, 'feed', 1);
      r.emulator.controls.failNext(1, { kind: 'slow', ms: 1500, match: `/${BAKERY}/feed` });
      const logged = r.emulator.controls.log.length;
      const first = revoked.get(`/pages/${BAKERY}`);
      // The others arrive once the revoked session's feed read is under way (a report must not hang: 10 s at most).
      const deadline = Date.now() + 10_000;
      while (
        !r.emulator.controls.log.slice(logged).some((e) => e.path.endsWith(`/${BAKERY}/feed`) && e.status === null)
      ) {
        if (Date.now() > deadline) throw new Error("the revoked session's feed read never started");
        await new Promise((resolve) => setImmediate(resolve));
      }
      const [gone, joined, elsewhere] = await Promise.all([
        first,
        joiner.get(`/pages/${BAKERY}`),
        other.get(`/pages/${BAKERY}`),
      ]);
      await Promise.all([gone, joined, elsewhere].map((res) => res.arrayBuffer()));
      if (gone.status === 200) failures++;
      if (joined.status !== 200 || elsewhere.status !== 200) failures++;
      for (const [person, url] of [
        [joiner, one.url],
        [joiner, two.url],
        [other, two.url],
      ] as const) {
        const res = await person.get(`${url}/pages/${BAKERY}`);
        await res.arrayBuffer();
        if (res.status !== 200) lost++;
      }
    }
    return {
      check,
      tried: rounds,
      failures,
      lost,
      note: `revoked loads joined on both instances: ${rounds}; joiners signed out afterwards: ${lost}`,
    };
  });
}

/** Connect in a loop past the per-session limit: 429s, bounded page-token reads; another person still connects. */
export async function connectLoop(base: string, stack: Stack, limit: number): Promise<Row> {
  const loop = new CookieClient(base);
  await signInThrough(overFetch(loop), { user: ADA });
  const csrf = csrfFrom(await (await loop.get('/pages')).text());
  const reads = () =>
    stack.emulator.controls.log.filter((e) => e.method === 'GET' && /\/\d+$/.test(e.path) && e.tokenKind === 'user')
      .length;
  const before = reads();
  const tries = 4 * limit;
  const statuses: number[] = [];
  for (let i = 0; i < tries; i++) {
    const res = await loop.post(`/pages/${BAKERY}/connect`, { _csrf: csrf });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  const upstream = reads() - before;
  const connected = statuses.filter((s) => s === 303).length;
  const errors = statuses.filter((s) => s >= 500).length;
  const other = await signInAndConnectThrough(overFetch(new CookieClient(base)), BAKERY, { user: GRACE }, true);
  return {
    check: 'attack: connect in a loop',
    tried: tries,
    failures: Math.max(0, connected - limit) + Math.max(0, upstream - limit) + errors,
    lost: other.ok ? 0 : 1,
    note: `303: ${connected}, 429: ${statuses.filter((s) => s === 429).length}, page-token reads: ${upstream} (SESSION_RATE_LIMIT=${limit})`,
  };
}

/** A stream of signed deliveries for the attacker's own Page during every view of another: that Page stays cached. */
export async function dropsByPage(base: string, stack: Stack, views: number): Promise<Row> {
  const viewer = new CookieClient(base);
  const outcome = await signInAndConnectThrough(overFetch(viewer), BAKERY, { user: ADA });
  if (!outcome.ok) throw new Error(`login failed at ${outcome.step}`);
  const reads = () => stack.emulator.controls.calls({ path: `/${BAKERY}`, tokenKind: 'page' });
  const before = reads();
  let failures = 0;
  stack.emulator.controls.setLatency(150);
  try {
    for (let i = 0; i < views; i++) {
      const logged = stack.emulator.controls.log.length;
      let done = false;
      const view = viewer.get(`/pages/${BAKERY}`).finally(() => (done = true));
      // The delivery lands while the view's reads are under way (when it goes upstream at all).
      while (!done && !stack.emulator.controls.log.slice(logged).some((e) => e.status === null))
        await new Promise((resolve) => setImmediate(resolve));
      const heard = new Promise<void>((resolve) => {
        const stop = stack.events.subscribe(SPARSE, () => (stop(), resolve()));
      });
      const delivered = await deliver(
        base,
        feedDelivery(SPARSE, { item: 'status', verb: 'add', post_id: `${SPARSE}_${i}` }),
      );
      if (delivered.status !== 200) failures++;
      else await heard;
      const res = await view;
      await res.arrayBuffer();
      if (res.status !== 200) failures++;
    }
  } finally {
    stack.emulator.controls.setLatency(0);
  }
  // The first view reads details and feed; every later one is served from the cache.
  const upstream = reads() - before;
  return {
    check: "attack: webhooks for one Page stop another's caching",
    tried: views,
    failures: failures + Math.max(0, upstream - 2),
    lost: 0,
    note: `${views} views, a delivery during each: ${upstream} upstream reads (2 expected)`,
  };
}

/** Malformed and forged entries written into Redis: every view on either instance is served (a miss). */
export function malformedEntries(): Promise<Row> {
  const check = 'attack: malformed cache entries in Redis';
  return withRedis(check, async (r) => {
    const config = r.config();
    const one = r.keep(await startInstance(config));
    const two = r.keep(await startInstance(config));
    const first = await connectedClient(one.url, BAKERY, ADA);
    const second = await connectedClient(two.url, BAKERY, ADA);
    const entryKeys = async () =>
      (await keysUnder(r.admin, `${r.prefix}cache:{${BAKERY}}:`)).filter((k) => !/:(v|share|lock)$/.test(k));
    const forgeries: ((key: string, stored: Record<string, unknown>) => string)[] = [
      (key, stored) =>
        JSON.stringify({
          ...stored,
          nonce: 'forged',
          answer: key.includes(':feed:') ? { data: 'MALFORMED', paging: 7 } : { id: 42, name: { html: 'x' } },
        }),
      (key, stored) =>
        JSON.stringify({
          ...stored,
          nonce: 'swap',
          answer: key.includes(':feed:') ? { id: BAKERY, name: 'x' } : { data: [], paging: {} },
        }),
      () => '{"version":1,"answer":"x"}',
      () => 'not json at all',
    ];
    let tried = 0;
    let failures = 0;
    for (const forge of forgeries)
      for (const person of [first, second]) {
        for (const key of await entryKeys()) {
          const stored = JSON.parse((await r.admin.get(key)) ?? '{}') as Record<string, unknown>;
          await r.admin.set(key, forge(key, stored), { PX: 60_000 });
        }
        tried++;
        const res = await person.get(`/pages/${BAKERY}`);
        if (res.status !== 200 || !(await res.text()).includes('Lovelace Analytical Bakery')) failures++;
      }
    return {
      check,
      tried,
      failures,
      lost: 0,
      note: `${forgeries.length} forgeries × 2 instances; views not served: ${failures}`,
    };
  });
}

/**
 * Deauthorize then data deletion: the receipt counts both callbacks' work, no token of theirs stays in a cache,
 * and a login begun before the removal is refused; with Redis, across two instances too.
 */
/**
 * Whether a deletion receipt tells `sessions` sessions and `pages` Pages ended: its list, as English says those
 * counts today (the catalog's words, not a copy of them), so the row checks what was ended, not how it is worded.
 */
function countsOnReceipt(html: string, sessions: number, pages: number): boolean {
  const english = englishLocale();
  const items = [...html.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1]!.trim());
  return (
    items.includes(escapeHtml(english.t('deletion.sessions', { count: sessions }))) &&
    items.includes(escapeHtml(english.t('deletion.pages', { count: pages })))
  );
}

export async function dataDeletion(): Promise<Row> {
  const check = 'attack: data held after deletion, a login from before it';
  const callback = (url: string, path: string, now = Date.now()) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      body: new URLSearchParams({ signed_request: signedRequest(APP_SECRET, { user_id: ADA }, { now }) }),
    });
  const receiptOf = async (url: string, res: Response) => {
    const { confirmation_code: code } = (await res.json()) as { confirmation_code: string };
    return countsOnReceipt(await (await fetch(`${url}/auth/data-deletion/${code}`)).text(), 1, 1);
  };
  let tried = 0;
  let failures = 0;
  let lost = 0;
  const emulator = await startSharedEmulator();
  let shift = 0;
  try {
    const own = await startOwn(
      configFor(emulator, { PAGE_CACHE_TTL: '60', ACCOUNTS_CACHE_TTL: '60' }),
      () => Date.now() + shift,
    );
    try {
      await connectedClient(own.url, BAKERY, ADA);
      const issued = emulator.controls.issuedTokens();
      await (await callback(own.url, '/auth/deauthorize')).arrayBuffer();
      tried++;
      if (!(await receiptOf(own.url, await callback(own.url, '/auth/data-deletion')))) failures++;
      tried++;
      const held = [...(own.ctx.pageCache as MemoryPageCache).entries(), ...own.ctx.accounts.entries()];
      if (holdsToken(held, issued) || JSON.stringify(held).includes(BAKERY)) failures++;
      // The app was removed 5 s from now: a login that begins now and completes then began before it.
      shift = 5_000;
      await (await callback(own.url, '/auth/deauthorize', Date.now() + shift)).arrayBuffer();
      shift = 0;
      tried++;
      if ((await signInThrough(overFetch(new CookieClient(own.url)), { user: ADA })).status !== 403) failures++;
      shift = 6_000;
      if (!(await signInAndConnectThrough(overFetch(new CookieClient(own.url)), BAKERY, { user: ADA }, true)).ok)
        lost++;
    } finally {
      await own.close();
    }
  } finally {
    await emulator.close();
  }
  const shared = await withRedis(check, async (r) => {
    const config = r.config();
    const a = r.keep(await startInstance(config));
    const b = r.keep(await startInstance(config));
    await connectedClient(a.url, BAKERY, ADA);
    await (await callback(b.url, '/auth/deauthorize')).arrayBuffer();
    const res = await callback(a.url, '/auth/data-deletion');
    const { confirmation_code: code } = (await res.json()) as { confirmation_code: string };
    let wrong = 0;
    for (const url of [a.url, b.url])
      if (!countsOnReceipt(await (await fetch(`${url}/auth/data-deletion/${code}`)).text(), 1, 1)) wrong++;
    const issued = r.emulator.controls.issuedTokens();
    for (const key of await keysUnder(r.admin, r.prefix)) {
      const value = [key, await valueOfKey(r.admin, key)];
      if (holdsToken(value, issued) || JSON.stringify(value).includes(ADA)) wrong++;
    }
    // A login begun on A before the removal reached B (5 s ahead) is refused.
    const c = r.keep(await startInstance(config, { now: () => Date.now() + 5_000 }));
    await (await callback(c.url, '/auth/deauthorize', Date.now() + 5_000)).arrayBuffer();
    const late = await signInAndConnectThrough(overFetch(new CookieClient(a.url)), BAKERY, { user: ADA });
    if (late.ok || late.status !== 403) wrong++;
    return { check, tried: 3, failures: wrong, lost: 0, note: '' };
  });
  return {
    check,
    tried: tried + shared.tried,
    failures: failures + shared.failures,
    lost,
    note: `memory: ${failures} wrong of ${tried} (receipt and caches, a login from before); Redis: ${shared.note === 'skipped: no Redis' ? 'skipped: no Redis' : `${shared.failures} wrong of ${shared.tried} (receipt from both instances, every key, a login from before)`}`,
  };
}

/** The same signed deliveries sent to both instances on Redis, again and again: each handled once in all. */
export function replayAcrossInstances(deliveries: number): Promise<Row> {
  const check = 'attack: webhook replay across instances (Redis)';
  return withRedis(check, async (r) => {
    const config = r.config({ FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN });
    const instances = [r.keep(await startInstance(config)), r.keep(await startInstance(config))];
    const count = (what: string) =>
      instances.reduce((n, i) => n + i.logs.lines.filter((l) => l.includes(what)).length, 0);
    let tried = 0;
    let refused = 0;
    for (let d = 0; d < deliveries; d++) {
      const delivery = feedDelivery('999999999999', { n: d });
      for (const instance of [...instances, ...instances]) {
        tried++;
        const res = await deliver(instance.url, delivery);
        if (res.status !== 200) refused++;
      }
    }
    const judged = () => count('"msg":"webhook delivery"') + count('webhook delivery repeated');
    const deadline = Date.now() + 5000;
    while (judged() < tried && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    const handled = count('"msg":"webhook delivery"');
    return {
      check,
      tried,
      failures: Math.abs(handled - deliveries) + refused,
      lost: 0,
      note: `${deliveries} deliveries sent 4 times over 2 instances: handled ${handled} times`,
    };
  });
}

/** Verify-token guesses and refused deliveries from one address, past their limits: 429, and the site answers. */
export async function webhookLimits(base: string): Promise<Row> {
  const person = await connectedClient(base, BAKERY, ADA);
  const guesses = 2 * HANDSHAKE_LIMIT;
  let answered = 0;
  let wrong = 0;
  for (let i = 0; i < guesses; i++) {
    const query = new URLSearchParams({
      'hub.mode': 'subscribe',
      'hub.verify_token': `guess-${i}`,
      'hub.challenge': '42',
    });
    const res = await fetch(`${base}/webhooks/facebook?${query.toString()}`);
    await res.arrayBuffer();
    if (res.status === 403) answered++;
    else if (res.status !== 429) wrong++;
  }
  const refusals = 2 * REFUSED_DELIVERY_LIMIT;
  let judged = 0;
  for (let i = 0; i < refusals; i++) {
    const res = await fetch(`${base}/webhooks/facebook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
      body: JSON.stringify({ object: 'page', entry: [{ id: '999999999999', changes: [] }], n: i }),
    });
    await res.arrayBuffer();
    if (res.status === 403) judged++;
    else if (res.status !== 429) wrong++;
  }
  // Behind a proxy without TRUST_PROXY the provider shares the flood's address: its signed delivery still counts.
  const delivery = await deliver(base, { object: 'page', entry: [{ id: '999999999999', changes: [] }] });
  await delivery.arrayBuffer();
  if (delivery.status !== 200) wrong++;
  const still = await person.get(`/pages/${BAKERY}`);
  await still.arrayBuffer();
  return {
    check: 'attack: verify-token guesses, refused deliveries',
    tried: guesses + refusals,
    failures: Math.max(0, answered - HANDSHAKE_LIMIT) + Math.max(0, judged - REFUSED_DELIVERY_LIMIT) + wrong,
    lost: still.status === 200 ? 0 : 1,
    note: `guesses answered ${answered} of ${guesses} (limit ${HANDSHAKE_LIMIT}); refusals judged ${judged} of ${refusals} (limit ${REFUSED_DELIVERY_LIMIT}); a signed delivery after them: ${delivery.status}`,
  };
}

/** One person signing in many times: their Redis index never holds more than the bound; others are untouched. */
export function indexBound(logins: number): Promise<Row> {
  const check = 'attack: one person signing in again and again (Redis)';
  return withRedis(check, async (r) => {
    const redis = await Redis.connect({ redisUrl: REDIS_URL }, createLogger({ level: 'silent' }));
    r.keep(redis);
    const handle = createRedisSessionStore(redis, { redisKeyPrefix: r.prefix });
    const signIn = (sid: string, userId: string, lifetimeSec: number) =>
      storeLoggedInSession(handle, sid, userId, lifetimeSec);
    await signIn('grace-1', GRACE, 3600);
    let largest = 0;
    for (let i = 0; i < logins; i++) {
      await signIn(`ada-${i}`, ADA, 3600 + i);
      largest = Math.max(largest, await r.admin.sCard(`${r.prefix}sess:user:${ADA}`));
    }
    const kept = (await handle.index.sessionsOf(ADA)).length;
    const grace = await handle.index.sessionsOf(GRACE);
    return {
      check,
      tried: logins,
      failures: (largest > MAX_SESSIONS_PER_PERSON ? 1 : 0) + (kept > MAX_SESSIONS_PER_PERSON ? 1 : 0),
      lost: grace.length === 1 ? 0 : 1,
      note: `largest index ${largest}, kept ${kept} (MAX_SESSIONS_PER_PERSON=${MAX_SESSIONS_PER_PERSON})`,
    };
  });
}

/**
 * A person who no longer manages the Page: past PAGE_CACHE_TTL, nothing cached is served to them; each view asks
 * the provider with their own token. Another person keeps their page.
 */
export async function roleFreshness(rounds: number): Promise<Row> {
  const ttlMs = 60_000;
  let clock = Date.now();
  const stack = await startStack({
    env: { PAGE_CACHE_TTL: String(ttlMs / 1000), ACCOUNTS_CACHE_TTL: '0' },
    now: () => clock,
  });
  try {
    const pageReads = () => stack.emulator.controls.calls({ path: `/${BAKERY}`, tokenKind: 'page' });
    const ada = agentFor(stack);
    await signInAndConnect(ada, BAKERY);
    const grace = agentFor(stack);
    await signInAndConnect(grace, BAKERY, { user: GRACE });
    await ada.get(`/pages/${BAKERY}`);
    clock += ttlMs + 1000;
    let failures = 0;
    let lost = 0;
    for (let i = 0; i < rounds; i++) {
      // `/me/accounts` as the provider answers once Ada's role on the bakery is gone.
      stack.emulator.controls.failNext(1, {
        kind: 'http',
        status: 200,
        contentType: 'application/json',
        match: '/me/accounts',
        body: JSON.stringify({ data: [] }),
      });
      const before = pageReads();
      await ada.get(`/pages/${BAKERY}`);
      if (pageReads() - before !== 2) failures++;
      if ((await grace.get(`/pages/${BAKERY}`)).status !== 200) lost++;
    }
    return {
      check: 'attack: cached page served after the role was removed',
      tried: rounds,
      failures,
      lost,
      note: `views past PAGE_CACHE_TTL=${ttlMs / 1000}s served from the cache: ${failures}`,
    };
  } finally {
    stack.emulator.controls.clearFailures();
    await stack.close();
  }
}
