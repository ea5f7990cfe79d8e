/**
 * The composer in real Chromium (docs/architecture.md#publishing): the browser's own time zone preselected, a time
 * chosen means "Later", the time said back in that zone; axe finds nothing on the Page with the composer. And a
 * write's own tab tells nothing of it (docs/architecture.md#live-updates): after a reply, the acting tab shows no
 * "New comments — Show", while another tab on the post does.
 */
import type { Page } from 'playwright-core';
import { MODERATION_IDS, SEED_IDS } from '@pagelight/graph-emulator';
import { formatScheduleTime, instantOf, localInputValue } from '../../src/pages/schedule-time';
import { axeProblems, browsing, connectAdaToBakery, Stack } from './harness';

const BAKERY = SEED_IDS.pages.bakery;
const { postId: POST, question: QUESTION } = MODERATION_IDS.test;
const VERIFY_TOKEN = 'e2e-webhook-verify-token';
const stack = new Stack(
  {
    FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN,
    FB_SCOPES:
      'pages_show_list pages_read_engagement pages_manage_metadata pages_read_user_content pages_manage_engagement pages_manage_posts',
  },
  { FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN },
);
const browser = browsing(stack);
let page: Page;

beforeEach(async () => {
  ({ page } = browser);
  await stack.loadSeed('test');
  await connectAdaToBakery(page, stack);
});

describe('the composer', () => {
  it('when Ada’s browser is in Tokyo, then the composer’s zone is Tokyo, choosing a time chooses Later, and the scheduled time is said back in Tokyo', async () => {
    const context = await stack.browser.newContext({
      timezoneId: 'Asia/Tokyo',
      locale: 'en-GB',
      storageState: await browser.context.storageState(),
    });
    try {
      const tokyo = await context.newPage();
      await tokyo.goto(`${stack.appUrl}/pages/${BAKERY}`);
      expect(await tokyo.getByLabel('Time zone').inputValue()).toBe('Asia/Tokyo');
      await tokyo.getByLabel('What do you want to say?').fill('Scheduled from Tokyo');
      const at = localInputValue(Date.now() + 2 * 86_400_000, 'Asia/Tokyo');
      await tokyo.getByLabel('Date and time').fill(at);
      expect(await tokyo.getByLabel('Later, at the time below').isChecked()).toBe(true);
      await tokyo.getByRole('button', { name: 'Publish', exact: true }).click();
      const said = formatScheduleTime(instantOf(at, 'Asia/Tokyo')!, 'Asia/Tokyo', 'en-GB');
      await tokyo
        .getByRole('status')
        .filter({ hasText: `Your post is scheduled for ${said}.` })
        .waitFor();
    } finally {
      await context.close();
    }
  });

  it('when Ada opens her Page with the composer, then axe finds no problem', async () => {
    await page.getByRole('heading', { name: /^Publish as / }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
  });
});

describe('a tab’s own write', () => {
  it('when Ada replies in one tab, then that tab shows no "New comments — Show" for her reply, while her other tab on the post does', async () => {
    const postUrl = `${stack.appUrl}/pages/${BAKERY}/posts/${POST}`;
    const other = await browser.context.newPage();
    await other.goto(postUrl);
    await page.goto(postUrl);
    const question = page.locator(`#comment-${QUESTION}`);
    await question.locator('summary', { hasText: 'Reply' }).click();
    await question.getByRole('textbox').fill('Told once, not to me');
    await question.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').filter({ hasText: 'Your reply is posted.' }).waitFor();
    // The other tab heard the event, at the same moment as this one.
    await other.getByRole('button', { name: 'New comments — Show' }).waitFor({ state: 'visible', timeout: 5000 });
    expect(await page.getByRole('button', { name: 'New comments — Show' }).isVisible()).toBe(false);
  });
});
