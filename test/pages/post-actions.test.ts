import { SEED_IDS, TEST_SEED } from '@pagelight/graph-emulator';
import { attr, csrfToken, find, findAll, linkTo, textOf } from '../support/dom';
import { sendForm as send, writeForm as formFor, writeForms, type WriteForm } from '../support/write-forms';
import { connectedAgent, postIds } from '../support/flow';
import type { Agent, Stack } from '../support/stack';
import { useStack } from '../support/stack';
import { headline, visibleText } from '../support/words';
import { afterAnswer, feedDelivery, signed } from '../webhooks/deliver';
import type { PageEvent } from '../../src/live/bus';
import { localInputValue } from '../../src/pages/schedule-time';

/**
 * Managers manage the Page's posts (docs/architecture.md#post-management) on the one write path
 * (docs/architecture.md#writes): its scheduled posts moved, published now or cancelled; its own posts edited or
 * deleted; each one provider write, authorized before it, nothing the person typed lost.
 */

const BAKERY = SEED_IDS.pages.bakery;
const CAFE = SEED_IDS.pages.cafe;
const OWN_POST = TEST_SEED.pages.find((p) => p.id === BAKERY)!.feed[0]!.id;
const CAFE_POST = TEST_SEED.pages.find((p) => p.id === CAFE)!.feed[0]!.id;
const SCOPES = 'pages_show_list pages_read_engagement pages_manage_posts';
const DAY = 86_400_000;
const scheduledPage = `/pages/${BAKERY}/scheduled`;
const postPage = (id: string) => `/pages/${BAKERY}/posts/${id}`;

/** The post writes the app made (`POST`/`DELETE /{post-id}`), as the emulator logged them. */
function postWrites(stack: Stack): { method: string; path: string }[] {
  return stack.emulator.controls.log.filter(
    (e) => (e.method === 'POST' || e.method === 'DELETE') && /^\/v\d+\.\d+\/\d+_\d+$/.test(e.path),
  );
}

/** A post the Page scheduled `aheadMs` from now, made on the provider as Facebook's own composer would. */
async function schedulePost(stack: Stack, message: string, aheadMs = 2 * DAY): Promise<string> {
  const { access_token: token } = stack.emulator.controls.issueToken({ userId: SEED_IDS.users.ada, pageId: BAKERY });
  const body = new URLSearchParams({
    message,
    published: 'false',
    scheduled_publish_time: String(Math.floor((Date.now() + aheadMs) / 1000)),
    access_token: token,
  });
  const res = await fetch(`${stack.emulator.url}/${stack.config.apiVersion}/${BAKERY}/feed`, { method: 'POST', body });
  const { id } = (await res.json()) as { id: string };
  return id;
}

async function view(agent: Agent, path: string): Promise<string> {
  return (await agent.get(path).expect(200)).text;
}

/** A form of `what` for `postId`, with its time fields set to `at` in UTC. */
function rescheduled(form: WriteForm, at: number): WriteForm {
  return { ...form, values: { ...form.values, when: localInputValue(at, 'UTC'), zone: 'UTC' } };
}

/** The scheduled post's article on the scheduled posts' page. */
function scheduledEntry(html: string, id: string) {
  return find(html, { id: `scheduled-${id}` });
}

describe('the scheduled posts', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES } });

  it('when the Page has a post scheduled, then the page view links to "1 scheduled post", whose page lists it with its time, Reschedule, Publish now and a Cancel that asks first', async () => {
    const id = await schedulePost(stack, 'Saturday bread class');
    const agent = await connectedAgent(stack, BAKERY);
    const link = linkTo(await view(agent, `/pages/${BAKERY}`), '1 scheduled post');
    expect(link?.href).toBe(scheduledPage);
    const html = await view(agent, scheduledPage);
    const entry = scheduledEntry(html, id)!;
    expect(visibleText(html)).toContain('Saturday bread class');
    const time = findAll(entry, 'time')[0]!;
    expect(Date.parse(attr(time, 'datetime')!)).toBeGreaterThan(Date.now() + DAY);
    expect(writeForms(entry).map((f) => f.values.do)).toEqual(['publish-now', 'reschedule', 'cancel']);
    const cancel = find(entry, { tag: 'details', attrs: { class: 'act-delete' } })!;
    expect(textOf(cancel)).toContain("Cancel this scheduled post? It is deleted and won't be published.");
    expect(formFor(cancel, 'cancel', id).button).toBe('Cancel the post');
  });

  it('when Ada moves a scheduled post to another time, then one provider write is made and the list shows the new time', async () => {
    const id = await schedulePost(stack, 'Moved class');
    const agent = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(agent, scheduledPage), 'reschedule', id);
    const at = Math.floor((Date.now() + 5 * DAY) / 60_000) * 60_000;
    const before = postWrites(stack).length;
    const res = await send(agent, rescheduled(form, at)).expect(303);
    expect(res.headers.location).toBe(scheduledPage);
    expect(postWrites(stack).length - before).toBe(1);
    const html = await view(agent, scheduledPage);
    expect(attr(findAll(scheduledEntry(html, id)!, 'time')[0]!, 'datetime')).toBe(new Date(at).toISOString());
    expect(visibleText(html)).toContain('The post is moved to its new time.');
  });

  it('when Ada moves a post to a time in her own zone, then the list reads its times in that zone from then on', async () => {
    const id = await schedulePost(stack, 'Berlin time');
    const agent = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(agent, scheduledPage), 'reschedule', id);
    const at = Math.floor((Date.now() + 3 * DAY) / 60_000) * 60_000;
    const berlin = {
      ...form,
      values: { ...form.values, when: localInputValue(at, 'Europe/Berlin'), zone: 'Europe/Berlin' },
    };
    await send(agent, berlin).expect(303);
    const again = formFor(await view(agent, scheduledPage), 'reschedule', id);
    expect(again.values.zone).toBe('Europe/Berlin');
    expect(again.values.when).toBe(localInputValue(at, 'Europe/Berlin'));
  });

  it('when the new time is outside the provider’s window, then it is refused in words before any provider call, the time kept in the form', async () => {
    const id = await schedulePost(stack, 'Too soon');
    const agent = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(agent, scheduledPage), 'reschedule', id);
    const before = postWrites(stack).length;
    const soon = rescheduled(form, Date.now() + 5 * 60_000);
    const res = await send(agent, soon).expect(422);
    expect(postWrites(stack).length).toBe(before);
    expect(headline(res.text)).toBe("This didn't go through");
    expect(visibleText(res.text)).toContain('Facebook schedules posts at least 10 minutes ahead');
    const kept = formFor(res.text, 'reschedule', id);
    expect(kept.values.when).toBe(soon.values.when);
    expect(kept.values.zone).toBe('UTC');
    const late = await send(agent, rescheduled(kept, Date.now() + 40 * DAY)).expect(422);
    expect(visibleText(late.text)).toContain('Facebook schedules posts at most 30 days ahead');
    expect(postWrites(stack).length).toBe(before);
  });

  it('when Ada publishes a scheduled post now, then it is first in the Page’s feed and no longer scheduled', async () => {
    const id = await schedulePost(stack, 'Fresh now');
    const agent = await connectedAgent(stack, BAKERY);
    const res = await send(agent, formFor(await view(agent, scheduledPage), 'publish-now', id)).expect(303);
    expect(res.headers.location).toBe(`/pages/${BAKERY}`);
    const page = await view(agent, `/pages/${BAKERY}`);
    expect(postIds(page)[0]).toBe(id);
    expect(visibleText(page)).toContain('The post is published.');
    expect(scheduledEntry(await view(agent, scheduledPage), id)).toBeUndefined();
  });

  it('when Ada cancels a scheduled post, then it is deleted on the provider and gone from the list', async () => {
    const id = await schedulePost(stack, 'Not after all');
    const agent = await connectedAgent(stack, BAKERY);
    const before = postWrites(stack).length;
    await send(agent, formFor(await view(agent, scheduledPage), 'cancel', id)).expect(303);
    expect(postWrites(stack).slice(before)).toEqual([expect.objectContaining({ method: 'DELETE' })]);
    const html = await view(agent, scheduledPage);
    expect(scheduledEntry(html, id)).toBeUndefined();
    expect(visibleText(html)).toContain('The scheduled post is cancelled.');
  });

  it('when the same Publish now form is sent twice at once (a double click), then one provider write is made and both lead to the Page', async () => {
    const id = await schedulePost(stack, 'Twice clicked');
    const agent = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(agent, scheduledPage), 'publish-now', id);
    const before = postWrites(stack).length;
    const [a, b] = await Promise.all([send(agent, form), send(agent, form)]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(postWrites(stack).length - before).toBe(1);
  });
});

describe('when Publish now gets no answer in time', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES }, timeoutMs: 400 });

  it('then the form offers to check with the same key, and checking finds it published by reading: one write in all', async () => {
    const id = await schedulePost(stack, 'Late answer');
    const agent = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(agent, scheduledPage), 'publish-now', id);
    stack.emulator.controls.failNext(1, { kind: 'late', ms: 1500, writes: true });
    const before = postWrites(stack).length;
    const res = await send(agent, form).expect(504);
    expect(headline(res.text)).toBe('No answer from Facebook in time');
    const kept = formFor(res.text, 'publish-now', id);
    expect(kept.values._key).toBe(form.values._key);
    expect(kept.button).toBe('Check whether it arrived');
    const checked = await send(agent, kept).expect(303);
    expect(checked.headers.location).toBe(`/pages/${BAKERY}`);
    expect(postWrites(stack).length - before).toBe(1);
    expect(postIds(await view(agent, `/pages/${BAKERY}`))[0]).toBe(id);
  });
});

describe('when an edit gets no answer in time and did not happen', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES }, timeoutMs: 400 });

  it('then checking says so and offers to send it again with a new key, the text still in the form: one edit in all', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(agent, postPage(OWN_POST)), 'edit', OWN_POST);
    stack.emulator.controls.failNext(1, { kind: 'hang', writes: true });
    const text = 'Lost on the way?';
    const res = await send(agent, form, text).expect(504);
    const kept = formFor(res.text, 'edit', OWN_POST);
    expect(kept.textbox?.value).toBe(text);
    const checked = await send(agent, kept, kept.textbox!.value).expect(409);
    expect(headline(checked.text)).toBe("It didn't arrive");
    const again = formFor(checked.text, 'edit', OWN_POST);
    expect(again.textbox?.value).toBe(text);
    expect(again.values._key).not.toBe(form.values._key);
    const before = postWrites(stack).length;
    await send(agent, again, again.textbox!.value).expect(303);
    expect(postWrites(stack).length - before).toBe(1);
  });
});

describe('the Page’s own post', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES } });

  it('when Ada edits its text, then one provider write is made and the post page shows the new text', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(agent, postPage(OWN_POST)), 'edit', OWN_POST);
    expect(form.textbox?.label).toBe("The post's text");
    expect(form.button).toBe('Save the text');
    const before = postWrites(stack).length;
    const res = await send(agent, form, 'Rye is back on Tuesdays.').expect(303);
    expect(res.headers.location).toBe(postPage(OWN_POST));
    expect(postWrites(stack).length - before).toBe(1);
    const html = await view(agent, postPage(OWN_POST));
    expect(textOf(find(find(html, 'article')!, { class: 'text' })!)).toBe('Rye is back on Tuesdays.');
    expect(visibleText(html)).toContain('The post is updated.');
  });

  it('when the provider refuses an edit, then the text is kept in the form with a new key and the reason in words', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(agent, postPage(OWN_POST)), 'edit', OWN_POST);
    stack.emulator.controls.failNext(1, { writes: true, error: { code: 368 } });
    const text = 'A careful edit\nwith two lines ✨';
    const res = await send(agent, form, text).expect(403);
    expect(visibleText(res.text)).toContain('Nothing you wrote is lost');
    const kept = formFor(res.text, 'edit', OWN_POST);
    expect(kept.textbox?.value).toBe(text);
    expect(kept.values._key).not.toBe(form.values._key);
  });

  it('when Ada deletes it after confirming, then its page answers 404 with a way back to the Page', async () => {
    const id = TEST_SEED.pages.find((p) => p.id === BAKERY)!.feed[1]!.id;
    const agent = await connectedAgent(stack, BAKERY);
    const html = await view(agent, postPage(id));
    const confirm = find(html, { tag: 'details', attrs: { class: 'act-delete' } })!;
    const form = formFor(confirm, 'delete-post', id);
    expect(form.button).toBe('Delete the post');
    const res = await send(agent, form).expect(303);
    expect(res.headers.location).toBe(`/pages/${BAKERY}`);
    expect(visibleText(await view(agent, `/pages/${BAKERY}`))).toContain('The post is deleted.');
    const gone = await agent.get(postPage(id)).expect(404);
    expect(linkTo(gone.text, 'Back to the Page')?.href).toBe(`/pages/${BAKERY}`);
  });

  it('when a forged form names another Page’s post, then 403 and no write', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(agent, postPage(OWN_POST)), 'delete-post', OWN_POST);
    const before = postWrites(stack).length;
    await agent
      .post(`/pages/${BAKERY}/posts/${CAFE_POST}/write`)
      .type('form')
      .send({ ...form.values, target: CAFE_POST })
      .expect(403);
    expect(postWrites(stack).length).toBe(before);
  });
});

describe('a person who may not publish', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES } });

  it('when Joan, whose role has no CREATE_CONTENT or MANAGE, opens a post and the scheduled posts, then she sees no controls; her forged form gets 403 and no write', async () => {
    const id = await schedulePost(stack, 'Only for the team');
    const agent = await connectedAgent(stack, BAKERY, { user: SEED_IDS.users.clarke });
    expect(writeForms(await view(agent, postPage(OWN_POST)))).toEqual([]);
    const list = await view(agent, scheduledPage);
    expect(writeForms(list)).toEqual([]);
    expect(visibleText(list)).toContain('Your role on this Page lets you see its scheduled posts');
    const ada = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(ada, scheduledPage), 'publish-now', id);
    const before = postWrites(stack).length;
    await agent
      .post(form.action)
      .type('form')
      .send({ ...form.values, _csrf: csrfToken(list) })
      .expect(403);
    expect(postWrites(stack).length).toBe(before);
  });

  it('when Ada declined pages_manage_posts, then the scheduled posts come without controls and one line offers Ask again', async () => {
    await schedulePost(stack, 'Declined');
    const agent = await connectedAgent(stack, BAKERY, { decline: ['pages_manage_posts'] });
    const html = await view(agent, scheduledPage);
    expect(writeForms(html)).toEqual([]);
    expect(linkTo(html, 'Ask again')?.href).toContain(encodeURIComponent(scheduledPage));
  });

  it('when Ada declined pages_manage_posts, then the post shows no Edit or Delete and one line offers Ask again', async () => {
    const agent = await connectedAgent(stack, BAKERY, { decline: ['pages_manage_posts'] });
    const html = await view(agent, postPage(OWN_POST));
    expect(writeForms(html)).toEqual([]);
    expect(visibleText(html)).toContain(
      "To edit, delete and schedule the Page's posts here, allow “Publish and manage posts on your Page” on Facebook.",
    );
    expect(linkTo(html, 'Ask again')?.href).toContain(encodeURIComponent(postPage(OWN_POST)));
  });
});

describe('read after write, and the provider’s webhook for the same change', () => {
  const stack = useStack({
    env: { FB_SCOPES: SCOPES, FB_WEBHOOK_VERIFY_TOKEN: 'verify-token-0001', PAGE_CACHE_TTL: '60' },
  });

  function webhook(agent: Agent, postId: string, verb: string) {
    const { raw, signature } = signed(feedDelivery(BAKERY, { item: 'status', verb, post_id: postId }));
    return agent
      .post('/webhooks/facebook')
      .set('content-type', 'application/json')
      .set('x-hub-signature-256', signature)
      .send(raw)
      .expect(200);
  }

  it('when Ada edits a post, then open pages are told once: the provider’s webhook for her edit tells them nothing new, another post’s edit does', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const heard: PageEvent[] = [];
    const unsubscribe = stack.events.subscribe(BAKERY, (e) => heard.push(e));
    try {
      await send(agent, formFor(await view(agent, postPage(OWN_POST)), 'edit', OWN_POST), 'Told once').expect(303);
      expect(heard).toEqual([{ kind: 'feed-changed' }]);
      await webhook(agent, OWN_POST, 'edited');
      await afterAnswer();
      expect(heard).toEqual([{ kind: 'feed-changed' }]);
      await webhook(agent, CAFE_POST.replace(CAFE, BAKERY), 'edited');
      await afterAnswer();
      expect(heard).toEqual([{ kind: 'feed-changed' }, { kind: 'feed-changed' }]);
    } finally {
      unsubscribe();
    }
  });

  it('when Ada edits a post, then that is one provider call, and the next view of the post reads it again', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const html = await view(agent, postPage(OWN_POST));
    await view(agent, postPage(OWN_POST));
    const log = stack.emulator.controls.log;
    const before = log.length;
    await send(agent, formFor(html, 'edit', OWN_POST), 'Read after write').expect(303);
    expect(log.slice(before).map((e) => e.method)).toEqual(['POST']);
    const shown = await view(agent, postPage(OWN_POST));
    expect(textOf(find(find(shown, 'article')!, { class: 'text' })!)).toBe('Read after write');
  });
});
