import { formTo } from '../test/support/dom';
import { BAKERY, log, type Bench, type Row } from './shared';
import { writeCalls } from './write-cost';

/**
 * What publishing a text costs upstream (docs/architecture.md#publishing): exactly one provider write,
 * `POST /{page-id}/feed`, which asks for the post's state on the write itself (read-after-write), so at most one
 * read besides should a provider answer with the id alone; and the Page view right after it is served from the
 * cache except its feed, the one part a new post changes, read again once.
 */
export async function publishCost(bench: Bench): Promise<Row[]> {
  log('a text published as the Page and the Page view after it (PAGE_CACHE_TTL=60)');
  const target = `/pages/${BAKERY}`;
  const { warm, write, after, again } = await writeCalls(bench, {
    name: 'publish',
    scopes: 'pages_show_list pages_read_engagement pages_manage_posts',
    target,
    changed: 'feed',
    send(browser, html) {
      const form = formTo(html, `${target}/publish`);
      if (!form) throw new Error('page view: no composer');
      // As a browser sends the composer with no file chosen: its hidden fields first, then the text, now.
      return browser.postMultipart(form.action ?? '', {
        _csrf: form.values._csrf ?? '',
        _key: form.values._key ?? '',
        message: 'Fresh rye at 7, while it lasts.',
        when: 'now',
        zone: 'UTC',
      });
    },
  });
  const reads = write.all - write.writes;
  return [
    {
      scenario: 'a text published as the Page: provider calls',
      result: `${write.writes} write, ${reads} reads (the warm view before it: ${warm})`,
      target: 'exactly 1 write; ≤ 1 read (none with read-after-write)',
      pass: write.writes === 1 && reads <= 1 && warm === 0,
    },
    {
      scenario: 'the Page view right after publishing: provider calls',
      result: `${after.all} (${after.changed} of them the feed; the view after that: ${again})`,
      target: 'only the changed part (the feed): 1, then 0',
      pass: after.all === 1 && after.changed === 1 && again === 0,
    },
  ];
}
