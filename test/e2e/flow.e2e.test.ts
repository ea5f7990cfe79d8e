/**
 * Pagelight in real Chromium, from Connect page to the feed and every way it
 * can go wrong on the way (docs/provider-interface.md#callback-outcomes, docs/architecture.md#security-rules). The app and the emulator run
 * as separate processes, so "the provider is down" is a real dead process.
 */
import type { Page } from 'playwright-core';
import { TEST_SEED, SEED_IDS } from '@pagelight/graph-emulator';
import { axeProblems, browsing, Stack } from './harness';

const BAKERY = SEED_IDS.pages.bakery;
const BAKERY_NAME = 'Lovelace Analytical Bakery';
const bakeryFeed = TEST_SEED.pages.find((p) => p.id === BAKERY)!.feed;

const stack = new Stack();
const browser = browsing(stack);

async function expectAccessible(p: Page): Promise<void> {
  expect(await axeProblems(p)).toEqual([]);
}

/** Home → Connect page → the emulator's dialog. */
async function openDialog(p: Page): Promise<void> {
  await p.goto(`${stack.appUrl}/`);
  await p.getByRole('link', { name: 'Connect page' }).click();
  await p.waitForURL((u) => u.origin === stack.providerUrl && u.pathname.endsWith('/dialog/oauth'));
}

/** At the dialog: sign in as Ada, land on the picker. */
async function continueAsAda(p: Page): Promise<void> {
  await p.getByRole('radio', { name: /Ada Lovelace/ }).check();
  await p.getByRole('button', { name: 'Continue' }).click();
  await p.waitForURL(`${stack.appUrl}/pages`);
}

/** The whole flow up to the bakery's page view. */
async function connectBakery(p: Page): Promise<void> {
  await openDialog(p);
  await continueAsAda(p);
  await p.getByRole('button', { name: `Connect ${BAKERY_NAME}` }).click();
  await p.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
}

describe('connecting a page in the browser', () => {
  test('Connect page on the home page leads to the provider dialog, and Continue comes back to the picker', async () => {
    await browser.page.goto(`${stack.appUrl}/`);
    expect(await browser.page.getByRole('heading', { level: 1 }).textContent()).toBe('Your Page, at a glance');
    await expectAccessible(browser.page);
    // Keyboard first: the first Tab shows the skip link, which leads into <main>.
    await browser.page.keyboard.press('Tab');
    const skip = browser.page.getByRole('link', { name: 'Skip to content' });
    await expect(skip.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    expect((await skip.boundingBox())?.x).toBeGreaterThanOrEqual(0);

    await browser.page.getByRole('link', { name: 'Connect page' }).click();
    await browser.page.waitForURL((u) => u.origin === stack.providerUrl);
    expect(await browser.page.getByRole('heading', { level: 1 }).textContent()).toContain(
      'wants to access your Facebook Pages',
    );
    await expectAccessible(browser.page);

    await continueAsAda(browser.page);
    expect(browser.page.url()).not.toContain('code=');
    expect(await browser.page.getByRole('heading', { level: 1 }).textContent()).toBe('Choose a page');
    await expect(browser.page.getByRole('button', { name: `Connect ${BAKERY_NAME}` }).isVisible()).resolves.toBe(true);
    await expectAccessible(browser.page);
  });

  test('the page view shows every field and the first 25 posts; Older posts pages back through all 64', async () => {
    await connectBakery(browser.page);
    const main = browser.page.locator('main');
    expect(await browser.page.getByRole('heading', { level: 1 }).textContent()).toBe(BAKERY_NAME);
    const text = await main.innerText();
    expect(text).toContain('Bread computed to perfection since 1843.');
    expect(text).toContain('Every loaf follows an algorithm.');
    expect(text).toContain('Casual');
    expect(text).toContain("12 St James's Square");
    expect(text).toContain('SW1Y 4JH');
    expect(text).toMatch(/lot/i);
    expect(text).not.toMatch(/valet parking available/i);
    const hours = browser.page.locator('table.hours tr');
    expect(await hours.count()).toBeGreaterThanOrEqual(6);
    expect(await browser.page.locator('table.hours').innerText()).toMatch(/Sat\w*\s+08:00.*12:00.*17:00.*21:00/s);
    await expect(
      browser.page.getByRole('link', { name: 'hello@lovelace-bakery.example' }).getAttribute('href'),
    ).resolves.toBe('mailto:hello@lovelace-bakery.example');
    await expect(browser.page.getByRole('link', { name: 'orders@lovelace-bakery.example' }).isVisible()).resolves.toBe(
      true,
    );
    await expect(
      browser.page.getByRole('link', { name: 'https://lovelace-bakery.example/', exact: true }).getAttribute('href'),
    ).resolves.toBe('https://lovelace-bakery.example/');

    const posts = browser.page.locator('li.post');
    expect(await posts.count()).toBe(25);
    expect(await posts.first().innerText()).toContain('Fresh sourdough is out of the oven!');
    const firstTime = posts.first().locator('time').first();
    await expect(firstTime.getAttribute('datetime')).resolves.toMatch(/^2026-10-01T12:00:00/);
    await expectAccessible(browser.page);

    await browser.page.getByRole('link', { name: 'Older posts' }).click();
    await browser.page.waitForURL(/\/feed\?after=/);
    expect(await posts.count()).toBe(25);
    await expect(browser.page.locator(`#post-${bakeryFeed[25]!.id}`).isVisible()).resolves.toBe(true);
    await expectAccessible(browser.page);

    await browser.page.getByRole('link', { name: 'Older posts' }).click();
    await browser.page.waitForURL(/\/feed\?after=/);
    expect(await posts.count()).toBe(14);
    const oldest = bakeryFeed[bakeryFeed.length - 1]!;
    expect(bakeryFeed).toHaveLength(64);
    await expect(browser.page.locator(`#post-${oldest.id}`).isVisible()).resolves.toBe(true);
    expect(await browser.page.getByRole('link', { name: 'Older posts' }).count()).toBe(0);
    await expect(browser.page.getByRole('link', { name: 'Newer posts' }).isVisible()).resolves.toBe(true);
  });

  test('Cancel at the dialog shows the cancel page, and Connect again works', async () => {
    await openDialog(browser.page);
    await browser.page.getByRole('button', { name: 'Cancel' }).click();
    await browser.page.waitForURL((u) => u.origin === stack.appUrl && u.pathname === '/auth/callback');
    expect(await browser.page.getByRole('heading', { level: 1 }).textContent()).toBe('You cancelled');
    await expectAccessible(browser.page);

    await browser.page.getByRole('link', { name: 'Connect again' }).click();
    await browser.page.waitForURL((u) => u.origin === stack.providerUrl);
    await continueAsAda(browser.page);
    expect(await browser.page.getByRole('heading', { level: 1 }).textContent()).toBe('Choose a page');
  });

  test('two tabs that start the flow at once both complete', async () => {
    const second = await browser.context.newPage();
    await openDialog(browser.page);
    await openDialog(second);
    await continueAsAda(browser.page);
    await continueAsAda(second);
    for (const tab of [browser.page, second]) {
      expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Choose a page');
    }
    await second.getByRole('button', { name: `Connect ${BAKERY_NAME}` }).click();
    await second.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
    expect(await second.locator('li.post').count()).toBe(25);
  });
});

describe('when the connection breaks', () => {
  // The page view may be served from the app's short page cache (PAGE_CACHE_TTL), so the
  // "next view" here is Older posts, which always asks the provider.
  test('when the provider expires the tokens, then the next view asks to connect again with a message', async () => {
    await connectBakery(browser.page);
    await stack.control('/tokens/expire', {});
    await browser.page.getByRole('link', { name: 'Older posts' }).click();
    await browser.page.waitForURL((u) => u.origin === stack.appUrl && u.pathname === '/');
    await expect(browser.page.getByRole('status').innerText()).resolves.toContain(
      'Facebook signed you out of Pagelight — connect again.',
    );
    await expect(browser.page.getByRole('link', { name: 'Connect page' }).isVisible()).resolves.toBe(true);
    await expectAccessible(browser.page);
  });

  test('when the provider process dies, then a friendly error page; once it is back, a fresh login works', async () => {
    await connectBakery(browser.page);
    const older = await browser.page.getByRole('link', { name: 'Older posts' }).getAttribute('href');
    await stack.killProvider();
    try {
      const res = await browser.page.goto(`${stack.appUrl}${older}`);
      expect([502, 504]).toContain(res?.status());
      expect(await browser.page.getByRole('heading', { level: 1 }).textContent()).toMatch(
        /^(Facebook didn't answer in time|We couldn't reach Facebook) — Try again$/,
      );
      await expectAccessible(browser.page);
      const health = await browser.page.request.get(`${stack.appUrl}/healthz`);
      expect(health.status()).toBe(200);
    } finally {
      await stack.startProvider();
    }
    // The restarted emulator has forgotten every token: reloading reaches it again, the app
    // drops the dead token and sends the person home to reconnect, and a fresh login works.
    await browser.page.reload();
    await browser.page.waitForURL((u) => u.origin === stack.appUrl && u.pathname === '/');
    await expect(browser.page.getByRole('status').innerText()).resolves.toContain('connect again');
    await connectBakery(browser.page);
    await browser.page.getByRole('link', { name: 'Older posts' }).click();
    await browser.page.waitForURL(/\/feed\?after=/);
    expect(await browser.page.locator('li.post').count()).toBe(25);
  });

  test('after Log out, the page is no longer visible', async () => {
    await connectBakery(browser.page);
    await browser.page.getByRole('button', { name: 'Log out' }).click();
    await browser.page.waitForURL((u) => u.origin === stack.appUrl && u.pathname === '/');
    await expect(browser.page.getByRole('status').innerText()).resolves.toContain('You are logged out.');
    await expect(browser.page.getByRole('link', { name: 'Connect page' }).isVisible()).resolves.toBe(true);
    const res = await browser.page.goto(`${stack.appUrl}/pages/${BAKERY}`);
    expect(res?.status()).toBe(401);
    expect(await browser.page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Connect with Facebook to see this',
    );
    expect(await browser.page.locator('main').innerText()).not.toContain('Bread computed');
    await expectAccessible(browser.page);
  });
});

describe('hostile page data', () => {
  const SPARSE = SEED_IDS.pages.sparse;
  const pwned = () => browser.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned);

  afterAll(async () => {
    await stack.control('/reset');
  });

  test('HTML in page fields and posts is shown as text and never runs', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
    // A page no other test views, so its details cannot come from the app's page cache.
    await stack.control(`/pages/${SPARSE}`, {
      about: hostile,
      bio: `<b>bold</b>\n${hostile}`,
      website: 'javascript:window.__pwned=1',
    });
    await openDialog(browser.page);
    await continueAsAda(browser.page);
    await browser.page.getByRole('button', { name: 'Connect Difference Engine Repairs' }).click();
    await browser.page.waitForURL(`${stack.appUrl}/pages/${SPARSE}`);
    const main = browser.page.locator('main');
    const details = await main.innerText();
    expect(details).toContain(hostile);
    expect(details).toContain('<b>bold</b>');
    expect(details).toContain('javascript:window.__pwned=1');
    // The only pictures are the ones the view renders from the provider's image origin.
    const hostileImg = `img:not([src^="${stack.providerUrl}/media/"])`;
    expect(await main.locator(`${hostileImg}, script, b, a[href^="javascript"]`).count()).toBe(0);
    await expect(
      browser.page.getByRole('paragraph').filter({ hasText: 'This page has no posts yet.' }).count(),
    ).resolves.toBe(1);
    await expectAccessible(browser.page);
    expect(await pwned()).toBeUndefined();

    // The seeded bakery feed carries HTML-looking posts of its own.
    await browser.page.goto(`${stack.appUrl}/pages`);
    await browser.page.getByRole('button', { name: `Connect ${BAKERY_NAME}` }).click();
    await browser.page.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
    const feed = await main.innerText();
    expect(feed).toContain('<script>window.__pwned=1</script> Our new menu is live!');
    expect(feed).toContain('<img src=x onerror="window.__pwned=1"> Photo of the week');
    expect(feed).toContain('x=<b>bold</b>');
    expect(await main.locator(`${hostileImg}, script, b`).count()).toBe(0);
    expect(await pwned()).toBeUndefined();

    await browser.page.getByRole('link', { name: 'Older posts' }).click();
    await browser.page.waitForURL(/\/feed\?after=/);
    expect(await pwned()).toBeUndefined();
  });
});
