import { MODERATION_IDS, SEED_IDS, TEST_SEED } from '@pagelight/graph-emulator';
import { csrfToken, find, linkTo, textOf } from '../support/dom';
import { sendForm as send, writeForm as formFor, writeForms } from '../support/write-forms';
import { connectedAgent } from '../support/flow';
import type { Agent, Stack } from '../support/stack';
import { useStack } from '../support/stack';
import { visibleText } from '../support/words';
import { afterAnswer, feedDelivery, signed } from '../webhooks/deliver';
import type { PageEvent } from '../../src/live/bus';

/**
 * The post page's actions (docs/architecture.md#comment-actions) on the one write path (docs/architecture.md#writes):
 * each offered where the provider and the person's role allow, each one provider write, nothing lost.
 */

const BAKERY = SEED_IDS.pages.bakery;
const CAFE = SEED_IDS.pages.cafe;
const { postId: POST, spam: SPAM, abusive: ABUSIVE, question: QUESTION } = MODERATION_IDS.test;
const CAFE_POST = TEST_SEED.pages.find((p) => p.id === CAFE)!.feed[0]!.id;
const SCOPES = 'pages_show_list pages_read_engagement pages_read_user_content pages_manage_engagement';
const WITH_ACTIONS = { env: { FB_SCOPES: SCOPES } };

/** The Graph writes the app made (a POST or DELETE of a node or edge), as the emulator logged them. */
function writesMade(stack: Stack): { method: string; path: string }[] {
  return stack.emulator.controls.log.filter(
    (e) =>
      (e.method === 'POST' || e.method === 'DELETE') &&
      !/^\/v\d+\.\d+\/?$/.test(e.path) &&
      !e.path.includes('oauth/access_token'),
  );
}

const postPage = `/pages/${BAKERY}/posts/${POST}`;

/** What the element with this id reads, undefined when the page has none. */
function commentText(html: string, id: string): string | undefined {
  const node = find(html, { id });
  return node ? textOf(node) : undefined;
}

async function view(agent: Agent): Promise<string> {
  return (await agent.get(postPage).expect(200)).text;
}

describe('the post page’s actions for a manager', () => {
  const stack = useStack(WITH_ACTIONS);

  it('when Ada (every task) opens a post with comments to moderate, then each comment offers its actions with a fresh one-time key, the post a reply box as the Page, and one line says what hiding means', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const html = await view(agent);
    const forms = writeForms(html);
    const spam = writeForms(find(html, { id: `comment-${SPAM}` })!).map((f) => f.button);
    expect(spam).toEqual(expect.arrayContaining(['Like', 'Hide', 'Send', 'Delete the comment']));
    const reply = formFor(html, 'reply', POST);
    expect(reply.textbox?.label).toMatch(/^Comment as /);
    expect(reply.values._csrf).toMatch(/\S{20,}/);
    const keys = forms.map((f) => f.values._key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(visibleText(html)).toContain(
      'Hiding a comment keeps it from everyone but its author and their friends; deleting removes it for good.',
    );
  });

  it('when Ada replies to the post, then one provider write is made, the page shows the reply as the Page’s, and says it is posted', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const before = writesMade(stack).length;
    const res = await send(agent, formFor(await view(agent), 'reply', POST), 'Thank you, see you Saturday!').expect(
      303,
    );
    expect(writesMade(stack).length - before).toBe(1);
    expect(res.headers.location).toMatch(new RegExp(`^${postPage}#comment-\\d+_\\d+$`));
    const id = res.headers.location!.split('#comment-')[1]!;
    const after = await view(agent);
    expect(commentText(after, `comment-${id}`)).toContain('Thank you, see you Saturday!');
    expect(commentText(after, `comment-${id}`)).toContain('Page');
    expect(visibleText(after)).toContain('Your reply is posted.');
  });

  it('when the same reply form is sent twice at once (a double click), then one provider write is made and both answers lead to the same reply', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(agent), 'reply', QUESTION);
    const before = writesMade(stack).length;
    const [a, b] = await Promise.all([send(agent, form, 'We open at 7.'), send(agent, form, 'We open at 7.')]);
    expect(writesMade(stack).length - before).toBe(1);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(a.headers.location).toBe(b.headers.location);
    // Sent again later (the browser's resubmission): still that one write.
    const again = await send(agent, form, 'We open at 7.').expect(303);
    expect(again.headers.location).toBe(a.headers.location);
    expect(writesMade(stack).length - before).toBe(1);
  });

  it('when Ada hides a comment, then it shows as hidden with what that means and an Unhide, and unhiding shows it again', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    await send(agent, formFor(await view(agent), 'hide', ABUSIVE)).expect(303);
    const hidden = await view(agent);
    expect(commentText(hidden, `comment-${ABUSIVE}`)).toContain(
      'Hidden: only its author and their friends still see it.',
    );
    expect(visibleText(hidden)).toContain('The comment is hidden.');
    await send(agent, formFor(hidden, 'unhide', ABUSIVE)).expect(303);
    const shown = await view(agent);
    expect(commentText(shown, `comment-${ABUSIVE}`)).not.toContain('Hidden:');
    expect(formFor(shown, 'hide', ABUSIVE).button).toBe('Hide');
  });

  it('when Ada likes a comment as the Page, then its likes count one more and it offers Unlike, which takes it back', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const likes = (html: string) => {
      const foot = find(find(html, { id: `comment-${QUESTION}` })!, { class: 'comment-foot' });
      return /(\d+) likes?/.exec(foot ? textOf(foot) : '')?.[1] ?? '0';
    };
    const first = await view(agent);
    await send(agent, formFor(first, 'like', QUESTION)).expect(303);
    const liked = await view(agent);
    expect(Number(likes(liked))).toBe(Number(likes(first)) + 1);
    expect(formFor(liked, 'unlike', QUESTION).button).toBe('Unlike');
    await send(agent, formFor(liked, 'unlike', QUESTION)).expect(303);
    expect(formFor(await view(agent), 'like', QUESTION).button).toBe('Like');
  });

  it('when Ada deletes a comment after confirming, then it is gone from the post page', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const html = await view(agent);
    const form = formFor(html, 'delete', SPAM);
    expect(form.button).toBe('Delete the comment');
    const res = await send(agent, form).expect(303);
    expect(res.headers.location).toBe(`${postPage}#comments`);
    const after = await view(agent);
    expect(commentText(after, `comment-${SPAM}`)).toBeUndefined();
    expect(visibleText(after)).toContain('The comment is deleted.');
  });
});

describe('the write path refuses before any provider call', () => {
  const stack = useStack(WITH_ACTIONS);

  it('when a form has no CSRF token, then 403 and no write', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(agent), 'hide', QUESTION);
    const before = writesMade(stack).length;
    await agent
      .post(form.action)
      .type('form')
      .send({ ...form.values, _csrf: 'forged' })
      .expect(403);
    expect(writesMade(stack).length).toBe(before);
  });

  it('when a form is malformed (an unknown action, no one-time key, a field sent twice), then 400 and no write', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(agent), 'hide', QUESTION);
    const before = writesMade(stack).length;
    const { _key: _dropped, ...keyless } = form.values;
    const unclear = 'Pagelight could not understand what your browser sent.';
    const cases: [string | object, string][] = [
      [{ ...form.values, do: 'explode' }, unclear],
      [keyless, unclear],
      [`${new URLSearchParams(form.values)}&do=delete`, unclear],
    ];
    for (const [body, words] of cases) {
      const res = await agent.post(form.action).type('form').send(body).expect(400);
      expect(visibleText(res.text)).toContain(words);
    }
    expect(writesMade(stack).length).toBe(before);
  });

  it('when a forged form names a comment of another Page’s post, or another Page the session holds no token for, then 403 and no write', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(agent), 'hide', QUESTION);
    const before = writesMade(stack).length;
    const otherComment = `${CAFE_POST.split('_')[1]}_1`;
    await agent
      .post(`/pages/${BAKERY}/posts/${CAFE_POST}/write`)
      .type('form')
      .send({ ...form.values, target: otherComment })
      .expect(403);
    await agent
      .post(form.action)
      .type('form')
      .send({ ...form.values, target: otherComment })
      .expect(403);
    const res = await agent
      .post(`/pages/${CAFE}/posts/${CAFE_POST}/write`)
      .type('form')
      .send({ ...form.values, target: otherComment })
      .expect(403);
    expect(visibleText(res.text)).toContain('nothing was sent');
    expect(writesMade(stack).length).toBe(before);
  });

  it('when Joan, whose role has no task to act, opens the post, then she reads the comments without controls and one line says why; her forged form gets 403', async () => {
    const agent = await connectedAgent(stack, BAKERY, { user: SEED_IDS.users.clarke });
    const html = await view(agent);
    expect(commentText(html, `comment-${SPAM}`)).toBeDefined();
    expect(writeForms(html)).toEqual([]);
    expect(visibleText(html)).toContain('Your role on this Page lets you read comments, not answer or moderate them.');
    const ada = await connectedAgent(stack, BAKERY);
    const form = formFor(await view(ada), 'hide', QUESTION);
    const before = writesMade(stack).length;
    const token = await joanCsrf(agent);
    await agent
      .post(form.action)
      .type('form')
      .send({ ...form.values, _csrf: token })
      .expect(403);
    expect(writesMade(stack).length).toBe(before);
  });
});

/** Joan's CSRF token, from a form of hers (the picker's). */
async function joanCsrf(agent: Agent): Promise<string> {
  const html = (await agent.get('/pages').expect(200)).text;
  return csrfToken(html)!;
}

describe('without pages_manage_engagement', () => {
  const stack = useStack(WITH_ACTIONS);

  it('when Ada declined it, then the comments show without controls and one line offers Ask again', async () => {
    const agent = await connectedAgent(stack, BAKERY, { decline: ['pages_manage_engagement'] });
    const html = await view(agent);
    expect(writeForms(html)).toEqual([]);
    expect(visibleText(html)).toContain(
      'To answer and moderate comments here, allow “Reply to and moderate comments on your Page” on Facebook.',
    );
    const ask = linkTo(html, 'Ask again');
    expect(ask?.href).toContain('rerequest=1');
    expect(ask?.href).toContain(encodeURIComponent(postPage));
  });
});

describe('when the app does not ask for pages_manage_engagement', () => {
  const stack = useStack({ env: { FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content' } });

  it('then the post page offers no actions and says nothing about them', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const html = await view(agent);
    expect(writeForms(html)).toEqual([]);
    expect(visibleText(html)).not.toContain('moderate');
  });
});

describe('read after write, and the provider’s webhook for the same change', () => {
  const stack = useStack({
    env: { FB_SCOPES: SCOPES, FB_WEBHOOK_VERIFY_TOKEN: 'verify-token-0001', PAGE_CACHE_TTL: '60' },
  });

  function webhook(agent: Agent, postId: string, commentId: string) {
    const { raw, signature } = signed(
      feedDelivery(BAKERY, { item: 'comment', verb: 'add', post_id: postId, comment_id: commentId, parent_id: postId }),
    );
    return agent
      .post('/webhooks/facebook')
      .set('content-type', 'application/json')
      .set('x-hub-signature-256', signature)
      .send(raw)
      .expect(200);
  }

  it('when Ada replies, then open pages of the post are told once: the provider’s webhook for her reply tells them nothing new, another comment’s does', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const heard: PageEvent[] = [];
    const unsubscribe = stack.events.subscribe(BAKERY, (e) => heard.push(e));
    try {
      const res = await send(agent, formFor(await view(agent), 'reply', POST), 'Once only').expect(303);
      const id = res.headers.location!.split('#comment-')[1]!;
      // Naming the new comment: the tab that wrote it shows it already and tells nothing (public/app.js).
      const told = [{ kind: 'feed-changed' }, { kind: 'new-comment', postId: POST, commentId: id }];
      expect(heard).toEqual(told);
      await webhook(agent, POST, id);
      await afterAnswer();
      expect(heard).toEqual(told);
      await webhook(agent, POST, `${POST.split('_')[1]}_999999`);
      await afterAnswer();
      expect(heard).toEqual([...told, { kind: 'feed-changed' }, { kind: 'new-comment', postId: POST }]);
    } finally {
      unsubscribe();
    }
  });

  it('when Ada hides a comment, then that is one provider call, and the next view of the post reads its comments again and nothing else', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const html = await view(agent);
    await view(agent);
    const log = stack.emulator.controls.log;
    const before = log.length;
    await send(agent, formFor(html, 'hide', QUESTION)).expect(303);
    expect(log.slice(before).map((e) => e.method)).toEqual(['POST']);
    const after = log.length;
    const shown = await view(agent);
    expect(log.slice(after).map((e) => e.path)).toEqual([expect.stringMatching(new RegExp(`/${POST}/comments$`))]);
    expect(commentText(shown, `comment-${QUESTION}`)).toContain('Hidden:');
  });
});
