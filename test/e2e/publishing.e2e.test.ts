/**
 * Publishing in real Chromium (docs/architecture.md#publishing, #post-management): from the Page view's composer a
 * text, a link and a photo (a PNG chosen from disk); a post scheduled for later, found in the scheduled posts and
 * published from there; a post edited and deleted from its own page. Each with script and without (a browser with
 * scripting turned off posts the same forms the plain way).
 */
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { formatScheduleTime, localInputValue } from '../../src/pages/schedule-time';
import { browsing, connectAdaToBakery, Stack } from './harness';

const BAKERY = SEED_IDS.pages.bakery;
const PHOTO = path.join(__dirname, 'fixtures', 'crust.png');
const DAY = 86_400_000;
const stack = new Stack({
  FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content pages_manage_posts',
});
const browser = browsing(stack);
const pageUrl = () => `${stack.appUrl}/pages/${BAKERY}`;

/** A whole minute two days ahead: well inside the provider's window, and what a datetime-local input can say. */
const twoDaysAhead = () => Math.floor((Date.now() + 2 * DAY) / 60_000) * 60_000;

const SCRIPTING = [
  { name: 'with script', javaScriptEnabled: true },
  { name: 'without script', javaScriptEnabled: false },
];

describe.each(SCRIPTING)('publishing, $name', ({ name, javaScriptEnabled }) => {
  let page: Page;
  let context: BrowserContext | undefined;
  /** Every text this block publishes is its own: the suite's posts pile up on one emulator. */
  const said = (text: string) => `${text} (${name})`;

  beforeEach(async () => {
    await connectAdaToBakery(browser.page, stack);
    if (javaScriptEnabled) {
      page = browser.page;
      context = undefined;
      return;
    }
    context = await stack.browser.newContext({
      javaScriptEnabled: false,
      timezoneId: 'UTC',
      storageState: await browser.context.storageState(),
    });
    page = await context.newPage();
    await page.goto(pageUrl());
  });
  afterEach(() => context?.close());

  const composer = () => page.locator('form[data-composer]');
  const feedPost = (text: string) => page.locator('#feed-posts li.post', { hasText: text });

  /** Fills the composer's text (and link), then Publish: the Page again, with its line on what happened. */
  async function publish(fill: { message: string; link?: string; photo?: string }): Promise<void> {
    await composer().getByLabel('What do you want to say?').fill(fill.message);
    if (fill.link) await composer().getByLabel('Link (optional)').fill(fill.link);
    if (fill.photo)
      await composer()
        .getByLabel(/^Photo \(optional\)/)
        .setInputFiles(fill.photo);
    await composer().getByRole('button', { name: 'Publish' }).click();
  }

  it('when Ada publishes a text, then the Page shows it first, saying it is published', async () => {
    await publish({ message: said('Fresh rye at 7') });
    await page.waitForURL(/#post-\d+_\d+$/);
    await page.getByRole('status').filter({ hasText: 'Your post is published.' }).waitFor();
    expect(await page.locator('#feed-posts li.post').first().innerText()).toContain(said('Fresh rye at 7'));
  });

  it('when Ada publishes a link, then the post shows its preview, linking there', async () => {
    await publish({ message: said('Our winter menu'), link: 'https://menu.example/winter' });
    await page.waitForURL(/#post-\d+_\d+$/);
    const post = feedPost(said('Our winter menu'));
    expect(
      await post
        .getByRole('link', { name: /menu\.example|winter/i })
        .first()
        .getAttribute('href'),
    ).toBe('https://menu.example/winter');
  });

  it('when Ada publishes a photo chosen from disk, then the post shows the picture with its caption', async () => {
    await publish({ message: said('The crust, up close'), photo: PHOTO });
    await page.waitForURL(/#post-\d+_\d+$/);
    const picture = feedPost(said('The crust, up close')).locator('img').first();
    await picture.waitFor();
    // The picture the provider serves back is the one sent: it loads, at its own size.
    await page.waitForFunction((img) => (img as HTMLImageElement).complete, await picture.elementHandle());
    expect(await picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(48);
  });

  it('when Ada schedules a post, then it is listed in the scheduled posts at her time, and Publish now puts it first in the feed', async () => {
    const at = twoDaysAhead();
    const text = said('Stollen, pre-order now');
    await composer().getByLabel('What do you want to say?').fill(text);
    await composer().getByRole('radio', { name: 'Later, at the time below' }).check();
    await composer().getByLabel('Date and time').fill(localInputValue(at, 'UTC'));
    await composer().getByLabel('Time zone').selectOption('UTC');
    await composer().getByRole('button', { name: 'Publish' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Your post is scheduled for ${formatScheduleTime(at, 'UTC', 'en-GB')}.` })
      .waitFor();
    expect(await feedPost(text).count()).toBe(0);

    await page.getByRole('link', { name: /^\d+ scheduled posts?$/ }).click();
    await page.waitForURL(`${pageUrl()}/scheduled`);
    const entry = page.locator('article.scheduled-post', { hasText: text });
    expect(await entry.locator('time').getAttribute('datetime')).toBe(new Date(at).toISOString());

    await entry.getByRole('button', { name: 'Publish now' }).click();
    await page.waitForURL(pageUrl());
    await page.getByRole('status').filter({ hasText: 'The post is published.' }).waitFor();
    expect(await page.locator('#feed-posts li.post').first().innerText()).toContain(text);
    // Published, it is no longer waiting: the line is gone when nothing else is, and the list no longer has it.
    await page.goto(`${pageUrl()}/scheduled`);
    await page.getByRole('heading', { name: 'Scheduled posts' }).waitFor();
    expect(await page.locator('article.scheduled-post', { hasText: text }).count()).toBe(0);
  });

  it('when Ada edits a post she published and then deletes it, then its page shows the new text, and after she confirms it is gone from the Page', async () => {
    await publish({ message: said('Rye on Tuesdays') });
    await page.waitForURL(/#post-\d+_\d+$/);
    await feedPost(said('Rye on Tuesdays'))
      .getByRole('link', { name: /^Open the post/ })
      .click();
    await page.waitForURL(/\/posts\/\d+_\d+$/);

    await page.locator('summary', { hasText: 'Edit' }).click();
    await page.getByLabel("The post's text").fill(said('Rye on Tuesdays and Fridays'));
    await page.getByRole('button', { name: 'Save the text' }).click();
    await page.getByRole('status').filter({ hasText: 'The post is updated.' }).waitFor();
    expect(await page.locator('article .text').first().innerText()).toBe(said('Rye on Tuesdays and Fridays'));

    await page.locator('summary', { hasText: 'Delete' }).click();
    await page.getByText('Delete this post for everyone, with its comments and reactions?').waitFor();
    await page.getByRole('button', { name: 'Delete the post' }).click();
    await page.waitForURL(pageUrl());
    await page.getByRole('status').filter({ hasText: 'The post is deleted.' }).waitFor();
    expect(await feedPost(said('Rye on Tuesdays')).count()).toBe(0);
  });
});
