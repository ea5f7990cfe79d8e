/**
 * The picker of a person with many Pages, in real Chromium (docs/architecture.md#picker): the filter works
 * without script (a GET form, `?q=`) and live with it, and axe finds nothing on it in either theme.
 */
import type { Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { DEMO_SEED, SEED_IDS } from '@pagelight/graph-emulator';
import { browsing, Stack } from './harness';

const FAIRFAX = SEED_IDS.users.fairfax;
const NAMES = DEMO_SEED.users
  .find((u) => u.id === FAIRFAX)!
  .roles.map((r) => DEMO_SEED.pages.find((p) => p.id === r.pageId)!.name);

const stack = new Stack({ SESSION_RATE_LIMIT: '1000' }, {}, { seed: 'demo' });
const browser = browsing(stack);

/** Home → Connect page → the dialog as Mary Fairfax → the picker. */
async function toPicker(p: Page): Promise<void> {
  await p.goto(`${stack.appUrl}/`);
  await p.getByRole('link', { name: 'Connect page' }).click();
  await p.getByRole('radio', { name: /Mary Fairfax/ }).check();
  await p.getByRole('button', { name: 'Continue' }).click();
  // Without script the provider's `#_=_` stays in the address (public/app.js removes it).
  await p.waitForURL((u) => u.origin === stack.appUrl && u.pathname === '/pages');
}

/** The names of the Pages a person can see in the list. */
const shown = (p: Page) => p.locator('#picker-list li:visible .card-title').allInnerTexts();

test('when script runs, then typing two letters leaves one Page for each of the 30, without a page load, and the address keeps the filter', async () => {
  const { page } = browser;
  await toPicker(page);
  expect(await shown(page)).toEqual(NAMES);
  const box = page.getByLabel('Find a Page by the start of a word in its name');
  let loads = 0;
  page.on('load', () => loads++);
  for (const name of NAMES) {
    const place = name.split(' ').at(-1)!;
    await box.fill('');
    await box.pressSequentially(place.slice(0, 2));
    expect(await shown(page)).toEqual([name]);
  }
  expect(loads).toBe(0);
  expect(await page.locator('#picker-count').innerText()).toBe('1 of 30 Pages match “Wi”.');
  expect(new URL(page.url()).searchParams.get('q')).toBe('Wi');
  await box.fill('');
  await box.press('Backspace');
  expect(await shown(page)).toHaveLength(30);
});

test('when script is off, then the filter is a form: Find shows the matching Page, and Show all brings the list back', async () => {
  const context = await stack.browser.newContext({ javaScriptEnabled: false, locale: 'en-GB', timezoneId: 'UTC' });
  try {
    const page = await context.newPage();
    await toPicker(page);
    expect(await shown(page)).toHaveLength(30);
    await page.getByLabel('Find a Page by the start of a word in its name').fill('ch');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.waitForURL(`${stack.appUrl}/pages?q=ch`);
    expect(await shown(page)).toEqual(['Fairfax Bakery Chelsea']);
    expect(await page.locator('#picker-count').innerText()).toBe('1 of 30 Pages match “ch”.');
    await page.getByRole('link', { name: 'Show all' }).click();
    await page.waitForURL(`${stack.appUrl}/pages`);
    expect(await shown(page)).toHaveLength(30);
    // The Page found is connected from the filtered list, as from the whole one.
    await page.goto(`${stack.appUrl}/pages?q=wa`);
    await page.getByRole('button', { name: 'Connect Fairfax Bakery Wapping' }).click();
    await page.waitForURL(/\/pages\/\d+$/);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Fairfax Bakery Wapping');
  } finally {
    await context.close();
  }
});

test.each(['light', 'dark'] as const)(
  'when axe checks the picker with its filter in the %s theme, filtered and not, then it finds nothing',
  async (theme) => {
    const { page } = browser;
    await page.emulateMedia({ colorScheme: theme });
    await toPicker(page);
    const all = await new AxeBuilder({ page }).analyze();
    await page.getByLabel('Find a Page by the start of a word in its name').pressSequentially('so');
    const filtered = await new AxeBuilder({ page }).analyze();
    expect([...all.violations, ...filtered.violations].map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  },
);
