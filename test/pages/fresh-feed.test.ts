import { SEED_IDS } from '@pagelight/graph-emulator';
import { postIds, connectedAgent } from '../support/flow';
import { agentFor, useStack } from '../support/stack';
import { find } from '../support/dom';

const BAKERY = SEED_IDS.pages.bakery;
const SPARSE = SEED_IDS.pages.sparse;

/** docs/architecture.md#live-updates */
describe('GET /pages/:pageId/feed/fresh', () => {
  const stack = useStack();

  it('when the session holds a token for the page, then the first feed page comes as a fragment with the same posts as the page', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    const fresh = await agent.get(`/pages/${BAKERY}/feed/fresh`).expect(200);
    // A fragment: no document of its own (no title, no main).
    expect([find(fresh.text, 'title'), find(fresh.text, 'main')]).toEqual([undefined, undefined]);
    expect(fresh.headers['cache-control']).toBe('no-store');
    expect(postIds(fresh.text)).toEqual(postIds(page.text));
  });

  it('when nobody is logged in, then 401; when the session holds no token for the page, then no posts', async () => {
    await agentFor(stack).get(`/pages/${BAKERY}/feed/fresh`).expect(401);
    const other = await connectedAgent(stack, SPARSE);
    const res = await other.get(`/pages/${BAKERY}/feed/fresh`).expect(303);
    expect(postIds(res.text)).toEqual([]);
  });
});
