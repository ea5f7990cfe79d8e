/**
 * The reliability report's rows for the one write path (docs/architecture.md#writes): nothing doubled, nothing
 * lost. Each runs against its own served app and emulator, as a person's browser over real HTTP.
 */
import { MODERATION_IDS, SEED_IDS } from '@pagelight/graph-emulator';
import { connectedClient } from '../test/support/login';
import { startServedStack, type Stack } from '../test/support/stack';
import { writeForm, writeForms } from '../test/support/write-forms';
import { visibleText } from '../test/support/words';
import type { Row } from './attacks';

const BAKERY = SEED_IDS.pages.bakery;
const { postId: POST } = MODERATION_IDS.test;
const SCOPES = 'pages_show_list pages_read_engagement pages_read_user_content pages_manage_engagement';
const postPage = `/pages/${BAKERY}/posts/${POST}`;

/** The replies the provider made with this very text (its log of answered writes). */
function repliesWith(stack: Stack, text: string): number {
  return stack.emulator.controls.log.filter(
    (e) => e.method === 'POST' && e.path.endsWith('/comments') && e.status === 200 && e.form.message === text,
  ).length;
}

async function withWrites(timeoutMs: number, run: (base: string, stack: Stack) => Promise<Row>): Promise<Row> {
  const served = await startServedStack({ timeoutMs, env: { FB_SCOPES: SCOPES } });
  try {
    return await run(served.url, served.stack);
  } finally {
    await served.close();
  }
}

/** N identical posts of one reply form at once (a burst of double clicks): one provider write, every answer the same. */
export function doubleSubmits(n: number): Promise<Row> {
  return withWrites(5000, async (base, stack) => {
    const browser = await connectedClient(base, BAKERY, SEED_IDS.users.ada);
    const form = writeForm(await (await browser.get(postPage)).text(), 'reply', POST);
    const text = `One reply, ${n} clicks`;
    const answers = await Promise.all(
      Array.from({ length: n }, () => browser.post(form.action, { ...form.values, message: text })),
    );
    const where = new Set(answers.map((a) => `${a.status} ${a.headers.get('location')}`));
    const writes = repliesWith(stack, text);
    return {
      check: `double submits (${n} identical posts at once)`,
      tried: n,
      failures: (writes === 1 ? 0 : 1) + (where.size === 1 && answers[0]!.status === 303 ? 0 : 1),
      lost: writes === 0 ? 1 : 0,
      note: `provider writes: ${writes}; distinct answers: ${where.size}`,
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
export function refusalsAndTimeouts(n: number): Promise<Row> {
  return withWrites(400, async (base, stack) => {
    const browser = await connectedClient(base, BAKERY, SEED_IDS.users.ada);
    let lost = 0;
    let doubled = 0;
    let failures = 0;
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const text = `Reply ${i} through trouble ✨`;
      stack.emulator.controls.failNext(1, TROUBLES[i % TROUBLES.length]!);
      let form = writeForm(await (await browser.get(postPage)).text(), 'reply', POST);
      let done = false;
      for (let attempt = 0; attempt < 4 && !done; attempt++) {
        const answer = await browser.post(form.action, { ...form.values, message: form.textbox?.value || text });
        if (answer.status === 303) {
          done = true;
          break;
        }
        const again = writeForms(await answer.text()).find((f) => f.values.do === 'reply');
        if (again?.textbox?.value !== text) {
          lost++;
          break;
        }
        kept++;
        form = again;
        // A write answered late has happened by the time the person looks again.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (!done) failures++;
      // What the provider holds, as the post page reads it from there (the cache is off): the text once.
      const page = visibleText(await (await browser.get(postPage)).text());
      const made = page.split(text).length - 1;
      if (made === 0) lost++;
      if (made > 1) doubled++;
    }
    return {
      check: `refusals and timeouts during writes (${n} replies)`,
      tried: n,
      failures: failures + doubled,
      lost,
      note: `texts kept across ${kept} refusals or unanswered writes; lost: ${lost}; doubled: ${doubled}`,
    };
  });
}
