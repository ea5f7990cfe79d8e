/**
 * A post of its own in real Chromium (docs/architecture.md#post-page): an album walked by keyboard, a video's
 * poster and controls, reactions by kind, comments with replies and "More comments", a comment added at the
 * provider reaching the open post page, and axe finding nothing in either theme.
 */
import type { Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { ALBUM, SOURDOUGH, STORY, VIDEO } from '../support/posts';
import { browsing, Stack, connectAdaToBakery, shownInPlace } from './harness';

const BAKERY = SEED_IDS.pages.bakery;

const VERIFY_TOKEN = 'e2e-webhook-verify-token';
const stack = new Stack(
  {
    FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN,
    FB_SCOPES: 'pages_show_list pages_read_engagement pages_manage_metadata pages_read_user_content',
  },
  { FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN },
);
const browser = browsing(stack);
let page: Page;

async function connect(): Promise<void> {
  await connectAdaToBakery(page, stack);
}

beforeEach(async () => {
  ({ page } = browser);
  await connect();
});

describe('a post of its own', () => {
  it('when the album’s "+4" is followed, then every photo can be reached with Tab, each named', async () => {
    await page.locator(`a.extra[href="/pages/${BAKERY}/posts/${ALBUM}"]`).click();
    await page.waitForURL(`${stack.appUrl}/pages/${BAKERY}/posts/${ALBUM}`);
    const photos = page.getByRole('list', { name: '5 photos' }).getByRole('link');
    expect(await photos.count()).toBe(5);
    await photos.first().focus();
    const names: string[] = [];
    for (let i = 0; i < 5; i++) {
      names.push(await page.evaluate(() => document.activeElement?.querySelector('img')?.alt ?? ''));
      await page.keyboard.press('Tab');
    }
    expect(names).toEqual([1, 2, 3, 4, 5].map((n) => `Photo ${n} of 5: Week photo ${n}`));
  });

  it('when a video post is opened, then the video has its poster and controls, and reactions show by kind', async () => {
    await page.goto(`${stack.appUrl}/pages/${BAKERY}/posts/${VIDEO}`);
    const video = page.locator('video');
    expect(await video.getAttribute('controls')).not.toBeNull();
    expect(await video.getAttribute('poster')).toMatch(/\/media\/croissants_720x405\.svg\?/);
    // The poster is an image the CSP lets load; the file is a source the CSP's media-src allows.
    expect(await video.locator('source').getAttribute('src')).toMatch(/\/media\/croissants_720x405\.webm\?/);
    const reactions = page.getByRole('list', { name: 'Reactions by kind' }).getByRole('listitem');
    expect(await reactions.allInnerTexts()).toEqual([
      'Like 40',
      'Love 12',
      'Care 3',
      'Haha 1',
      'Wow 2',
      'Sad 1',
      'Angry 1',
    ]);
  });

  it('when "2 replies" and "More comments" are followed, then the replies open under their comment and the older comments come', async () => {
    await page.goto(`${stack.appUrl}/pages/${BAKERY}/posts/${SOURDOUGH}`);
    await page.getByRole('link', { name: /^2 replies/ }).click();
    await page.getByText('Then I am coming twice.').waitFor();
    expect(
      await page
        .getByRole('list', { name: /^Replies to/ })
        .locator('.badge')
        .innerText(),
    ).toBe('Page');
    await page.goto(`${stack.appUrl}/pages/${BAKERY}/posts/${STORY}`);
    await page.getByText('Question 30:').waitFor();
    await page.getByRole('link', { name: 'More comments' }).click();
    await page.getByText('Question 1:', { exact: false }).first().waitFor();
    expect(await page.getByText('Question 30:').count()).toBe(0);
  });

  it('when a comment is added at the provider, then "New comments — Show" appears on the open post and shows it without a reload', async () => {
    await page.goto(`${stack.appUrl}/pages/${BAKERY}/posts/${SOURDOUGH}`);
    await shownInPlace(
      page,
      () => stack.control('/activity/comments', { postId: SOURDOUGH, message: 'Still warm at noon?' }),
      'New comments — Show',
      'Still warm at noon?',
      5000,
    );
  });

  it.each(['light', 'dark'] as const)(
    'when axe checks the post page in the %s theme, then it finds nothing',
    async (theme) => {
      await page.emulateMedia({ colorScheme: theme });
      for (const id of [SOURDOUGH, ALBUM, VIDEO]) {
        await page.goto(`${stack.appUrl}/pages/${BAKERY}/posts/${id}?replies=${id.split('_')[1]}_1001`);
        const result = await new AxeBuilder({ page }).analyze();
        expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
          [],
        );
      }
    },
  );
});
