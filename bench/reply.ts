import { MODERATION_IDS } from '@pagelight/graph-emulator';
import { CookieClient } from '../test/support/cookie-client';
import { control } from '../test/support/emulator';
import { realLogin } from '../test/support/login';
import { writeForm } from '../test/support/write-forms';
import { BAKERY, calls, log, startApp, stopChild, type Bench, type Row } from './shared';

/**
 * What a reply costs upstream (docs/architecture.md#writes): exactly one provider call, the write; and the post
 * view right after it is served from the cache except the parts the reply changed (the post's comments and its
 * counts), which are read again once.
 */
export async function replyCost(bench: Bench): Promise<Row[]> {
  log('a reply as the Page and the post view after it (PAGE_CACHE_TTL=60)');
  const app = await startApp(bench, 60, 'reply', {
    FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content pages_manage_engagement',
  });
  try {
    const browser = new CookieClient(bench.appUrl);
    const outcome = await realLogin(bench.appUrl, undefined, BAKERY, browser);
    if (!outcome.ok) throw new Error(`login: ${outcome.step}`);
    const target = `/pages/${BAKERY}/posts/${MODERATION_IDS.demo.postId}`;
    const view = async () => {
      const res = await browser.get(target);
      if (res.status !== 200) throw new Error(`post view: ${res.status}`);
      return res.text();
    };
    // The first view fills the cache and confirms the session's token; the second is served from it.
    await view();
    await control(bench.emulatorUrl, 'DELETE', '/log');
    const html = await view();
    const warm = await calls(bench);
    await control(bench.emulatorUrl, 'DELETE', '/log');
    const form = writeForm(html, 'reply', MODERATION_IDS.demo.postId);
    const sent = await browser.post(form.action, { ...form.values, message: 'Thank you! See you on Saturday.' });
    if (sent.status !== 303) throw new Error(`reply: ${sent.status}`);
    const write = await calls(bench);
    await control(bench.emulatorUrl, 'DELETE', '/log');
    await view();
    const after = await calls(bench);
    const comments = await calls(bench, { path: 'comments' });
    await control(bench.emulatorUrl, 'DELETE', '/log');
    await view();
    const again = await calls(bench);
    return [
      {
        scenario: 'a reply as the Page: provider calls',
        result: `${write} (the warm view before it: ${warm})`,
        target: 'exactly 1',
        pass: write === 1 && warm === 0,
      },
      {
        scenario: 'the post view right after a reply: provider calls',
        result: `${after} (${comments} of them the comments; the view after that: ${again})`,
        target: 'only the changed parts (the comments, the post counts): ≤ 2, then 0',
        pass: after <= 2 && comments === 1 && again === 0,
      },
    ];
  } finally {
    await stopChild(bench, app);
  }
}
