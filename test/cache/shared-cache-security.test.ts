import { randomBytes } from 'node:crypto';
import { SEED_IDS, type RunningEmulator } from '@pagelight/graph-emulator';
import { loadConfig, type Config } from '../../src/config';
import { CookieClient } from '../support/cookie-client';
import { connectedClient } from '../support/login';
import { appEnv, startInstance, type Instance } from '../support/stack';
import { startSharedEmulator } from '../support/instances';
import { keysUnder, redisClient, type RedisClient } from '../support/redis';
import { describeWithRedis } from '../support/redis';

/**
 * The page cache shared through Redis, attacked: a session whose token the provider revoked, viewing a page at
 * the same moment as others, and entries in Redis that are not what an instance wrote
 * (docs/architecture.md#shared-cache). Real Redis, two app instances, one emulator.
 */
const REDIS_URL = process.env.REDIS_URL;
const describeRedis = describeWithRedis();

const ADA = SEED_IDS.users.ada;
const BAKERY = SEED_IDS.pages.bakery;
const RUN = `pagelight-test:${process.pid}-${randomBytes(4).toString('hex')}:`;

/** One app instance as src/server.ts builds it, with its context at hand and its log lines. */
const startOne = (config: Config): Promise<Instance> => startInstance(config);

/** Waits for a condition the test cannot be told about (polled, no deadline of its own: jest's timeout is it). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setImmediate(resolve));
}

describeRedis('the shared page cache, attacked', () => {
  let emulator: RunningEmulator;
  let admin: RedisClient;
  let prefix: string;
  let run = 0;
  const running: Instance[] = [];

  const configFor = (): Config =>
    loadConfig({
      ...appEnv(emulator.url),
      PROVIDER_TIMEOUT_MS: '4000',
      SESSION_STORE: 'redis',
      REDIS_URL: REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      PAGE_CACHE_TTL: '60',
    });
  const start = async (): Promise<Instance> => {
    const instance = await startOne(configFor());
    running.push(instance);
    return instance;
  };

  /** A person signed in on `instance` with the page connected and viewed, and the tokens the provider issued them. */
  async function viewer(instance: Instance): Promise<{ browser: CookieClient; tokens: string[] }> {
    const before = new Set(emulator.controls.issuedTokens());
    const browser = await connectedClient(instance.url, BAKERY, ADA);
    return { browser, tokens: emulator.controls.issuedTokens().filter((t) => !before.has(t)) };
  }

  /** What another instance's drop does: every cached part of the page is missed from now on. */
  const dropEverywhere = async () => {
    await admin.hIncrBy(`${prefix}cache:{${BAKERY}}:v`, 'details', 1);
    await admin.hIncrBy(`${prefix}cache:{${BAKERY}}:v`, 'feed', 1);
  };

  const entryKeys = async (): Promise<string[]> => {
    const keys: string[] = [];
    for await (const batch of admin.scanIterator({ MATCH: `${prefix}cache:{${BAKERY}}:*`, COUNT: 100 }))
      keys.push(...batch.filter((k) => !/:(v|share|lock)$/.test(k)));
    return keys;
  };

  beforeAll(async () => {
    emulator = await startSharedEmulator();
    admin = redisClient();
    admin.on('error', () => undefined);
    await admin.connect();
  });
  beforeEach(() => {
    prefix = `${RUN}${run++}:`;
    emulator.controls.reset();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((i) => i.close()));
  });
  afterAll(async () => {
    const left = await keysUnder(admin, RUN);
    if (left.length) await admin.del(left);
    await admin.close();
    await emulator.close();
  });

  it('when a session whose token was revoked loads the page and others join that load, then only it is signed out: the others keep the page on both instances', async () => {
    const [one, two] = [await start(), await start()];
    const revoked = await viewer(one);
    const joiner = await viewer(one);
    const other = await viewer(two);
    for (const token of revoked.tokens) emulator.controls.revokeTokens({ token });
    await dropEverywhere();
    // The revoked session's feed read takes a while; the other views arrive while it is under way.
    emulator.controls.failNext(1, { kind: 'slow', ms: 1500, match: `/${BAKERY}/feed` });
    const logged = emulator.controls.log.length;
    const first = revoked.browser.get(`/pages/${BAKERY}`);
    await until(() =>
      emulator.controls.log.slice(logged).some((e) => e.path.endsWith(`/${BAKERY}/feed`) && e.status === null),
    );
    const [gone, joined, elsewhere] = await Promise.all([
      first,
      joiner.browser.get(`/pages/${BAKERY}`),
      other.browser.get(`/pages/${BAKERY}`),
    ]);
    expect(gone.status).toBe(303);
    expect(joined.status).toBe(200);
    expect(await joined.text()).toContain('Lovelace Analytical Bakery');
    expect(elsewhere.status).toBe(200);
    // Still connected: the next views are served, on either instance.
    expect((await joiner.browser.get(`/pages/${BAKERY}`)).status).toBe(200);
    expect((await joiner.browser.get(`${two.url}/pages/${BAKERY}`)).status).toBe(200);
    expect((await other.browser.get(`/pages/${BAKERY}`)).status).toBe(200);
  }, 30_000);

  it('when an entry in Redis is malformed, then every view of the page on every instance is still served (a miss), and the log says so once without its content', async () => {
    const [one, two] = [await start(), await start()];
    const first = await viewer(one);
    const second = await viewer(two);
    const forge = async () => {
      const keys = await entryKeys();
      expect(keys).toHaveLength(2);
      for (const key of keys) {
        const stored = JSON.parse((await admin.get(key))!) as { version: string; storedAt: number };
        const answer = key.includes(':feed:')
          ? { data: 'MALFORMED-CONTENT-MARKER', paging: 7 }
          : { id: 42, name: { html: 'MALFORMED-CONTENT-MARKER' } };
        const forged = { version: stored.version, storedAt: stored.storedAt, nonce: 'forged', answer };
        await admin.set(key, JSON.stringify(forged), { PX: 60_000 });
      }
    };
    for (const [browser, instance] of [
      [second.browser, two],
      [first.browser, one],
      [first.browser, one],
    ] as const) {
      await forge();
      const res = await browser.get(`/pages/${BAKERY}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('Lovelace Analytical Bakery');
      expect(instance.logs.text).not.toContain('MALFORMED-CONTENT-MARKER');
    }
    // Once per entry and instance, however often it is read.
    expect(two.logs.lines.filter((l) => l.includes('malformed entry'))).toHaveLength(2);
    expect(one.logs.lines.filter((l) => l.includes('malformed entry'))).toHaveLength(2);
    // The misses stored good answers again: later views are served from them.
    expect((await first.browser.get(`/pages/${BAKERY}`)).status).toBe(200);
    expect((await second.browser.get(`/pages/${BAKERY}`)).status).toBe(200);
  }, 30_000);

  it('when an entry holds an answer of the wrong part or a forged envelope, then it is a miss too', async () => {
    const [one] = [await start()];
    const person = await viewer(one);
    const keys = await entryKeys();
    for (const key of keys) {
      const stored = JSON.parse((await admin.get(key))!) as { version: string; storedAt: number };
      // A feed where details belong and the other way round; an envelope that is not one.
      const answer = key.includes(':feed:') ? { id: BAKERY, name: 'x' } : { data: [], paging: {} };
      await admin.set(key, JSON.stringify({ ...stored, nonce: 'swap', answer }), { PX: 60_000 });
    }
    expect((await person.browser.get(`/pages/${BAKERY}`)).status).toBe(200);
    for (const key of await entryKeys()) await admin.set(key, '{"version":1,"answer":"x"}', { PX: 60_000 });
    expect((await person.browser.get(`/pages/${BAKERY}`)).status).toBe(200);
    await admin.set((await entryKeys())[0]!, 'not json at all', { PX: 60_000 });
    expect((await person.browser.get(`/pages/${BAKERY}`)).status).toBe(200);
  }, 30_000);
});
