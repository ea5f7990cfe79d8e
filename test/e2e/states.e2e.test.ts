/**
 * The states a person meets beyond the happy path, in real Chromium: coming
 * back to the page asked for after login, every error page with the action
 * that helps, a declined permission, a stale callback, and busy buttons
 * (docs/architecture.md#error-model, docs/architecture.md#return-to,
 * docs/architecture.md#views). The app and the emulator run as separate
 * processes; faults come from the emulator's controls.
 */
import type { Page } from 'playwright-core';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { control } from '../support/emulator';
import { axeProblems, browsing, Stack } from './harness';

const BAKERY = SEED_IDS.pages.bakery;
const BAKERY_NAME = 'Lovelace Analytical Bakery';
const ADA = SEED_IDS.users.ada;

// A shorter wait for Facebook than the default, so the timeout states stay quick, and still well above the
// 600 ms of latency the busy-button tests add (a loaded machine must not turn their slow answer into a
// timeout); no page cache, so a reload goes to Facebook and meets the faults the test scripted.
const stack = new Stack({ PROVIDER_TIMEOUT_MS: '2500', PAGE_CACHE_TTL: '0' });
const browser = browsing(stack);
let page: Page;
beforeEach(() => {
  ({ page } = browser);
});
afterEach(async () => {
  // Whatever a test scripted and did not use up must not reach the next one.
  await control(stack.providerUrl, 'DELETE', '/fail');
});

const heading = (p: Page) => p.getByRole('heading', { level: 1 }).textContent();

/** The words in <main> a person reads: the operator's details are folded away. */
async function readable(p: Page): Promise<string> {
  return p.locator('main').evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('details').forEach((d) => d.remove());
    return copy.innerText;
  });
}

async function expectPlainWords(p: Page): Promise<void> {
  const text = await readable(p);
  expect(text).not.toMatch(/\bprovider|\bcursor|\bscope|\btoken|\b[a-z]+_[a-z_]+\b|Error \d{3}/i);
  expect(await axeProblems(p)).toEqual([]);
}

/** At the dialog: sign in as Ada, optionally declining permissions (by identifier), and Continue. */
async function continueAsAda(p: Page, decline: string[] = []): Promise<void> {
  await p.waitForURL((u) => u.origin === stack.providerUrl && u.pathname.endsWith('/dialog/oauth'));
  await p.getByRole('radio', { name: /Ada Lovelace/ }).check();
  for (const permission of decline) await p.getByRole('checkbox', { name: permission }).uncheck();
  await p.getByRole('button', { name: 'Continue' }).click();
  await p.waitForURL((u) => u.origin === stack.appUrl);
}

/** Home → Connect page → dialog → picker → the bakery. */
async function connectBakery(p: Page, decline: string[] = []): Promise<void> {
  await p.goto(`${stack.appUrl}/`);
  await p.getByRole('link', { name: 'Connect page' }).click();
  await continueAsAda(p, decline);
  await p.waitForURL(`${stack.appUrl}/pages`);
  await p.getByRole('button', { name: `Connect ${BAKERY_NAME}` }).click();
  await p.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
}

/** The bakery opened with no session: 401, and the heading that says why, in plain words. */
async function bakeryRefused(p: Page): Promise<string | null> {
  const res = await p.goto(`${stack.appUrl}/pages/${BAKERY}`);
  expect(res?.status()).toBe(401);
  await expectPlainWords(p);
  return heading(p);
}

/** `link` where the person stands, then the dialog as Ada: back at the bakery's page they asked for. */
async function backToBakeryThrough(p: Page, link: string): Promise<void> {
  await p.getByRole('link', { name: link }).click();
  await continueAsAda(p);
  await p.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
}

describe('return to the page asked for', () => {
  test('when a person not signed in opens a page, then Connect page and the dialog bring them back to it', async () => {
    expect(await bakeryRefused(page)).toBe('Connect with Facebook to see this');
    await backToBakeryThrough(page, 'Connect page');
    expect(await heading(page)).toBe(BAKERY_NAME);
    // The header of a signed-in page: who, Switch page, Log out.
    const nav = page.getByRole('navigation', { name: 'Account' });
    expect(await nav.innerText()).toMatch(/Signed in as Ada Lovelace\s+Switch page\s+Log out/);
  });
});

describe('the header on a phone', () => {
  test('when the screen is 390 px wide, then the name, Switch page and Log out fit without scrolling sideways', async () => {
    await connectBakery(page);
    await page.setViewportSize({ width: 390, height: 844 });
    const nav = page.getByRole('navigation', { name: 'Account' });
    for (const name of ['Switch page', 'Log out']) {
      const box = await nav.getByRole(name === 'Log out' ? 'button' : 'link', { name }).boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole('link', { name: 'Switch page' }).click();
    await page.waitForURL(`${stack.appUrl}/pages`);
  });
});

describe('error pages with the action that helps', () => {
  test('when Facebook does not answer in time, then "Try again" retries the same page and works once it answers', async () => {
    await connectBakery(page);
    await stack.control('/fail', { n: 8, failure: { kind: 'hang' } });
    const res = await page.reload();
    expect(res?.status()).toBe(504);
    expect(await heading(page)).toBe("Facebook didn't answer in time — Try again");
    await expectPlainWords(page);
    await control(stack.providerUrl, 'DELETE', '/fail');
    await page.getByRole('link', { name: 'Try again' }).click();
    await page.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
    expect(await heading(page)).toBe(BAKERY_NAME);
  });

  test('when Facebook limits requests, then 429 says to try again in about a minute, in words', async () => {
    await connectBakery(page);
    await stack.control('/fail', {
      n: 8,
      failure: { status: 403, error: { code: 4, message: '(#4) Application request limit reached' } },
    });
    const res = await page.reload();
    expect(res?.status()).toBe(429);
    expect(await heading(page)).toBe('Facebook asked Pagelight to slow down');
    expect(await readable(page)).toContain('Please try again in about a minute.');
    await expect(page.getByRole('link', { name: 'Try again' }).getAttribute('href')).resolves.toBe(`/pages/${BAKERY}`);
    await expectPlainWords(page);
  });

  test.each([
    ['expired', '/tokens/expire', {}, 'Your sign-in had expired'],
    [
      'revoked: password changed',
      '/tokens/revoke',
      { userId: ADA, reason: 'password_changed' },
      'password was changed',
    ],
    ['revoked: app removed', '/tokens/revoke', { userId: ADA, reason: 'app_removed' }, 'Pagelight was removed'],
  ])(
    'when the sign-in is %s, then "Facebook signed you out of Pagelight" with why, and Connect leads back to the page',
    async (_n, route, body, why) => {
      await connectBakery(page);
      await stack.control(route, body);
      await page.reload();
      await page.waitForURL(`${stack.appUrl}/?return_to=${encodeURIComponent(`/pages/${BAKERY}`)}`);
      const status = await page.getByRole('status').innerText();
      expect(status).toContain('Facebook signed you out of Pagelight — connect again.');
      expect(status).toContain(why);
      await expectPlainWords(page);
      await backToBakeryThrough(page, 'Connect page');
    },
  );

  // This app's store began keeping sessions less than SESSION_IDLE_SECONDS ago, so a missing session may have been
  // lost rather than lapsed, and the page says so (the lapse after a long-running store: test/session/lapsed.test.ts).
  test('when the cookie outlived its session in a young store, then "Pagelight lost your sign-in — connect again", back to the page after', async () => {
    await connectBakery(page);
    const stale = (await browser.context.cookies()).find((c) => c.name === 'pagelight')!;
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${stack.appUrl}/?logged_out=1`);
    // The browser comes back with the old cookie; its session is gone from the store.
    await browser.context.addCookies([stale]);
    expect(await bakeryRefused(page)).toBe('Pagelight lost your sign-in — connect again');
    await backToBakeryThrough(page, 'Connect again');
  });
});

describe('declined permissions and stale callbacks', () => {
  test('when the feed permission was declined, then the page shows without posts, explains, and Ask again asks again', async () => {
    await connectBakery(page, ['pages_read_engagement']);
    expect(await heading(page)).toBe(BAKERY_NAME);
    const feed = page.locator('.feed-blocked');
    expect(await feed.innerText()).toContain("Read your Page's posts and details");
    expect(await page.locator('li.post').count()).toBe(0);
    await expectPlainWords(page);
    await feed.getByRole('link', { name: 'Ask again' }).click();
    await page.waitForURL((u) => u.origin === stack.providerUrl);
    expect(new URL(page.url()).searchParams.get('auth_type')).toBe('rerequest');
    await continueAsAda(page);
    await page.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
    expect(await page.locator('li.post').count()).toBeGreaterThan(0);
  });

  test('when a signed-in person goes Back into the dialog and Continue, then the picker says "You\'re already connected"', async () => {
    await page.goto(`${stack.appUrl}/`);
    await page.getByRole('link', { name: 'Connect page' }).click();
    await continueAsAda(page);
    await page.waitForURL(`${stack.appUrl}/pages`);
    await page.goBack();
    await page.waitForURL((u) => u.origin === stack.providerUrl);
    await continueAsAda(page);
    await page.waitForURL(`${stack.appUrl}/pages`);
    expect(await page.getByRole('status').innerText()).toContain("You're already connected.");
    expect(await heading(page)).toBe('Choose a page');
  });
});

describe('busy buttons', () => {
  test('when Connect is clicked twice, then it shows it is busy and only one POST is sent', async () => {
    await page.goto(`${stack.appUrl}/`);
    await page.getByRole('link', { name: 'Connect page' }).click();
    await continueAsAda(page);
    await page.waitForURL(`${stack.appUrl}/pages`);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(r.url());
    });
    // What the button looked like while the POST was in flight, kept in sessionStorage across the
    // navigation; and the impatient second click, 150 ms after the first submit.
    await page.evaluate(() => {
      const button = document.querySelector<HTMLButtonElement>('form[action$="/connect"] button')!;
      new MutationObserver(() => {
        sessionStorage.setItem('busy', `${button.getAttribute('aria-busy')} ${button.disabled}`);
      }).observe(button, { attributes: true });
      button.form!.addEventListener('submit', () => setTimeout(() => button.click(), 150), { once: true });
    });
    // A slow Facebook keeps the first submit in flight while the second click lands.
    await stack.control('/latency', { ms: 600 });
    await page.getByRole('button', { name: `Connect ${BAKERY_NAME}` }).click();
    await page.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
    await stack.control('/latency', { ms: 0 });
    expect(posts).toEqual([`${stack.appUrl}/pages/${BAKERY}/connect`]);
    expect(await page.evaluate(() => sessionStorage.getItem('busy'))).toBe('true true');
  });

  test('when a link waits on Facebook (Older posts), then it shows progress until the next page comes', async () => {
    await connectBakery(page);
    await page.evaluate(() => {
      const link = Array.from(document.querySelectorAll('a')).find((a) => a.textContent?.trim() === 'Older posts')!;
      new MutationObserver(() => {
        sessionStorage.setItem(
          'progress',
          `${link.getAttribute('aria-busy')} ${link.classList.contains('is-loading')}`,
        );
      }).observe(link, { attributes: true });
    });
    await stack.control('/latency', { ms: 400 });
    await page.getByRole('link', { name: 'Older posts' }).click();
    await page.waitForURL(/\/feed\?after=/);
    await stack.control('/latency', { ms: 0 });
    expect(await page.evaluate(() => sessionStorage.getItem('progress'))).toBe('true true');
  });
});
