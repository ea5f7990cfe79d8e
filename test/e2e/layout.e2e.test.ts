/**
 * The demo's screens as a designer would look at them on a desktop (and an album on a phone): every photo of
 * an album in view, the post page using the width, the page view's About beside the feed however far it is
 * scrolled, and the post's viewers line a link to the post's figures. Axe finds nothing on either screen.
 */
import type { Locator } from 'playwright-core';
import { DEFAULT_SEED, SEED_IDS } from '@pagelight/graph-emulator';
import { axeProblems, browsing, connectAdaToBakery, Stack } from './harness';

const BAKERY = SEED_IDS.pages.bakery;
/** The bread class: an album of six photos. */
const ALBUM_POST = DEFAULT_SEED.pages.find((p) => p.id === BAKERY)!.feed[2]!;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const stack = new Stack(
  { FB_SCOPES: 'pages_show_list pages_read_engagement read_insights pages_read_user_content' },
  {},
  { seed: 'demo' },
);
const browser = browsing(stack);

async function box(locator: Locator): Promise<{ left: number; right: number; top: number; bottom: number }> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  });
}

async function openAlbum(viewport: { width: number; height: number }): Promise<void> {
  const { page } = browser;
  await page.setViewportSize(viewport);
  await connectAdaToBakery(page, stack);
  await page.goto(`${stack.appUrl}/pages/${BAKERY}/posts/${ALBUM_POST.id}`);
}

describe('an album', () => {
  it.each([
    ['a desktop', DESKTOP],
    ['a phone', PHONE],
  ])(
    'when a six-photo album is opened on %s, then all six photos lie inside it, none scrolled away',
    async (_, viewport) => {
      await openAlbum(viewport);
      const album = browser.page.getByRole('list', { name: /6 photos/ });
      const frame = await box(album);
      const photos = album.getByRole('img');
      expect(await photos.count()).toBe(6);
      for (const photo of await photos.all()) {
        const b = await box(photo);
        expect(b.left).toBeGreaterThanOrEqual(frame.left - 0.5);
        expect(b.right).toBeLessThanOrEqual(frame.right + 0.5);
        expect(b.bottom - b.top).toBeGreaterThan(80);
      }
      expect(await album.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    },
  );
});

describe('the post page on a desktop', () => {
  it('when a post is opened, then the post and its comments sit side by side across the width', async () => {
    await openAlbum(DESKTOP);
    const { page } = browser;
    const main = await box(page.locator('main'));
    const post = await box(page.locator('article.post-page'));
    const comments = await box(page.getByRole('region', { name: /\bcomments$/i }));
    expect(comments.left).toBeGreaterThan(post.right);
    expect(comments.top).toBeLessThan(post.bottom);
    // The wrap's padding is all that is left on the right.
    expect(main.right - comments.right).toBeLessThan(40);
    expect(await axeProblems(page)).toEqual([]);
  });

  it('when the viewers line is followed, then it leads to the post’s figures on the same page', async () => {
    await openAlbum(DESKTOP);
    const { page } = browser;
    const viewers = page.getByRole('link', { name: /^[\d,]+ people viewed this post$/ });
    await viewers.click();
    expect(new URL(page.url()).hash).toBe('#post-figures');
    const figures = page.locator('#post-figures');
    expect(await figures.getByRole('list', { name: 'Reactions by kind' }).count()).toBe(1);
    const text = await figures.innerText();
    for (const figure of [/\d+ reactions/, /\d+ comments/, /\d+ shares/]) expect(text).toMatch(figure);
  });
});

describe('the page view on a desktop', () => {
  it('when the feed is scrolled far down, then the About card is still in view beside it', async () => {
    const { page } = browser;
    await page.setViewportSize(DESKTOP);
    await connectAdaToBakery(page, stack);
    const about = page.locator('#about');
    for (const y of [3000, 8000]) {
      await page.evaluate((to) => window.scrollTo(0, to), y);
      const b = await box(about);
      expect(b.top).toBeGreaterThanOrEqual(0);
      expect(b.top).toBeLessThan(DESKTOP.height / 2);
      expect(b.bottom).toBeLessThanOrEqual(DESKTOP.height);
    }
    expect(await axeProblems(page)).toEqual([]);
  });
});
