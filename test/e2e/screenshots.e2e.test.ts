/**
 * The README's screenshots, taken from the real flow at desktop and phone
 * widths. `npm run screenshots` writes them to docs/screenshots/ (tracked);
 * as part of `npm run test:e2e`, where they prove the layout fits a phone
 * screen, they go to the ignored test/e2e/.screenshots/ so a test run leaves
 * the tree clean.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { Stack } from './harness';

const OUT = path.resolve(__dirname, '..', '..', process.env.SCREENSHOTS_DIR ?? 'test/e2e/.screenshots');
const BAKERY = SEED_IDS.pages.bakery;

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

const stack = new Stack();

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  await stack.start();
});

afterAll(async () => {
  await stack.stop();
});

/** Nothing sticks out sideways: a phone reader never scrolls horizontally. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: path.join(OUT, name), fullPage, animations: 'disabled', caret: 'hide' });
}

describe.each(Object.entries(VIEWPORTS))('screenshots at %s width', (label, viewport) => {
  test(`home, dialog, page details and older posts render without sideways scrolling (${label})`, async () => {
    const { context } = await stack.context(viewport);
    const page = await context.newPage();

    await page.goto(`${stack.appUrl}/`);
    await shoot(page, `home-${label}.png`);

    await page.getByRole('link', { name: 'Connect page' }).click();
    await page.waitForURL((u) => u.origin === stack.providerUrl);
    await shoot(page, `dialog-${label}.png`);

    await page.getByRole('radio', { name: /Ada Lovelace/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${stack.appUrl}/pages`);
    await page.getByRole('button', { name: 'Connect Lovelace Analytical Bakery' }).click();
    await page.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
    await shoot(page, `page-${label}.png`);

    await page.getByRole('link', { name: 'Older posts' }).click();
    await page.waitForURL(/\/feed\?after=/);
    await shoot(page, `feed-${label}.png`);
    await context.close();
  });
});
