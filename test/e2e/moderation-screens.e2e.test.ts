/**
 * The post page's actions as people meet them beyond a desktop in English (docs/architecture.md#comment-actions):
 * a person whose role has no task to act sees the comments, no controls and one line saying why; on a phone and
 * in Arabic (right to left) the controls are within reach, nothing scrolls sideways and axe finds nothing in
 * either theme, with the controls and with a hidden comment; and the "not sent" page keeps the text there too.
 */
import type { Page } from 'playwright-core';
import { MODERATION_IDS, SEED_IDS } from '@pagelight/graph-emulator';
import { CATALOGS } from '../../src/i18n/catalogs';
import { axeProblems, browsing, connectAdaToBakery, Stack } from './harness';
import { all, CLEAN, inBothThemes, reachable } from './screen-checks';

const BAKERY = SEED_IDS.pages.bakery;
const { postId: POST, abusive: ABUSIVE, question: QUESTION } = MODERATION_IDS.test;
const PHONE = { width: 390, height: 844 };
const stack = new Stack({
  FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content pages_manage_engagement',
});
const browser = browsing(stack);
const postPath = `/pages/${BAKERY}/posts/${POST}`;
const comment = (p: Page, id: string) => p.locator(`#comment-${id}`);

// Each test meets the comments as seeded: what another test hid or answered is back.
beforeEach(() => stack.loadSeed('test'));

describe('a person whose role has no task to act', () => {
  it('when Joan Clarke (advertiser and analyst on the bakery) opens a post, then she sees its comments, no controls, and one line saying why', async () => {
    const { page } = browser;
    await page.goto(`${stack.appUrl}/`);
    await page.getByRole('link', { name: 'Connect page' }).click();
    await page.getByRole('radio', { name: /Joan Clarke/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Connect Lovelace Analytical Bakery' }).click();
    await page.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
    await page.goto(`${stack.appUrl}${postPath}`);

    await comment(page, QUESTION).waitFor();
    await comment(page, ABUSIVE).waitFor();
    expect(await page.getByText(CATALOGS.en['act.noTask'], { exact: true }).count()).toBe(1);
    const controls = ['Reply', 'Like', 'Unlike', 'Hide', 'Unhide', 'Delete', 'Delete the comment', 'Send'];
    const offered = [];
    for (const name of controls) {
      if ((await page.getByRole('button', { name, exact: true }).count()) > 0) offered.push(name);
      if ((await page.locator('summary', { hasText: name }).count()) > 0) offered.push(name);
    }
    expect(offered).toEqual([]);
    expect(await page.getByRole('textbox').count()).toBe(0);
    expect(await axeProblems(page)).toEqual([]);
  });
});

describe('the post page’s actions on a desktop', () => {
  it('when Ada hides a comment with script, then the comments stay beside the post and the hidden one reads as hidden, not as the action', async () => {
    const { page } = browser;
    await connectAdaToBakery(page, stack);
    await page.goto(`${stack.appUrl}${postPath}`);
    const side = () =>
      page.evaluate(() => {
        const post = document.querySelector('article.post-page')!.getBoundingClientRect();
        const comments = document.getElementById('comments')!.getBoundingClientRect();
        return { besidePost: comments.left > post.right, top: Math.round(comments.top - post.top) };
      });
    const before = await side();
    expect(before.besidePost).toBe(true);
    await comment(page, ABUSIVE).getByRole('button', { name: 'Hide', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'The comment is hidden.' }).waitFor();
    // The line saying what happened takes no cell of the two columns: the comments are where they were.
    expect(await side()).toEqual(before);
    const marker = comment(page, ABUSIVE).locator('.hidden-note');
    expect(await marker.innerText()).toBe(CATALOGS.en['act.hidden']);
    await comment(page, ABUSIVE).getByRole('button', { name: 'Unhide', exact: true }).click();
    await comment(page, ABUSIVE).getByRole('button', { name: 'Hide', exact: true }).waitFor();
  });
});

/** English on a phone, and Arabic (chosen in the footer's language menu) on a desktop and on a phone. */
const SCREENS = [
  { name: 'on a phone, in English', viewport: PHONE, lang: 'en' as const },
  { name: 'in Arabic, right to left', viewport: { width: 1280, height: 800 }, lang: 'ar' as const },
  { name: 'on a phone, in Arabic', viewport: PHONE, lang: 'ar' as const },
];

describe.each(SCREENS)('the post page’s actions $name', ({ viewport, lang }) => {
  const say = CATALOGS[lang];

  async function openPost(): Promise<Page> {
    const { page } = browser;
    await page.setViewportSize(viewport);
    await connectAdaToBakery(page, stack);
    // The language menu's link, as a person follows it from the footer (it remembers the choice in a cookie).
    if (lang !== 'en')
      await page.goto(`${stack.appUrl}/language?lang=${lang}&returnTo=${encodeURIComponent(postPath)}`);
    else await page.goto(`${stack.appUrl}${postPath}`);
    await page.waitForURL(`${stack.appUrl}${postPath}`);
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
    return page;
  }

  it('when Ada opens the post, then the controls are within reach, nothing scrolls sideways and axe finds nothing in either theme, with the controls and with a hidden comment', async () => {
    const page = await openPost();
    expect(await reachable(comment(page, ABUSIVE), [say['act.hide']])).toEqual(all([say['act.hide']]));
    expect(await reachable(comment(page, QUESTION), [say['act.like']])).toEqual(all([say['act.like']]));
    expect(await inBothThemes(page)).toEqual(CLEAN);

    await comment(page, ABUSIVE).getByRole('button', { name: say['act.hide'], exact: true }).click();
    await comment(page, ABUSIVE).getByText(say['act.hidden']).waitFor();
    expect(await reachable(comment(page, ABUSIVE), [say['act.unhide']])).toEqual(all([say['act.unhide']]));
    // The reply box and the delete confirmation open too: the widest the controls get.
    await comment(page, QUESTION).locator('summary', { hasText: say['act.reply'] }).click();
    await comment(page, QUESTION).getByRole('textbox').waitFor();
    await comment(page, QUESTION).locator('summary', { hasText: say['act.delete'] }).click();
    await comment(page, QUESTION).getByText(say['act.deleteConfirm']).waitFor();
    const opened = [say['act.send'], say['act.deleteYes']];
    expect(await reachable(comment(page, QUESTION), opened)).toEqual(all(opened));
    expect(await inBothThemes(page)).toEqual(CLEAN);
    // Shown again: the app's cache outlives the emulator's reseeding, and the next test meets the comment as seeded.
    await comment(page, ABUSIVE).getByRole('button', { name: say['act.unhide'], exact: true }).click();
    await comment(page, ABUSIVE).getByRole('button', { name: say['act.hide'], exact: true }).waitFor();
  });

  it('when Facebook refuses a reply, then the "not sent" page keeps the text, within reach, nothing sideways and axe clean in either theme', async () => {
    await openPost();
    const text = lang === 'ar' ? 'نفتح من السابعة صباحًا كل يوم.' : 'From 7 every morning.';
    await stack.control('/fail', { n: 1, failure: { writes: true, error: { code: 368 } } });
    // Without the app's script the reply is a form post, and the refusal a page of its own (axe still runs: the
    // page's own script is served empty rather than scripting turned off).
    const p = browser.page;
    await p.route('**/public/app.js', (route) => route.fulfill({ contentType: 'text/javascript', body: '' }));
    await p.reload();
    const question = comment(p, QUESTION);
    await question.locator('summary', { hasText: say['act.reply'] }).click();
    await question.getByRole('textbox').fill(text);
    await question.getByRole('button', { name: say['act.send'], exact: true }).click();
    await p.getByRole('heading', { name: say['write.title.refused'] }).waitFor();
    await p.getByText(say['write.kept']).waitFor();
    expect(await p.getAttribute('html', 'lang')).toBe(lang);
    expect(await p.getByRole('textbox').inputValue()).toBe(text);
    expect(await reachable(p.locator('main'), [say['act.send']])).toEqual(all([say['act.send']]));
    expect(await inBothThemes(p)).toEqual(CLEAN);
  });
});
