import { SEED_IDS } from '@pagelight/graph-emulator';
import { attr, find, findAll, formTo, headingTexts, linkTo, textOf, type Form } from '../support/dom';
import { connectedAgent } from '../support/flow';
import type { Agent, Stack } from '../support/stack';
import { useStack } from '../support/stack';
import { headline, visibleText } from '../support/words';
import { wordsOutsideCatalogs } from '../support/pseudo';
import { afterAnswer, deliverTo, feedDelivery } from '../webhooks/deliver';
import type { PageEvent } from '../../src/live/bus';
import { formatScheduleTime, localInputValue } from '../../src/pages/schedule-time';

/**
 * The composer (docs/architecture.md#publishing): a manager publishes as the Page — text, a link, a photo, now or
 * later in their own time zone — through the one write path (docs/architecture.md#writes): each post one provider
 * write, refused in words before any call when the form alone says the provider would refuse it, nothing lost.
 */

const BAKERY = SEED_IDS.pages.bakery;
const CAFE = SEED_IDS.pages.cafe;
const SCOPES = 'pages_show_list pages_read_engagement pages_manage_posts';
const PAGE = `/pages/${BAKERY}`;
const ACTION = `${PAGE}/publish`;

/** A 1×1 PNG, the smallest picture the provider takes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** The publishing writes the app made (`POST /{page-id}/feed` or `/photos`), as the emulator logged them. */
function publishes(stack: Stack): string[] {
  return stack.emulator.controls.log
    .filter((e) => e.method === 'POST' && /\/\d+\/(feed|photos)$/.test(e.path))
    .map((e) => e.path);
}

async function pageView(agent: Agent): Promise<string> {
  return (await agent.get(PAGE).expect(200)).text;
}

function composerOf(html: string): Form {
  const form = formTo(html, ACTION);
  if (!form) throw new Error('no composer');
  return form;
}

interface Sent {
  message?: string;
  link?: string;
  when?: 'now' | 'later';
  at?: string;
  zone?: string;
  photo?: { data: Buffer; name: string; type: string };
}

/** Sends the composer as a browser does: multipart, its hidden fields first, then what the person filled in. */
function publish(agent: Agent, form: Form, sent: Sent, action = form.action ?? ACTION) {
  let req = agent
    .post(action)
    .field('_csrf', form.values._csrf ?? '')
    .field('_key', form.values._key ?? '');
  if (form.values.check !== undefined) req = req.field('check', form.values.check);
  req = req.field('message', sent.message ?? '').field('link', sent.link ?? '');
  req = req
    .field('when', sent.when ?? 'now')
    .field('at', sent.at ?? '')
    .field('zone', sent.zone ?? 'UTC');
  return sent.photo
    ? req.attach('source', sent.photo.data, { filename: sent.photo.name, contentType: sent.photo.type })
    : req.attach('source', Buffer.alloc(0), { filename: '', contentType: 'application/octet-stream' });
}

/** The composer a not-sent page offers again, with what it kept. */
function keptComposer(html: string) {
  const form = composerOf(html);
  const box = form.fields.find((f) => f.name === 'message');
  const link = form.fields.find((f) => f.name === 'link');
  return { form, message: box?.value ?? '', link: link?.value ?? '', button: form.buttons[0]?.text ?? '' };
}

/** The post with this id on the Page view: what it reads, undefined when it is not there. */
function postText(html: string, id: string): string | undefined {
  const node = find(html, { id: `post-${id}` });
  return node ? textOf(node) : undefined;
}

const firstPostId = (html: string) => attr(find(find(html, { id: 'feed-posts' })!, { tag: 'li' })!, 'id');

describe('the composer', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES } });

  it('when Ada (every task) opens her Page, then above the posts she may publish as the Page: text, link, photo, now or later in a time zone, with a one-time key', async () => {
    const html = await pageView(await connectedAgent(stack, BAKERY));
    const headings = headingTexts(html, 'h2');
    const composerAt = headings.findIndex((h) => h.startsWith('Publish as '));
    expect(composerAt).toBeGreaterThanOrEqual(0);
    expect(composerAt).toBeLessThan(headings.indexOf('Latest posts'));
    const form = composerOf(html);
    expect(form.method).toBe('post');
    expect(attr(form.node, 'enctype')).toBe('multipart/form-data');
    expect(form.fields.map((f) => [f.name, f.tag === 'input' ? f.type : f.tag])).toEqual(
      expect.arrayContaining([
        ['message', 'textarea'],
        ['link', 'url'],
        ['source', 'file'],
        ['when', 'radio'],
        ['at', 'datetime-local'],
        ['zone', 'select'],
      ]),
    );
    expect(form.fields[0]?.name).toBe('_csrf');
    expect(form.values.when).toBe('now');
    expect(form.values._key).toMatch(/^[\w-]{22}$/);
    const zone = find(form.node, { tag: 'select', attrs: { name: 'zone' } })!;
    expect(findAll(zone, 'option').map(textOf)).toEqual(expect.arrayContaining(['UTC', 'Europe/Berlin', 'Asia/Tokyo']));
    expect(textOf(find(zone, { tag: 'option', attrs: { selected: true } })!)).toBe('UTC');
    expect(visibleText(html)).toContain('Facebook publishes scheduled posts from 10 minutes to 30 days ahead.');
  });

  it('when Ada publishes a text, then one provider write is made, and the Page shows it first with a line saying it is published', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const before = publishes(stack).length;
    const res = await publish(agent, composerOf(await pageView(agent)), { message: 'Fresh rye at 7 ✨' }).expect(303);
    expect(publishes(stack).slice(before)).toEqual([expect.stringMatching(new RegExp(`/${BAKERY}/feed$`))]);
    expect(res.headers.location).toMatch(new RegExp(`^${PAGE}#post-${BAKERY}_\\d+$`));
    const id = res.headers.location!.split('#post-')[1]!;
    const html = await pageView(agent);
    expect(firstPostId(html)).toBe(`post-${id}`);
    expect(postText(html, id)).toContain('Fresh rye at 7 ✨');
    expect(visibleText(html)).toContain('Your post is published.');
  });

  it('when Ada publishes a link, then the post shows the provider’s preview of it, linking there', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const res = await publish(agent, composerOf(await pageView(agent)), {
      message: 'Our new menu',
      link: 'https://menu.example/winter',
    }).expect(303);
    const id = res.headers.location!.split('#post-')[1]!;
    const post = find(await pageView(agent), { id: `post-${id}` })!;
    expect(textOf(post)).toContain('menu.example');
    expect(linkTo(post, /menu\.example/)?.href).toBe('https://menu.example/winter');
  });

  it('when Ada publishes a photo with a caption, then it goes to the Page’s photos as one multipart upload, and the post shows the picture', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const before = publishes(stack).length;
    const res = await publish(agent, composerOf(await pageView(agent)), {
      message: 'The oven, at dawn',
      photo: { data: PNG, name: 'oven.png', type: 'image/png' },
    }).expect(303);
    expect(publishes(stack).slice(before)).toEqual([expect.stringMatching(new RegExp(`/${BAKERY}/photos$`))]);
    const id = res.headers.location!.split('#post-')[1]!;
    const post = find(await pageView(agent), { id: `post-${id}` })!;
    expect(textOf(post)).toContain('The oven, at dawn');
    expect(findAll(post, 'img').length).toBeGreaterThan(0);
  });

  it('when Ada schedules a post for a wall-clock time in Berlin, then the provider holds it for that instant, she reads the time back in Berlin, and the composer keeps her zone', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const at = Math.floor((Date.now() + 2 * 86_400_000) / 60_000) * 60_000;
    const local = localInputValue(at, 'Europe/Berlin');
    const res = await publish(agent, composerOf(await pageView(agent)), {
      message: 'Christmas stollen, pre-order now',
      when: 'later',
      at: local,
      zone: 'Europe/Berlin',
    }).expect(303);
    expect(res.headers.location).toBe(PAGE);
    const html = await pageView(agent);
    expect(visibleText(html)).toContain(
      `Your post is scheduled for ${formatScheduleTime(at, 'Europe/Berlin', 'en-GB')}.`,
    );
    const scheduled = stack.emulator.controls.snapshot().pages.find((p) => p.id === BAKERY)!.scheduled ?? [];
    const post = scheduled.find((p) => p.message === 'Christmas stollen, pre-order now');
    expect(post?.scheduled_publish_time).toBe(at / 1000);
    // Not in the feed before its time.
    expect(visibleText(html)).not.toContain('Christmas stollen');
    const zone = find(composerOf(html).node, { tag: 'select', attrs: { name: 'zone' } })!;
    expect(textOf(find(zone, { tag: 'option', attrs: { selected: true } })!)).toBe('Europe/Berlin');
    expect(attr(zone, 'data-guess-zone')).toBeUndefined();
  });
});

describe('a scheduled post, read after write', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES, PAGE_CACHE_TTL: '60' } });

  it('when Ada schedules a post while the scheduled posts are cached, then the Page links to it and the list shows it', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    // The page view reads (and caches) the scheduled posts for its "N scheduled posts" line: none yet.
    const html = await pageView(agent);
    expect(linkTo(html, /scheduled posts?$/)).toBeUndefined();
    const at = Math.floor((Date.now() + 3 * 86_400_000) / 60_000) * 60_000;
    await publish(agent, composerOf(html), {
      message: 'Advent loaves, from the first Sunday',
      when: 'later',
      at: localInputValue(at, 'UTC'),
    }).expect(303);
    const link = linkTo(await pageView(agent), /scheduled posts?$/);
    expect(link?.text).toBe('1 scheduled post');
    expect(visibleText((await agent.get(link!.href).expect(200)).text)).toContain(
      'Advent loaves, from the first Sunday',
    );
  });
});

describe('what the form alone says the provider would refuse: words before any provider call, the text kept', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES } });

  async function refused(sent: Sent, words: string) {
    const agent = await connectedAgent(stack, BAKERY);
    const form = composerOf(await pageView(agent));
    const before = publishes(stack).length;
    const res = await publish(agent, form, sent).expect(422);
    expect(publishes(stack).length).toBe(before);
    expect(headline(res.text)).toBe("This didn't go through");
    expect(visibleText(res.text)).toContain(words);
    const kept = keptComposer(res.text);
    // As typed, but for the spaces around it.
    expect(kept.message).toBe((sent.message ?? '').trim());
    expect(kept.link).toBe(sent.link ?? '');
    expect(kept.form.values._key).not.toBe(form.values._key);
    return { agent, res, kept };
  }

  it('when the time is 5 minutes ahead, then it says the earliest time in her zone', async () => {
    const at = localInputValue(Date.now() + 5 * 60_000, 'Asia/Tokyo');
    const { res, kept } = await refused(
      { message: 'Too soon\nsecond line', when: 'later', at, zone: 'Asia/Tokyo' },
      'Facebook schedules posts at least 10 minutes ahead: choose ',
    );
    expect(visibleText(res.text)).toMatch(/GMT\+9|JST/);
    expect(kept.form.values.when).toBe('later');
    expect(kept.form.fields.find((f) => f.name === 'at')?.value).toBe(at);
  });

  it('when the time is 40 days ahead, then it says the latest time', async () => {
    const at = localInputValue(Date.now() + 40 * 86_400_000, 'UTC');
    await refused(
      { message: 'Too late', when: 'later', at, zone: 'UTC' },
      'Facebook schedules posts at most 30 days ahead: choose ',
    );
  });

  it('when no time is given for later, then it asks for one', async () => {
    await refused({ message: 'When?', when: 'later', at: '' }, 'Choose the date and the time to publish at.');
  });

  // Just over the provider's limit, and a phone camera's 12 MB: both come back with the text kept and the limit said.
  it.each([
    ['just over 4 MB', 4 * 1024 * 1024],
    ['a phone camera’s 12 MB', 12 * 1024 * 1024],
  ])(
    'when the photo is %s, then the text is kept, it says the limit, and to choose the photo again',
    async (_, size) => {
      const big = Buffer.concat([PNG, Buffer.alloc(size)]);
      const { res } = await refused(
        { message: 'Big one', photo: { data: big, name: 'IMG_0001.png', type: 'image/png' } },
        'The photo is larger than 4 MB',
      );
      expect(visibleText(res.text)).toContain('Choose the photo again');
    },
  );

  it('when the file is no picture whatever its name and declared type, then it says which pictures are taken', async () => {
    await refused(
      { message: 'Not a photo', photo: { data: Buffer.from('%PDF-1.7 …'), name: 'menu.jpg', type: 'image/jpeg' } },
      "That file isn't a JPEG, PNG, GIF or WebP picture.",
    );
  });

  it('when the link is no web address, or comes with a photo, or there is nothing at all, then it says so', async () => {
    await refused({ message: 'See', link: 'javascript:alert(1)' }, 'The link must be a web address');
    await refused(
      { message: 'Both', link: 'https://a.example/', photo: { data: PNG, name: 'a.png', type: 'image/png' } },
      'A post can have a link or a photo, not both',
    );
    await refused({ message: '   ' }, 'There is nothing to publish yet');
  });
});

describe('who may publish', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES } });

  it('when Joan, whose role has no task that creates content, opens the Page, then there is no composer, and her forged form gets 403 with no provider call', async () => {
    const joan = await connectedAgent(stack, BAKERY, { user: SEED_IDS.users.clarke });
    const html = await pageView(joan);
    expect(formTo(html, ACTION)).toBeUndefined();
    expect(visibleText(html)).not.toContain('Publish as');
    const ada = composerOf(await pageView(await connectedAgent(stack, BAKERY)));
    const csrf = formTo((await joan.get('/pages').expect(200)).text, '/auth/logout')!.values._csrf!;
    const before = publishes(stack).length;
    await publish(joan, { ...ada, values: { ...ada.values, _csrf: csrf } }, { message: 'Forged' }).expect(403);
    expect(publishes(stack).length).toBe(before);
  });

  it('when a forged form names another Page the session holds no token for, then 403 and no provider call', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = composerOf(await pageView(agent));
    const before = publishes(stack).length;
    const res = await publish(agent, form, { message: 'Elsewhere' }, `/pages/${CAFE}/publish`).expect(403);
    expect(visibleText(res.text)).toContain('nothing was sent');
    expect(publishes(stack).length).toBe(before);
  });

  it('when the form has no CSRF token, or its file comes before the token, then 403 and no provider call', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = composerOf(await pageView(agent));
    const before = publishes(stack).length;
    await publish(agent, { ...form, values: { ...form.values, _csrf: 'forged' } }, { message: 'x' }).expect(403);
    await agent
      .post(ACTION)
      .attach('source', PNG, { filename: 'a.png', contentType: 'image/png' })
      .field('_csrf', form.values._csrf!)
      .field('_key', form.values._key!)
      .field('message', 'late token')
      .expect(403);
    expect(publishes(stack).length).toBe(before);
  });

  it('when the form is malformed (a field sent twice, no one-time key, a body cut short), then 400 in words and no provider call', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = composerOf(await pageView(agent));
    const before = publishes(stack).length;
    const unclear = 'Pagelight could not understand what your browser sent.';
    const twice = await publish(agent, form, { message: 'one' }).field('message', 'two').expect(400);
    expect(visibleText(twice.text)).toContain(unclear);
    const keyless = await agent.post(ACTION).field('_csrf', form.values._csrf!).field('message', 'no key').expect(400);
    expect(visibleText(keyless.text)).toContain(unclear);
    const cut = await agent
      .post(ACTION)
      .set('content-type', 'multipart/form-data; boundary=xyz')
      .send(
        `--xyz\r\ncontent-disposition: form-data; name="_csrf"\r\n\r\n${form.values._csrf!}\r\n--xyz\r\ncontent-disp`,
      )
      .expect(400);
    expect(visibleText(cut.text)).toContain(unclear);
    expect(publishes(stack).length).toBe(before);
  });

  it('when Ada declined pages_manage_posts, then one line says how to allow it, with Ask again back to the Page', async () => {
    const agent = await connectedAgent(stack, BAKERY, { decline: ['pages_manage_posts'] });
    const html = await pageView(agent);
    expect(formTo(html, ACTION)).toBeUndefined();
    expect(visibleText(html)).toContain(
      'To publish from here, allow “Publish and manage posts on your Page” on Facebook.',
    );
    const ask = linkTo(find(html, { class: 'composer' })!, 'Ask again');
    expect(ask?.href).toBe(`/auth/login?rerequest=1&return_to=${encodeURIComponent(PAGE)}`);
  });
});

describe('when the app does not ask for pages_manage_posts', () => {
  const stack = useStack({ env: { FB_SCOPES: 'pages_show_list pages_read_engagement' } });

  it('then the Page offers no composer and says nothing about publishing', async () => {
    const html = await pageView(await connectedAgent(stack, BAKERY));
    expect(formTo(html, ACTION)).toBeUndefined();
    expect(visibleText(html)).not.toContain('publish');
  });
});

describe('one post per intent', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES } });

  it('when the same form is sent twice at once (a double click), and again later, then one post is made and every answer leads to it', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = composerOf(await pageView(agent));
    const before = publishes(stack).length;
    const sent = { message: 'Only once, please' };
    const [a, b] = await Promise.all([publish(agent, form, sent), publish(agent, form, sent)]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(a.headers.location).toBe(b.headers.location);
    const again = await publish(agent, form, sent).expect(303);
    expect(again.headers.location).toBe(a.headers.location);
    expect(publishes(stack).length - before).toBe(1);
    expect(visibleText(await pageView(agent)).split('Only once, please').length - 1).toBe(1);
  });
});

describe('when a publish gets no answer in time', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES }, timeoutMs: 400 });

  it('and it happened, then the text is kept, the form offers to check with the same key, and checking finds it by reading: one post in all', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = composerOf(await pageView(agent));
    stack.emulator.controls.failNext(1, { kind: 'late', ms: 1500, writes: true });
    const before = publishes(stack).length;
    const res = await publish(agent, form, { message: 'Did this arrive?' }).expect(504);
    expect(headline(res.text)).toBe('No answer from Facebook in time');
    const kept = keptComposer(res.text);
    expect(kept.message).toBe('Did this arrive?');
    expect(kept.form.values._key).toBe(form.values._key);
    expect(kept.button).toBe('Check whether it arrived');
    const checked = await publish(agent, kept.form, { message: kept.message }).expect(303);
    expect(checked.headers.location).toMatch(new RegExp(`^${PAGE}#post-${BAKERY}_\\d+$`));
    expect(publishes(stack).length - before).toBe(1);
    expect(visibleText(await pageView(agent)).split('Did this arrive?').length - 1).toBe(1);
  });

  it('and it did not happen, then checking says so and offers to send again with a new key: one post in all', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = composerOf(await pageView(agent));
    stack.emulator.controls.failNext(1, { kind: 'hang', writes: true });
    const res = await publish(agent, form, { message: 'Lost on the way?' }).expect(504);
    const checked = await publish(agent, keptComposer(res.text).form, { message: 'Lost on the way?' }).expect(409);
    expect(headline(checked.text)).toBe("It didn't arrive");
    const again = keptComposer(checked.text);
    expect(again.message).toBe('Lost on the way?');
    expect(again.form.values._key).not.toBe(form.values._key);
    expect(again.button).toBe('Send again');
    const before = publishes(stack).length;
    await publish(agent, again.form, { message: again.message }).expect(303);
    expect(publishes(stack).length - before).toBe(1);
    expect(visibleText(await pageView(agent)).split('Lost on the way?').length - 1).toBe(1);
  });

  it('and it was a photo without text, then the check asks for no photo again, reads, and finds it: one photo post in all', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = composerOf(await pageView(agent));
    stack.emulator.controls.failNext(1, { kind: 'late', ms: 1500, writes: true });
    const before = publishes(stack).length;
    const res = await publish(agent, form, { photo: { data: PNG, name: 'dawn.png', type: 'image/png' } }).expect(504);
    expect(visibleText(res.text)).not.toContain('Choose the photo again');
    const kept = keptComposer(res.text);
    expect(kept.button).toBe('Check whether it arrived');
    const checked = await publish(agent, kept.form, {}).expect(303);
    expect(checked.headers.location).toMatch(new RegExp(`^${PAGE}#post-${BAKERY}_\\d+$`));
    expect(publishes(stack).length - before).toBe(1);
  });

  it('when the provider refuses it, then its words are the reason and the text is kept', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.failNext(1, { writes: true, error: { code: 368 } });
    const res = await publish(agent, composerOf(await pageView(agent)), { message: 'Blocked?' }).expect(403);
    expect(visibleText(res.text)).toContain('Facebook has temporarily blocked this');
    expect(keptComposer(res.text).message).toBe('Blocked?');
  });

  it('when the provider finds a parameter invalid, then it says the post was not taken as it is (not that something is gone), the text kept', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.failNext(1, { writes: true, error: { code: 100 } });
    const res = await publish(agent, composerOf(await pageView(agent)), { message: 'Odd?' }).expect(422);
    expect(visibleText(res.text)).toContain("Facebook didn't take this post as it is.");
    expect(visibleText(res.text)).not.toContain('no longer on Facebook');
    expect(keptComposer(res.text).message).toBe('Odd?');
  });
});

describe('read after write, and the provider’s webhook for the same post', () => {
  const stack = useStack({
    env: { FB_SCOPES: SCOPES, FB_WEBHOOK_VERIFY_TOKEN: 'verify-token-0001', PAGE_CACHE_TTL: '60' },
  });

  function webhook(agent: Agent, postId: string) {
    return deliverTo(agent, feedDelivery(BAKERY, { item: 'status', verb: 'add', post_id: postId }));
  }

  it('when Ada publishes while the feed is cached, then her next view reads it again and shows the post first; open pages are told once, naming it, and the webhook for it tells nothing new', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    await pageView(agent);
    const heard: PageEvent[] = [];
    const unsubscribe = stack.events.subscribe(BAKERY, (e) => heard.push(e));
    try {
      const res = await publish(agent, composerOf(await pageView(agent)), { message: 'Told once' }).expect(303);
      const id = res.headers.location!.split('#post-')[1]!;
      expect(heard).toEqual([{ kind: 'new-posts', count: 1, postId: id }]);
      expect(firstPostId(await pageView(agent))).toBe(`post-${id}`);
      await webhook(agent, id);
      await afterAnswer();
      expect(heard).toHaveLength(1);
      await webhook(agent, `${BAKERY}_999999`);
      await afterAnswer();
      expect(heard).toEqual([
        { kind: 'new-posts', count: 1, postId: id },
        { kind: 'new-posts', count: 1 },
      ]);
    } finally {
      unsubscribe();
    }
  });
});

describe('the composer in every language', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES }, pseudoLocale: true });

  it('when Ada reads the Page and a refusal in the pseudo-locale, then every word of the composer is from a catalog', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    await agent.get('/language?lang=en-XA').expect(303);
    const html = await pageView(agent);
    expect(wordsOutsideCatalogs(html)).toEqual([]);
    const at = localInputValue(Date.now() + 60 * 86_400_000, 'Europe/Paris');
    const res = await publish(agent, composerOf(html), { message: 'x', when: 'later', at, zone: 'Europe/Paris' });
    expect(res.status).toBe(422);
    expect(wordsOutsideCatalogs(res.text)).toEqual([]);
  });

  it('when Ada reads the Page in Arabic, then the composer speaks Arabic, right to left, while its time and zone read left to right', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    await agent.get('/language?lang=ar').expect(303);
    const html = await pageView(agent);
    expect(attr(find(html, 'html')!, 'dir')).toBe('rtl');
    const form = composerOf(html);
    expect(form.buttons[0]?.text).toBe('نشر');
    for (const name of ['at', 'zone', 'link'])
      expect(attr(form.fields.find((f) => f.name === name)!.node, 'dir')).toBe('ltr');
  });
});
