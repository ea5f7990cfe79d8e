import { randomBytes } from 'node:crypto';
import { SEED_IDS, type RunningEmulator } from '@pagelight/graph-emulator';
import type { Config } from '../../src/config';
import { CookieClient } from '../support/cookie-client';
import { completeDialog } from '../support/dialog';
import { csrfFrom } from '../support/flow';
import { startInstance, type Instance } from '../support/stack';
import { configFor, startSharedEmulator } from '../support/instances';
import { timeUntil } from '../support/wait';
import { describeWithRedis, REDIS_URL, TcpProxy, useRedisAdmin } from '../support/redis';

/** One browser in front of several instances (one jar across their origins), as a load balancer makes it look. */
const newBrowser = () => new CookieClient(undefined, 10_000);

/**
 * Sessions against a real Redis (docs/architecture.md#stores): several instances share the sessions, a
 * restart keeps people connected, an outage is a quick 503 and then heals,
 * and what Redis holds reveals no token.
 */
const describeRedis = describeWithRedis();

const BAKERY = SEED_IDS.pages.bakery;
const RUN = `${process.pid}-${randomBytes(4).toString('hex')}`;
const PREFIX = `pagelight-test:${RUN}:`;
const NAME = `pagelight-test-${RUN}`;
/** How long the Redis store waits for Redis on a request (its default), which the bounds below read from. */
const DEADLINE_MS = 1000;

describeRedis('sessions in Redis', () => {
  let emulator: RunningEmulator;
  let config: Config;
  const running = new Set<Instance>();

  const start = async (cfg: Config = config, name = NAME): Promise<Instance> => {
    const instance = await startInstance(cfg, { redis: { clientName: name } });
    running.add(instance);
    return instance;
  };
  const stop = async (instance: Instance) => {
    running.delete(instance);
    await instance.close();
  };

  /** A new browser: Connect page on `first`, the callback on `second`, the Bakery connected there too. */
  async function connectedAcross(first: Instance, second: Instance = first): Promise<CookieClient> {
    const browser = newBrowser();
    const login = await browser.get(`${first.url}/auth/login`);
    expect(login.status).toBe(303);
    const callback = await completeDialog(login.headers.get('location')!);
    const done = await browser.get(`${second.url}${callback.pathname}${callback.search}`);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/pages');
    const picker = await browser.get(`${first.url}/pages`);
    expect(picker.status).toBe(200);
    const connect = await browser.post(`${second.url}/pages/${BAKERY}/connect`, {
      _csrf: csrfFrom(await picker.text()),
    });
    expect(connect.status).toBe(303);
    return browser;
  }

  beforeAll(async () => {
    emulator = await startSharedEmulator();
    config = configFor(emulator, { SESSION_STORE: 'redis', REDIS_URL, REDIS_KEY_PREFIX: PREFIX });
  });
  afterAll(async () => {
    await Promise.all([...running].map((i) => i.close()));
    await emulator.close();
  });
  const admin = useRedisAdmin(PREFIX);

  /** `browser` is shown the Bakery's page by `instance`. */
  async function expectBakery(browser: CookieClient, instance: Instance): Promise<void> {
    const page = await browser.get(`${instance.url}/pages/${BAKERY}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Lovelace Analytical Bakery');
  }

  it('when the flow starts on one instance and finishes on another, then the page reads on either', async () => {
    const [a, b] = [await start(), await start()];
    const browser = await connectedAcross(a, b);
    for (const instance of [a, b]) await expectBakery(browser, instance);
  });

  it('when an instance is restarted, then the person is still connected', async () => {
    const first = await start();
    const browser = await connectedAcross(first);
    await stop(first);
    await expectBakery(browser, await start());
  });

  it('when a session is stored, then the raw value holds no token in clear text and expires with the cookie', async () => {
    const instance = await start();
    const browser = await connectedAcross(instance);
    expect((await browser.get(`${instance.url}/pages/${BAKERY}`)).status).toBe(200);
    const sid = browser.sessionId()!;
    const raw = (await admin.client.get(`${PREFIX}sess:${sid}`))!;
    expect(raw).toContain('"signIn"');
    const tokens = emulator.controls.issuedTokens();
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    for (const token of tokens) expect(raw).not.toContain(token);
    // TTL from the cookie: the idle timeout, renewed on each request.
    const ttl = await admin.client.ttl(`${PREFIX}sess:${sid}`);
    expect(ttl).toBeGreaterThan(config.sessionIdleSec - 30);
    expect(ttl).toBeLessThanOrEqual(config.sessionIdleSec);
  });

  it('when a stored value is not a session at all, then the person is simply not connected (no 500, no 503)', async () => {
    const instance = await start();
    const browser = await connectedAcross(instance);
    await admin.client.set(`${PREFIX}sess:${browser.sessionId()!}`, '{not json', { EX: 60 });
    const page = await browser.get(`${instance.url}/pages/${BAKERY}`);
    expect(page.status).toBe(401);
    expect((await browser.get(`${instance.url}/`)).status).toBe(200);
  });

  it('when a session was stored in the previous shape (short keys), then the person is simply not connected (no 500)', async () => {
    const instance = await start();
    const browser = await connectedAcross(instance);
    const key = `${PREFIX}sess:${browser.sessionId()!}`;
    const { signIn, ...rest } = JSON.parse((await admin.client.get(key))!) as {
      signIn: {
        userToken: string;
        expiresAt: number | null;
        loggedInAt: number;
        pages: Record<string, { token: string; name: string }>;
      };
    };
    const pages = Object.fromEntries(Object.entries(signIn.pages).map(([id, p]) => [id, { t: p.token, n: p.name }]));
    const old = {
      ...rest,
      conn: { user: signIn.userToken, exp: signIn.expiresAt, at: signIn.loggedInAt, pages },
      pending: [{ s: 'o'.repeat(43), v: 'v'.repeat(43), t: Date.now() }],
    };
    await admin.client.set(key, JSON.stringify(old), { EX: 60 });
    expect((await browser.get(`${instance.url}/pages/${BAKERY}`)).status).toBe(401);
    expect((await browser.get(`${instance.url}/`)).status).toBe(200);
    expect((await browser.get(`${instance.url}/auth/callback?code=abc&state=${'o'.repeat(43)}`)).status).toBe(403);
  });

  describe('outages', () => {
    const redis = new URL(REDIS_URL || 'redis://127.0.0.1:6379');
    let proxy: TcpProxy;
    let viaProxy: Config;
    beforeEach(async () => {
      proxy = await new TcpProxy(redis.hostname, Number(redis.port || 6379)).start();
      const url = new URL(redis);
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      viaProxy = configFor(emulator, { SESSION_STORE: 'redis', REDIS_URL: url.toString(), REDIS_KEY_PREFIX: PREFIX });
    });
    afterEach(() => proxy.close());

    /** On a failed request, the instances' own log says why. */
    const withLogs = (err: unknown): never => {
      console.log(
        `app logs before the failed request:\n${[...running].map((i) => i.logs.text.slice(-3000)).join('\n----\n')}`,
      );
      throw err;
    };
    const health = async (i: Instance) => (await fetch(`${i.url}/healthz`).catch(withLogs)).status;

    /** A page request: its status, how long it took, and whether it is an HTML page. */
    async function timed(browser: CookieClient, url: string) {
      const t = Date.now();
      const res = await browser.get(url).catch(withLogs);
      const body = await res.text();
      return {
        status: res.status,
        ms: Date.now() - t,
        html: /text\/html/.test(res.headers.get('content-type') ?? ''),
        body,
      };
    }

    it('when a session was stored before the sign-in had its name (under `connection`), then the person is still signed in', async () => {
      const instance = await start();
      const browser = await connectedAcross(instance);
      const key = `${PREFIX}sess:${browser.sessionId()!}`;
      const { signIn, ...rest } = JSON.parse((await admin.client.get(key))!) as { signIn: unknown };
      await admin.client.set(key, JSON.stringify({ ...rest, connection: signIn }), { KEEPTTL: true });
      expect((await browser.get(`${instance.url}/pages/${BAKERY}`)).status).toBe(200);
    });

    it('when Redis becomes unreachable, then /healthz and pages answer 503 at once, and 200 again when it returns', async () => {
      const instance = await start(viaProxy);
      const browser = await connectedAcross(instance);
      expect(await health(instance)).toBe(200);

      proxy.set('refuse');
      const noticed = await timeUntil(async () => (await health(instance)) === 503);
      const down = await timed(browser, `${instance.url}/pages/${BAKERY}`);
      expect(down.status).toBe(503);
      expect(down.html).toBe(true);
      expect(down.body).toContain('Pagelight is busy for a moment');
      // Refused connections are known at once: the page does not wait out the deadline.
      expect(down.ms).toBeLessThan(2 * DEADLINE_MS);

      proxy.set('up');
      const healed = await timeUntil(async () => (await health(instance)) === 200);
      const back = await timed(browser, `${instance.url}/pages/${BAKERY}`);
      expect(back.status).toBe(200);
      console.info(
        `redis outage: /healthz 503 after ${noticed} ms, page 503 in ${down.ms} ms, healthy again ${healed} ms after Redis returned`,
      );
    });

    it("when the app's Redis connection is killed (CLIENT KILL), then no request hangs or fails with a 500, and it recovers", async () => {
      const name = `${NAME}-kill`;
      const instance = await start(config, name);
      const browser = await connectedAcross(instance);
      const list = await admin.client.sendCommand<string>(['CLIENT', 'LIST']);
      const ids = list
        .split('\n')
        .filter((line) => line.includes(` name=${name} `))
        .map((line) => /\bid=(\d+)/.exec(line)![1]!);
      expect(ids.length).toBeGreaterThanOrEqual(1);
      for (const id of ids) await admin.client.sendCommand(['CLIENT', 'KILL', 'ID', id]);

      const seen: number[] = [];
      for (let i = 0; i < 10; i++) {
        const r = await timed(browser, `${instance.url}/pages/${BAKERY}`);
        expect([200, 503]).toContain(r.status);
        // No request waits past the deadline (plus one reconnect).
        expect(r.ms).toBeLessThan(2 * DEADLINE_MS);
        seen.push(r.status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await timeUntil(async () => (await health(instance)) === 200);
      expect((await browser.get(`${instance.url}/pages/${BAKERY}`)).status).toBe(200);
      console.info(`redis CLIENT KILL: statuses right after: ${seen.join(' ')}`);
    });

    it('when Redis stops answering on an open connection, then a request gets a 503 within the deadline, and /healthz follows', async () => {
      const instance = await start(viaProxy);
      const browser = await connectedAcross(instance);
      proxy.set('stall');
      const stalled = await timed(browser, `${instance.url}/pages/${BAKERY}`);
      // A stalled Redis never answers: a 503 at all is the deadline at work, and it comes no sooner.
      expect(stalled.status).toBe(503);
      expect(stalled.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
      expect(await health(instance)).toBe(503);
      // The next request does not wait for the deadline again.
      const next = await timed(browser, `${instance.url}/pages/${BAKERY}`);
      expect(next.status).toBe(503);
      expect(next.ms).toBeLessThan(DEADLINE_MS);

      proxy.set('refuse');
      proxy.set('up');
      await timeUntil(async () => (await health(instance)) === 200);
      expect((await browser.get(`${instance.url}/pages/${BAKERY}`)).status).toBe(200);
      console.info(`redis stall: first request 503 in ${stalled.ms} ms, the next in ${next.ms} ms`);
    });

    it('when Redis is unreachable at start, then the app starts anyway, answers 503, and serves once Redis is there', async () => {
      proxy.set('refuse');
      // Redis never comes: that start() resolves at all shows the start wait is bounded.
      const instance = await start(viaProxy);
      expect(await health(instance)).toBe(503);
      const browser = newBrowser();
      // Home needs no store and answers signed out (docs/operations.md#when-redis-is-down); a page that needs it is 503.
      const home = await timed(browser, `${instance.url}/pages`);
      expect(home.status).toBe(503);
      expect(home.ms).toBeLessThan(DEADLINE_MS);
      proxy.set('up');
      await timeUntil(async () => (await health(instance)) === 200);
      expect((await browser.get(`${instance.url}/`)).status).toBe(200);
      expect(instance.logs.text).toContain('not reachable at start');
    });
  });
});
