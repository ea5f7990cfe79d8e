import request from 'supertest';
import { createClient } from 'redis';
import { ConfigError, loadConfig } from '../../src/config';
import { CookieClient } from '../support/cookie-client';
import { startStack, type Stack, startInstance } from '../support/stack';
import { configFor, startSharedEmulator } from '../support/instances';
import { describeWithRedis } from '../support/redis';
import { SESSIONS_SINCE_KEY } from '../../src/session/lapse';

const REDIS_URL = process.env.REDIS_URL;
const describeRedis = describeWithRedis();

describe('GET /auth/login rate limit (LOGIN_RATE_LIMIT)', () => {
  let stacks: Stack[] = [];
  afterEach(async () => {
    for (const s of stacks) await s.close();
    stacks = [];
  });
  async function stackWith(env: Record<string, string>) {
    const stack = await startStack({ env });
    stacks.push(stack);
    return stack;
  }

  it('when one address starts more logins in a minute than the limit, then the excess gets a friendly 429 with Retry-After and stores nothing', async () => {
    const stack = await stackWith({ LOGIN_RATE_LIMIT: '3' });
    for (let i = 0; i < 3; i++) await request(stack.app).get('/auth/login').expect(303);
    const refused = await request(stack.app).get('/auth/login').expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.text).toContain('Too many logins were started from your network');
    expect(refused.headers['set-cookie']).toBeUndefined();
    const stored = await new Promise<number>((resolve) => stack.sessions.store.length!((_e, n) => resolve(n ?? 0)));
    expect(stored).toBe(3);
  });

  it('when TRUST_PROXY is set, then each client address behind the proxy has its own count', async () => {
    const stack = await stackWith({ LOGIN_RATE_LIMIT: '2', TRUST_PROXY: '1' });
    for (let i = 0; i < 2; i++)
      await request(stack.app).get('/auth/login').set('X-Forwarded-For', '203.0.113.1').expect(303);
    await request(stack.app).get('/auth/login').set('X-Forwarded-For', '203.0.113.1').expect(429);
    await request(stack.app).get('/auth/login').set('X-Forwarded-For', '203.0.113.2').expect(303);
  });

  it('when TRUST_PROXY is unset, then X-Forwarded-For does not pick the count', async () => {
    const stack = await stackWith({ LOGIN_RATE_LIMIT: '2' });
    for (let i = 0; i < 2; i++)
      await request(stack.app).get('/auth/login').set('X-Forwarded-For', `203.0.113.${i}`).expect(303);
    await request(stack.app).get('/auth/login').set('X-Forwarded-For', '203.0.113.9').expect(429);
  });

  it('when unset, then the limit is 30 a minute; 0 turns it off; anything else names the variable', () => {
    const base = { FB_APP_ID: '1', FB_APP_SECRET: 'secret-value-1', SESSION_SECRET: 'x'.repeat(32) };
    expect(loadConfig(base).loginRateLimit).toBe(30);
    expect(loadConfig({ ...base, LOGIN_RATE_LIMIT: '0' }).loginRateLimit).toBe(0);
    expect(() => loadConfig({ ...base, LOGIN_RATE_LIMIT: 'many' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, LOGIN_RATE_LIMIT: 'many' })).toThrow(/^LOGIN_RATE_LIMIT: /);
  });
});

describeRedis('GET /auth/login rate limit with Redis sessions', () => {
  it('when two instances share Redis, then they share one count per address', async () => {
    const emulator = await startSharedEmulator();
    const prefix = `pagelight:test:rl:${process.pid}:${Date.now()}:`;
    const config = configFor(emulator, {
      SESSION_STORE: 'redis',
      REDIS_URL: REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      LOGIN_RATE_LIMIT: '4',
    });
    const first = await startInstance(config);
    const second = await startInstance(config);
    const admin = createClient({ url: REDIS_URL! });
    await admin.connect();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await new CookieClient(i % 2 ? second.url : first.url).get('/auth/login');
        statuses.push(res.status);
      }
      expect(statuses).toEqual([303, 303, 303, 303, 429, 429]);
      // Pending sessions expire with the login: at most 10 minutes. (The store's own record of when it started
      // keeping sessions, src/session/lapse.ts, is no session.)
      const keys = (await admin.keys(`${prefix}sess:*`)).filter((key) => !key.endsWith(SESSIONS_SINCE_KEY));
      expect(keys).toHaveLength(4);
      for (const key of keys) expect(await admin.ttl(key)).toBeLessThanOrEqual(600);
    } finally {
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length) await admin.del(keys);
      await admin.close();
      await first.close();
      await second.close();
      await emulator.close();
    }
  });
});
