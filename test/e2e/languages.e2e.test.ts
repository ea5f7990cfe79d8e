/**
 * The whole flow in the person's language (docs/architecture.md#languages): a German and an Arabic browser
 * read every screen, the provider's dialog included, in their language, with axe finding nothing in either
 * theme; and the page's script words times in the page's language, not the browser's.
 */
import type { Page } from 'playwright-core';
import { DEFAULT_SEED, SEED_IDS } from '@pagelight/graph-emulator';
import { axeProblems, browsing, Stack } from './harness';

const BAKERY = SEED_IDS.pages.bakery;
const BAKERY_NAME = DEFAULT_SEED.pages.find((p) => p.id === BAKERY)!.name;
const ADA = DEFAULT_SEED.users.find((u) => u.id === SEED_IDS.users.ada)!;

const stack = new Stack({}, {}, { seed: 'demo' });

/** What a browser in each language reads on the way: the home heading, the dialog's, the picker's, the feed's. */
const WORDS = {
  'de-DE': {
    lang: 'de',
    dir: 'ltr',
    home: 'Deine Seite auf einen Blick',
    connect: 'Seite verbinden',
    dialogContinue: 'Weiter',
    picker: 'Seite auswählen',
    connectPage: `${BAKERY_NAME} Verbinden`,
    posts: 'Neueste Beiträge',
  },
  'ar-EG': {
    lang: 'ar',
    dir: 'rtl',
    home: 'صفحتك في لمحة',
    connect: 'ربط صفحة',
    dialogContinue: 'متابعة',
    picker: 'اختيار صفحة',
    connectPage: `ربط ${BAKERY_NAME}`,
    posts: 'أحدث المنشورات',
  },
} as const;

async function axeInBothThemes(page: Page, screen: string, problems: string[]): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    problems.push(...(await axeProblems(page)).map((p) => `${screen} (${theme}): ${p}`));
  }
}

describe.each(Object.keys(WORDS) as (keyof typeof WORDS)[])('a browser set to %s', (locale) => {
  const browser = browsing(stack, { locale });
  const words = WORDS[locale];

  test('when the person connects a Page, then every screen is in their language and direction, and axe finds nothing in either theme', async () => {
    const { page } = browser;
    const problems: string[] = [];
    await page.goto(`${stack.appUrl}/`);
    expect(await page.getAttribute('html', 'lang')).toBe(words.lang);
    expect(await page.getAttribute('html', 'dir')).toBe(words.dir);
    await page.getByRole('heading', { level: 1, name: words.home }).waitFor();
    await axeInBothThemes(page, 'home', problems);

    await page.getByRole('link', { name: words.connect }).click();
    await page.waitForURL((u) => u.origin === stack.providerUrl);
    expect(await page.getAttribute('html', 'lang')).toBe(words.lang);
    await page.getByRole('radio', { name: new RegExp(ADA.name) }).check();
    await axeInBothThemes(page, 'dialog', problems);
    await page.getByRole('button', { name: words.dialogContinue }).click();

    await page.waitForURL(`${stack.appUrl}/pages`);
    await page.getByRole('heading', { level: 1, name: words.picker }).waitFor();
    await axeInBothThemes(page, 'picker', problems);
    await page.getByRole('button', { name: words.connectPage }).click();

    await page.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
    await page.getByRole('heading', { level: 2, name: words.posts }).waitFor();
    expect(await page.getAttribute('html', 'dir')).toBe(words.dir);
    await axeInBothThemes(page, 'page', problems);
    expect(problems).toEqual([]);
  });
});

describe('times under one browser locale', () => {
  const browser = browsing(stack, { locale: 'de-DE' });

  test('when a German browser chooses Japanese in the menu, then a new post reads in Japanese; English, then in English', async () => {
    const { page } = browser;
    await stack.control('/activity/posts', { pageId: BAKERY, message: 'Just baked' });
    await page.goto(`${stack.appUrl}/auth/login`);
    await page.getByRole('radio', { name: new RegExp(ADA.name) }).check();
    await page.getByRole('button', { name: 'Weiter' }).click();
    await page.waitForURL(`${stack.appUrl}/pages`);
    await page.getByRole('button', { name: `${BAKERY_NAME} Verbinden` }).click();
    await page.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);

    const recent = () => page.locator('li.post', { hasText: 'Just baked' }).locator('time').first();
    await page.getByRole('navigation', { name: 'Sprache' }).getByRole('link', { name: '日本語' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'ja');
    await page.waitForFunction(() => !document.querySelector('li.post time')?.textContent?.includes('UTC'));
    expect(await recent().textContent()).toMatch(/今|秒前|分前/);

    await page.getByRole('navigation', { name: '言語' }).getByRole('link', { name: 'English' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await page.waitForFunction(() => !document.querySelector('li.post time')?.textContent?.includes('UTC'));
    const english = (await recent().textContent()) ?? '';
    expect(english).toMatch(/now|second|minute|ago/);
    expect(english).not.toMatch(/jetzt|vor|Minute/);
  });
});
