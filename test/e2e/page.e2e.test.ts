/**
 * The page view as people see it, in real Chromium (docs/architecture.md#views, docs/architecture.md#images):
 * pictures straight from the provider's image origin under the CSP, a fallback when one fails, links to the
 * provider, counts, local time in the browser's own time zone, the phone layout and "See more".
 */
import type { BrowserContext, Page } from 'playwright-core';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { axeProblems, browsing, Stack, connectAdaToBakery } from './harness';

const BAKERY = SEED_IDS.pages.bakery;

// Posts added by a test show at once: no page cache between the tests' views.
const stack = new Stack({ PAGE_CACHE_TTL: '0' });
const browser = browsing(stack);

/** Login as Ada and connect the bakery; ends on its page view. */
async function connectBakery(p: Page): Promise<void> {
  await connectAdaToBakery(p, stack);
}

/** Scrolls to the end so that lazy images load, then waits for every image to settle. */
async function loadAllImages(p: Page): Promise<void> {
  await p.evaluate(async () => {
    for (const img of Array.from(document.images)) {
      img.scrollIntoView();
      await new Promise((r) => setTimeout(r, 10));
    }
  });
  await p.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
}

/** A context of its own (not watched by the harness) with the session of `from`, e.g. in another time zone. */
async function sameSessionIn(options: Parameters<Stack['browser']['newContext']>[0]): Promise<BrowserContext> {
  return stack.browser.newContext({ ...options, storageState: await browser.context.storageState() });
}

describe('the page view in a browser', () => {
  it('when the page opens, then its pictures load from the emulator with no CSP violation, each sized, without referrer and with alt', async () => {
    await connectBakery(browser.page);
    await loadAllImages(browser.page);
    const images = await browser.page.$$eval('main img', (list: HTMLImageElement[]) =>
      list.map((img) => ({
        src: img.src,
        loaded: img.naturalWidth > 0,
        width: img.getAttribute('width'),
        height: img.getAttribute('height'),
        referrer: img.getAttribute('referrerpolicy'),
        alt: img.getAttribute('alt'),
      })),
    );
    // The cover, the profile picture and the posts' pictures (photo, album, link preview).
    expect(images.length).toBeGreaterThanOrEqual(5);
    for (const img of images) {
      expect(img).toMatchObject({ loaded: true, referrer: 'no-referrer' });
      expect(img.src.startsWith(`${stack.providerUrl}/media/`)).toBe(true);
      expect(Number(img.width)).toBeGreaterThan(0);
      expect(Number(img.height)).toBeGreaterThan(0);
      expect(img.alt).not.toBeNull();
    }
    // The album's "+N" leads to its post, and says so to a screen reader.
    const extra = browser.page.locator('.media a.extra').first();
    expect(await extra.textContent()).toMatch(/^\+\d+ more photos in the post of /);
    expect(await extra.getAttribute('href')).toMatch(new RegExp(`^/pages/${BAKERY}/posts/${BAKERY}_\\d+$`));
    expect(await axeProblems(browser.page)).toEqual([]);
  });

  it('when a picture fails to load (an expired CDN link), then a box of the same size takes its place', async () => {
    let failed = 0;
    await browser.context.route(`${stack.providerUrl}/media/sourdough_*`, (route) => {
      failed += 1;
      return route.fulfill({ status: 403, body: 'URL signature expired' });
    });
    await connectBakery(browser.page);
    await loadAllImages(browser.page).catch(() => undefined);
    await browser.page.locator('.img-fallback').first().waitFor();
    expect(failed).toBeGreaterThan(0);
    const broken = await browser.page.$$eval('main img', (list: HTMLImageElement[]) =>
      list.filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.src),
    );
    expect(broken).toEqual([]);
    const box = await browser.page.locator('.media .img-fallback').first().boundingBox();
    expect(box?.height).toBeGreaterThan(100);
    // The refused loads are what this test is about; any other console error still fails it.
    browser.watch.consoleErrors = browser.watch.consoleErrors.filter((e) => !e.includes('status of 403'));
  });

  it('when posts are shown, then "View on Facebook" links are http(s) with rel, and counts are shown', async () => {
    await connectBakery(browser.page);
    const links = await browser.page.$$eval('a', (list) =>
      list
        .filter((a) => a.textContent?.startsWith('View on Facebook'))
        .map((a) => ({ href: a.getAttribute('href') ?? '', rel: a.getAttribute('rel') ?? '' })),
    );
    // The Page's own link and one per post.
    expect(links.length).toBeGreaterThan(2);
    for (const link of links) {
      expect(link.href).toMatch(/^https?:\/\//);
      expect(link.rel.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    }
    expect(await browser.page.locator('.facts').textContent()).toMatch(/\d[\d,]* followers/);
    const counts = await browser.page.locator('.counts').allTextContents();
    expect(counts.join(' ')).toMatch(/\d+ reactions?/);
    expect(counts.join(' ')).toMatch(/\d+ comments?/);
    expect(counts.join(' ')).toMatch(/\d+ shares?/);
  });

  it('when the browser is in Los Angeles or in Tokyo, then the same post shows a different local time, exact on hover', async () => {
    await connectBakery(browser.page);
    const serverText = await browser.page.locator('time[datetime]').first().getAttribute('datetime');
    const seen: { text: string; title: string }[] = [];
    for (const timezoneId of ['America/Los_Angeles', 'Asia/Tokyo']) {
      const zoned = await sameSessionIn({ timezoneId, locale: 'en-US' });
      try {
        const p = await zoned.newPage();
        await p.goto(`${stack.appUrl}/pages/${BAKERY}`);
        const time = p.locator(`time[datetime="${serverText}"]`).first();
        await p.waitForFunction(() => !document.querySelector('time[datetime]')?.textContent?.includes('UTC'));
        seen.push({ text: (await time.textContent()) ?? '', title: (await time.getAttribute('title')) ?? '' });
      } finally {
        await zoned.close();
      }
    }
    expect(seen[0]!.text).not.toBe(seen[1]!.text);
    expect(seen[0]!.title).toMatch(/PDT|PST|GMT-[78]/);
    expect(seen[1]!.title).toMatch(/GMT\+9|JST/);
  });

  it('when the browser is in Tokyo, then what a screen reader hears names the same zone: hidden link text, the post’s h1 and the tab title', async () => {
    await connectBakery(browser.page);
    const zoned = await sameSessionIn({ timezoneId: 'Asia/Tokyo', locale: 'en-US' });
    try {
      const p = await zoned.newPage();
      await p.goto(`${stack.appUrl}/pages/${BAKERY}`);
      await p.waitForFunction(() => !document.querySelector('time[datetime]')?.textContent?.includes('UTC'));
      const hidden = await p.locator('.post-foot .visually-hidden time').allTextContents();
      expect(hidden.length).toBeGreaterThan(0);
      for (const text of hidden) expect(text).toMatch(/GMT\+9|JST/);
      await p.locator('.post-foot a.counts').first().click();
      await p.waitForFunction(() => !document.title.includes('UTC'));
      const heading = (await p.locator('h1#post-title').textContent()) ?? '';
      expect(heading).toMatch(/GMT\+9|JST/);
      const time = (await p.locator('h1#post-title time').textContent()) ?? '';
      expect(await p.title()).toContain(time);
    } finally {
      await zoned.close();
    }
  });

  it('when a post is recent, then it reads as relative time ("… ago"); without script the exact UTC time stays', async () => {
    await stack.control('/activity/posts', { pageId: BAKERY, message: 'Just baked' });
    await connectBakery(browser.page);
    const recent = browser.page.locator('li.post', { hasText: 'Just baked' }).locator('time').first();
    expect(await recent.textContent()).toMatch(/now|second|minute|ago/);

    const noScript = await sameSessionIn({ javaScriptEnabled: false, timezoneId: 'Asia/Tokyo' });
    try {
      const p = await noScript.newPage();
      await p.goto(`${stack.appUrl}/pages/${BAKERY}`);
      expect(await p.locator('time[datetime]').first().textContent()).toMatch(/^\d{1,2} \w{3} \d{4}, \d\d:\d\d UTC$/);
    } finally {
      await noScript.close();
    }
  });

  it('when the screen is a phone (390×844), then the details are collapsed and the first post is on the first screen', async () => {
    await connectBakery(browser.page);
    const phone = await sameSessionIn({ viewport: { width: 390, height: 844 } });
    try {
      const p = await phone.newPage();
      await p.goto(`${stack.appUrl}/pages/${BAKERY}`);
      expect(await p.locator('details#about').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
      expect(await p.locator('details#about table.hours').isVisible()).toBe(false);
      const first = await p.locator('li.post').first().boundingBox();
      expect(first!.y).toBeLessThan(844);
      // The details are one tap away.
      await p.getByText('hours, address and contact').click();
      expect(await p.locator('details#about table.hours').isVisible()).toBe(true);
      expect(await axeProblems(p)).toEqual([]);
    } finally {
      await phone.close();
    }
    // On a wide screen they are open from the start, with script or without, and the heading does not fold them.
    expect(await browser.page.locator('details#about table.hours').isVisible()).toBe(true);
    await browser.page.locator('details#about > summary').click();
    expect(await browser.page.locator('details#about').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await browser.page.locator('details#about > summary').getAttribute('tabindex')).toBe('-1');
    const noScript = await sameSessionIn({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    try {
      const p = await noScript.newPage();
      await p.goto(`${stack.appUrl}/pages/${BAKERY}`);
      expect(await p.locator('details#about table.hours').isVisible()).toBe(true);
    } finally {
      await noScript.close();
    }
  });

  it('when a post is long, then "See more" shows the rest, with script and without', async () => {
    const long = `A-LONG-STORY ${'in many words, '.repeat(40)}THE-END-OF-THE-STORY`;
    await stack.control('/activity/posts', { pageId: BAKERY, message: long });
    await connectBakery(browser.page);
    const post = browser.page.locator('li.post', { hasText: 'A-LONG-STORY' }).first();
    const end = post.getByText('THE-END-OF-THE-STORY');
    expect(await end.isVisible()).toBe(false);
    await post.getByText('See more').click();
    expect(await end.isVisible()).toBe(true);
    // The rest takes the focus, so a keyboard reader goes on where the text goes on.
    expect(await post.locator('.rest').evaluate((el) => el === document.activeElement)).toBe(true);

    const noScript = await sameSessionIn({ javaScriptEnabled: false });
    try {
      const p = await noScript.newPage();
      await p.goto(`${stack.appUrl}/pages/${BAKERY}`);
      const again = p.locator('li.post', { hasText: 'A-LONG-STORY' }).first();
      expect(await again.getByText('THE-END-OF-THE-STORY').isVisible()).toBe(false);
      await again.getByText('See more').click();
      expect(await again.getByText('THE-END-OF-THE-STORY').isVisible()).toBe(true);
    } finally {
      await noScript.close();
    }
  });
});
