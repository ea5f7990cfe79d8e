import { SEED_IDS } from '@pagelight/graph-emulator';
import { openStream } from '../support/sse';
import { useLivePerson } from '../support/live';
import { LIVE_ENV, useServedStack } from '../support/stack';
import { deliver, feedDelivery } from '../webhooks/deliver';
import { dataOf, findAll, textOf } from '../support/dom';
import { visibleText } from '../support/words';
import { SOURDOUGH } from '../support/posts';

const BAKERY = SEED_IDS.pages.bakery;

/** A comment added at the provider reaches open pages (docs/architecture.md#live-updates). */
describe('comment webhooks and open pages', () => {
  const served = useServedStack({
    env: { ...LIVE_ENV, FB_SCOPES: `${LIVE_ENV.FB_SCOPES} pages_read_user_content`, PAGE_CACHE_TTL: '60' },
  });
  const live = useLivePerson(served);

  it('when the post page is live and a comment is added to its post, then its stream tells which post, with no user content', async () => {
    const page = await (await live.person.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`)).text();
    expect(dataOf(page, 'post')).toBe(SOURDOUGH);
    const events = dataOf(page, 'events');
    const stream = await openStream(served.url, events!, live.person.cookieHeader());
    live.streams.push(stream);
    await stream.received('retry: ');
    const res = await deliver(
      served.url,
      feedDelivery(BAKERY, { item: 'comment', verb: 'add', post_id: SOURDOUGH, message: 'USER TEXT' }),
    );
    expect(res.status).toBe(200);
    await stream.received('event: new-comment');
    expect(stream.text()).toContain(`event: new-comment\ndata: {"postId":"${SOURDOUGH}"}\n\n`);
    expect(stream.text()).not.toContain('USER TEXT');
  });

  it('when the emulator adds a comment and delivers its webhook, then the cached post page shows it at once', async () => {
    await live.person.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`);
    const calls = served.stack.emulator.controls.calls();
    // Warm: served from the cache.
    await live.person.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`);
    expect(served.stack.emulator.controls.calls()).toBe(calls);
    served.stack.emulator.controls.addComment({ postId: SOURDOUGH, message: 'Delivered by webhook' });
    await served.stack.emulator.controls.webhooksIdle();
    const html = await (await live.person.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`)).text();
    expect(visibleText(html)).toContain('Delivered by webhook');
    // The page's counts changed too: its feed was dropped with the post.
    const feed = await (await live.person.get(`/pages/${BAKERY}`)).text();
    expect(findAll(feed, 'span').map(textOf)).toContain('4 comments');
  });

  it('when a comment names a post of another page, or is not an addition, then no new-comment event', async () => {
    const stream = await openStream(served.url, `/pages/${BAKERY}/events`, live.person.cookieHeader());
    live.streams.push(stream);
    await stream.received('retry: ');
    await deliver(
      served.url,
      feedDelivery(
        BAKERY,
        { item: 'comment', verb: 'add', post_id: `${SEED_IDS.pages.cafe}_1` },
        { item: 'comment', verb: 'remove', post_id: SOURDOUGH },
      ),
    );
    await stream.received('event: feed-changed');
    expect(stream.text()).not.toContain('new-comment');
  });
});
