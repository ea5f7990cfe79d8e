import { SEED_IDS } from '@pagelight/graph-emulator';
import { postIds, connectedAgent } from '../support/flow';
import { useStack } from '../support/stack';
import { hrefOf } from '../support/words';

const BAKERY = SEED_IDS.pages.bakery;
const olderLink = (html: string) => hrefOf(html, 'Older posts');

/** Feed paging as the provider pages (docs/provider-interface.md#feed-paging). */
describe('feed paging', () => {
  const stack = useStack();

  it('when the first page carries previous, then it offers no Newer posts, and an older page does', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    expect(page.text).not.toContain('Newer posts');
    const older = await agent.get(olderLink(page.text)!).expect(200);
    expect(older.text).toContain('Newer posts');
  });

  it('when cursors are several hundred characters, then they pass through untouched, and one over 2 KB is a 400', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const link = olderLink((await agent.get(`/pages/${BAKERY}`).expect(200)).text)!;
    const cursor = decodeURIComponent(new URL(link, 'http://x').searchParams.get('after')!);
    expect(cursor.length).toBeGreaterThan(300);
    const sent = stack.emulator.controls.log.filter((e) => e.path.endsWith('/feed') && e.query.after !== undefined);
    await agent.get(link).expect(200);
    const now = stack.emulator.controls.log.filter((e) => e.path.endsWith('/feed') && e.query.after !== undefined);
    expect(now.slice(sent.length)[0]?.query.after).toBe(cursor);
    await agent.get(`/pages/${BAKERY}/feed?after=${'A'.repeat(2049)}`).expect(400);
  });

  it('when a page comes back empty with next, then it is followed: no empty page, every post once, and no Older posts at the end', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    let html = (await agent.get(`/pages/${BAKERY}`).expect(200)).text;
    const seen = postIds(html);
    for (let link = olderLink(html); link; link = olderLink(html)) {
      html = (await agent.get(link).expect(200)).text;
      const ids = postIds(html);
      expect(ids.length).toBeGreaterThan(0);
      seen.push(...ids);
    }
    expect(seen).toHaveLength(64);
    expect(new Set(seen).size).toBe(64);
    expect(html).not.toContain('Older posts');
  });
});

/**
 * Pages that come back empty with `next` and no cursors, as the provider's paging guide says one may
 * (docs/provider-interface.md#paging): here the first page and the one at post 25.
 */
describe('feed paging across empty pages without cursors', () => {
  const stack = useStack({ emulator: { emptyFeedPages: [0, 25] } });
  const feedReads = () => stack.emulator.controls.log.filter((e) => e.path.endsWith(`/${BAKERY}/feed`));

  it('when the first page is empty with next only, then the page view shows the posts behind it', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const before = feedReads().length;
    const html = (await agent.get(`/pages/${BAKERY}`).expect(200)).text;
    expect(postIds(html)).toHaveLength(25);
    const reads = feedReads().slice(before);
    expect(reads).toHaveLength(2);
    expect(reads[0]!.query.after).toBeUndefined();
    expect(reads[1]!.query.after).toEqual(expect.any(String));
    expect(olderLink(html)).toBeDefined();
  });

  it('when Older posts lands on an empty page with next only, then it shows the posts behind it, and the walk sees every post once', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    let html = (await agent.get(`/pages/${BAKERY}`).expect(200)).text;
    const seen = postIds(html);
    const before = feedReads().length;
    html = (await agent.get(olderLink(html)!).expect(200)).text;
    expect(feedReads().length - before).toBe(2);
    expect(html).toContain('Posts 26–50');
    seen.push(...postIds(html));
    for (let link = olderLink(html); link; link = olderLink(html)) {
      html = (await agent.get(link).expect(200)).text;
      seen.push(...postIds(html));
    }
    expect(seen).toHaveLength(64);
    expect(new Set(seen).size).toBe(64);
  });
});
