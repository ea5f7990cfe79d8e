/**
 * The reliability report's rows for the one write path (docs/architecture.md#writes): nothing doubled, nothing
 * lost. Each runs against its own served app and emulator, as a person's browser over real HTTP.
 */
import { MODERATION_IDS, SEED_IDS } from '@pagelight/graph-emulator';
import type { CookieClient } from '../test/support/cookie-client';
import { formTo } from '../test/support/dom';
import { connectedClient } from '../test/support/login';
import { startServedStack, type Stack } from '../test/support/stack';
import { writeForms } from '../test/support/write-forms';
import { visibleText } from '../test/support/words';
import type { Row } from './attacks';

const BAKERY = SEED_IDS.pages.bakery;
const { postId: POST } = MODERATION_IDS.test;

/** A form of the write path as the rows send it: where it posts, what it carries, the text it holds. */
interface SentForm {
  action: string;
  values: Record<string, string>;
  text: string;
}

/**
 * One kind of write the rows try: where its form is, how a browser sends it, and how the provider's log counts the
 * writes it answered with a text. The rows are the same for each kind: only this differs.
 */
export interface Writing {
  /** What the row calls one write (its check's words). */
  what: string;
  scopes: string;
  /** The page that holds the form and, after the write, shows its text. */
  page: string;
  /** The form on a page (the first one, or a not-sent page offering it again), with what its text box holds. */
  form(html: string): SentForm | undefined;
  send(client: CookieClient, form: SentForm, text: string): Promise<Response>;
  /** The provider's writes answered with this very text (its log). */
  made(stack: Stack, text: string): number;
}

/** Written with this text and answered, per the provider's log, at a path ending `where`. */
const answered = (stack: Stack, where: RegExp, text: string) =>
  stack.emulator.controls.log.filter(
    (e) => e.method === 'POST' && where.test(e.path) && e.status === 200 && e.form.message === text,
  ).length;

/** A reply to the post, from its page (docs/architecture.md#comment-actions). */
export const REPLYING: Writing = {
  what: 'replies',
  scopes: 'pages_show_list pages_read_engagement pages_read_user_content pages_manage_engagement',
  page: `/pages/${BAKERY}/posts/${POST}`,
  form(html) {
    const form = writeForms(html).find((f) => f.values.do === 'reply' && f.values.target === POST);
    return form && { action: form.action, values: form.values, text: form.textbox?.value ?? '' };
  },
  send: (client, form, text) => client.post(form.action, { ...form.values, message: text }),
  made: (stack, text) => answered(stack, /\/comments$/, text),
};

/** A post published now from the Page view's composer (docs/architecture.md#publishing): multipart, no photo. */
export const PUBLISHING: Writing = {
  what: 'posts published',
  scopes: 'pages_show_list pages_read_engagement pages_manage_posts',
  page: `/pages/${BAKERY}`,
  form(html) {
    const form = formTo(html, `/pages/${BAKERY}/publish`);
    if (!form) return undefined;
    // What the browser sends with no file chosen: the text fields, and Now.
    const values = Object.fromEntries(
      form.fields.filter((f) => f.name && f.type === 'hidden').map((f) => [f.name!, f.value ?? '']),
    );
    return {
      action: form.action ?? '',
      values: { ...values, when: 'now', zone: 'UTC' },
      text: form.values.message ?? '',
    };
  },
  send: (client, form, text) => client.postMultipart(form.action, { ...form.values, message: text }),
  made: (stack, text) => answered(stack, new RegExp(`^/v[\\d.]+/${BAKERY}/feed$`), text),
};

async function withWrites(
  writing: Writing,
  timeoutMs: number,
  run: (base: string, stack: Stack) => Promise<Row>,
): Promise<Row> {
  const served = await startServedStack({ timeoutMs, env: { FB_SCOPES: writing.scopes } });
  try {
    return await run(served.url, served.stack);
  } finally {
    await served.close();
  }
}

/**
 * N identical posts of one form at once (a burst of double clicks): one provider write, every answer the same, and
 * the text shown once where it was written.
 */
export function doubleSubmits(n: number, writing: Writing = REPLYING): Promise<Row> {
  return withWrites(writing, 5000, async (base, stack) => {
    const browser = await connectedClient(base, BAKERY, SEED_IDS.users.ada);
    const form = writing.form(await (await browser.get(writing.page)).text());
    if (!form) throw new Error(`no form for ${writing.what} on ${writing.page}`);
    const text = `One of ${writing.what}, ${n} clicks`;
    const answers = await Promise.all(Array.from({ length: n }, () => writing.send(browser, form, text)));
    const where = new Set(answers.map((a) => `${a.status} ${a.headers.get('location')}`));
    const writes = writing.made(stack, text);
    const shown = visibleText(await (await browser.get(writing.page)).text()).split(text).length - 1;
    return {
      check: `double submits (${n} identical posts at once, ${writing.what})`,
      tried: n,
      failures: (writes === 1 && shown === 1 ? 0 : 1) + (where.size === 1 && answers[0]!.status === 303 ? 0 : 1),
      lost: writes === 0 ? 1 : 0,
      note: `provider writes: ${writes}; shown: ${shown}; distinct answers: ${where.size}`,
    };
  });
}

/** What the provider does to the next write, in turn: its refusals, an answer lost after the write, no answer. */
const TROUBLES = [
  { writes: true, error: { code: 368 } },
  { writes: true, error: { code: 200 } },
  { writes: true, error: { code: 10 } },
  { writes: true, error: { code: 100 } },
  { writes: true, error: { code: 80001 } },
  { kind: 'late', ms: 1200, writes: true },
  { kind: 'hang', writes: true },
] as const;

/**
 * Replies sent while the provider refuses or does not answer: each text is kept in the form after every
 * refusal, the person sends the form they are given again (checking first after no answer) until it is done,
 * and in the end the provider holds each text exactly once.
 */
export function refusalsAndTimeouts(n: number, writing: Writing = REPLYING): Promise<Row> {
  return withWrites(writing, 400, async (base, stack) => {
    const browser = await connectedClient(base, BAKERY, SEED_IDS.users.ada);
    let lost = 0;
    let doubled = 0;
    let failures = 0;
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const text = `${writing.what} ${i} through trouble ✨`;
      stack.emulator.controls.failNext(1, TROUBLES[i % TROUBLES.length]!);
      let form = writing.form(await (await browser.get(writing.page)).text());
      if (!form) throw new Error(`no form for ${writing.what} on ${writing.page}`);
      let done = false;
      for (let attempt = 0; attempt < 4 && !done; attempt++) {
        const answer = await writing.send(browser, form, form.text || text);
        if (answer.status === 303) {
          done = true;
          break;
        }
        const again = writing.form(await answer.text());
        if (again?.text !== text) {
          lost++;
          break;
        }
        kept++;
        form = again;
        // A write answered late has happened by the time the person looks again.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (!done) failures++;
      // What the provider holds, as the page reads it from there (the cache is off): the text once.
      const page = visibleText(await (await browser.get(writing.page)).text());
      const made = page.split(text).length - 1;
      if (made === 0) lost++;
      if (made > 1) doubled++;
    }
    return {
      check: `refusals and timeouts during writes (${n} ${writing.what})`,
      tried: n,
      failures: failures + doubled,
      lost,
      note: `texts kept across ${kept} refusals or unanswered writes; lost: ${lost}; doubled: ${doubled}`,
    };
  });
}
