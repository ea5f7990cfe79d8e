import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import request from 'supertest';
import { SEED_IDS, startEmulator, type RunningEmulator } from '@pagelight/graph-emulator';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { buildContext, contextClosers, type AppContext } from '../../src/context';
import { PageCache } from '../../src/cache/memory-page-cache';
import { createLogger } from '../../src/log/logger';
import { redisFor } from '../../src/redis';
import { CookieClient } from '../support/cookie-client';
import { csrfFrom, login, sessionCookie } from '../support/flow';
import { APP_SECRET } from '../support/stack';

/**
 * No cache holds a usable token (docs/architecture.md#security-rules): the provider's `paging.next` and
 * `previous` carry `access_token=`, and are kept only as "there is more". After a walk through a Page's feed
 * — the page, every "Older posts" page to the end, the picker — every entry of every cache is searched for
 * every token the provider issued. In memory, and in Redis (every key under the run's prefix, of every type).
 */
const REDIS_URL = process.env.REDIS_URL;
const ADA = SEED_IDS.users.ada;
const BAKERY = SEED_IDS.pages.bakery;
const APP_ID = '3234567890123456';
const BASE_URL = 'http://app.test';
const newAdmin = () => createClient({ url: REDIS_URL! });
type Admin = ReturnType<typeof newAdmin>;
const RUN = `pagelight-test:${process.pid}-${randomBytes(4).toString('hex')}:`;

interface Instance {
  url: string;
  ctx: AppContext;
  close(): Promise<void>;
}

async function startOne(env: Record<string, string>, emulator: RunningEmulator): Promise<Instance> {
  const config = loadConfig({
    FB_APP_ID: APP_ID,
    FB_APP_SECRET: APP_SECRET,
    FB_AUTH_URL: emulator.url,
    FB_GRAPH_URL: emulator.url,
    FB_IMAGE_ORIGINS: emulator.url,
    BASE_URL,
    SESSION_SECRET: 'test-session-secret-0123456789abcdef',
    LOGIN_RATE_LIMIT: '0',
    PAGE_CACHE_TTL: '60',
    ACCOUNTS_CACHE_TTL: '60',
    ...env,
  });
  const logger = createLogger({ level: 'silent' });
  const redis = await redisFor(config, logger);
  const ctx = buildContext(config, { logger, ...(redis ? { redis } : {}) });
  const server = http.createServer(createApp(ctx));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ctx,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      for (const closer of contextClosers(ctx)) await closer.close();
    },
  };
}

/** The walk: log in and connect, the page, "Older posts" to the end, the picker. Returns the pages of posts seen. */
async function walk(instance: Instance): Promise<number> {
  const browser = await signIn(instance.url, ADA);
  let html = await (await browser.get(`/pages/${BAKERY}`)).text();
  let pages = 1;
  for (let older = olderLink(html); older !== undefined; older = olderLink(html)) {
    const res = await browser.get(older);
    expect(res.status).toBe(200);
    html = await res.text();
    pages++;
    if (pages > 100) throw new Error('the feed did not end within 100 pages');
  }
  expect((await browser.get('/pages')).status).toBe(200);
  return pages;
}

function olderLink(html: string): string | undefined {
  const href = /<a class="button" rel="next" href="([^"]+)">Older posts<\/a>/.exec(html)?.[1];
  return href?.replace(/&amp;/g, '&');
}

/** The issued tokens found in `dump`, as they are and as a URL would carry them. */
function tokensIn(dump: string, tokens: string[]): string[] {
  return tokens.filter((t) => dump.includes(t) || dump.includes(encodeURIComponent(t)));
}

/**
 * A person signed in as `user` on the instance at `url` over real HTTP, the page connected and viewed once: a
 * cookie jar holding their session, usable on any instance (the sessions are shared).
 */
async function signIn(url: string, user: string): Promise<CookieClient> {
  const agent = request.agent(url);
  const callback = await login(agent, { user });
  expect(callback.status).toBe(303);
  const cookie = sessionCookie(callback);
  if (!cookie) throw new Error('the login set no session cookie');
  const picker = await agent.get('/pages').expect(200);
  await agent
    .post(`/pages/${BAKERY}/connect`)
    .type('form')
    .send({ _csrf: csrfFrom(picker.text) })
    .expect(303);
  const browser = new CookieClient(url, 15_000);
  browser.jar.set('pagelight', cookie.slice(cookie.indexOf('=') + 1));
  expect((await browser.get(`/pages/${BAKERY}`)).status).toBe(200);
  return browser;
}

describe('no token at rest in any cache', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 'test',
      clients: [
        {
          clientId: APP_ID,
          clientSecret: APP_SECRET,
          redirectUri: `${BASE_URL}/auth/callback`,
          name: 'Pagelight test',
        },
      ],
    });
  });
  afterAll(() => emulator.close());

  it('when a person walked the whole feed and the picker, then neither the page cache nor the accounts cache holds a token the provider issued', async () => {
    const instance = await startOne({}, emulator);
    try {
      const pages = await walk(instance);
      expect(pages).toBeGreaterThan(1);
      const cache = instance.ctx.pageCache as PageCache;
      const entries = cache.entries();
      const lists = instance.ctx.accounts.entries();
      expect(entries.length).toBeGreaterThanOrEqual(2);
      expect(lists.length).toBeGreaterThanOrEqual(1);
      const dump = JSON.stringify([entries, lists]);
      const tokens = emulator.controls.issuedTokens();
      expect(tokens.length).toBeGreaterThanOrEqual(2);
      expect(tokensIn(dump, tokens)).toEqual([]);
      expect(dump.includes('access_token')).toBe(false);
      // The feed entry still knows there are older posts: the marker, not the URL.
      expect(dump.includes('"next":true')).toBe(true);
    } finally {
      await instance.close();
    }
  });

  (REDIS_URL ? it : it.skip)(
    'when a person walked the whole feed and the picker on an instance sharing Redis, then no key under its prefix, of any type, holds a token the provider issued',
    async () => {
      const prefix = `${RUN}walk:`;
      const admin = newAdmin();
      admin.on('error', () => undefined);
      await admin.connect();
      const instance = await startOne(
        { SESSION_STORE: 'redis', REDIS_URL: REDIS_URL!, REDIS_PREFIX: prefix },
        emulator,
      );
      try {
        await walk(instance);
        const keys: string[] = [];
        for await (const batch of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
        // Sessions and cached answers at least.
        expect(keys.some((k) => k.startsWith(`${prefix}cache:`))).toBe(true);
        expect(keys.some((k) => !k.startsWith(`${prefix}cache:`))).toBe(true);
        const values: unknown[] = [];
        for (const key of keys) values.push(key, await valueOf(admin, key));
        values.push(instance.ctx.accounts.entries());
        const dump = JSON.stringify(values);
        // The feed entry still knows there are older posts (the marker, escaped inside the stored JSON).
        expect(/next\\*":true/.test(dump)).toBe(true);
        expect(tokensIn(dump, emulator.controls.issuedTokens())).toEqual([]);
        expect(dump.includes('access_token')).toBe(false);
      } finally {
        await instance.close();
        const left: string[] = [];
        for await (const batch of admin.scanIterator({ MATCH: `${RUN}*`, COUNT: 1000 })) left.push(...batch);
        if (left.length) await admin.del(left);
        await admin.close();
      }
    },
    30_000,
  );
});

/** A key's whole value, whatever its type. */
function valueOf(admin: Admin, key: string): Promise<unknown> {
  return admin.type(key).then((type): Promise<unknown> => {
    switch (type) {
      case 'string':
        return admin.get(key);
      case 'hash':
        return admin.hGetAll(key);
      case 'list':
        return admin.lRange(key, 0, -1);
      case 'set':
        return admin.sMembers(key);
      case 'zset':
        return admin.zRangeWithScores(key, 0, -1);
      case 'stream':
        return admin.xRange(key, '-', '+');
      default:
        return Promise.resolve(`(${type})`);
    }
  });
}
