/**
 * Every screen of the flow, at desktop (1280×800) and phone (390×844) widths, taken from the real
 * flow in Chromium. `npm run screenshots` writes them, in both themes, to docs/screenshots/ as
 * `<screen>-<desktop|phone>-<light|dark>.png` (listed in docs/screenshots/README.md). As part of
 * `npm run test:e2e` the same walk, in the light theme and without writing files, proves that no
 * screen scrolls sideways on a phone.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DEFAULT_SEED, MODERATION_IDS, SEED_IDS } from '@pagelight/graph-emulator';
import { connectAdaToBakery, Stack, walkConnected } from './harness';

const ROOT = path.resolve(__dirname, '..', '..');
/** Set by `npm run screenshots`; unset, nothing is written. */
const OUT = process.env.SCREENSHOTS_DIR ? path.resolve(ROOT, process.env.SCREENSHOTS_DIR) : undefined;
const THEMES = OUT ? (['light', 'dark'] as const) : (['light'] as const);

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** Every screen, in the order of the walk; the file names and the index follow this list. */
const SCREENS = [
  'home',
  'error',
  'privacy',
  'dialog',
  'dialog-pages',
  'picker',
  'page',
  'insights',
  'older-posts',
  'home-connected',
  'post',
  'settings',
  'signed-out',
  'picker-many',
] as const;
type Screen = (typeof SCREENS)[number];

const ADA = DEFAULT_SEED.users.find((u) => u.id === SEED_IDS.users.ada)!;
const BAKERY = SEED_IDS.pages.bakery;
const BAKERY_NAME = DEFAULT_SEED.pages.find((p) => p.id === BAKERY)!.name;
/** The bread class: an album of six photos, nine comments, one with replies from the Page and a visitor. */
const ALBUM_POST = DEFAULT_SEED.pages.find((p) => p.id === BAKERY)!.feed[2]!;

/**
 * The content the pictures show, chosen here and nowhere else: a Stack's emulator starts with the
 * emulator's default seed, the demo content (realistic pages, posts and pictures).
 */
function demoStack(scope = ''): Stack {
  // The demo's permissions (src/config.ts): insights and comments are among the screens.
  return new Stack(
    { FB_SCOPES: `pages_show_list pages_read_engagement read_insights pages_read_user_content ${scope}`.trim() },
    {},
    { seed: 'demo' },
  );
}

/**
 * A manager's screens, a describe block `name` of its own: a demo stack asking for `scope` too, and `walk` at each
 * width, from a new tab on the emulator as seeded with Ada connected to the bakery.
 */
function managerScreens(
  name: string,
  scope: string,
  title: string,
  walk: (page: Page, on: Stack, viewport: keyof typeof VIEWPORTS) => Promise<void>,
): void {
  describe(name, () => {
    const on = demoStack(scope);
    beforeAll(() => on.start());
    afterAll(() => on.stop());
    test.each(Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[])(title, async (viewport) => {
      await on.control('/reset');
      const { context } = await on.context(VIEWPORTS[viewport]);
      const page = await context.newPage();
      await connectAdaToBakery(page, on);
      await walk(page, on, viewport);
      await context.close();
    });
  });
}

const stack = demoStack();

beforeAll(async () => {
  if (OUT) mkdirSync(OUT, { recursive: true });
  await stack.start();
});

afterAll(async () => {
  await stack.stop();
});

/** Nothing sticks out sideways: a phone reader never scrolls horizontally. */
async function expectNoSidewaysScroll(page: Page, screen: Screen): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect({ screen, overflow }).toEqual({ screen, overflow: 0 });
}

/** Fonts ready and the pictures in view loaded (or failed), so a shot never catches a half-drawn screen. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page
    .waitForFunction(
      () =>
        Array.from(document.images)
          .filter((img) => img.getBoundingClientRect().top < window.innerHeight)
          .every((img) => img.complete),
      undefined,
      { timeout: 5000 },
    )
    .catch(() => undefined);
}

async function shoot(page: Page, screen: Screen, viewport: keyof typeof VIEWPORTS, fullPage = false): Promise<void> {
  await settled(page);
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await expectNoSidewaysScroll(page, screen);
    if (!OUT) continue;
    await page.screenshot({
      path: path.join(OUT, `${screen}-${viewport}-${theme}.png`),
      fullPage,
      animations: 'disabled',
      caret: 'hide',
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.each(Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[])('every screen at %s width', (viewport) => {
  test(`when a person walks the whole flow, then no screen scrolls sideways (${viewport})`, async () => {
    const { context } = await stack.context(VIEWPORTS[viewport]);
    const page = await context.newPage();
    const shot: Screen[] = [];
    const take = async (screen: Screen, fullPage = false): Promise<void> => {
      await shoot(page, screen, viewport, fullPage);
      shot.push(screen);
    };

    await page.goto(`${stack.appUrl}/`);
    await take('home');
    await page.goto(`${stack.appUrl}/no-such-page`);
    await take('error');
    await page.goto(`${stack.appUrl}/privacy`);
    await take('privacy');

    await page.goto(`${stack.appUrl}/`);
    await page.getByRole('link', { name: 'Connect page' }).click();
    await page.waitForURL((u) => u.origin === stack.providerUrl);
    await take('dialog');
    // The page, on a phone, is as it first appears: details collapsed, the posts within reach.
    await walkConnected(page, stack, async (stop) => {
      // The page-selection step: the chosen person's Pages, each of which can be left out.
      if (stop === 'dialog-pages') await page.getByRole('checkbox', { name: BAKERY_NAME }).scrollIntoViewIfNeeded();
      // The first chart's figures opened, to show the table beside the charts.
      if (stop === 'insights') await page.getByText('The figures by day').first().click();
      await take(stop, stop === 'insights');
    });
    // A post of its own, reached from the album's "+5" on the page, with the first comment's replies open.
    await page.goto(`${stack.appUrl}/pages/${BAKERY}`);
    await page.locator(`a.extra[href="/pages/${BAKERY}/posts/${ALBUM_POST.id}"]`).click();
    await page.waitForURL(`${stack.appUrl}/pages/${BAKERY}/posts/${ALBUM_POST.id}`);
    await page
      .getByRole('link', { name: /^2 replies/ })
      .first()
      .click();
    await page.waitForURL(/\?replies=/);
    await take('post', true);

    await page.goto(`${stack.providerUrl}/settings/apps?user=${ADA.id}`);
    await take('settings');

    await page.goto(`${stack.appUrl}/pages/${BAKERY}`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((u) => u.origin === stack.appUrl && u.pathname === '/');
    await take('signed-out');

    // A person with 30 Pages: the picker with its filter box.
    await page.getByRole('link', { name: 'Connect page' }).click();
    await page.getByRole('radio', { name: /Mary Fairfax/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${stack.appUrl}/pages`);
    await take('picker-many');

    expect(shot).toEqual([...SCREENS]);
    await context.close();
  });
});

/** The page view in German, Japanese and Arabic (right to left): what the browser's language brings. */
const LANGUAGES = [
  { locale: 'de-DE', tag: 'de', continue: 'Weiter', connect: `${BAKERY_NAME} Verbinden` },
  // The Page's name is read out before the verb, the hidden part a block of its own: "… を リンク".
  { locale: 'ja-JP', tag: 'ja', continue: '続行', connect: new RegExp(`^${BAKERY_NAME}\\s*を\\s*リンク$`) },
  { locale: 'ar-EG', tag: 'ar', continue: 'متابعة', connect: `ربط ${BAKERY_NAME}` },
] as const;

describe.each(LANGUAGES)('the page view in $tag', (language) => {
  test.each(Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[])(
    'when a browser in that language connects a Page, then the page reads in it and does not scroll sideways (%s)',
    async (viewport) => {
      const { context } = await stack.context(VIEWPORTS[viewport], language.locale);
      const page = await context.newPage();
      await page.goto(`${stack.appUrl}/auth/login`);
      await page.getByRole('radio', { name: new RegExp(ADA.name) }).check();
      await page.getByRole('button', { name: language.continue }).click();
      await page.waitForURL(`${stack.appUrl}/pages`);
      await page.getByRole('button', { name: language.connect }).click();
      await page.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
      expect(await page.getAttribute('html', 'lang')).toBe(language.tag);
      await shoot(page, `page-${language.tag}` as Screen, viewport);
      await context.close();
    },
  );
});

/**
 * The post page as a manager sees it: each comment's actions, and a comment hidden with **Unhide**. A stack of its
 * own, asking for `pages_manage_engagement` as the demo does (src/config.ts), on the post with the comments to
 * moderate.
 */
const MODERATION_SCREENS = ['post-actions', 'post-hidden'] as const;
const MODERATION = MODERATION_IDS.demo;

managerScreens(
  'the post page’s comment actions',
  'pages_manage_engagement',
  'when a manager opens a post with comments to moderate and hides one, then neither screen scrolls sideways (%s)',
  async (page, manager, viewport) => {
    await page.goto(`${manager.appUrl}/pages/${BAKERY}/posts/${MODERATION.postId}`);
    const comment = (id: string) => page.locator(`#comment-${id}`);
    // From the comments' heading: beside the post on a desktop, under it on a phone.
    const fromComments = () =>
      page.evaluate(() => {
        document.getElementById('comments')!.scrollIntoView({ block: 'start' });
        window.scrollBy(0, -16);
      });

    // The question with its reply box open, the abusive comment below it with its actions.
    await comment(MODERATION.question).locator('summary', { hasText: 'Reply' }).click();
    await fromComments();
    await shoot(page, 'post-actions' as Screen, viewport);

    await comment(MODERATION.abusive).getByRole('button', { name: 'Hide', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'The comment is hidden.' }).waitFor();
    await comment(MODERATION.abusive).getByRole('button', { name: 'Unhide', exact: true }).waitFor();
    // The pointer off the comments: the swap moved another comment's Hide under it.
    await page.mouse.move(0, 0);
    await fromComments();
    await shoot(page, 'post-hidden' as Screen, viewport);
    // Shown again: the app's cache outlives the emulator's reset, and the next width meets the comment as seeded.
    await comment(MODERATION.abusive).getByRole('button', { name: 'Unhide', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'The comment is shown again.' }).waitFor();
  },
);

/**
 * Publishing as a manager sees it (`pages_manage_posts`, as the demo asks for it): the composer above the Page's
 * posts, a post being written for later, and the scheduled posts with one's **Reschedule** open. A stack of its own
 * on the demo seed, whose bakery has a post scheduled already.
 */
const PUBLISHING_SCREENS = ['composer', 'scheduled'] as const;

managerScreens(
  'publishing',
  'pages_manage_posts',
  'when a manager writes a post for later and opens the scheduled posts, then neither screen scrolls sideways (%s)',
  async (page, publisher, viewport) => {
    // A post written for Saturday morning, its time chosen: what the composer looks like just before Publish.
    const composer = page.locator('form[data-composer]');
    const saturday = new Date(Date.now() + 3 * 86_400_000);
    await composer
      .getByLabel('What do you want to say?')
      .fill('Christmas stollen is back from Saturday: pre-order yours at the counter or by phone. 🎄');
    await composer.getByRole('radio', { name: 'Later, at the time below' }).check();
    await composer.getByLabel('Date and time').fill(`${saturday.toISOString().slice(0, 10)}T08:00`);
    await composer.getByLabel('Time zone').selectOption('Europe/London');
    // Nothing focused: the picture shows the form, not where the pointer left off.
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      document.querySelector('.composer')!.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -16);
    });
    await shoot(page, 'composer' as Screen, viewport);

    await composer.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('status').filter({ hasText: 'Your post is scheduled for' }).waitFor();
    await page.getByRole('link', { name: '2 scheduled posts' }).click();
    await page.waitForURL(`${publisher.appUrl}/pages/${BAKERY}/scheduled`);
    await page.locator('article.scheduled-post').first().locator('summary', { hasText: 'Reschedule' }).click();
    await page.mouse.move(0, 0);
    await shoot(page, 'scheduled' as Screen, viewport);
    // Cancelled again: the app's cache outlives the emulator's reset, and the next width meets one scheduled post.
    const written = page.locator('article.scheduled-post', { hasText: 'Christmas stollen' });
    await written.locator('summary', { hasText: 'Cancel' }).click();
    await written.getByRole('button', { name: 'Cancel the post' }).click();
    await page.getByRole('status').filter({ hasText: 'The scheduled post is cancelled.' }).waitFor();
  },
);

test('the screenshot index lists every file the walk writes, in both themes', () => {
  const index = readFileSync(path.join(ROOT, 'docs', 'screenshots', 'README.md'), 'utf8');
  const missing = [...SCREENS, ...MODERATION_SCREENS, ...PUBLISHING_SCREENS]
    .flatMap((screen) =>
      Object.keys(VIEWPORTS).flatMap((viewport) =>
        ['light', 'dark'].map((theme) => `${screen}-${viewport}-${theme}.png`),
      ),
    )
    .concat(
      LANGUAGES.flatMap(({ tag }) =>
        Object.keys(VIEWPORTS).flatMap((viewport) =>
          ['light', 'dark'].map((theme) => `page-${tag}-${viewport}-${theme}.png`),
        ),
      ),
    )
    .filter((file) => !index.includes(`(${file})`));
  expect(missing).toEqual([]);
});
