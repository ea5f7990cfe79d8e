import { SEED_IDS } from '@pagelight/graph-emulator';
import { graphCalls } from '../support/emulator';
import { connectedAgent, signedInAgent, startLogin } from '../support/flow';
import { useStack } from '../support/stack';
import { links } from '../support/dom';
import { hrefOf, visibleText } from '../support/words';

const BAKERY = SEED_IDS.pages.bakery;

/** What a person meets when a page read fails after login ([on later reads](docs/provider-interface.md#on-later-reads)). */
describe('page reads that fail', () => {
  const stack = useStack({ timeoutMs: 400 });
  beforeEach(() => stack.emulator.controls.reset());

  it('when a page read gets 190, then the tokens are dropped and the person is sent home to connect again', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.expireTokens();
    const res = await agent.get(`/pages/${BAKERY}`).expect(303);
    // Home, whose Connect leads back to the page.
    expect(res.headers.location).toBe(`/?return_to=${encodeURIComponent(`/pages/${BAKERY}`)}`);
    const home = await agent.get('/').expect(200);
    expect(home.text).toContain('Facebook signed you out of Pagelight — connect again. Your sign-in had expired');
    expect(hrefOf(home.text, 'Connect page')).toBe('/auth/login');
    const calls = graphCalls(stack);
    await agent.get(`/pages/${BAKERY}`).expect(401);
    expect(graphCalls(stack)).toBe(calls);
  });

  it('when a page read is refused for a missing permission, then the page without its posts, naming it in words, offering to ask again', async () => {
    const agent = await connectedAgent(stack, BAKERY, { decline: ['pages_read_engagement'] });
    const res = await agent.get(`/pages/${BAKERY}`).expect(200);
    expect(visibleText(res.text)).toContain("Read your Page's posts and details");
    expect(links(res.text).map((l) => l.href)).toContain(`/auth/login?rerequest=1&return_to=%2Fpages%2F${BAKERY}`);
    const again = await startLogin(agent, '?rerequest=1');
    expect(new URL(again).searchParams.get('auth_type')).toBe('rerequest');
  });

  it('when the provider rate-limits, then 429 with Retry-After and a try-again page', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.failNext(2, {
      status: 400,
      error: { code: 4, message: '(#4) Application request limit reached' },
    });
    const res = await agent.get(`/pages/${BAKERY}`).expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.text).toContain('try again');
  });

  it('when the provider has a transient error once, then the read is retried and the page shows', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.failNext(1, {
      status: 500,
      error: { code: 2, message: 'Service temporarily unavailable' },
    });
    await agent.get(`/pages/${BAKERY}`).expect(200);
  });

  it('when the provider is down for a page view, then 502 and the person stays connected', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.failNext(10, { kind: 'reset' });
    await agent.get(`/pages/${BAKERY}`).expect(502);
    stack.emulator.controls.reset();
    await agent.get(`/pages/${BAKERY}`).expect(200);
  });

  it('when a page that was not connected is opened, then back to the picker with a message and no upstream call', async () => {
    const agent = await signedInAgent(stack);
    const calls = graphCalls(stack);
    await agent.get('/pages/999').expect(303).expect('location', '/pages');
    expect(graphCalls(stack)).toBe(calls);
    expect((await agent.get('/pages').expect(200)).text).toContain('Choose the page to connect first.');
  });
});
