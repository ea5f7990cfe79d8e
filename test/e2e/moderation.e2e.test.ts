/**
 * The post page's actions in real Chromium (docs/architecture.md#comment-actions): reply, hide, unhide, delete
 * with its confirmation, and like, each with script (no reload) and without (a form post); a forged form; a
 * person whose role has no task to act. axe finds nothing on the page with its controls.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { MODERATION_IDS, SEED_IDS } from '@pagelight/graph-emulator';
import { axeProblems, browsing, connectAdaToBakery, Stack } from './harness';

const BAKERY = SEED_IDS.pages.bakery;
const { postId: POST, spam: SPAM, abusive: ABUSIVE, question: QUESTION } = MODERATION_IDS.test;
const stack = new Stack({
  FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content pages_manage_engagement',
});
const browser = browsing(stack);
let page: Page;
const postUrl = () => `${stack.appUrl}/pages/${BAKERY}/posts/${POST}`;

beforeEach(async () => {
  ({ page } = browser);
  // Each test meets the comments as seeded: what another test hid, liked or deleted is back.
  await stack.loadSeed('test');
  await connectAdaToBakery(page, stack);
  await page.goto(postUrl());
});

async function withoutScript(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await stack.browser.newContext({
    javaScriptEnabled: false,
    storageState: await browser.context.storageState(),
  });
  const p = await context.newPage();
  await p.goto(postUrl());
  return { context, page: p };
}

const comment = (p: Page, id: string) => p.locator(`#comment-${id}`);

describe('the post page’s actions, with script', () => {
  it('when Ada replies to a comment with the keyboard, then the reply appears under it without a reload, marked as the Page’s', async () => {
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const question = comment(page, QUESTION);
    await question.locator('summary', { hasText: 'Reply' }).focus();
    await page.keyboard.press('Enter');
    await question.getByRole('textbox').fill('From 7 every morning.');
    await question.getByRole('textbox').press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Your reply is posted.' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await page.locator('.comment.by-page', { hasText: 'From 7 every morning.' }).waitFor();
  });

  it('when Ada hides a comment, then it shows as hidden with Unhide, and Unhide shows it again, without a reload', async () => {
    const abusive = comment(page, ABUSIVE);
    await abusive.getByRole('button', { name: 'Hide' }).click();
    await comment(page, ABUSIVE).getByText('Hidden: only its author and their friends still see it.').waitFor();
    await comment(page, ABUSIVE).getByRole('button', { name: 'Unhide' }).click();
    await comment(page, ABUSIVE).getByRole('button', { name: 'Hide' }).waitFor();
  });

  it('when Ada likes a comment, then it offers Unlike', async () => {
    await comment(page, QUESTION).getByRole('button', { name: 'Like', exact: true }).click();
    await comment(page, QUESTION).getByRole('button', { name: 'Unlike' }).waitFor();
  });

  it('when Ada deletes a comment, then it asks first, and after she confirms the comment is gone', async () => {
    const spam = comment(page, SPAM);
    await spam.locator('summary', { hasText: 'Delete' }).click();
    await spam.getByText("Delete this comment for everyone? This can't be undone.").waitFor();
    await spam.getByRole('button', { name: 'Delete the comment' }).click();
    await page.getByRole('status').filter({ hasText: 'The comment is deleted.' }).waitFor();
    expect(await comment(page, SPAM).count()).toBe(0);
  });

  it('when the page shows its controls, then axe finds no serious problem', async () => {
    expect(await axeProblems(page)).toEqual([]);
  });
});

describe('the post page’s actions, without script', () => {
  it('when Ada replies to the post, hides, likes and deletes, then each is a form post that lands back on the post', async () => {
    const { context, page: p } = await withoutScript();
    try {
      const form = p.locator('#comments > form');
      await form.getByRole('textbox').fill('Thanks, all!');
      await form.getByRole('button', { name: 'Send' }).click();
      await p.locator('.comment.by-page', { hasText: 'Thanks, all!' }).waitFor();
      await comment(p, ABUSIVE).getByRole('button', { name: 'Hide' }).click();
      await comment(p, ABUSIVE).getByText('Hidden:').waitFor();
      await comment(p, ABUSIVE).getByRole('button', { name: 'Unhide' }).click();
      await comment(p, ABUSIVE).getByRole('button', { name: 'Hide' }).waitFor();
      await comment(p, QUESTION).getByRole('button', { name: 'Like', exact: true }).click();
      await comment(p, QUESTION).getByRole('button', { name: 'Unlike' }).waitFor();
      await comment(p, SPAM).locator('summary', { hasText: 'Delete' }).click();
      await comment(p, SPAM).getByRole('button', { name: 'Delete the comment' }).click();
      await p.getByText('The comment is deleted.').waitFor();
      expect(await comment(p, SPAM).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('when a forged form names another Page’s post, then the answer is 403', async () => {
    const form = page.locator('form[data-write]').first();
    const values = Object.fromEntries(
      await Promise.all(
        ['_csrf', '_key', 'do'].map(async (name) => [
          name,
          (await form.locator(`input[name="${name}"]`).getAttribute('value')) ?? '',
        ]),
      ),
    ) as Record<string, string>;
    // Sent with the session's own cookie and CSRF token, for a comment of another Page's post.
    const res = await page.request.post(`${stack.appUrl}/pages/${BAKERY}/posts/${SEED_IDS.pages.cafe}_1/write`, {
      form: { ...values, target: '1_1', message: 'forged' },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(403);
  });
});
