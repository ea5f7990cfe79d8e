import { SEED_IDS } from '@pagelight/graph-emulator';
import { connectedAgent } from '../support/flow';
import { useStack, type Stack } from '../support/stack';
import { headline, hrefOf } from '../support/words';
import { find, htmlWithin, textOf } from '../support/dom';

const BAKERY = SEED_IDS.pages.bakery;
const olderLink = (html: string) => hrefOf(html, 'Older posts');
/** Calls to the Page node itself (the details), not its edges. */
const detailsCalls = (stack: { emulator: { controls: { log: readonly { path: string }[] } } }) =>
  stack.emulator.controls.log.filter((e) => e.path.endsWith(`/${BAKERY}`)).length;
const card = (html: string) => htmlWithin(find(html, { tag: 'section', class: 'page-card' })!);

/** A connected person opens the bakery's page, then its older posts; the provider's log keeps only the second. */
async function pageThenOlderPosts(stack: Stack): Promise<{ first: string; older: string }> {
  const agent = await connectedAgent(stack, BAKERY);
  const first = await agent.get(`/pages/${BAKERY}`).expect(200);
  stack.emulator.controls.clearLog();
  const older = await agent.get(olderLink(first.text)!).expect(200);
  return { first: first.text, older: older.text };
}

/** docs/architecture.md#views: an older-posts page is still the Page's, with its header card. */
describe('older posts keep the header card', () => {
  const stack = useStack({ env: { PAGE_CACHE_TTL: '60' } });

  it('when older posts are opened, then the page shows the same header card as the Page’s view, from the cache', async () => {
    const { first, older } = await pageThenOlderPosts(stack);
    expect(card(older)).toBe(card(first));
    expect(headline(older)).toBe('Lovelace Analytical Bakery');
    expect(textOf(find(older, { id: 'feed-title' })!)).toBe('Earlier posts');
    expect(textOf(find(older, 'title')!)).toBe('Lovelace Analytical Bakery: older posts · Pagelight');
    // The details came from the page view's cached answer: only the feed went upstream.
    expect(detailsCalls(stack)).toBe(0);
    expect(stack.emulator.controls.calls({ path: `/${BAKERY}/feed` })).toBe(1);
  });
});

describe('older posts without the page cache', () => {
  const stack = useStack();

  it('when nothing is cached, then the details are read alongside the feed and the card is the same', async () => {
    const { first, older } = await pageThenOlderPosts(stack);
    expect(card(older)).toBe(card(first));
    expect(detailsCalls(stack)).toBe(1);
  });
});
