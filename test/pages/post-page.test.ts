import { SEED_IDS, TEST_SEED } from '@pagelight/graph-emulator';
import { headingTexts } from '../support/dom';
import { connectedAgent } from '../support/flow';
import { graphCalls } from '../support/emulator';
import { useStack } from '../support/stack';
import { visibleText } from '../support/words';

const BAKERY = SEED_IDS.pages.bakery;
const CAFE = SEED_IDS.pages.cafe;
const feed = TEST_SEED.pages.find((p) => p.id === BAKERY)!.feed;
/** "Fresh sourdough…": three comments, one with two replies (one by the Page). */
const SOURDOUGH = feed[0]!.id;
/** The album of five photos. */
const ALBUM = feed[4]!.id;
/** Thirty comments: more than one page of them. */
const STORY = feed[5]!.id;
/** A video, and reactions of every kind. */
const VIDEO = feed[7]!.id;
const WITH_COMMENTS = { env: { FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content' } };

/** A post of its own (docs/architecture.md#post-page). */
describe('GET /pages/:pageId/posts/:postId', () => {
  describe('without pages_read_user_content', () => {
    const stack = useStack();

    it('when a post is opened by a new app, then the whole post and reactions by kind come from one batch call without field aliases, and the comments are counted with what to grant', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      const before = graphCalls(stack);
      const html = (await agent.get(`/pages/${BAKERY}/posts/${VIDEO}`).expect(200)).text;
      expect(graphCalls(stack) - before).toBe(1);
      const call = stack.emulator.controls.log.at(-1)!;
      expect([call.method, call.path, call.status]).toEqual(['POST', '/v27.0/', 200]);
      const ops = JSON.parse(call.form.batch ?? '[]') as { method: string; relative_url: string }[];
      expect(ops.map((op) => op.relative_url.split('?')[0])).toEqual([
        VIDEO,
        ...Array.from({ length: 7 }, () => `${VIDEO}/reactions`),
      ]);
      expect(ops.filter((op) => /\.\s*as\s*\(/.test(decodeURIComponent(op.relative_url)))).toEqual([]);
      for (const [label, n] of [
        ['Like', 40],
        ['Love', 12],
        ['Care', 3],
        ['Haha', 1],
        ['Wow', 2],
        ['Sad', 1],
        ['Angry', 1],
      ] as const) {
        expect(html).toContain(`<span class="label">${label}</span> <strong>${n}</strong>`);
      }
      expect(html).toMatch(
        /<video controls preload="none" width="720" height="405" poster="http:\/\/127\.0\.0\.1:\d+\/media\/croissants_720x405\.svg\?[^"]+"/,
      );
      expect(html).toMatch(/<source src="http:\/\/127\.0\.0\.1:\d+\/media\/croissants_720x405\.webm\?[^"]+">/);
      expect(html).toContain('No comments yet.');
    });

    it('when the provider refuses one kind’s count, then that kind shows as unknown, not 0, and the others show', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      stack.emulator.controls.failNext(1, { match: 'type=LOVE', error: { code: 4 } });
      const html = (await agent.get(`/pages/${BAKERY}/posts/${VIDEO}`).expect(200)).text;
      expect(visibleText(html)).toContain('Love unknown');
      expect(visibleText(html)).toContain('Like 40');
      expect(visibleText(html)).not.toContain('Love 0');
    });

    it('when a post has comments, then their count shows with who can turn them on, no Ask again, and no comments are read', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      const html = (await agent.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200)).text;
      expect(headingTexts(html, 'h2')).toContain('3 comments');
      expect(html).toContain('This Pagelight isn&#39;t set up to show comments. Whoever runs it can turn them on.');
      expect(html).not.toContain('rerequest=1');
      expect(stack.emulator.controls.log.some((e) => e.path.endsWith('/comments'))).toBe(false);
    });

    it('when the served page is checked, then the CSP plays media from itself and FB_MEDIA_ORIGINS only', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      const res = await agent.get(`/pages/${BAKERY}/posts/${VIDEO}`).expect(200);
      expect(res.headers['content-security-policy']).toContain(`media-src 'self' ${stack.emulator.url};`);
    });

    it('when an album is opened, then every photo is a figure in a list, each a link, with its own alt', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      const html = (await agent.get(`/pages/${BAKERY}/posts/${ALBUM}`).expect(200)).text;
      const album = /<ol class="album" aria-label="5 photos">([\s\S]*?)<\/ol>/.exec(html)?.[1] ?? '';
      expect(album.match(/<li><figure><a href="[^"]+"/g)).toHaveLength(5);
      expect(album).toContain('alt="Photo 1 of 5: Week photo 1"');
      expect(album).toContain('alt="Photo 5 of 5: Week photo 5"');
    });

    it('when the feed shows a post, then its counts and its "+N" lead to the post page', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      const html = (await agent.get(`/pages/${BAKERY}`).expect(200)).text;
      expect(html).toContain(`<a class="counts" href="/pages/${BAKERY}/posts/${SOURDOUGH}">`);
      expect(html).toContain(`<a class="extra" href="/pages/${BAKERY}/posts/${ALBUM}">+4`);
    });

    it('when the post id is malformed or names another page, then the 404 page and no upstream call', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      const before = graphCalls(stack);
      for (const id of ['abc', `${BAKERY}`, `${BAKERY}_`, `${CAFE}_1`, `${BAKERY}_1_2`, '..%2F..']) {
        const res = await agent.get(`/pages/${BAKERY}/posts/${id}`);
        expect(res.status).toBe(404);
        expect(res.text).toContain('<html');
      }
      expect(graphCalls(stack)).toBe(before);
    });

    it('when the page has no post by that number, then the 404 page', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      await agent.get(`/pages/${BAKERY}/posts/${BAKERY}_1`).expect(404);
    });
  });

  describe('with pages_read_user_content', () => {
    const stack = useStack(WITH_COMMENTS);

    it('when a post is opened, then its comments show, newest first, with author, time, links made safe, likes and the Page’s own marked', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      const html = (await agent.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200)).text;
      const list = html.slice(html.indexOf('<ol class="comments" id="comment-list">'));
      // Newest first, and escaped.
      const newest = list.indexOf('&lt;b&gt;Best&lt;/b&gt; loaf in town');
      expect(newest).toBeGreaterThan(0);
      expect(newest).toBeLessThan(list.indexOf('Saving one for me!'));
      expect(list).toContain('3 likes');
      expect(list).toMatch(/<strong id="comment-[\d_]+-by" dir="auto">[^<]+<\/strong> · <time datetime=/);
      // Replies are a link until opened.
      const link = /<a href="(\/pages\/\d+\/posts\/[\d_]+\?replies=[\d_]+#comment-[\d_]+)">2 replies/.exec(list);
      expect(link).not.toBeNull();
      const opened = (await agent.get(link![1]!.replace(/#.*/, '')).expect(200)).text;
      expect(opened).toContain('<span class="badge">Page</span>');
      expect(opened).toContain(
        '<a href="https://lovelace-bakery.example/rye" rel="noopener noreferrer nofollow">https://lovelace-bakery.example/rye</a>.',
      );
      // Each text inside its own comment, after its author.
      expect(opened).toMatch(
        /-by" dir="auto">[^<]+<\/strong>[^\n]*\n\s*<div class="text" dir="auto"><p>Then I am coming twice\.<\/p><\/div>/,
      );
    });

    it('when a post has more comments than one page, then "More comments" goes on by cursor to the rest', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      const first = (await agent.get(`/pages/${BAKERY}/posts/${STORY}`).expect(200)).text;
      expect(first).toContain('Question 30:');
      expect(first).not.toContain('Question 5:');
      const more = /<a class="button" rel="next" href="([^"]+)">More comments<\/a>/.exec(first)?.[1];
      expect(more).toBeDefined();
      const second = (await agent.get(more!.replace(/&amp;/g, '&').replace(/#.*/, '')).expect(200)).text;
      expect(second).toContain('Question 5:');
      expect(second).toContain('Question 1:');
      expect(second).not.toContain('Question 30:');
      expect(second).not.toContain('More comments</a>');
      expect(second).not.toContain('access_token');
    });

    it('when a cursor or a replies id is changed by hand, then a 400 with no upstream call', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      const before = graphCalls(stack);
      await agent.get(`/pages/${BAKERY}/posts/${STORY}?after=${encodeURIComponent('<x>')}`).expect(400);
      await agent.get(`/pages/${BAKERY}/posts/${STORY}?replies=1_2`).expect(400);
      await agent.get(`/pages/${BAKERY}/posts/${STORY}?replies=x`).expect(400);
      expect(graphCalls(stack)).toBe(before);
    });
  });

  describe('cached like the page', () => {
    const stack = useStack({ env: { ...WITH_COMMENTS.env, PAGE_CACHE_TTL: '60' } });

    it('when a second person opens the same post, then no upstream call; when a comment is added at the provider, then it shows', async () => {
      const first = await connectedAgent(stack, BAKERY);
      await first.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200);
      const second = await connectedAgent(stack, BAKERY);
      await second.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200);
      const before = graphCalls(stack);
      await second.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200);
      expect(graphCalls(stack)).toBe(before);
      // Not subscribed to webhooks here: the cache keeps the answer for its TTL, as for the page view.
      stack.cache.dropPart(BAKERY, 'comments');
      stack.emulator.controls.addComment({ postId: SOURDOUGH, message: 'Just arrived, still warm!' });
      const html = (await second.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200)).text;
      expect(html).toContain('Just arrived, still warm!');
    });
  });
  describe('with read_insights', () => {
    const stack = useStack({ env: { FB_SCOPES: 'pages_show_list pages_read_engagement read_insights' } });

    it('when a post is opened, then its viewers show beside it, read once from the post’s insights', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      stack.emulator.controls.clearLog();
      const html = (await agent.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200)).text;
      expect(html).toMatch(
        /<p class="post-viewers"><a href="#post-figures">\d[\d,]* (person viewed|people viewed) this post<\/a>/,
      );
      const insights = () => stack.emulator.controls.log.filter((e) => e.path.endsWith(`/${SOURDOUGH}/insights`));
      expect(insights()).toHaveLength(1);
      expect(insights()[0]!.query).toMatchObject({ metric: 'post_total_media_view_unique' });
    });

    it('when the provider refuses the metric, then the post still shows, without a viewers line', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      stack.emulator.controls.refuseMetric('post_total_media_view_unique');
      const html = (await agent.get(`/pages/${BAKERY}/posts/${ALBUM}`).expect(200)).text;
      expect(html).toContain('class="post post-page');
      expect(html).not.toContain('post-viewers');
    });
  });
});
