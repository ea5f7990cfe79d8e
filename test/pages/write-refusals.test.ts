import { randomBytes } from 'node:crypto';
import { MODERATION_IDS, SEED_IDS } from '@pagelight/graph-emulator';
import { writeForm, writeForms, type WriteForm } from '../support/write-forms';
import { connectedAgent } from '../support/flow';
import type { Agent, Stack } from '../support/stack';
import { useStack } from '../support/stack';
import { headline, visibleText } from '../support/words';

/**
 * Nothing lost, nothing doubled (docs/architecture.md#writes): a refused write keeps the text with the reason in
 * plain words; a write with no answer in time is checked by reading before it is offered again.
 */

const BAKERY = SEED_IDS.pages.bakery;
const { postId: POST, question: QUESTION } = MODERATION_IDS.test;
const SCOPES = 'pages_show_list pages_read_engagement pages_read_user_content pages_manage_engagement';
const postPage = `/pages/${BAKERY}/posts/${POST}`;

function repliesMade(stack: Stack): number {
  return stack.emulator.controls.log.filter((e) => e.method === 'POST' && e.path.endsWith('/comments')).length;
}

async function replyForm(agent: Agent, target = POST): Promise<WriteForm> {
  return writeForm((await agent.get(postPage).expect(200)).text, 'reply', target);
}

function send(agent: Agent, form: WriteForm, text: string) {
  return agent
    .post(form.action)
    .type('form')
    .send({ ...form.values, message: text });
}

/** The form a not-sent page offers again. */
function keptForm(html: string): WriteForm {
  const form = writeForms(html).find((f) => f.values.do === 'reply');
  if (!form) throw new Error('no kept form');
  return form;
}

describe('when the provider refuses a reply', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES } });

  it.each([
    [368, 403, 'Facebook has temporarily blocked this for your account or Page'],
    [200, 403, "Facebook didn't allow this"],
    [10, 403, "Facebook didn't allow this"],
    [100, 502, "It's no longer on Facebook"],
    [80001, 429, 'Facebook is limiting how often Pagelight may ask'],
    [190, 401, 'sign'],
  ])(
    'with code %d, then the page answers %d, keeps the text in the form with a new key, and says why in plain words',
    async (code, status, words) => {
      const agent = await connectedAgent(stack, BAKERY);
      const form = await replyForm(agent);
      const text = `Our answer to code ${code}:\nsee you soon ✨`;
      stack.emulator.controls.failNext(1, { writes: true, error: { code } });
      const before = repliesMade(stack);
      const res = await send(agent, form, text).expect(status);
      expect(repliesMade(stack) - before).toBe(1);
      expect(headline(res.text)).toBe("This didn't go through");
      expect(visibleText(res.text).toLowerCase()).toContain(words.toLowerCase());
      expect(visibleText(res.text)).toContain('Nothing you wrote is lost');
      const kept = keptForm(res.text);
      expect(kept.textbox?.value).toBe(text);
      expect(kept.values._key).not.toBe(form.values._key);
      // Sent again once the provider takes it: one reply, with the text as typed.
      const again = await send(agent, kept, kept.textbox!.value).expect(303);
      expect(again.headers.location).toMatch(/#comment-\d+_\d+$/);
    },
  );

  it('when the provider wrote its own words for the person, then those are the reason', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.failNext(1, {
      writes: true,
      error: { code: 368, userTitle: 'Blocked', userMessage: 'You can’t comment for 2 hours.' },
    });
    const res = await send(agent, await replyForm(agent), 'Hello').expect(403);
    expect(visibleText(res.text)).toContain('You can’t comment for 2 hours.');
  });
});

describe('when a reply gets no answer in time', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES }, timeoutMs: 400 });

  it('and it happened (the answer was lost), then the text is kept, the form offers to check with the same key, and checking finds it by reading: one reply in all', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = await replyForm(agent, QUESTION);
    stack.emulator.controls.failNext(1, { kind: 'late', ms: 1500, writes: true });
    const before = repliesMade(stack);
    const res = await send(agent, form, 'Yes, from 7 every day.').expect(504);
    expect(headline(res.text)).toBe('No answer from Facebook in time');
    expect(visibleText(res.text)).toContain('Check first: nothing is sent twice.');
    const kept = keptForm(res.text);
    expect(kept.textbox?.value).toBe('Yes, from 7 every day.');
    expect(kept.values._key).toBe(form.values._key);
    expect(kept.button).toBe('Check whether it arrived');
    const checked = await send(agent, kept, kept.textbox!.value).expect(303);
    expect(checked.headers.location).toMatch(new RegExp(`\\?replies=${QUESTION}#comment-\\d+_\\d+$`));
    expect(repliesMade(stack) - before).toBe(1);
    const page = (await agent.get(checked.headers.location!).expect(200)).text;
    expect(visibleText(page).split('Yes, from 7 every day.').length - 1).toBe(1);
  });

  it('and it did not happen, then checking says so and offers to send again with a new key: one reply in all', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = await replyForm(agent);
    stack.emulator.controls.failNext(1, { kind: 'hang', writes: true });
    const res = await send(agent, form, 'Lost on the way?').expect(504);
    const kept = keptForm(res.text);
    const checked = await send(agent, kept, kept.textbox!.value).expect(409);
    expect(headline(checked.text)).toBe("It didn't arrive");
    const again = keptForm(checked.text);
    expect(again.textbox?.value).toBe('Lost on the way?');
    expect(again.values._key).not.toBe(form.values._key);
    expect(again.button).toBe('Send again');
    const before = repliesMade(stack);
    await send(agent, again, again.textbox!.value).expect(303);
    expect(repliesMade(stack) - before).toBe(1);
    const page = (await agent.get(postPage).expect(200)).text;
    expect(visibleText(page).split('Lost on the way?').length - 1).toBe(1);
  });
});

describe('the audit', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES } });

  it('when a reply is posted, then one log line names the action, Page, person, outcome and new comment, never the text or a token', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const res = await send(agent, await replyForm(agent), 'A secret-ish text 4711').expect(303);
    const id = res.headers.location!.split('#comment-')[1];
    const lines = stack.logs.lines.filter((l) => l.includes('"audit"'));
    expect(lines).toHaveLength(1);
    const audit = (JSON.parse(lines[0]!) as { audit: Record<string, unknown> }).audit;
    expect(audit).toEqual({
      action: 'reply',
      pageId: BAKERY,
      userId: SEED_IDS.users.ada,
      outcome: 'done',
      objectId: id,
    });
    expect(stack.logs.lines.some((l) => l.includes('4711'))).toBe(false);
  });
});

describe('the session’s writes a minute', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES, SESSION_RATE_LIMIT: '3' } });

  it('when a session spends its writes, then the next one is refused with its text kept and no provider call, while its reads go on in their own budget', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const form = await replyForm(agent);
    // Each a new intent: the form rendered again (a fresh key), as after each reply.
    const fresh = () => ({ ...form, values: { ...form.values, _key: randomBytes(16).toString('base64url') } });
    for (let i = 0; i < 3; i++) await send(agent, fresh(), `Reply number ${i}`).expect(303);
    const before = repliesMade(stack);
    const res = await send(agent, fresh(), 'One too many').expect(429);
    expect(repliesMade(stack)).toBe(before);
    expect(keptForm(res.text).textbox?.value).toBe('One too many');
    expect(visibleText(res.text)).toContain('Nothing you wrote is lost');
    // The reads' own budget is untouched by the writes.
    await agent.get(postPage).expect(200);
  });
});
