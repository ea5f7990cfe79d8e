import { SEED_IDS } from '@pagelight/graph-emulator';
import { findAll, attr, find, headingTexts, images, links, linkTo, textOf } from '../support/dom';
import { connectedAgent } from '../support/flow';
import { graphCalls } from '../support/emulator';
import { ALBUM, SOURDOUGH, STORY, VIDEO } from '../support/posts';
import { useStack } from '../support/stack';
import { headline, hrefOf, visibleText } from '../support/words';

const BAKERY = SEED_IDS.pages.bakery;
const CAFE = SEED_IDS.pages.cafe;
/** A seeded comment whose words look like markup: a person reads them as they were written. */
const BEST_LOAF = '<b>Best</b> loaf in town';
const WITH_COMMENTS = { env: { FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content' } };

/** A post of its own (docs/architecture.md#post-page). */
describe('GET /pages/:pageId/posts/:postId', () => {
  describe('without pages_read_user_content', () => {
    const stack = useStack();

    /** Opens the video post as a newly connected person; its HTML and the provider calls it cost. */
    const openVideo = async () => {
      const agent = await connectedAgent(stack, BAKERY);
      const before = stack.emulator.controls.log.length;
      const html = (await agent.get(`/pages/${BAKERY}/posts/${VIDEO}`).expect(200)).text;
      return { html, calls: stack.emulator.controls.log.slice(before).filter((e) => e.kind !== 'dialog') };
    };

    it('when a post is opened, then the whole post and its reactions by kind come from one batch call, without field aliases', async () => {
      const { calls } = await openVideo();
      expect(calls.map((call) => [call.method, call.path, call.status])).toEqual([['POST', '/v27.0/', 200]]);
      const ops = JSON.parse(calls[0]!.form.batch ?? '[]') as { method: string; relative_url: string }[];
      expect(ops.map((op) => op.relative_url.split('?')[0])).toEqual([
        VIDEO,
        ...Array.from({ length: 7 }, () => `${VIDEO}/reactions`),
      ]);
      expect(ops.filter((op) => /\.\s*as\s*\(/.test(decodeURIComponent(op.relative_url)))).toEqual([]);
    });

    it('when a post is opened, then its reactions show by kind, each with its count', async () => {
      const { html } = await openVideo();
      const reactions = findAll(html, { tag: 'li', class: 'reaction' }).map(textOf);
      expect(reactions).toEqual(['Like 40', 'Love 12', 'Care 3', 'Haha 1', 'Wow 2', 'Sad 1', 'Angry 1']);
    });

    it('when a video post is opened, then the video plays on request, sized, with its poster, and no comments are claimed', async () => {
      const { html } = await openVideo();
      const video = find(html, 'video')!;
      expect([attr(video, 'controls'), attr(video, 'preload'), attr(video, 'width'), attr(video, 'height')]).toEqual([
        '',
        'none',
        '720',
        '405',
      ]);
      expect(attr(video, 'poster')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/croissants_720x405\.svg\?./);
      expect(attr(find(video, 'source')!, 'src')).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/media\/croissants_720x405\.webm\?./,
      );
      expect(visibleText(html)).toContain('No comments yet.');
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
      expect(visibleText(html)).toContain(
        "This Pagelight isn't set up to show comments. Whoever runs it can turn them on.",
      );
      expect(links(html).filter((l) => l.href.includes('rerequest=1'))).toEqual([]);
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
      const album = find(html, { tag: 'ol', class: 'album' })!;
      expect(attr(album, 'aria-label')).toBe('5 photos');
      const figures = findAll(album, 'li').map((li) => find(li, 'figure'));
      expect(figures).toHaveLength(5);
      expect(figures.map((figure) => links(figure!).length)).toEqual([1, 1, 1, 1, 1]);
      const alts = images(album).map((img) => img.alt);
      expect(alts).toContain('Photo 1 of 5: Week photo 1');
      expect(alts).toContain('Photo 5 of 5: Week photo 5');
    });

    it('when the feed shows a post, then its counts and its "+N" lead to the post page', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      const html = (await agent.get(`/pages/${BAKERY}`).expect(200)).text;
      const counts = findAll(html, { tag: 'a', class: 'counts' }).map((a) => attr(a, 'href'));
      expect(counts).toContain(`/pages/${BAKERY}/posts/${SOURDOUGH}`);
      expect(linkTo(html, /^\+4\b/)?.href).toBe(`/pages/${BAKERY}/posts/${ALBUM}`);
    });

    it('when the post id is malformed or names another page, then the 404 page and no upstream call', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      const before = graphCalls(stack);
      for (const id of ['abc', `${BAKERY}`, `${BAKERY}_`, `${CAFE}_1`, `${BAKERY}_1_2`, '..%2F..']) {
        const res = await agent.get(`/pages/${BAKERY}/posts/${id}`);
        expect(res.status).toBe(404);
        expect(headline(res.text)).not.toBe('');
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
      const list = textOf(find(html, { id: 'comment-list' })!);
      // Newest first, and escaped: the markup in a comment is read as its words.
      const newest = list.indexOf(BEST_LOAF);
      expect(newest).toBeGreaterThanOrEqual(0);
      expect(newest).toBeLessThan(list.indexOf('Saving one for me!'));
      expect(list).toContain('3 likes');
      // Each comment names its author, then its time.
      for (const comment of findAll(html, { tag: 'article', class: 'comment' })) {
        const meta = find(comment, { tag: 'p', class: 'meta' })!;
        expect(attr(find(meta, 'strong')!, 'id')).toBe(`${attr(comment, 'id')}-by`);
        expect(attr(find(meta, 'time')!, 'datetime')).toBeDefined();
      }
      // Replies are a link until opened.
      const link = linkTo(html, /^2 replies/)?.href;
      expect(link).toMatch(/^\/pages\/\d+\/posts\/[\d_]+\?replies=[\d_]+#comment-[\d_]+$/);
      const opened = (await agent.get(link!.replace(/#.*/, '')).expect(200)).text;
      const pageReply = findAll(opened, { tag: 'article', class: 'by-page' })[0]!;
      expect(textOf(find(pageReply, { tag: 'span', class: 'badge' })!)).toBe('Page');
      expect(linkTo(opened, 'https://lovelace-bakery.example/rye')).toMatchObject({
        href: 'https://lovelace-bakery.example/rye',
        rel: ['noopener', 'noreferrer', 'nofollow'],
      });
      // Each text inside its own comment, after its author.
      const twice = findAll(opened, { tag: 'article', class: 'comment' }).find(
        (c) => textOf(find(c, { tag: 'div', class: 'text' })!) === 'Then I am coming twice.',
      );
      expect(twice && textOf(find(twice, 'strong')!)).toBeTruthy();
    });

    it('when a post has more comments than one page, then "More comments" goes on by cursor to the rest', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      const first = (await agent.get(`/pages/${BAKERY}/posts/${STORY}`).expect(200)).text;
      expect(first).toContain('Question 30:');
      expect(first).not.toContain('Question 5:');
      const more = hrefOf(first, 'More comments');
      expect(more).toBeDefined();
      const second = (await agent.get(more!.replace(/#.*/, '')).expect(200)).text;
      expect(second).toContain('Question 5:');
      expect(second).toContain('Question 1:');
      expect(second).not.toContain('Question 30:');
      expect(hrefOf(second, 'More comments')).toBeUndefined();
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
      expect(linkTo(html, /^\d[\d,]* (person viewed|people viewed) this post$/)?.href).toBe('#post-figures');
      const insights = () => stack.emulator.controls.log.filter((e) => e.path.endsWith(`/${SOURDOUGH}/insights`));
      expect(insights()).toHaveLength(1);
      expect(insights()[0]!.query).toMatchObject({ metric: 'post_total_media_view_unique' });
    });

    it('when the provider refuses the metric, then the post still shows, without a viewers line', async () => {
      const agent = await connectedAgent(stack, BAKERY);
      stack.emulator.controls.refuseMetric('post_total_media_view_unique');
      const html = (await agent.get(`/pages/${BAKERY}/posts/${ALBUM}`).expect(200)).text;
      expect(find(html, { tag: 'article', class: 'post-page' })).toBeDefined();
      expect(find(html, { class: 'post-viewers' })).toBeUndefined();
    });
  });
});
