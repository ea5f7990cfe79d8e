import { SEED_IDS } from '@pagelight/graph-emulator';
import type { Config } from '../../src/config';
import { createMemorySessionStore } from '../../src/session/store';
import { CookieClient } from '../support/cookie-client';
import { realLogin } from '../support/login';
import { startInstance, type Instance } from '../support/stack';
import { configFor, useSharedEmulator } from '../support/instances';
import { describeWithRedis, uniqueKeyPrefix, REDIS_URL, useRedisAdmin } from '../support/redis';
import { openStream } from '../support/sse';
import { eventually } from '../support/wait';
import { deliver, feedDelivery, signed } from '../webhooks/deliver';
import { find } from '../support/dom';
import { headline } from '../support/words';

/**
 * The page cache and page events shared by every instance through Redis (docs/architecture.md#shared-cache):
 * real Redis, several app instances, one emulator.
 */
const describeRedis = describeWithRedis();

const ADA = SEED_IDS.users.ada;
/** Declines here: the provider remembers a person's declines, and the other tests log Ada in with every permission. */
const GRACE = SEED_IDS.users.grace;
const BAKERY = SEED_IDS.pages.bakery;
const PREFIX = uniqueKeyPrefix();
const VERIFY = 'verify-token-for-tests-0001';

describeRedis('the page cache shared through Redis', () => {
  const emulator = useSharedEmulator();
  let config: Config;
  let prefix = PREFIX;
  let run = 0;
  /** Offset of the instances' clock, for the TTL (the Redis keys' own expiry runs on real time). */
  let skew = 0;
  const now = () => Date.now() + skew;
  const running = new Set<Instance>();

  beforeEach(() => {
    skew = 0;
    prefix = `${PREFIX}${run++}:`;
    config = configFor(emulator, {
      SESSION_STORE: 'redis',
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      PAGE_CACHE_TTL: '60',
      FB_WEBHOOK_VERIFY_TOKEN: VERIFY,
      // Granted, so connecting subscribes the page and it is live.
      FB_SCOPES: 'pages_show_list pages_read_engagement pages_manage_metadata',
    });
  });

  const start = async (cfg: Config = config): Promise<Instance> => {
    const instance = await startInstance(cfg, { now });
    running.add(instance);
    return instance;
  };
  const startMany = async (n: number) => {
    const instances = await Promise.all(Array.from({ length: n }, () => start()));
    // Every instance listens on the events channel before the test publishes anything.
    await eventually(async () => ((await admin.client.pubSubNumSub(`${prefix}events`))[`${prefix}events`] ?? 0) >= n);
    return instances as [Instance, Instance, Instance];
  };

  /** A person signed in on `instance`, the page connected (so their page token is confirmed) and viewed once. */
  async function viewer(instance: Instance): Promise<CookieClient> {
    const browser = new CookieClient(instance.url, 10_000);
    const outcome = await realLogin(instance.url, ADA, BAKERY, browser);
    expect(outcome).toMatchObject({ ok: true });
    return browser;
  }

  /** Page reads the provider answered: details, and the first feed page. */
  const reads = () => {
    const all = emulator.controls.calls({ method: 'GET', path: `/${BAKERY}`, tokenKind: 'page' });
    const feed = emulator.controls.calls({ method: 'GET', path: `/${BAKERY}/feed`, tokenKind: 'page' });
    return { details: all - feed, feed };
  };
  const since = (before: { details: number; feed: number }) => {
    const after = reads();
    return { details: after.details - before.details, feed: after.feed - before.feed };
  };
  /** What a second instance's page would do to the page's cached parts: bump their versions (a drop). */
  const dropEverywhere = () =>
    admin.client
      .hIncrBy(`${prefix}cache:{${BAKERY}}:v`, 'details', 1)
      .then(() => admin.client.hIncrBy(`${prefix}cache:{${BAKERY}}:v`, 'feed', 1));

  afterEach(async () => {
    await Promise.all([...running].map((i) => i.close()));
    running.clear();
  });
  const admin = useRedisAdmin(PREFIX);

  it('a view on instance 1 warms the cache for instance 2: another session’s view there reads nothing upstream', async () => {
    const [one, two] = await startMany(2);
    await viewer(one);
    const before = reads();
    const other = await viewer(two);
    expect((await other.get(`/pages/${BAKERY}`)).status).toBe(200);
    expect(since(before)).toEqual({ details: 0, feed: 0 });
    // Answers are in Redis under the page, with an expiry (PAGE_CACHE_TTL, or 10× on a live page).
    const keys: string[] = [];
    for await (const batch of admin.client.scanIterator({ MATCH: `${prefix}cache:{${BAKERY}}:*`, COUNT: 100 }))
      keys.push(...batch);
    const entries = keys.filter((k) => !/:(v|share)$/.test(k));
    expect(entries).toHaveLength(2);
    for (const key of entries) expect(await admin.client.pTTL(key)).toBeGreaterThan(0);
  });

  it('a session that declined a permission, refused on instance 2 again and again, leaves the copy instance 1 cached for the full grant', async () => {
    const [one, two] = await startMany(2);
    const full = await viewer(one);
    const narrow = new CookieClient(two.url, 10_000);
    const outcome = await realLogin(two.url, GRACE, BAKERY, narrow, ['pages_read_engagement']);
    expect(outcome.ok).toBe(true);
    for (let i = 0; i < 3; i++) {
      const res = await narrow.get(`/pages/${BAKERY}`);
      expect(res.status).toBe(200);
      expect(find(await res.text(), { class: 'feed-blocked' })).toBeDefined();
    }
    const before = reads();
    expect((await full.get(`/pages/${BAKERY}`)).status).toBe(200);
    expect(since(before)).toEqual({ details: 0, feed: 0 });
  });

  it('a webhook delivered to instance 1 drops the feed for instance 2 and tells a stream open on instance 2', async () => {
    const [one, two] = await startMany(2);
    await viewer(one);
    const watcher = await viewer(two);
    const stream = await openStream(two.url, `/pages/${BAKERY}/events`, watcher.cookieHeader());
    try {
      expect(stream.status).toBe(200);
      const before = reads();
      const res = await deliver(one.url, feedDelivery(BAKERY, { item: 'status', verb: 'add', post_id: `${BAKERY}_9` }));
      expect(res.status).toBe(200);
      await stream.received('event: new-posts');
      expect(stream.text()).toContain('data: {"count":1}');
      // The feed is read again (once); the details were not dropped.
      expect((await watcher.get(`/pages/${BAKERY}`)).status).toBe(200);
      expect(since(before)).toEqual({ details: 0, feed: 1 });
    } finally {
      stream.close();
    }
  });

  it('a forged delivery to instance 1 drops nothing anywhere', async () => {
    const [one, two] = await startMany(2);
    await viewer(one);
    const other = await viewer(two);
    const before = reads();
    const { raw } = signed(feedDelivery(BAKERY, { item: 'status', verb: 'add', post_id: `${BAKERY}_8` }));
    const { signature: forged } = signed({}, 'not-the-app-secret-000');
    const res = await fetch(`${one.url}/webhooks/facebook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': forged },
      body: raw,
    });
    expect(res.status).toBe(403);
    expect((await other.get(`/pages/${BAKERY}`)).status).toBe(200);
    expect(since(before)).toEqual({ details: 0, feed: 0 });
  });

  it('three instances missing the same page at once make one upstream read per part', async () => {
    const instances = await startMany(3);
    const people = [];
    for (const instance of instances) people.push(await viewer(instance));
    await dropEverywhere();
    // Each read takes a while, so the three views overlap.
    emulator.controls.failNext(1, { kind: 'slow', ms: 300, match: `/${BAKERY}/feed` });
    const before = reads();
    const views = await Promise.all(people.map((p) => p.get(`/pages/${BAKERY}`)));
    expect(views.map((v) => v.status)).toEqual([200, 200, 200]);
    expect(since(before)).toEqual({ details: 1, feed: 1 });
  });

  it('when the instance holding the lock dies, the others fetch themselves once its lock expires', async () => {
    const [one] = await startMany(1);
    const person = await viewer(one);
    const entries: string[] = [];
    for await (const batch of admin.client.scanIterator({ MATCH: `${prefix}cache:{${BAKERY}}:*`, COUNT: 100 }))
      entries.push(...batch.filter((k) => !/:(v|share)$/.test(k)));
    expect(entries).toHaveLength(2);
    // A holder that took both locks and died: nobody will store or unlock; the locks expire in 400 ms.
    for (const key of entries) await admin.client.set(`${key}:lock`, 'dead-holder', { PX: 400 });
    await dropEverywhere();
    const before = reads();
    const started = Date.now();
    const view = await person.get(`/pages/${BAKERY}`);
    const waited = Date.now() - started;
    expect(view.status).toBe(200);
    expect(since(before)).toEqual({ details: 1, feed: 1 });
    // Not before the dead holder's lock expired; had the others waited on it for good, the view would not have
    // answered, with the reads of one fetch (the test's timeout bounds the wait, not a clock).
    expect(waited).toBeGreaterThanOrEqual(350);
  });

  it('a live page is served stale past its TTL once, while one refresh runs; then the fresh answer', async () => {
    const [one, two] = await startMany(2);
    await viewer(one);
    // A post the app has not been told about (no webhook): only a read upstream shows it.
    emulator.controls.addPost({ pageId: BAKERY, message: 'Fresh sourdough at noon' });
    skew = 61_000;
    // The refresh is slow, so views while it runs are served the stale answer without waiting for it.
    emulator.controls.failNext(1, { kind: 'slow', ms: 1500, match: `/${BAKERY}/feed` });
    const before = reads();
    // A new session: its own token confirmed just now, so the freshness rule lets it use the cache.
    const late = await viewer(two);
    const during = await Promise.all([late.get(`/pages/${BAKERY}`), late.get(`/pages/${BAKERY}`)]);
    for (const view of during) expect(await view.text()).not.toContain('Fresh sourdough at noon');
    // Served while the feed's refresh was still under way (the emulator logs a call when it answers), so
    // they did not wait for it: the order of events, not a time that a busy machine stretches.
    expect(since(before)).toEqual({ details: 1, feed: 0 });
    await eventually(async () =>
      (await (await late.get(`/pages/${BAKERY}`)).text()).includes('Fresh sourdough at noon'),
    );
    // One background refresh per part, however many views were served stale meanwhile.
    expect(since(before)).toEqual({ details: 1, feed: 1 });
  });

  it('an answer older than 10 TTLs is not served, even on a live page', async () => {
    const [one, two] = await startMany(2);
    await viewer(one);
    skew = 601_000;
    const before = reads();
    await viewer(two);
    expect(since(before)).toEqual({ details: 1, feed: 1 });
  });

  it('when Redis fails under the cache, views read the provider instead of failing', async () => {
    const dead = {
      command: () => Promise.reject(new Error('connection refused')),
      subscribe: () => Promise.reject(new Error('connection refused')),
    };
    // Redis taking commands but never answering: each fails at its deadline, as the connection's do.
    const stalled = {
      command: (_args: string[], ms: number) =>
        new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('deadline')), ms)),
      subscribe: () => new Promise<never>(() => undefined),
    };
    for (const redis of [dead, stalled]) {
      // The session store works (memory); only the cache's Redis fails.
      const instance = await startInstance(config, { sessions: createMemorySessionStore(config), sharedRedis: redis });
      running.add(instance);
      const before = reads();
      const person = await viewer(instance);
      const view = await person.get(`/pages/${BAKERY}`);
      expect(view.status).toBe(200);
      expect(headline(await view.text())).not.toBe('');
      expect(since(before)).toEqual({ details: 2, feed: 2 });
    }
  });
});
