import { SEED_IDS } from '@pagelight/graph-emulator';
import { connectedAgent, csrfFrom, signedInAgent } from '../support/flow';
import { useStack } from '../support/stack';

/**
 * The provider throttles by the kind of token (docs/provider-interface.md#usage-headers): page-token calls with
 * 80001 and a Business Use Case header that says when access returns, user-token calls with 17 (user level) or
 * 32 (a call about a Page), whose X-App-Usage says no such thing. Each is the 429 page.
 */
const BAKERY = SEED_IDS.pages.bakery;

describe('throttling by token kind', () => {
  // A stack per test: a throttle the app learned holds its budget back for the rest of the stack's life.
  const stack = useStack({ env: { ACCOUNTS_CACHE_TTL: '0' } }, { perTest: true });

  it('when page-token calls are throttled (80001), then the page view is 429 with Retry-After from estimated_time_to_regain_access', async () => {
    const person = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.setRateLimit({ calls: 1, windowMs: 10 * 60_000, headersAfter: 0 });
    let res = await person.get(`/pages/${BAKERY}`);
    for (let i = 0; i < 3 && res.status !== 429; i++) res = await person.get(`/pages/${BAKERY}`);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('600');
    expect(stack.emulator.controls.requestLog.some((e) => e.status === 403)).toBe(true);
  });

  it('when user-token calls are throttled at the user level (17), then the picker is 429 with the default wait, X-App-Usage having no estimate', async () => {
    const agent = await signedInAgent(stack);
    stack.emulator.controls.setRateLimit({ calls: 1, windowMs: 10 * 60_000 });
    await agent.get('/pages').expect(200);
    const res = await agent.get('/pages');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('60');
  });

  it('when a user-token call about a Page is throttled (32), then connecting it is 429 and the person stays signed in', async () => {
    const agent = await signedInAgent(stack);
    const picker = await agent.get('/pages').expect(200);
    stack.emulator.controls.setRateLimit({ calls: 1, windowMs: 60_000 });
    await agent.get('/pages').expect(200);
    const res = await agent
      .post(`/pages/${BAKERY}/connect`)
      .type('form')
      .send({ _csrf: csrfFrom(picker.text) });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(stack.emulator.controls.requestLog.at(-1)?.status).toBe(403);
    stack.emulator.controls.setRateLimit(null);
    await agent.get('/pages').expect(200);
  });

  it('when the provider sends no usage headers at all, then calls go through and a throttle is still the 429 page', async () => {
    const person = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.setRateLimit({ calls: 2, windowMs: 60_000, headersAfter: 1000 });
    await person.get(`/pages/${BAKERY}`).expect(200);
    expect(stack.emulator.controls.requestLog.length).toBeGreaterThan(0);
    const res = await person.get(`/pages/${BAKERY}`);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('60');
  });
});
