import { SEED_IDS } from '@pagelight/graph-emulator';
import { connectedAgent } from '../support/flow';
import { useStack } from '../support/stack';
import { find, findAll, textOf } from '../support/dom';
import { headline } from '../support/words';

const BAKERY = SEED_IDS.pages.bakery;

/** Errors in the provider's own words, and the codes the "Handling Errors" page names (docs/provider-interface.md#error-codes). */
describe('provider errors the person reads', () => {
  const stack = useStack();
  beforeEach(() => stack.emulator.controls.reset());

  it('when the error carries error_user_title and error_user_msg, then the page shows them, escaped', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const userTitle = 'Page <b>restricted</b>';
    const userMessage = 'This Page is restricted in your country & <script>alert(1)</script>.';
    stack.emulator.controls.failNext(2, {
      error: { code: 200, message: '(#200) Permissions error', userTitle, userMessage },
    });
    // On the page view, the feed section says it instead of the posts.
    const res = await agent.get(`/pages/${BAKERY}`).expect(200);
    const notice = find(res.text, { class: 'feed-blocked' })!;
    expect(textOf(notice)).toContain(userTitle);
    expect(textOf(notice)).toContain(userMessage);
    expect(findAll(res.text, 'script').filter((script) => textOf(script).includes('alert'))).toEqual([]);
    // Anywhere else, the error page does.
    stack.emulator.controls.failNext(2, {
      error: { code: 200, message: '(#200) Permissions error', userTitle },
    });
    const older = await agent.get(`/pages/${BAKERY}/feed?after=QVFIUmx1`).expect(403);
    expect(headline(older.text)).toBe(userTitle);
    stack.emulator.controls.reset();
  });

  it('when the error has no words for the person, then our own text shows', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.failNext(2, {
      error: { code: 10, message: "(#10) requires the 'pages_read_engagement' permission" },
    });
    const res = await agent.get(`/pages/${BAKERY}/feed?after=QVFIUmx1`).expect(403);
    expect(res.text).toContain('Pagelight needs your permission');
    stack.emulator.controls.reset();
  });

  it('when the provider answers 341 (application limit), then 429 with Retry-After like any rate limit', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.failNext(2, { error: { code: 341 } });
    const res = await agent.get(`/pages/${BAKERY}`).expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.text).toContain('Facebook asked Pagelight to slow down');
  });

  it('when the provider answers 368 (temporarily blocked for policy), then 403 "Facebook has paused this for now", no retry', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.failNext(2, { error: { code: 368 } });
    const res = await agent.get(`/pages/${BAKERY}`).expect(403);
    expect(res.text).toContain('Facebook has paused this for now');
    expect(res.text).toContain('policy');
    expect(res.headers['retry-after']).toBeUndefined();
  });
});
