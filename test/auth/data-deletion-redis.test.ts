import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createClient } from 'redis';
import { SEED_IDS, startEmulator, type RunningEmulator } from '@pagelight/graph-emulator';
import { createApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { buildContext, contextClosers, type AppContext } from '../../src/context';
import { createLogger } from '../../src/log/logger';
import { redisFor } from '../../src/redis';
import { CookieClient } from '../support/cookie-client';
import { realLogin } from '../support/login';
import { signedRequest } from '../support/signed-request';
import { APP_ID, APP_SECRET, appEnv, BASE_URL, startInstance, type Instance } from '../support/stack';
import { describeWithRedis } from '../support/redis';

/**
 * Two instances on one Redis: the callbacks reach one instance, the person's sessions and logins are on the
 * other. Deletion removes what is held for them everywhere and the receipt is the same from both; a login begun
 * on one before the removal reached the other does not complete (docs/architecture.md#provider-callbacks).
 */
const REDIS_URL = process.env.REDIS_URL;
const describeRedis = describeWithRedis();

const ADA = SEED_IDS.users.ada;
const BAKERY = SEED_IDS.pages.bakery;
const RUN = `pagelight-test:${process.pid}-${randomBytes(4).toString('hex')}:`;

describeRedis('data deletion across instances sharing Redis', () => {
  let emulator: RunningEmulator;
  let admin: ReturnType<typeof createClient>;
  let prefix = RUN;
  let run = 0;
  const running: { close(): Promise<void> }[] = [];

  const configFor = (): Config =>
    loadConfig({
      ...appEnv(emulator.url),
      PROVIDER_TIMEOUT_MS: '2000',
      SESSION_STORE: 'redis',
      PAGE_CACHE_STORE: 'redis',
      PAGE_CACHE_TTL: '60',
      REDIS_URL: REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
    });
  const start = async (config: Config, now?: () => number) => {
    const instance = await startInstance(config, now ? { now } : {});
    running.push(instance);
    return instance;
  };
  const keys = async (match: string) => {
    const found: string[] = [];
    for await (const batch of admin.scanIterator({ MATCH: match, COUNT: 1000 })) found.push(...batch);
    return found;
  };
  const callback = async (instance: Instance, path: string, now = Date.now()) => {
    const res = await fetch(`${instance.url}${path}`, {
      method: 'POST',
      body: new URLSearchParams({ signed_request: signedRequest(APP_SECRET, { user_id: ADA }, { now }) }),
    });
    expect(res.status).toBe(200);
    return res;
  };

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 'test',
      clients: [{ clientId: APP_ID, clientSecret: APP_SECRET, redirectUri: `${BASE_URL}/auth/callback`, name: 'T' }],
    });
    admin = createClient({ url: REDIS_URL! });
    admin.on('error', () => undefined);
    await admin.connect();
  });
  beforeEach(() => {
    prefix = `${RUN}${run++}:`;
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((i) => i.close()));
  });
  afterAll(async () => {
    const left = await keys(`${RUN}*`);
    if (left.length) await admin.del(left);
    await admin.close();
    await emulator.close();
  });

  it('when deauthorize reaches one instance and deletion the other, then the receipt counts both from either, and no key or value names the person or holds a token', async () => {
    const config = configFor();
    const [a, b] = [await start(config), await start(config)];
    const ada = new CookieClient(a.url, 10_000);
    const outcome = await realLogin(a.url, ADA, BAKERY, ada);
    expect(outcome.ok).toBe(true);

    await callback(b, '/auth/deauthorize');
    const res = await callback(a, '/auth/data-deletion');
    const { confirmation_code: code } = (await res.json()) as { confirmation_code: string };
    for (const instance of [a, b]) {
      const receipt = await (await fetch(`${instance.url}/auth/data-deletion/${code}`)).text();
      expect(receipt).toContain('ended your signed-in session on every server');
      expect(receipt).toContain('the Page you had connected');
    }

    // A dump of every key the app holds: the person is not named, and no token issued to them is readable.
    const issued = emulator.controls.issuedTokens();
    expect(issued.length).toBeGreaterThan(0);
    const held = await keys(`${prefix}*`);
    expect(held.length).toBeGreaterThan(0);
    for (const key of held) {
      expect(key).not.toContain(ADA);
      const type = await admin.type(key);
      const values =
        type === 'string'
          ? [(await admin.get(key)) ?? '']
          : type === 'set'
            ? await admin.sMembers(key)
            : type === 'hash'
              ? Object.values(await admin.hGetAll(key))
              : type === 'zset'
                ? await admin.zRange(key, 0, -1)
                : [];
      for (const value of values) {
        expect(value).not.toContain(ADA);
        for (const token of issued) expect(value).not.toContain(token);
      }
    }
  });

  /** An instance as startInstance makes one, whose context the test can read (its accounts cache). */
  const startOwn = async (config: Config): Promise<{ url: string; ctx: AppContext }> => {
    const logger = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, d) => d() }) });
    const redis = await redisFor(config, logger);
    const ctx = buildContext(config, { logger, ...(redis ? { redis } : {}) });
    const server = createServer(createApp(ctx));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    running.push({
      close: async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        for (const closer of contextClosers(ctx)) await closer.close();
      },
    });
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ctx };
  };

  it('when the person used both instances and deauthorize reaches one, then the lists of their pages (with page tokens) leave both accounts caches', async () => {
    const config = configFor();
    const [a, b] = [await startOwn(config), await startOwn(config)];
    const ada = new CookieClient(a.url, 10_000);
    expect((await realLogin(a.url, ADA, BAKERY, ada)).ok).toBe(true);
    // The same browser, through the other instance: its accounts cache fetches the list too.
    expect((await ada.get(`${b.url}/pages`)).status).toBe(200);
    const issued = emulator.controls.issuedTokens();
    const cachedIn = (ctx: AppContext) => issued.filter((t) => ctx.accounts.peek(t) !== undefined).length;
    expect(cachedIn(a.ctx)).toBe(1);
    expect(cachedIn(b.ctx)).toBe(1);

    const res = await fetch(`${a.url}/auth/deauthorize`, {
      method: 'POST',
      body: new URLSearchParams({ signed_request: signedRequest(APP_SECRET, { user_id: ADA }) }),
    });
    expect(res.status).toBe(200);
    expect(cachedIn(a.ctx)).toBe(0);
    // The other instance hears of it through Redis pub/sub: wait for the message, not for a time.
    while (cachedIn(b.ctx) > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cachedIn(b.ctx)).toBe(0);
  });

  it('when a login began on one instance before the removal reached the other, then it is refused with "connect again"', async () => {
    const config = configFor();
    const a = await start(config);
    // B hears of the removal 5 s after A's clock: the login on A began before it and comes back after it.
    const b = await start(config, () => Date.now() + 5_000);
    await callback(b, '/auth/deauthorize', Date.now() + 5_000);
    const late = new CookieClient(a.url, 10_000);
    const outcome = await realLogin(a.url, ADA, BAKERY, late);
    expect(outcome).toMatchObject({ ok: false, step: 'callback', status: 403 });
    expect(await (await late.get('/')).text()).not.toContain('Signed in as');
  });
});
