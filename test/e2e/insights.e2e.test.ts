/**
 * A Page's insights in real Chromium (docs/architecture.md#views, docs/provider-interface.md#insights): the
 * charts drawn without script, each with its figures in a table, and every honest state — the permission
 * not granted, a role without the ANALYZE task, a Page without figures, a metric the provider refuses —
 * with axe finding nothing serious. The demo seed: what a Page manager would see.
 */
import type { Page } from 'playwright-core';
import { DEMO_SEED, SEED_IDS } from '@pagelight/graph-emulator';
import { axeProblems, browsing, Stack } from './harness';

const { bakery: BAKERY, sparse: REPAIRS, cafe: CAFE } = SEED_IDS.pages;
const ADA = SEED_IDS.users.ada;
const nameOf = (id: string): string => DEMO_SEED.pages.find((p) => p.id === id)!.name;

const stack = new Stack({ FB_SCOPES: 'pages_show_list pages_read_engagement read_insights' }, {}, { seed: 'demo' });
const browser = browsing(stack);
let page: Page;
beforeEach(async () => {
  ({ page } = browser);
  await stack.control('/reset');
});

/** Home → Connect page → the dialog as Ada, or `person` (declining some permissions) → the picker → the Page. */
async function connect(pageId: string, decline: string[] = [], person = /Ada Lovelace/): Promise<void> {
  await page.goto(`${stack.appUrl}/`);
  await page.getByRole('link', { name: 'Connect page' }).click();
  await page.waitForURL((u) => u.origin === stack.providerUrl && u.pathname.endsWith('/dialog/oauth'));
  await page.getByRole('radio', { name: person }).check();
  for (const permission of decline) await page.getByRole('checkbox', { name: permission }).uncheck();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${stack.appUrl}/pages`);
  await page.getByRole('button', { name: `Connect ${nameOf(pageId)}` }).click();
  await page.waitForURL(`${stack.appUrl}/pages/${pageId}`);
}

/** From the Page's header card to its insights, as a person would. */
async function openInsights(pageId: string): Promise<void> {
  await page.getByRole('link', { name: 'Insights' }).click();
  await page.waitForURL(`${stack.appUrl}/pages/${pageId}/insights`);
}

test('when a manager opens the insights from the header card, then four charts, each with its 28 days in a table to open', async () => {
  await connect(BAKERY);
  await openInsights(BAKERY);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Insights of ${nameOf(BAKERY)}`);
  const titles = await page.getByRole('heading', { level: 2 }).allTextContents();
  expect(titles).toEqual(['Views', 'Viewers', 'Post engagements', 'New follows']);
  // Drawn on the server: an image each, named by its summary, with a visible line.
  const charts = page.getByRole('img');
  expect(await charts.count()).toBe(4);
  for (const name of await charts.evaluateAll((all) => all.map((svg) => svg.getAttribute('aria-label') ?? ''))) {
    expect(name).toMatch(/ per day, \d+ \w+ \d{4} to \d+ \w+ \d{4}: [\d,]+ [a-z ]+ in all\.$/);
  }
  const box = await page.locator('svg.chart path.line').first().boundingBox();
  expect(box!.width).toBeGreaterThan(200);
  // The figures: folded away, then read as a table with its caption.
  const table = page.getByRole('table', { name: /^Views per day/ });
  expect(await table.isVisible()).toBe(false);
  await page.getByText('The figures by day').first().click();
  expect(await table.isVisible()).toBe(true);
  expect(await table.getByRole('row').count()).toBe(29);
  expect(await page.locator('.insight .change').first().textContent()).toMatch(/on the 28 days before|the same/i);
  expect(await axeProblems(page)).toEqual([]);
});

test('when read_insights was declined, then the screen names the permission and Ask again leads back to the insights', async () => {
  await connect(BAKERY, ['read_insights']);
  await openInsights(BAKERY);
  expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe(
    'Pagelight needs your permission to show insights',
  );
  expect(await page.locator('.insights-blocked').innerText()).toContain("“See your Page's insights”");
  expect(await axeProblems(page)).toEqual([]);
  await page.getByRole('link', { name: 'Ask again' }).click();
  await page.waitForURL((u) => u.origin === stack.providerUrl);
  await page.getByRole('radio', { name: /Ada Lovelace/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${stack.appUrl}/pages/${BAKERY}/insights`);
  expect(await page.getByRole('img').count()).toBe(4);
});

test('when the person’s role has no ANALYZE task, then the screen says their role does not include insights', async () => {
  await stack.control('/roles', { userId: ADA, pageId: BAKERY, tasks: ['MODERATE', 'CREATE_CONTENT'] });
  await connect(BAKERY);
  await openInsights(BAKERY);
  expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe(
    "Your role on this Page doesn't include insights",
  );
  expect(await page.getByRole('img').count()).toBe(0);
  expect(await axeProblems(page)).toEqual([]);
});

test('when the Page is too small for the provider to give figures, then the screen says there are none yet', async () => {
  await connect(REPAIRS);
  await openInsights(REPAIRS);
  expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe('No insights for this Page yet');
  expect(await axeProblems(page)).toEqual([]);
});

test('when the provider refuses one metric, then the others are charted and the missing one is named', async () => {
  // Grace's café: no other test read its insights, so none are cached (a refusal shows within PAGE_CACHE_TTL).
  await stack.control('/insights/refuse', { metric: 'page_total_media_view_unique' });
  await connect(CAFE, [], /Grace Hopper/);
  await openInsights(CAFE);
  expect(await page.getByRole('status').innerText()).toContain('so it is missing here: Viewers.');
  expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
    'Views',
    'Post engagements',
    'New follows',
  ]);
  expect(await axeProblems(page)).toEqual([]);
});
