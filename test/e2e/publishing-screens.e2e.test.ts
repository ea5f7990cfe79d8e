/**
 * The composer and the scheduled posts as people meet them (docs/architecture.md#publishing, #post-management): with
 * the keyboard alone, a post scheduled, moved and published now, the focus always seen; on a desktop and a phone, in
 * English and in Arabic (right to left), the controls within reach, nothing scrolling sideways, axe clean in either
 * theme, and the date-time inputs, which read left to right in any language, taking a time typed field by field that
 * the provider then holds.
 */
import type { Locator, Page } from 'playwright-core';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { CATALOGS, Locales } from '../../src/i18n/catalogs';
import { formatScheduleTime, localInputValue } from '../../src/pages/schedule-time';
import { browsing, connectAdaToBakery, Stack } from './harness';
import { all, CLEAN, inBothThemes, inReach, reachable, tabTo } from './screen-checks';

const BAKERY = SEED_IDS.pages.bakery;
const PHONE = { width: 390, height: 844 };
const DAY = 86_400_000;
const stack = new Stack({
  FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content pages_manage_posts',
});
const browser = browsing(stack);
const pagePath = `/pages/${BAKERY}`;
const scheduledPath = `${pagePath}/scheduled`;

/** A whole minute `days` ahead: inside the provider's window, and what a datetime-local input can say. */
const daysAhead = (days: number) => Math.floor((Date.now() + days * DAY) / 60_000) * 60_000;

const composer = (p: Page) => p.locator('form[data-composer]');
const entry = (p: Page, text: string) => p.locator('article.scheduled-post', { hasText: text });

/**
 * Types `epoch` (in UTC) into the focused datetime-local input field by field, as a person does. The fields come in
 * the order of Chromium's own language (en-US), whatever the page's: month, day, year, then (the year takes more
 * digits, so the arrow moves on) hour on a 12-hour clock, minute, AM or PM.
 */
async function typeTime(p: Page, epoch: number): Promise<void> {
  const d = new Date(epoch);
  const two = (n: number) => String(n).padStart(2, '0');
  await p.keyboard.type(`${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${d.getUTCFullYear()}`);
  await p.keyboard.press('ArrowRight');
  await p.keyboard.type(`${two(d.getUTCHours() % 12 || 12)}${two(d.getUTCMinutes())}`);
  await p.keyboard.type(d.getUTCHours() < 12 ? 'A' : 'P');
}

describe('the composer and the scheduled posts with the keyboard alone', () => {
  it('when Ada uses only Tab, the arrows, typing and Enter, then she schedules a post, moves it, and publishes it now, always seeing where the focus is', async () => {
    const { page } = browser;
    await connectAdaToBakery(page, stack);
    const text = 'Keyboard stollen, pre-order now';
    const at = daysAhead(2);

    await tabTo(page, composer(page).getByLabel('What do you want to say?'));
    await page.keyboard.type(text);
    // The two choices are one Tab stop; the arrow moves to Later.
    await tabTo(page, composer(page).getByRole('radio', { name: 'Now' }));
    await page.keyboard.press('ArrowDown');
    expect(await composer(page).getByRole('radio', { name: 'Later, at the time below' }).isChecked()).toBe(true);
    await tabTo(page, composer(page).getByLabel('Date and time'));
    await typeTime(page, at);
    expect(await composer(page).getByLabel('Date and time').inputValue()).toBe(localInputValue(at, 'UTC'));
    await tabTo(page, composer(page).getByRole('button', { name: 'Publish' }));
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `Your post is scheduled for ${formatScheduleTime(at, 'UTC', 'en-GB')}.` })
      .waitFor();

    await tabTo(page, page.getByRole('link', { name: /^\d+ scheduled posts?$/ }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.appUrl}${scheduledPath}`);

    const later = daysAhead(3);
    await tabTo(page, entry(page, text).locator('summary', { hasText: 'Reschedule' }));
    await page.keyboard.press('Enter');
    await tabTo(page, entry(page, text).getByLabel('New date and time'));
    await typeTime(page, later);
    await tabTo(page, entry(page, text).getByRole('button', { name: 'Move to this time' }));
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'The post is moved to its new time.' }).waitFor();
    expect(await entry(page, text).locator('time').getAttribute('datetime')).toBe(new Date(later).toISOString());

    await tabTo(page, entry(page, text).getByRole('button', { name: 'Publish now' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.appUrl}${pagePath}`);
    await page.getByRole('status').filter({ hasText: 'The post is published.' }).waitFor();
    expect(await page.locator('#feed-posts li.post').first().innerText()).toContain(text);
  });
});

/** English and Arabic (chosen in the footer's language menu), each on a desktop and on a phone. */
const SCREENS = [
  { name: 'on a desktop, in English', viewport: { width: 1280, height: 800 }, lang: 'en' as const },
  { name: 'on a phone, in English', viewport: PHONE, lang: 'en' as const },
  { name: 'in Arabic, right to left', viewport: { width: 1280, height: 800 }, lang: 'ar' as const },
  { name: 'on a phone, in Arabic', viewport: PHONE, lang: 'ar' as const },
];

describe.each(SCREENS)('the composer and the scheduled posts $name', ({ name, viewport, lang }) => {
  const say = CATALOGS[lang];
  const locale = new Locales().get(lang);

  /** The Page view in `lang`, as the footer's language menu leads to it (it remembers the choice in a cookie). */
  async function openPage(): Promise<Page> {
    const { page } = browser;
    await page.setViewportSize(viewport);
    await connectAdaToBakery(page, stack);
    if (lang !== 'en') {
      await page.goto(`${stack.appUrl}/language?lang=${lang}&returnTo=${encodeURIComponent(pagePath)}`);
      await page.waitForURL(`${stack.appUrl}${pagePath}`);
    }
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
    return page;
  }

  /** Whether each field is in reach and reads left to right (digits and zone names do, in any page direction). */
  async function timeFields(fields: Locator[]): Promise<{ inReach: boolean; direction: string }[]> {
    const found = [];
    for (const field of fields)
      found.push({
        inReach: await inReach(field),
        direction: await field.evaluate((el) => getComputedStyle(el).direction),
      });
    return found;
  }
  /** Whether a date-time input is as wide as it needs to be to show its whole time (a narrower one cuts it off). */
  const shownWhole = (field: Locator): Promise<boolean> =>
    field.evaluate((el) => {
      const free = el.cloneNode() as HTMLElement;
      free.style.cssText = 'position: absolute; visibility: hidden; inline-size: auto; max-inline-size: none';
      document.body.append(free);
      const needs = free.getBoundingClientRect().width;
      free.remove();
      return el.getBoundingClientRect().width >= needs - 1;
    });
  const LTR_IN_REACH = [
    { inReach: true, direction: 'ltr' },
    { inReach: true, direction: 'ltr' },
  ];

  it('when Ada schedules a post and moves it, then the forms are within reach, the times read left to right and are taken as typed, nothing scrolls sideways and axe finds nothing in either theme', async () => {
    const page = await openPage();
    const c = composer(page);
    const text = lang === 'ar' ? `خبز العيد، اطلبوه مسبقًا (${name})` : `Stollen, pre-order now (${name})`;
    const at = daysAhead(2);

    expect(await inReach(c.getByLabel(say['publish.message']))).toBe(true);
    expect(await timeFields([c.getByLabel(say['publish.at']), c.getByLabel(say['publish.zone'])])).toEqual(
      LTR_IN_REACH,
    );
    expect(await shownWhole(c.getByLabel(say['publish.at']))).toBe(true);
    expect(await reachable(c, [say['publish.submit']])).toEqual(all([say['publish.submit']]));
    expect(await inBothThemes(page)).toEqual(CLEAN);

    await c.getByLabel(say['publish.message']).fill(text);
    await c.getByRole('radio', { name: say['publish.later'] }).check();
    await c.getByLabel(say['publish.at']).focus();
    await typeTime(page, at);
    expect(await c.getByLabel(say['publish.at']).inputValue()).toBe(localInputValue(at, 'UTC'));
    await c.getByLabel(say['publish.zone']).selectOption('UTC');
    await c.getByRole('button', { name: say['publish.submit'], exact: true }).click();
    const done = locale.t('publish.done.later', { time: formatScheduleTime(at, 'UTC', locale.intl) });
    await page.getByRole('status').filter({ hasText: done }).waitFor();

    await page.goto(`${stack.appUrl}${scheduledPath}`);
    const post = entry(page, text);
    expect(await post.locator('time').getAttribute('datetime')).toBe(new Date(at).toISOString());
    await post.locator('summary', { hasText: say['scheduled.reschedule'] }).click();
    await post.locator('summary', { hasText: say['scheduled.cancel'] }).click();
    await post.getByText(say['scheduled.cancelConfirm']).waitFor();
    expect(
      await timeFields([post.getByLabel(say['scheduled.timeLabel']), post.getByLabel(say['scheduled.zoneLabel'])]),
    ).toEqual(LTR_IN_REACH);
    expect(await shownWhole(post.getByLabel(say['scheduled.timeLabel']))).toBe(true);
    const buttons = [say['scheduled.publishNow'], say['scheduled.move'], say['scheduled.cancelYes']];
    expect(await reachable(post, buttons)).toEqual(all(buttons));
    expect(await inBothThemes(page)).toEqual(CLEAN);

    // The new time typed into the input, in a right-to-left page too, is the instant the provider holds.
    const later = daysAhead(4);
    await post.getByLabel(say['scheduled.timeLabel']).fill('');
    await post.getByLabel(say['scheduled.timeLabel']).focus();
    await typeTime(page, later);
    expect(await post.getByLabel(say['scheduled.timeLabel']).inputValue()).toBe(localInputValue(later, 'UTC'));
    await post.getByLabel(say['scheduled.zoneLabel']).fill('UTC');
    await post.getByRole('button', { name: say['scheduled.move'], exact: true }).click();
    await page.getByRole('status').filter({ hasText: say['write.done.reschedule'] }).waitFor();
    expect(await entry(page, text).locator('time').getAttribute('datetime')).toBe(new Date(later).toISOString());
    // Cancelled: the next screen's list starts without it.
    await entry(page, text).locator('summary', { hasText: say['scheduled.cancel'] }).click();
    await entry(page, text).getByRole('button', { name: say['scheduled.cancelYes'], exact: true }).click();
    await page.getByRole('status').filter({ hasText: say['write.done.cancel'] }).waitFor();
    expect(await entry(page, text).count()).toBe(0);
  });
});
