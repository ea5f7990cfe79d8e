import { SEED_IDS } from '@pagelight/graph-emulator';
import type { Config } from '../../src/config';
import { CookieClient } from '../support/cookie-client';
import { signInThrough, overFetch } from '../support/login';
import { signedRequest } from '../support/signed-request';
import { APP_SECRET, startInstance, type Instance } from '../support/stack';
import { configFor, useSharedEmulator } from '../support/instances';
import { describeWithRedis, uniqueKeyPrefix, REDIS_URL, useRedisAdmin } from '../support/redis';
import { eventually } from '../support/wait';
import { csrfToken } from '../support/dom';
import { visibleText } from '../support/words';

/**
 * The session index in Redis (docs/architecture.md#session-index): a provider callback received by one
 * instance signs the person out of sessions made on another, and the index sets expire with their sessions.
 */
const describeRedis = describeWithRedis();

const ADA = SEED_IDS.users.ada;
const GRACE = SEED_IDS.users.grace;
const BAKERY = SEED_IDS.pages.bakery;
const PREFIX = uniqueKeyPrefix();

describeRedis('the session index in Redis', () => {
  const emulator = useSharedEmulator();
  let config: Config;
  const running = new Set<Instance>();

  let run = 0;
  /** Each test its own prefix, so one test's sessions never count in another's index. */
  const fresh = (env: Record<string, string> = {}) => {
    prefix = `${PREFIX}${run++}:`;
    return (config = configFor(emulator, {
      SESSION_STORE: 'redis',
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      ...env,
    }));
  };
  let prefix = PREFIX;
  beforeEach(() => fresh());

  const start = async (cfg: Config = config): Promise<Instance> => {
    const instance = await startInstance(cfg);
    running.add(instance);
    return instance;
  };

  /** `user` logged in on `instance`; the jar goes to any instance by absolute URL, as behind a load balancer. */
  async function signIn(instance: Instance, user: string): Promise<CookieClient> {
    const browser = new CookieClient(instance.url, 10_000);
    expect((await signInThrough(overFetch(browser), { user })).status).toBe(303);
    return browser;
  }

  afterAll(async () => {
    await Promise.all([...running].map((i) => i.close()));
  });
  const admin = useRedisAdmin(PREFIX);

  it.each(['/auth/deauthorize', '/auth/data-deletion'])(
    'when %s reaches one instance, then the sessions made on the other end and the tab is told why',
    async (path) => {
      const [a, b] = [await start(), await start()];
      const ada = await signIn(a, ADA);
      const grace = await signIn(a, GRACE);
      expect(await admin.client.sMembers(`${prefix}sess:user:${ADA}`)).toHaveLength(1);

      const forged = await fetch(`${b.url}${path}`, {
        method: 'POST',
        body: new URLSearchParams({ signed_request: signedRequest('another-secret-0000', { user_id: ADA }) }),
      });
      expect(forged.status).toBe(400);
      expect((await ada.get(`${a.url}/`)).status).toBe(200);
      expect(visibleText(await (await ada.get(`${a.url}/`)).text())).toContain('Signed in as Ada Lovelace');

      const res = await fetch(`${b.url}${path}`, {
        method: 'POST',
        body: new URLSearchParams({ signed_request: signedRequest(APP_SECRET, { user_id: ADA }) }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toBeNull();

      const next = await ada.get(`${a.url}/`);
      const html = await next.text();
      expect(html).toContain('You removed Pagelight from your Facebook settings');
      expect(html).not.toContain('Signed in as');
      expect((await ada.get(`${a.url}/pages/${BAKERY}`)).status).toBe(401);
      expect(visibleText(await (await grace.get(`${a.url}/`)).text())).toContain('Signed in as Grace Hopper');
      expect(await admin.client.sMembers(`${prefix}sess:user:${ADA}`)).toEqual([]);

      if (path === '/auth/data-deletion') {
        const { url } = (await res.json()) as { url: string };
        const code = url.split('/').pop()!;
        // Stored in Redis for 30 days, and readable from either instance.
        const ttl = await admin.client.ttl(`${prefix}sess:deletion:${code}`);
        expect(ttl).toBeGreaterThan(29 * 86400);
        expect((await fetch(`${a.url}/auth/data-deletion/${code}`)).status).toBe(200);
      }
    },
  );

  it('when a person logs out, then their id leaves the index set', async () => {
    const a = await start();
    const ada = await signIn(a, ADA);
    const home = await (await ada.get(`${a.url}/`)).text();
    const csrf = csrfToken(home)!;
    expect(await admin.client.sCard(`${prefix}sess:user:${ADA}`)).toBe(1);
    expect((await ada.post(`${a.url}/auth/logout`, { _csrf: csrf })).status).toBe(303);
    expect(await admin.client.sCard(`${prefix}sess:user:${ADA}`)).toBe(0);
  });

  it('when many sessions are created and expire, then the index sets expire with them', async () => {
    // Long-lived sessions for the count: how long 20 logins take on a busy machine must not matter.
    const a = await start(fresh({ SESSION_IDLE_SECONDS: '60' }));
    for (let i = 0; i < 20; i++) await signIn(a, i % 2 ? ADA : GRACE);
    expect(await admin.client.sCard(`${prefix}sess:user:${ADA}`)).toBe(10);
    const ttl = await admin.client.ttl(`${prefix}sess:user:${ADA}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
    // Short-lived ones for the expiry: the index goes when its sessions do (waited for, not timed).
    const b = await start(fresh({ SESSION_IDLE_SECONDS: '1' }));
    for (const who of [ADA, GRACE]) await signIn(b, who);
    const userKeys = async () => (await admin.keys()).filter((k) => k.startsWith(`${prefix}sess:user:`));
    await eventually(async () => (await userKeys()).length === 0, 100);
    expect(await userKeys()).toEqual([]);
  });
});
