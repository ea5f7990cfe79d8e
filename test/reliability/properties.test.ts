import fc from 'fast-check';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { graphCalls, tokenCalls } from '../support/emulator';
import { signInAndConnect } from '../support/flow';
import { queryString, segment } from '../support/inputs';
import { agentFor, startStack, type Stack } from '../support/stack';

const BAKERY = SEED_IDS.pages.bakery;
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

describe('properties of the routes under arbitrary input', () => {
  let stack: Stack;
  let agent: ReturnType<typeof agentFor>;
  beforeAll(async () => {
    // Thousands of arbitrary requests from one session: the per-session rate limit has tests of its own.
    stack = await startStack({ env: { SESSION_RATE_LIMIT: '100000' } });
    agent = agentFor(stack);
    await signInAndConnect(agent, BAKERY);
  });
  afterAll(() => stack.close());

  it('when the callback gets any query string without a login in progress, then never a 5xx and never a token request', async () => {
    const before = tokenCalls(stack);
    await fc.assert(
      fc.asyncProperty(queryString, async (query) => {
        const res = await agentFor(stack).get(`/auth/callback?${query}`);
        expect(res.status).toBeLessThan(500);
        // 431: Node's own answer when the request line passes its 16 KB header limit.
        expect([200, 400, 403, 431]).toContain(res.status);
      }),
      { numRuns: RUNS },
    );
    expect(tokenCalls(stack)).toBe(before);
  });

  it('when a logged-in person hits the callback with any query string, then never a 5xx and no token request', async () => {
    const before = tokenCalls(stack);
    await fc.assert(
      fc.asyncProperty(queryString, async (query) => {
        const res = await agent.get(`/auth/callback?${query}`);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
    expect(tokenCalls(stack)).toBe(before);
  });

  it('when any page path or feed query other than the connected page is requested, then never a 5xx and never an upstream call', async () => {
    const before = graphCalls(stack);
    await fc.assert(
      fc.asyncProperty(segment, fc.boolean(), queryString, async (id, feed, query) => {
        // '' and '.' resolve to /pages/, the picker: a valid read, not odd input.
        fc.pre(id !== BAKERY && id !== '' && id !== '.');
        const res = await agent.get(`/pages/${id}${feed ? '/feed' : ''}?${query}`);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
    expect(graphCalls(stack)).toBe(before);
  });

  it("when the connected page's feed gets any invalid cursor query, then a 400 and never an upstream call", async () => {
    const before = graphCalls(stack);
    const invalid = fc.oneof(
      fc.constant(''),
      fc
        .string({ maxLength: 30 })
        .filter((s) => /[^A-Za-z0-9_=\-+/.%]/.test(s))
        .map((s) => `after=${encodeURIComponent(s)}`),
      fc
        .tuple(fc.string({ minLength: 1, maxLength: 5 }), fc.string({ minLength: 1, maxLength: 5 }))
        .map(([a, b]) => `after=${encodeURIComponent(a)}&after=${encodeURIComponent(b)}`),
      // Cursors are accepted up to 2 KB (docs/provider-interface.md#feed-paging).
      fc.constant(`after=${'a'.repeat(2049)}`),
      fc.constant('after=a&before=b'),
    );
    await fc.assert(
      fc.asyncProperty(invalid, async (query) => {
        const res = await agent.get(`/pages/${BAKERY}/feed?${query}`);
        expect(res.status).toBe(400);
      }),
      { numRuns: Math.min(RUNS, 200) },
    );
    expect(graphCalls(stack)).toBe(before);
  });

  it('when any form is POSTed to the app with a wrong or missing CSRF token, then 4xx and nothing changes', async () => {
    const before = graphCalls(stack);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/auth/logout', `/pages/${BAKERY}/connect`, '/pages/1/connect'),
        queryString,
        async (path, body) => {
          const res = await agent.post(path).type('form').send(body);
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: Math.min(RUNS, 200) },
    );
    expect(graphCalls(stack)).toBe(before);
    await agent.get(`/pages/${BAKERY}`).expect(200);
  });
});
