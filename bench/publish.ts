import { CookieClient } from '../test/support/cookie-client';
import { control } from '../test/support/emulator';
import { formTo } from '../test/support/dom';
import { realLogin } from '../test/support/login';
import { BAKERY, calls, log, startApp, stopChild, type Bench, type Row } from './shared';

/**
 * What publishing a text costs upstream (docs/architecture.md#publishing): exactly one provider write,
 * `POST /{page-id}/feed`, which asks for the post's state on the write itself (read-after-write), so at most one
 * read besides should a provider answer with the id alone; and the Page view right after it is served from the
 * cache except its feed, the one part a new post changes, read again once.
 */
export async function publishCost(bench: Bench): Promise<Row[]> {
  log('a text published as the Page and the Page view after it (PAGE_CACHE_TTL=60)');
  const app = await startApp(bench, 60, 'publish', {
    FB_SCOPES: 'pages_show_list pages_read_engagement pages_manage_posts',
  });
  try {
    const browser = new CookieClient(bench.appUrl);
    const outcome = await realLogin(bench.appUrl, undefined, BAKERY, browser);
    if (!outcome.ok) throw new Error(`login: ${outcome.step}`);
    const target = `/pages/${BAKERY}`;
    const view = async () => {
      const res = await browser.get(target);
      if (res.status !== 200) throw new Error(`page view: ${res.status}`);
      return res.text();
    };
    // The first view fills the cache and confirms the session's token; the second is served from it.
    await view();
    await control(bench.emulatorUrl, 'DELETE', '/log');
    const html = await view();
    const warm = await calls(bench);
    await control(bench.emulatorUrl, 'DELETE', '/log');
    const form = formTo(html, `${target}/publish`);
    if (!form) throw new Error('page view: no composer');
    // As a browser sends the composer with no file chosen: its hidden fields first, then the text, now.
    const sent = await browser.postMultipart(form.action ?? '', {
      _csrf: form.values._csrf ?? '',
      _key: form.values._key ?? '',
      message: 'Fresh rye at 7, while it lasts.',
      when: 'now',
      zone: 'UTC',
    });
    if (sent.status !== 303) throw new Error(`publish: ${sent.status}`);
    const all = await calls(bench);
    const writes = await calls(bench, { method: 'POST' });
    await control(bench.emulatorUrl, 'DELETE', '/log');
    await view();
    const after = await calls(bench);
    const feed = await calls(bench, { path: 'feed' });
    await control(bench.emulatorUrl, 'DELETE', '/log');
    await view();
    const again = await calls(bench);
    const reads = all - writes;
    return [
      {
        scenario: 'a text published as the Page: provider calls',
        result: `${writes} write, ${reads} reads (the warm view before it: ${warm})`,
        target: 'exactly 1 write; ≤ 1 read (none with read-after-write)',
        pass: writes === 1 && reads <= 1 && warm === 0,
      },
      {
        scenario: 'the Page view right after publishing: provider calls',
        result: `${after} (${feed} of them the feed; the view after that: ${again})`,
        target: 'only the changed part (the feed): 1, then 0',
        pass: after === 1 && feed === 1 && again === 0,
      },
    ];
  } finally {
    await stopChild(bench, app);
  }
}
