/**
 * What looked unfinished, in real Chromium on the demo seed: home names the connected Page, older posts keep
 * the header card, stories say what happened, the declined view spans the page, View on Facebook reaches the
 * emulator's Page and post views, and the deletion receipt says what was done, with a date
 * (docs/architecture.md#views, docs/provider-interface.md#web-links, docs/architecture.md#provider-callbacks).
 */
import type { Page } from 'playwright-core';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { axeProblems, browsing, Stack } from './harness';

const BAKERY = SEED_IDS.pages.bakery;
const BAKERY_NAME = 'Lovelace Analytical Bakery';

const stack = new Stack({}, {}, { seed: 'demo' });
const browser = browsing(stack);
beforeEach(() => stack.control('/reset'));

/** Home → Connect page → the dialog as Ada (declining what is given) → the picker → the bakery. */
async function connectBakery(p: Page, decline: string[] = []): Promise<void> {
  await p.goto(`${stack.appUrl}/`);
  await p.getByRole('link', { name: 'Connect page' }).click();
  await p.getByRole('radio', { name: /Ada Lovelace/ }).check();
  for (const permission of decline) await p.getByRole('checkbox', { name: permission }).uncheck();
  await p.getByRole('button', { name: 'Continue' }).click();
  await p.waitForURL(`${stack.appUrl}/pages`);
  await p.getByRole('button', { name: `Connect ${BAKERY_NAME}` }).click();
  await p.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
}

test('when a Page is connected, then home names it and Open leads to it', async () => {
  const { page } = browser;
  await connectBakery(page);
  await page.goto(`${stack.appUrl}/`);
  await expect(page.getByRole('heading', { level: 2 }).innerText()).resolves.toBe('Your connected Page');
  await expect(page.getByRole('link', { name: 'Connect page' }).count()).resolves.toBe(0);
  await page.getByRole('link', { name: `Open ${BAKERY_NAME}` }).click();
  await page.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
  expect(await axeProblems(page)).toEqual([]);
});

test('when older posts are opened, then the header card stays, and a story reads as what happened', async () => {
  const { page } = browser;
  await connectBakery(page);
  const card = await page.locator('.page-card').innerText();
  await expect(page.locator('.story-text').first().innerText()).resolves.toMatch(/^Lovelace Analytical Bakery \w/);
  await expect(page.locator('main').innerText()).resolves.not.toContain('activity');
  await page.getByRole('link', { name: 'Older posts' }).click();
  await page.waitForURL(/\/feed\?after=/);
  await expect(page.locator('.page-card').innerText()).resolves.toBe(card);
  await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(BAKERY_NAME);
  expect(await axeProblems(page)).toEqual([]);
});

test('when View on Facebook is followed, for the Page and for a post, then the emulator shows that Page and that post', async () => {
  const { page, context } = browser;
  await connectBakery(page);
  const pageLink = await page.locator('.page-card a.external').getAttribute('href');
  expect(new URL(pageLink!).origin).toBe(stack.providerUrl);
  const facebook = await context.newPage();
  await facebook.goto(pageLink!);
  await expect(facebook.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(BAKERY_NAME);
  const postLink = await page.locator('.post .permalink').first().getAttribute('href');
  expect(new URL(postLink!).origin).toBe(stack.providerUrl);
  await facebook.goto(postLink!);
  await expect(facebook.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(BAKERY_NAME);
  expect(await axeProblems(facebook)).toEqual([]);
});

test('when Ada removes Pagelight and asks for deletion, then the receipt says what was ended, with a date', async () => {
  const { page, context } = browser;
  await connectBakery(page);
  const settings = await context.newPage();
  await settings.goto(`${stack.providerUrl}/settings/apps?user=${SEED_IDS.users.ada}`);
  await settings.getByRole('button', { name: 'Remove and request deletion' }).click();
  await settings.getByRole('link', { name: 'Deletion status' }).click();
  await settings.waitForURL((u) => u.origin === stack.appUrl && u.pathname.startsWith('/auth/data-deletion/'));
  const text = await settings.locator('main').innerText();
  // Earlier tests of this file signed Ada in too: their sessions end with this one.
  expect(text).toMatch(/ended your (signed-in session|\d+ signed-in sessions) on every server/);
  expect(text).toMatch(/dropped the cached details and posts of the (Page|\d+ Pages) you had connected/);
  expect(text).toMatch(/On \d{1,2} \w{3} \d{4}, \d\d:\d\d/);
  expect(text).not.toMatch(/On now|\b0 (signed-in|page)/);
  expect(await axeProblems(settings)).toEqual([]);
});

// Last: the emulator, like the provider, remembers a declined permission for the person from then on.
test('when the permission for posts was declined, then what the page says spans its whole width', async () => {
  const { page } = browser;
  await connectBakery(page, ['pages_read_engagement']);
  await page.locator('.feed-blocked').waitFor();
  const [layout, feed] = await Promise.all([
    page.locator('.layout').boundingBox(),
    page.locator('.layout > .feed').boundingBox(),
  ]);
  expect(feed!.width).toBeCloseTo(layout!.width, 0);
});
