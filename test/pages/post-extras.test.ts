import { SEED_IDS } from '@pagelight/graph-emulator';
import { connectedAgent } from '../support/flow';
import { useStack } from '../support/stack';
import { eventually } from '../support/wait';
import { headline } from '../support/words';
import { attr, find, findAll, links, textOf } from '../support/dom';
import { SOURDOUGH, STORY } from '../support/posts';

/**
 * The post page's extras — viewers, comments, replies — each have their own short deadline
 * (docs/architecture.md#post-page): one that fails or is late leaves the rest of the page, with one line saying
 * what is missing and a link to try again. The provider hangs or fails on cue (the emulator's `failNext`); the
 * deadline here is far shorter than any hang, so nothing waits on the machine's speed.
 */
const BAKERY = SEED_IDS.pages.bakery;
const POST = `/pages/${BAKERY}/posts/${SOURDOUGH}`;
const STORY_PAGE = `/pages/${BAKERY}/posts/${STORY}`;
const SCOPES = 'pages_show_list pages_read_engagement pages_read_user_content read_insights';

/** What the page shows: its one line on what is missing (text and link), its viewers line, its comments. */
function seen(html: string) {
  const missing = findAll(html, { class: 'extras-missing' });
  const link = missing[0] && find(missing[0], 'a');
  return {
    missing: missing[0] && textOf(missing[0]),
    lines: missing.length,
    retry: link && { label: textOf(link), href: attr(link, 'href') },
    viewers: find(html, { class: 'post-viewers' }) !== undefined,
    heading: headline(html),
    comments: findAll(html, { class: 'comment' }).length,
  };
}

describe('GET /pages/:pageId/posts/:postId when an extra is late or fails', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES, POST_EXTRAS_DEADLINE_MS: '200', PAGE_CACHE_TTL: '60' } });
  beforeEach(() => stack.emulator.controls.reset());

  it('when the post insights hang, then the post and its comments show, with one line saying the viewers are missing and a link to try again', async () => {
    const person = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.failNext(1, { kind: 'hang', match: '/insights' });
    const page = seen((await person.get(POST).expect(200)).text);
    expect(page.heading).toMatch(/^Post of /);
    expect(page.comments).toBeGreaterThan(0);
    expect(page.viewers).toBe(false);
    expect(page.lines).toBe(1);
    expect(page.missing).toMatch(/viewers/);
    expect(page.retry).toEqual({ label: 'Try again', href: POST });
  });

  it('when the comments are late, then the post shows with one line saying the comments are missing, and once they came, trying again shows them from the cache', async () => {
    const person = await connectedAgent(stack, BAKERY);
    // Far past the deadline (200 ms), within the provider timeout: the page does not wait; the read fills the cache.
    stack.emulator.controls.failNext(1, { kind: 'slow', ms: 1000, match: `${STORY}/comments` });
    const page = seen((await person.get(STORY_PAGE).expect(200)).text);
    expect(page.heading).toMatch(/^Post of /);
    expect(page.comments).toBe(0);
    expect(page.missing).toMatch(/comments/);
    expect(page.missing).not.toMatch(/viewers/);
    const log = stack.emulator.controls;
    // The late answer came and went into the cache (within the app's own provider timeout of 1.5 s).
    await eventually(() => stack.cache.entries().some(({ key }) => key.includes(`comments\u0000${STORY}`)));
    const calls = log.requestLog.length;
    const again = seen((await person.get(page.retry!.href!).expect(200)).text);
    expect(again.comments).toBeGreaterThan(0);
    expect(again.missing).toBeUndefined();
    expect(log.requestLog.slice(calls).filter((e) => e.path.endsWith('/comments'))).toEqual([]);
  });

  it('when the provider fails an open replies thread, then the post and its comments show, with one line saying the replies are missing', async () => {
    const person = await connectedAgent(stack, BAKERY);
    const first = (await person.get(POST).expect(200)).text;
    const url = links(first)
      .find((l) => l.href.includes('?replies='))!
      .href.replace(/#.*/, '');
    const comment = new URL(url, 'http://app.test').searchParams.get('replies')!;
    // More failures than the app's retries take: the thread fails, whatever the retry policy.
    stack.emulator.controls.failNext(5, {
      status: 500,
      error: { code: 2, message: 'Service temporarily unavailable' },
      match: `${comment}/comments`,
    });
    const page = seen((await person.get(url).expect(200)).text);
    expect(page.comments).toBeGreaterThan(0);
    expect(page.missing).toMatch(/replies/);
    expect(page.retry?.href).toBe(url);
    expect(stack.emulator.controls.clearFailures()).toBeLessThan(5);
  });
});
