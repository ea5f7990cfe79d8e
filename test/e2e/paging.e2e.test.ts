/**
 * Walking a Page's feed in real Chromium when the provider answers pages that are empty but carry `next` and no
 * cursors, as its paging guide says one may (docs/provider-interface.md#paging). The emulator process serves
 * them at the first page and at post 25 (`EMULATOR_EMPTY_FEED_PAGES`); the person never sees an empty page.
 */
import { browsing, Stack, connectAdaToBakery } from './harness';

const stack = new Stack({ PAGE_CACHE_TTL: '0' }, { EMULATOR_EMPTY_FEED_PAGES: '0,25' });
const browser = browsing(stack);

describe('the feed walked in a browser across empty pages', () => {
  it('when the first page and the one at post 25 come back empty with next only, then the page and Older posts show posts, every post once, to the end', async () => {
    const { page, watch } = browser;
    await connectAdaToBakery(page, stack);

    const postIds = () => page.$$eval('li.post', (items) => items.map((li) => li.id));
    const seen = await postIds();
    expect(seen).toHaveLength(25);
    const older = page.getByRole('link', { name: 'Older posts' });
    await older.click();
    await page.waitForURL(/\/feed\?after=/);
    expect(await page.getByText('Posts 26–50').count()).toBe(1);
    seen.push(...(await postIds()));
    while ((await older.count()) > 0) {
      await Promise.all([page.waitForURL(/\/feed\?after=/), older.click()]);
      const ids = await postIds();
      expect(ids.length).toBeGreaterThan(0);
      seen.push(...ids);
    }
    expect(seen).toHaveLength(64);
    expect(new Set(seen).size).toBe(64);
    // The app's own links carry cursors only: no URL the browser opened holds a provider token.
    expect(watch.requests.filter((u) => u.includes('access_token'))).toEqual([]);
  });
});
