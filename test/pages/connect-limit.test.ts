import { SEED_IDS } from '@pagelight/graph-emulator';
import { csrfFrom, signIn } from '../support/flow';
import { agentFor, type Stack, useStack } from '../support/stack';

const BAKERY = SEED_IDS.pages.bakery;
const LIMIT = 5;

/** Page-token reads the app made: what one connect costs upstream (docs/architecture.md#fairness-between-sessions). */
const pageTokenReads = (stack: Stack) =>
  stack.emulator.controls.log.filter((e) => e.method === 'GET' && /\/\d+$/.test(e.path) && e.tokenKind === 'user')
    .length;

describe('POST /pages/:pageId/connect, bounded like every route that calls the provider', () => {
  const stack = useStack({ env: { SESSION_RATE_LIMIT: String(LIMIT), SESSION_UPSTREAM_CONCURRENCY: '2' } });
  beforeEach(() => stack.emulator.controls.reset());

  it('when a session connects in a loop, then past its per-minute limit it gets 429 with Retry-After and no upstream call, and another person still logs in and connects', async () => {
    const loop = agentFor(stack);
    await signIn(loop).then((r) => expect(r.status).toBe(303));
    const csrf = csrfFrom((await loop.get('/pages').expect(200)).text);
    const statuses: number[] = [];
    const before = pageTokenReads(stack);
    for (let i = 0; i < 4 * LIMIT; i++) {
      const res = await loop.post(`/pages/${BAKERY}/connect`).type('form').send({ _csrf: csrf });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses.filter((s) => s === 303)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3 * LIMIT);
    expect(pageTokenReads(stack) - before).toBe(LIMIT);

    const other = agentFor(stack);
    await signIn(other).then((r) => expect(r.status).toBe(303));
    const picker = await other.get('/pages').expect(200);
    await other
      .post(`/pages/${BAKERY}/connect`)
      .type('form')
      .send({ _csrf: csrfFrom(picker.text) })
      .expect(303);
  });

  it('when a person connects up to the limit, then the picker and older posts are still served: connects count in a bucket of their own', async () => {
    const agent = agentFor(stack);
    await signIn(agent).then((r) => expect(r.status).toBe(303));
    const csrf = csrfFrom((await agent.get('/pages').expect(200)).text);
    for (let i = 0; i < LIMIT; i++)
      await agent.post(`/pages/${BAKERY}/connect`).type('form').send({ _csrf: csrf }).expect(303);
    await agent.get('/pages').expect(200);
  });
});

describe('concurrent connects of one session', () => {
  const stack = useStack({ env: { SESSION_RATE_LIMIT: '1000', SESSION_UPSTREAM_CONCURRENCY: '2' } });

  it('when a session fires 12 connects at once while the provider hangs, then at most its share of page-token reads goes upstream and the rest get 429', async () => {
    const agent = agentFor(stack);
    await signIn(agent).then((r) => expect(r.status).toBe(303));
    const csrf = csrfFrom((await agent.get('/pages').expect(200)).text);
    const before = pageTokenReads(stack);
    // Every page-token read hangs until the provider timeout (and its one retry too).
    stack.emulator.controls.failNext(24, { kind: 'hang', match: `/${BAKERY}` });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 12 }, () =>
          agent
            .post(`/pages/${BAKERY}/connect`)
            .type('form')
            .send({ _csrf: csrf })
            .then((r) => r.status),
        ),
      );
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
      expect(statuses.filter((s) => s >= 500 && s !== 502 && s !== 503 && s !== 504)).toEqual([]);
      // Two connects hold the session's two slots; each read is tried at most twice (one retry).
      expect(pageTokenReads(stack) - before).toBeLessThanOrEqual(4);
    } finally {
      stack.emulator.controls.clearFailures();
    }
  }, 20_000);
});
