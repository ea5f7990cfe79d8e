import { ConcurrentReadLimit, TooManyRequestsError } from '../../src/pages/fairness';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { CookieClient } from '../support/cookie-client';
import { graphCalls } from '../support/emulator';
import { connectedAgent } from '../support/flow';
import { burstClient } from '../support/burst';
import { realLogin } from '../support/login';
import { startServedStack, type Stack, useStack } from '../support/stack';
import { hrefOf } from '../support/words';

const BAKERY = SEED_IDS.pages.bakery;
/** The cursor of a page's Older posts link, as its query carries it. */
const cursorOf = (html: string) =>
  encodeURIComponent(new URL(hrefOf(html, 'Older posts')!, 'http://app.test').searchParams.get('after')!);

describe('ConcurrentReadLimit (concurrent provider reads per session)', () => {
  const deferred = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };

  it('when a session has its share of reads under way, then the next waits for a slot, and another session does not wait', async () => {
    const limit = new ConcurrentReadLimit(2, 1000);
    const first = deferred();
    const reads = [limit.run('a', () => first.promise), limit.run('a', () => new Promise<void>(() => undefined))];
    let thirdStarted = false;
    const third = limit.run('a', async () => {
      thirdStarted = true;
    });
    await expect(limit.run('b', async () => 'b')).resolves.toBe('b');
    expect(thirdStarted).toBe(false);
    first.resolve();
    await third;
    expect(thirdStarted).toBe(true);
    void reads;
  });

  it('when no slot frees within the wait, then the read fails with a 429 that says when to retry', async () => {
    const limit = new ConcurrentReadLimit(1, 20);
    void limit.run('a', () => new Promise<void>(() => undefined));
    const refused = limit.run('a', async () => 'never');
    await expect(refused).rejects.toBeInstanceOf(TooManyRequestsError);
    await expect(refused).rejects.toMatchObject({ status: 429, retryAfterSec: 1 });
    expect(limit.refused).toBe(1);
  });
});

describe('one session cannot slow or block the others', () => {
  const stack = useStack({ env: { SESSION_RATE_LIMIT: '5', ACCOUNTS_CACHE_TTL: '30' } });
  beforeEach(() => stack.emulator.controls.reset());

  it('when a session asks for older posts beyond its per-minute limit, then 429 with Retry-After, and another session is still served', async () => {
    const noisy = await connectedAgent(stack, BAKERY);
    const quiet = await connectedAgent(stack, BAKERY);
    const page = await noisy.get(`/pages/${BAKERY}`).expect(200);
    const after = cursorOf(page.text);
    // The picker on the way in and the page view (read upstream: no cache here) counted as two of the five.
    for (let i = 0; i < 3; i++) await noisy.get(`/pages/${BAKERY}/feed?after=${after}`).expect(200);
    const before = graphCalls(stack);
    const limited = await noisy.get(`/pages/${BAKERY}/feed?after=${after}`).expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.text).toContain('One moment, please');
    expect(graphCalls(stack)).toBe(before);
    await quiet.get(`/pages/${BAKERY}/feed?after=${after}`).expect(200);
  });

  it('when a session over its limit is refused again and again, then every refusal is the same page, with no error logged for it', async () => {
    const noisy = await connectedAgent(stack, BAKERY);
    const page = await noisy.get(`/pages/${BAKERY}`).expect(200);
    const after = cursorOf(page.text);
    for (let i = 0; i < 3; i++) await noisy.get(`/pages/${BAKERY}/feed?after=${after}`).expect(200);
    const lines = stack.logs.lines.length;
    const refusals = await Promise.all(
      Array.from({ length: 10 }, (_, i) => noisy.get(`/pages/${BAKERY}/feed?after=${after}&n=${i}`).expect(429)),
    );
    // Rendered once for the language and the wait, naming no path: "Try again" is this same address.
    expect(new Set(refusals.map((r) => r.text)).size).toBeLessThanOrEqual(2);
    expect(refusals[0]!.text).toContain('One moment, please');
    expect(hrefOf(refusals[0]!.text, 'Try again')).toBe('');
    const failed = stack.logs.lines.slice(lines).filter((l) => l.includes('"request failed"'));
    expect(failed).toEqual([]);
  });

  it('when a person reloads the picker, then /me/accounts is asked once, not on every reload', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const before = stack.emulator.controls.calls({ path: 'me/accounts' });
    for (let i = 0; i < 4; i++) await agent.get('/pages').expect(200);
    expect(stack.emulator.controls.calls({ path: 'me/accounts' })).toBe(before);
  });

  it('when the provider refuses a cursor the person brought in the link (error 100), then 400 "out of date", logged at info', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const lines = stack.logs.lines.length;
    const res = await agent.get(`/pages/${BAKERY}/feed?after=bm90LWEtY3Vyc29y`).expect(400);
    expect(res.text).toContain('This link is out of date');
    const failed = stack.logs.lines
      .slice(lines)
      .map((l) => JSON.parse(l) as { level: string; msg: string })
      .filter((l) => l.msg === 'request failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.level).toBe('info');
  });
});

describe('a noisy neighbour (provider latency 100 ms)', () => {
  const LIMIT = 60;
  let served: Awaited<ReturnType<typeof startServedStack>>;
  let stack: Stack;
  let base: string;
  beforeAll(async () => {
    served = await startServedStack({ env: { SESSION_RATE_LIMIT: String(LIMIT) } });
    ({ stack, url: base } = served);
  });
  afterAll(() => served.close());

  async function timedView(client: CookieClient): Promise<number> {
    const started = performance.now();
    const res = await client.get(`/pages/${BAKERY}`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    return performance.now() - started;
  }

  // The ratio itself (other person's p50 within 3x) is measured by `npm run report:reliability`, against an app
  // with the production settings: a timing assertion here would measure this shared machine. This test holds the
  // mechanism that makes it so: a refused request costs no session read and no provider call.
  it('when one session fires 300 concurrent older-posts requests, then at most its limit reaches the session store and the provider, and another session is served throughout', async () => {
    const noisy = new CookieClient(base);
    const quiet = new CookieClient(base);
    expect((await realLogin(base, SEED_IDS.users.ada, BAKERY, noisy)).ok).toBe(true);
    expect((await realLogin(base, SEED_IDS.users.ada, BAKERY, quiet)).ok).toBe(true);
    const store = stack.sessions.store;
    const read = store.get.bind(store);
    let reads = 0;
    store.get = (sid, callback) => {
      reads++;
      read(sid, callback);
    };
    stack.emulator.controls.setLatency(100);
    const noisyClient = burstClient(base, noisy.cookieHeader());
    try {
      const feedCalls = stack.emulator.controls.calls({ path: `${BAKERY}/feed` });
      const burst = noisyClient.fire(
        Array.from(
          { length: 300 },
          (_, i) => `/pages/${BAKERY}/feed?after=${Buffer.from(`random-${i}-${Math.random()}`).toString('base64url')}`,
        ),
      );
      await burst.fired;
      const views = await Promise.all(
        Array.from({ length: 5 }, (_, i) => new Promise((r) => setTimeout(r, i * 30)).then(() => timedView(quiet))),
      );
      const statuses = await burst.statuses;
      expect(views).toHaveLength(5);
      expect(statuses.filter((s) => ![200, 400, 429].includes(s))).toEqual([]);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(300 - LIMIT);
      // The picker on the way in counted as one of the session's requests.
      expect(stack.emulator.controls.calls({ path: `${BAKERY}/feed` }) - feedCalls).toBeLessThanOrEqual(LIMIT + 5);
      expect(reads).toBeLessThanOrEqual(LIMIT + 5);
    } finally {
      noisyClient.close();
      store.get = read;
      stack.emulator.controls.setLatency(0);
    }
  }, 30_000);
});
