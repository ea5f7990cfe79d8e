import { SEED_IDS, TEST_SEED } from '@pagelight/graph-emulator';
import { connectedAgent } from '../support/flow';
import { graphCalls } from '../support/emulator';
import { SOURDOUGH, STORY } from '../support/posts';
import { useStack } from '../support/stack';
import { links } from '../support/dom';

/**
 * Every request that reads upstream without being served from the shared cache counts against the session's
 * per-minute budget, on every route (docs/architecture.md#fairness-between-sessions); one served by the cache
 * does not.
 */
const BAKERY = SEED_IDS.pages.bakery;
const feed = TEST_SEED.pages.find((p) => p.id === BAKERY)!.feed;
const LIMIT = 5;
const WITH_COMMENTS = 'pages_show_list pages_read_engagement pages_read_user_content';

describe('the per-minute budget of requests that read upstream', () => {
  const stack = useStack(
    { env: { SESSION_RATE_LIMIT: String(LIMIT), FB_SCOPES: WITH_COMMENTS, PAGE_CACHE_TTL: '60' } },
    { perTest: true },
  );

  it('when one session asks for later pages of comments beyond its budget, then 429 with no provider call, and another session is still served', async () => {
    const noisy = await connectedAgent(stack, BAKERY);
    const quiet = await connectedAgent(stack, BAKERY);
    const first = (await quiet.get(`/pages/${BAKERY}/posts/${STORY}`).expect(200)).text;
    const more = links(first)
      .find((l) => l.rel.includes('next'))!
      .href.replace(/#.*/, '');
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) statuses.push((await noisy.get(more)).status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThan(LIMIT);
    const before = graphCalls(stack);
    const refused = await noisy.get(more).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(graphCalls(stack)).toBe(before);
    await quiet.get(more).expect(200);
  });

  it('when one session opens a comment’s replies beyond its budget, then 429 with no provider call', async () => {
    const noisy = await connectedAgent(stack, BAKERY);
    const replies = `/pages/${BAKERY}/posts/${SOURDOUGH}?replies=${SOURDOUGH.split('_')[1]}_1`;
    for (let i = 0; i < LIMIT + 3; i++) await noisy.get(replies);
    const before = graphCalls(stack);
    await noisy.get(replies).expect(429);
    expect(graphCalls(stack)).toBe(before);
  });

  it('when one session opens posts the cache does not hold beyond its budget, then 429 with no provider call, and a post the cache serves still opens', async () => {
    const noisy = await connectedAgent(stack, BAKERY);
    await noisy.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200);
    const statuses: number[] = [];
    for (const post of feed.slice(1, LIMIT + 3))
      statuses.push((await noisy.get(`/pages/${BAKERY}/posts/${post.id}`)).status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThan(LIMIT);
    expect(statuses.at(-1)).toBe(429);
    const before = graphCalls(stack);
    await noisy.get(`/pages/${BAKERY}/posts/${feed[LIMIT + 3]!.id}`).expect(429);
    expect(graphCalls(stack)).toBe(before);
    // Served by the shared cache: no provider call, so nothing to count.
    await noisy.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200);
    expect(graphCalls(stack)).toBe(before);
  });

  it('when a person reloads a page and a post the cache serves many times over the budget, then every view is served', async () => {
    const person = await connectedAgent(stack, BAKERY);
    await person.get(`/pages/${BAKERY}`).expect(200);
    await person.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200);
    const before = graphCalls(stack);
    for (let i = 0; i < LIMIT + 3; i++) {
      await person.get(`/pages/${BAKERY}`).expect(200);
      await person.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200);
    }
    expect(graphCalls(stack)).toBe(before);
  });
});
