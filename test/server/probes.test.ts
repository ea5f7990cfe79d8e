import { sign } from 'cookie-signature';
import request from 'supertest';
import { createApp } from '../../src/app';
import { buildContext, contextClosers } from '../../src/context';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/log/logger';
import { redisFor } from '../../src/redis';
import { redisMissing, TcpProxy, uniqueKeyPrefix, useRedisAdmin } from '../support/redis';
import { LogCapture } from '../support/stack';
import { links } from '../support/dom';

/**
 * The probes and the pages that need no session store, while the store is up and while Redis is cut
 * (a TCP hop in front of the real Redis drops every connection).
 * @see docs/operations.md#probes-and-shutdown
 * @see docs/operations.md#when-redis-is-down
 */
const REDIS_URL = process.env.REDIS_URL;
const withRedis = redisMissing() === undefined;

const SECRETS = { SESSION_SECRET: 'probe-test-session-secret-0123456789abcdef' };

/** Asks until `check` holds: the client notices the cut on its own schedule, so no clock is asserted. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe('GET /livez, /readyz, /healthz', () => {
  it('when the memory store is up, then /livez, /readyz and /healthz answer 200 with short JSON and no cookie', async () => {
    const config = loadConfig(SECRETS);
    const ctx = buildContext(config, { logger: createLogger({ level: 'silent' }) });
    const app = createApp(ctx);
    const live = await request(app).get('/livez').expect(200);
    expect(live.body).toEqual({ status: 'ok' });
    for (const path of ['/readyz', '/healthz']) {
      const res = await request(app).get(path).expect(200);
      expect(res.body).toEqual({ status: 'ok', store: 'memory' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    for (const closer of contextClosers(ctx)) await closer.close();
  });
});

(withRedis ? describe : describe.skip)('while Redis is cut (SESSION_STORE=redis)', () => {
  const prefix = uniqueKeyPrefix('probes:');
  let hop: TcpProxy;
  beforeEach(async () => {
    const target = new URL(REDIS_URL!);
    hop = await new TcpProxy(target.hostname, Number(target.port || 6379)).start();
  });
  afterEach(() => hop.close());
  useRedisAdmin(prefix);

  async function instance() {
    const config = loadConfig({
      ...SECRETS,
      SESSION_STORE: 'redis',
      REDIS_URL: `redis://127.0.0.1:${hop.port}`,
      REDIS_KEY_PREFIX: prefix,
    });
    const logs = new LogCapture();
    const logger = createLogger({ level: 'info', destination: logs });
    const redis = await redisFor(config, logger, { heartbeatMs: 100 });
    const ctx = buildContext(config, { logger, ...(redis ? { redis } : {}) });
    return {
      app: createApp(ctx),
      logs,
      close: async () => {
        for (const closer of contextClosers(ctx)) await closer.close();
      },
    };
  }

  it('when Redis goes down, then /readyz and /healthz answer 503 saying why, /livez stays 200, and /readyz is 200 again once Redis is back', async () => {
    const { app, close } = await instance();
    try {
      await request(app).get('/readyz').expect(200, { status: 'ok', store: 'redis' });

      hop.set('refuse');
      await until(async () => (await request(app).get('/readyz')).status === 503);
      const ready = await request(app).get('/readyz').expect(503);
      expect(ready.body).toEqual({ status: 'unavailable', store: 'redis', reason: 'session store unavailable' });
      await request(app).get('/healthz').expect(503);
      await request(app).get('/livez').expect(200, { status: 'ok' });

      hop.set('up');
      await until(async () => (await request(app).get('/readyz')).status === 200);
      await request(app).get('/livez').expect(200);
    } finally {
      await close();
    }
  });

  it('when Redis is down, then home (signed out), privacy and static files answer 200 without a cookie, and pages that need the store answer the 503 page', async () => {
    const { app, close } = await instance();
    try {
      hop.set('refuse');
      await until(async () => (await request(app).get('/readyz')).status === 503);

      const home = await request(app).get('/').expect(200);
      expect(links(home.text).map((l) => l.href)).toContain('/auth/login');
      expect(home.headers['set-cookie']).toBeUndefined();
      const privacy = await request(app).get('/privacy').expect(200);
      expect(privacy.text).toContain('Privacy');
      await request(app).get('/public/style.css').expect(200);
      await request(app).get('/livez').expect(200);

      // A cookie naming a session changes nothing: the store cannot be read, so home shows the signed-out state.
      await request(app).get('/').set('Cookie', 'pagelight=s:whatever.sig').expect(200);

      for (const path of ['/pages', '/pages/1234', '/auth/login']) {
        const res = await request(app).get(path);
        expect(res.status).toBe(503);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.text).toContain('Pagelight is busy for a moment');
      }
      await request(app).post('/auth/logout').type('form').send({ _csrf: 'x' }).expect(503);
    } finally {
      await close();
    }
  });

  it('when Redis stops answering on an open connection, then home still answers 200 signed out and a page that needs the store answers 503, never a 500', async () => {
    const { app, close } = await instance();
    try {
      await request(app).get('/readyz').expect(200);
      hop.set('stall');
      // A cookie signed as the app signs it, so the session must be read from the (stalled) store.
      const cookie = `pagelight=s:${encodeURIComponent(sign('a-session-id', SECRETS.SESSION_SECRET))}`;
      const home = await request(app).get('/').set('Cookie', cookie);
      expect(home.status).toBe(200);
      expect(links(home.text).map((l) => l.href)).toContain('/auth/login');
      expect(home.headers['set-cookie']).toBeUndefined();
      expect((await request(app).get('/pages').set('Cookie', cookie)).status).toBe(503);
      await request(app).get('/livez').expect(200);
    } finally {
      // Pending replies would hold the close forever: end the stalled connections first.
      hop.set('refuse');
      await close();
    }
  });
});
