import { SEED_IDS } from '@pagelight/graph-emulator';
import { agentFor, type Agent, type Stack, useStack } from '../support/stack';
import { graphCalls } from '../support/emulator';
import { signIn, signInAndConnect, postIds, connectedAgent } from '../support/flow';
import { find, htmlWithin } from '../support/dom';
import { headline, hrefOf, visibleText } from '../support/words';

/** Whether the page says its posts are not shown (the feed's notice in place of the posts). */
const feedBlocked = (html: string) => find(html, { class: 'feed-blocked' }) !== undefined;

const BAKERY = SEED_IDS.pages.bakery;
const SPARSE = SEED_IDS.pages.sparse;

/** Views the bakery page and returns how many upstream calls that cost. */
async function viewCost(stack: Stack, agent: Agent, status = 200): Promise<{ calls: number; text: string }> {
  const before = graphCalls(stack);
  const res = await agent.get(`/pages/${BAKERY}`).expect(status);
  return { calls: graphCalls(stack) - before, text: res.text };
}

/** The posts of a page view, as sent: what the feed's posts element holds, serialized from its parsed tree. */
function postsHtml(page: string): string {
  const posts = find(page, { id: 'feed-posts' });
  if (!posts) throw new Error('no posts in the page');
  return htmlWithin(posts);
}

/** docs/architecture.md#page-cache */
describe('the page cache', () => {
  // Fresh per test: the provider remembers what a person declined (docs/provider-interface.md#login-dialog).
  const stack = useStack({ env: { PAGE_CACHE_TTL: '60' } }, { perTest: true });
  beforeEach(() => stack.emulator.controls.reset());

  it('when a page is viewed twice, then the second view makes no upstream call and shows the same page', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.cache.dropPage(BAKERY);
    const cold = await viewCost(stack, agent);
    expect(cold.calls).toBe(2);
    const warm = await viewCost(stack, agent);
    expect(warm.calls).toBe(0);
    expect(postIds(warm.text)).toEqual(postIds(cold.text));
    expect(headline(warm.text)).toBe('Lovelace Analytical Bakery');
  });

  it('when a cached page is viewed again, then its posts are the HTML a fresh render makes, and a changed feed is rendered anew', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.cache.dropPage(BAKERY);
    const cold = postsHtml((await viewCost(stack, agent)).text);
    // Served from the cache: the posts come from the HTML rendered for this answer.
    const warm = await viewCost(stack, agent);
    expect(warm.calls).toBe(0);
    expect(postsHtml(warm.text)).toBe(cold);
    // A new answer with the same content renders to the same HTML.
    stack.cache.dropPage(BAKERY);
    expect(postsHtml((await viewCost(stack, agent)).text)).toBe(cold);
    // The feed changed at the provider: once the cache lets go, the new post is there.
    const message = 'Rye & <b>caraway</b> today';
    stack.emulator.controls.addPost({ pageId: BAKERY, message });
    stack.cache.dropPage(BAKERY);
    const changed = postsHtml((await viewCost(stack, agent)).text);
    expect(changed).not.toBe(cold);
    expect(visibleText(changed)).toContain(message);
    // And the fragment for the live notice's "Show" is the same HTML as the page's.
    const fresh = (await agent.get(`/pages/${BAKERY}/feed/fresh`).expect(200)).text;
    expect(htmlWithin(find(fresh, 'body')!).trim()).toBe(changed.trim());
  });

  it('when another session holding a token for the page views it, then it is served from the cache', async () => {
    const first = await connectedAgent(stack, BAKERY);
    await viewCost(stack, first);
    const second = await connectedAgent(stack, BAKERY);
    expect((await viewCost(stack, second)).calls).toBe(0);
  });

  it('when a session holds no token for the page, then the warm cache is never read: 401 or a redirect, and no page data', async () => {
    const owner = await connectedAgent(stack, BAKERY);
    await viewCost(stack, owner);
    const hits = stack.cache.hits;

    const anonymous = await agentFor(stack).get(`/pages/${BAKERY}`).expect(401);
    expect(visibleText(anonymous.text)).not.toContain('Lovelace Analytical Bakery');

    // Logged in, connected to another page only.
    const other = await connectedAgent(stack, SPARSE);
    const redirected = await other.get(`/pages/${BAKERY}`).expect(303);
    expect(redirected.headers.location).toBe('/pages');
    expect(visibleText(redirected.text)).not.toContain('Bread computed');

    // Logged in as someone who manages no page at all.
    const alan = agentFor(stack);
    await signIn(alan, { user: SEED_IDS.users.alan });
    const none = await alan.get(`/pages/${BAKERY}`).expect(303);
    expect(visibleText(none.text)).not.toContain('Bread computed');

    expect(stack.cache.hits).toBe(hits);
  });

  it('when a session declined a permission, then it does not get what the cache holds for a fuller grant', async () => {
    const full = await connectedAgent(stack, BAKERY);
    await viewCost(stack, full);
    const narrow = await connectedAgent(stack, BAKERY, { decline: ['pages_read_engagement'] });
    // The narrower session reads upstream, is refused, and sees the page without its posts.
    const res = await viewCost(stack, narrow);
    expect(res.calls).toBeGreaterThan(0);
    expect(feedBlocked(res.text)).toBe(true);
    expect(postIds(res.text)).toEqual([]);
  });

  it('when a session that declined a permission views the page again and again, then the copy cached for the full grant stays', async () => {
    const full = await connectedAgent(stack, BAKERY);
    await viewCost(stack, full);
    const narrow = await connectedAgent(stack, BAKERY, { decline: ['pages_read_engagement'] });
    for (let i = 0; i < 3; i++) {
      const refused = await viewCost(stack, narrow);
      expect(refused.calls).toBeGreaterThan(0);
      expect(feedBlocked(refused.text)).toBe(true);
    }
    // Its refusals were about its own grant: the others' views still cost nothing upstream.
    const warm = await viewCost(stack, full);
    expect(warm.calls).toBe(0);
    expect(postIds(warm.text).length).toBeGreaterThan(0);
  });

  it('when a read for the page gets 190, then the page is dropped from the cache', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const page = await viewCost(stack, agent);
    const older = hrefOf(page.text, 'Older posts');
    expect(older).toBeDefined();

    stack.emulator.controls.failNext(1, {
      status: 400,
      error: { code: 190, subcode: 463, message: 'Error validating access token: Session has expired' },
    });
    await agent.get(older!).expect(303);
    // Dropped: the next person's view of the page asks the provider again.
    const again = await connectedAgent(stack, BAKERY);
    expect((await viewCost(stack, again)).calls).toBe(2);
  });

  it('when a read for the page is refused for permission, then what the cache holds for that grant and role is dropped', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const page = await viewCost(stack, agent);
    const older = hrefOf(page.text, 'Older posts');
    stack.emulator.controls.failNext(1, {
      status: 403,
      error: { code: 10, message: '(#10) This endpoint requires the pages_read_engagement permission' },
    });
    await agent.get(older!).expect(403);
    expect((await viewCost(stack, agent)).calls).toBe(2);
  });

  it('when the page is not cached and the token has expired, then 190 sends the person home and nothing is cached', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.cache.dropPage(BAKERY);
    stack.emulator.controls.expireTokens();
    const res = await agent.get(`/pages/${BAKERY}`).expect(303);
    expect(res.headers.location).toBe(`/?return_to=${encodeURIComponent(`/pages/${BAKERY}`)}`);
    // Nothing was cached: the next view, once connected again, asks the provider for both reads.
    const again = await connectedAgent(stack, BAKERY);
    expect((await viewCost(stack, again)).calls).toBe(2);
  });
});

describe('with PAGE_CACHE_TTL=0', () => {
  const stack = useStack({ env: { PAGE_CACHE_TTL: '0' } });

  it('when a page is viewed twice, then both views go upstream', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    expect(stack.cache.enabled).toBe(false);
    expect((await viewCost(stack, agent)).calls).toBe(2);
    expect((await viewCost(stack, agent)).calls).toBe(2);
  });

  it('when the same session asks for the page several times at once, then identical reads share one upstream call', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.setLatency(100);
    try {
      const before = graphCalls(stack);
      const views = await Promise.all(Array.from({ length: 5 }, () => agent.get(`/pages/${BAKERY}`)));
      for (const v of views) expect(v.status).toBe(200);
      expect(graphCalls(stack) - before).toBe(2);
      expect(stack.graph.inflight.joined).toBeGreaterThanOrEqual(8);
    } finally {
      stack.emulator.controls.setLatency(0);
    }
  });

  it('when two sessions with different tokens read at once, then each read goes upstream with its own token', async () => {
    const a = agentFor(stack);
    const b = agentFor(stack);
    await signInAndConnect(a, BAKERY);
    await signInAndConnect(b, BAKERY);
    stack.emulator.controls.setLatency(100);
    try {
      const before = graphCalls(stack);
      await Promise.all([a.get(`/pages/${BAKERY}`).expect(200), b.get(`/pages/${BAKERY}`).expect(200)]);
      expect(graphCalls(stack) - before).toBe(4);
    } finally {
      stack.emulator.controls.setLatency(0);
    }
  });
});
