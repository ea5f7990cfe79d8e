import { MODERATION_IDS } from '@pagelight/graph-emulator';
import { writeForm } from '../test/support/write-forms';
import { BAKERY, log, type Bench, type Row } from './shared';
import { writeCalls } from './write-cost';

/**
 * What a reply costs upstream (docs/architecture.md#writes): exactly one provider call, the write; and the post
 * view right after it is served from the cache except the parts the reply changed (the post's comments and its
 * counts), which are read again once.
 */
export async function replyCost(bench: Bench): Promise<Row[]> {
  log('a reply as the Page and the post view after it (PAGE_CACHE_TTL=60)');
  const postId = MODERATION_IDS.demo.postId;
  const { warm, write, after, again } = await writeCalls(bench, {
    name: 'reply',
    scopes: 'pages_show_list pages_read_engagement pages_read_user_content pages_manage_engagement',
    target: `/pages/${BAKERY}/posts/${postId}`,
    changed: 'comments',
    send(browser, html) {
      const form = writeForm(html, 'reply', postId);
      return browser.post(form.action, { ...form.values, message: 'Thank you! See you on Saturday.' });
    },
  });
  return [
    {
      scenario: 'a reply as the Page: provider calls',
      result: `${write.all} (the warm view before it: ${warm})`,
      target: 'exactly 1',
      pass: write.all === 1 && warm === 0,
    },
    {
      scenario: 'the post view right after a reply: provider calls',
      result: `${after.all} (${after.changed} of them the comments; the view after that: ${again})`,
      target: 'only the changed parts (the comments, the post counts): ≤ 2, then 0',
      pass: after.all <= 2 && after.changed === 1 && again === 0,
    },
  ];
}
