import { MODERATION_IDS, SEED_IDS } from '@pagelight/graph-emulator';
import { CookieClient } from '../support/cookie-client';
import { realLogin } from '../support/login';
import { openStream, type EventStream } from '../support/sse';
import { eventually } from '../support/wait';
import { startServedStack, type Stack } from '../support/stack';
import { dataOf, formTo } from '../support/dom';
import { writeForm } from '../support/write-forms';

const BAKERY = SEED_IDS.pages.bakery;
const { postId: POST } = MODERATION_IDS.test;
const VERIFY = 'verify-token-for-tests-0002';

/**
 * A change this app wrote reaches every open page once (docs/architecture.md#live-updates): its event names what it
 * made, so the tab that made it (which shows it already) tells nothing, and the provider's webhook for the same
 * change tells nothing new.
 */
describe('the events of this app’s own writes', () => {
  let served: { stack: Stack; url: string; close(): Promise<void> };
  let person: CookieClient;
  const streams: EventStream[] = [];

  beforeAll(async () => {
    served = await startServedStack({
      env: {
        FB_WEBHOOK_VERIFY_TOKEN: VERIFY,
        FB_SCOPES:
          'pages_show_list pages_read_engagement pages_manage_metadata pages_read_user_content pages_manage_engagement pages_manage_posts',
      },
    });
    const verified = await served.stack.emulator.controls.setWebhook('', {
      url: `${served.url}/webhooks/facebook`,
      verifyToken: VERIFY,
    });
    expect(verified).toBe(true);
    person = new CookieClient(served.url);
    expect((await realLogin(served.url, undefined, BAKERY, person)).ok).toBe(true);
  });
  afterEach(async () => {
    for (const s of streams.splice(0)) s.close();
    await eventually(() => served.stack.streams.size === 0);
  });
  afterAll(() => served.close());

  async function streamOf(path: string): Promise<{ html: string; stream: EventStream }> {
    const html = await (await person.get(path)).text();
    const stream = await openStream(served.url, dataOf(html, 'events')!, person.cookieHeader());
    streams.push(stream);
    await stream.received('retry: ');
    return { html, stream };
  }

  const count = (text: string, what: string) => text.split(what).length - 1;

  /** The provider delivered its webhook for `id` to this app, and the app took it. */
  const deliveredAbout = (id: string) =>
    served.stack.emulator.controls
      .webhookDeliveries()
      .some((d) => d.kind === 'event' && d.state === 'delivered' && d.body.includes(id));

  it('when a reply is posted, then the post page’s stream names the new comment once, the provider’s webhook for it adding nothing', async () => {
    const { html, stream } = await streamOf(`/pages/${BAKERY}/posts/${POST}`);
    const form = writeForm(html, 'reply', POST);
    const res = await person.post(form.action, { ...form.values, message: 'Named in the event' });
    expect(res.status).toBe(303);
    const id = res.headers.get('location')!.split('#comment-')[1]!;
    await stream.received(`"commentId":"${id}"`);
    await served.stack.emulator.controls.webhooksIdle();
    expect(deliveredAbout(id)).toBe(true);
    expect(stream.text()).toContain(`event: new-comment\ndata: {"postId":"${POST}","commentId":"${id}"}\n\n`);
    expect(count(stream.text(), 'event: new-comment')).toBe(1);
  });

  it('when a post is published, then the Page’s stream names it once, the provider’s webhook for it adding nothing', async () => {
    const { html, stream } = await streamOf(`/pages/${BAKERY}`);
    const composer = formTo(html, `/pages/${BAKERY}/publish`)!;
    const body = new FormData();
    body.append('_csrf', composer.values._csrf!);
    body.append('_key', composer.values._key!);
    body.append('message', 'Named in the event too');
    const res = await fetch(new URL(composer.action!, served.url), {
      method: 'POST',
      body,
      headers: { cookie: person.cookieHeader() },
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    const id = res.headers.get('location')!.split('#post-')[1]!;
    await stream.received(`"postId":"${id}"`);
    await served.stack.emulator.controls.webhooksIdle();
    expect(deliveredAbout(id)).toBe(true);
    expect(stream.text()).toContain(`event: new-posts\ndata: {"count":1,"postId":"${id}"}\n\n`);
    expect(count(stream.text(), 'event: new-posts')).toBe(1);
  });
});
