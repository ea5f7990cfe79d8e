import { TEST_SEED } from '../src';
import { graphError, graphGet, makeEmulator, PAGES, pageToken, useBakeryTokens, userToken } from './helpers';

const ORIGIN = 'http://graph.example.test';
const bakeryFeed = TEST_SEED.pages.find((p) => p.id === PAGES.bakery)!.feed;
/** Seeded posts by their place in the bakery feed (seed-media.ts). */
const SOURDOUGH = bakeryFeed[0]!.id;
const ALBUM = bakeryFeed[4]!.id;
const LINK = bakeryFeed[9]!.id;
const PLAIN = bakeryFeed[2]!.id;
/** A picture URL as the CDN hands it out: the scene's path, signed and expiring (docs/specification.md#image-urls). */
const signed = (path: string) =>
  expect.stringMatching(new RegExp(`^${ORIGIN}${path.replace(/\./g, '\\.')}\\?oh=00_[\\w-]{43}&oe=[0-9A-F]{8}$`));

describe('Graph field expansion on posts and pages', () => {
  const { app, controls } = makeEmulator({ publicUrl: ORIGIN });
  const tokens = useBakeryTokens(app);
  const get = (path: string, fields: string, token = tokens.bakery, extra: Record<string, string> = {}) =>
    graphGet(app, `/v23.0${path}`, token).query({ fields, ...extra });

  describe('GET /<post_id>', () => {
    it('when the post has a photo, then full_picture and permalink_url are absolute URLs, shares is {count}', async () => {
      const res = await get(`/${SOURDOUGH}`, 'full_picture,permalink_url,shares').expect(200);
      expect(res.body).toEqual({
        id: SOURDOUGH,
        full_picture: signed('/media/sourdough_720x720.svg'),
        permalink_url: `https://www.facebook.com/${PAGES.bakery}/posts/${SOURDOUGH.split('_')[1]}`,
        shares: { count: 4 },
      });
    });

    it('when a field is unset on the post, then it is omitted, never null', async () => {
      const res = await get(`/${PLAIN}`, 'message,full_picture,attachments,shares').expect(200);
      expect(Object.keys(res.body as object).sort()).toEqual(['id', 'message']);
    });

    it('when no fields are given, then id, created_time and message/story as in the feed', async () => {
      const res = await graphGet(app, `/v23.0/${PLAIN}`, tokens.bakery).expect(200);
      expect(res.body).toEqual({
        id: PLAIN,
        created_time: bakeryFeed[2]!.created_time,
        message: bakeryFeed[2]!.message,
      });
    });

    it('when reactions and comments are asked with .summary(total_count).limit(0), then {data:[], summary:{total_count}}', async () => {
      const res = await get(
        `/${SOURDOUGH}`,
        'reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0)',
      ).expect(200);
      expect(res.body).toEqual({
        id: SOURDOUGH,
        reactions: { data: [], summary: { total_count: 18 } },
        comments: { data: [], summary: { total_count: 3 } },
      });
    });

    it('when .summary(true) is asked, then the whole summary; a post without any gives zero', async () => {
      const res = await get(`/${SOURDOUGH}`, 'comments.summary(true).limit(0),reactions.summary(true).limit(0)');
      expect(res.body).toMatchObject({
        comments: { data: [], summary: { order: 'ranked', total_count: 3, can_comment: true } },
        reactions: { data: [], summary: { total_count: 18, viewer_reaction: 'NONE' } },
      });
      const none = await get(`/${PLAIN}`, 'reactions.summary(total_count).limit(0)').expect(200);
      expect(none.body).toEqual({ id: PLAIN, reactions: { data: [], summary: { total_count: 0 } } });
    });

    it('when reactions are listed with .limit(2), then two people with their type and opaque cursors, no summary unless asked', async () => {
      const res = await get(`/${SOURDOUGH}`, 'reactions.limit(2){type,name}').expect(200);
      const { reactions } = res.body as { reactions: Record<string, unknown> };
      expect(reactions.data).toEqual([
        { type: 'LIKE', name: 'Reader 1' },
        { type: 'LIKE', name: 'Reader 2' },
      ]);
      expect(reactions.summary).toBeUndefined();
      expect(reactions.paging).toEqual({
        cursors: { before: expect.stringMatching(/^[\w-]{300,}$/), after: expect.stringMatching(/^[\w-]{300,}$/) },
      });
    });

    it('when the activity controls change reactions, then the summary follows', async () => {
      controls.setReactions(PLAIN, { like: 2, love: 1 });
      const res = await get(`/${PLAIN}`, 'reactions.summary(total_count).limit(0)').expect(200);
      expect(res.body).toMatchObject({ reactions: { summary: { total_count: 3 } } });
      controls.reset();
    });

    it('when comments are listed with the page token, then id, created_time, from and message of each (escaping is the reader’s job)', async () => {
      const res = await get(`/${SOURDOUGH}`, 'comments.limit(5)').expect(200);
      const { comments } = res.body as { comments: { data: Record<string, string>[] } };
      expect(comments.data).toHaveLength(3);
      expect(comments.data[2]).toEqual({
        id: expect.stringMatching(/^\d+_\d+$/),
        created_time: '2026-10-01T13:02:00+0000',
        from: { id: expect.stringMatching(/^\d+$/), name: expect.any(String) },
        message: '<b>Best</b> loaf in town',
      });
    });

    it('when a photo post asks for attachments, then {data:[{type, media{image{src,width,height}}}]}', async () => {
      const res = await get(`/${SOURDOUGH}`, 'attachments').expect(200);
      expect(res.body).toEqual({
        id: SOURDOUGH,
        attachments: {
          data: [
            {
              type: 'photo',
              media_type: 'photo',
              media: { image: { src: signed('/media/sourdough_720x720.svg'), width: 720, height: 720 } },
            },
          ],
        },
      });
    });

    it('when a link post asks for attachments{title,url,type}, then the link and nothing else', async () => {
      const res = await get(`/${LINK}`, 'attachments{title,url,type}').expect(200);
      expect(res.body).toEqual({
        id: LINK,
        attachments: {
          data: [
            {
              title: 'The bakery blog: notes on the Analytical Loaf',
              url: 'https://lovelace-bakery.example/blog?utm=1&x=<b>bold</b>',
              type: 'share',
            },
          ],
        },
      });
    });

    it('when an album asks for subattachments.limit(3), then three of its five photos', async () => {
      const res = await get(
        `/${ALBUM}`,
        'attachments{media,type,title,url,subattachments.limit(3){title,media{image{src}}}}',
      ).expect(200);
      const album = (res.body as { attachments: { data: Record<string, unknown>[] } }).attachments.data[0]!;
      expect(album).toMatchObject({
        type: 'album',
        title: 'Photos of the week',
        url: expect.stringMatching(/^https:/),
      });
      expect(album.subattachments).toEqual({
        data: [1, 2, 3].map((n) => ({
          title: `Week photo ${n}`,
          media: {
            image: { src: signed(`/media/${['sourdough', 'croissants', 'cinnamon-buns'][n - 1]}_720x720.svg`) },
          },
        })),
      });
    });

    it.each([
      ['attachments{media,colour}', 'colour', 'StoryAttachment'],
      ['attachments{media{image{alt}}}', 'alt', 'Image'],
      ['reactions{type,mood}', 'mood', 'Reaction'],
      ['shares{total}', 'total', 'Shares'],
      ['likes.summary(true)', 'likes', 'Post'],
    ])('when %s names an unknown nested field, then 100 naming it and its node type', async (fields, field, type) => {
      const res = await get(`/${PLAIN}`, fields).expect(400);
      expect(graphError(res.body)).toMatchObject({
        code: 100,
        message: `(#100) Tried accessing nonexisting field (${field}) on node type (${type})`,
      });
    });

    it('when a plain field is given a nested selection, then 100', async () => {
      const res = await get(`/${PLAIN}`, 'message{text}').expect(400);
      expect(graphError(res.body).message).toBe('(#100) Field message of node type (Post) takes no nested selection');
    });

    it('when the expression is malformed, then 100 with the syntax message', async () => {
      const res = await get(`/${PLAIN}`, 'attachments{media').expect(400);
      expect(graphError(res.body)).toMatchObject({
        code: 100,
        message: '(#100) Syntax error "Expected "}" instead of end of string." at character 17: attachments{media',
      });
    });

    it('when a page token without pages_read_user_content lists comments, then 10 naming it; the count alone still works', async () => {
      const narrow = await userToken(app, { perms: ['pages_show_list', 'pages_read_engagement'] });
      const token = await pageToken(app, narrow, PAGES.bakery);
      await get(`/${SOURDOUGH}`, 'comments.summary(total_count).limit(0),reactions.limit(1)', token).expect(200);
      const res = await get(`/${SOURDOUGH}`, 'comments', token).expect(403);
      expect(graphError(res.body)).toMatchObject({
        code: 10,
        message: expect.stringContaining("'pages_read_user_content'"),
      });
    });

    it('when a page token lacks pages_read_engagement, or belongs to another page, or a user token asks, then the Page node’s errors', async () => {
      const noEngagement = await pageToken(app, await userToken(app, { perms: ['pages_show_list'] }), PAGES.bakery);
      expect(graphError((await get(`/${SOURDOUGH}`, 'message', noEngagement).expect(403)).body).code).toBe(10);
      const sparse = await pageToken(app, tokens.ada, PAGES.sparse);
      expect(graphError((await get(`/${SOURDOUGH}`, 'message', sparse).expect(403)).body).code).toBe(10);
      expect(graphError((await get(`/${SOURDOUGH}`, 'message', tokens.ada).expect(400)).body).code).toBe(210);
    });

    it('when the post does not exist, or a post edge it does not serve on its own is asked for, then 100/33', async () => {
      const missing = await get(`/${PAGES.bakery}_1`, 'message').expect(400);
      expect(graphError(missing.body)).toMatchObject({ code: 100, error_subcode: 33 });
      // Of a post's edges, comments, insights and reactions are served on their own (README#legacy-features).
      const edge = await get(`/${SOURDOUGH}/sharedposts`, 'message').expect(400);
      expect(graphError(edge.body)).toMatchObject({ code: 100, error_subcode: 33 });
    });
  });

  describe('GET /<page_id>/feed', () => {
    it('when the feed asks for summaries, then each post carries them, and paging links repeat the expression', async () => {
      const fields = 'message,full_picture,reactions.summary(total_count).limit(0),comments.summary(true).limit(0)';
      const res = await get(`/${PAGES.bakery}/feed`, fields, tokens.bakery, { limit: '3' }).expect(200);
      const body = res.body as { data: Record<string, unknown>[]; paging: { next: string } };
      expect(body.data[0]).toMatchObject({
        id: SOURDOUGH,
        full_picture: signed('/media/sourdough_720x720.svg'),
        reactions: { data: [], summary: { total_count: 18 } },
        comments: { data: [], summary: { total_count: 3 } },
      });
      expect(body.data[2]).toEqual({
        id: PLAIN,
        message: bakeryFeed[2]!.message,
        reactions: { data: [], summary: { total_count: 0 } },
        comments: { data: [], summary: { order: 'ranked', total_count: 0, can_comment: true } },
      });
      expect(new URL(body.paging.next).searchParams.get('fields')).toBe(fields);
    });

    it('when the feed names an unknown nested field, then 100 even on a page whose feed is empty', async () => {
      const sparse = await pageToken(app, tokens.ada, PAGES.sparse);
      const res = await get(`/${PAGES.sparse}/feed`, 'attachments{nope}', sparse).expect(400);
      expect(graphError(res.body).message).toBe(
        '(#100) Tried accessing nonexisting field (nope) on node type (StoryAttachment)',
      );
    });

    it('when the app’s own field list is used, then every post is exactly id, created_time and message/story as before', async () => {
      const res = await get(`/${PAGES.bakery}/feed`, 'id,created_time,message,story', tokens.bakery, { limit: '100' });
      const expected = bakeryFeed.slice(0, 50).map(({ id, created_time, message, story }) => ({
        id,
        created_time,
        ...(message !== undefined ? { message } : {}),
        ...(story !== undefined ? { story } : {}),
      }));
      expect((res.body as { data: unknown[] }).data.slice(0, 50)).toEqual(expected);
    });
  });

  describe('GET /<page_id>', () => {
    it('when followers_count, link, category, cover are asked, then the Page reference shapes', async () => {
      const res = await get(`/${PAGES.bakery}`, 'followers_count,link,category,cover').expect(200);
      expect(res.body).toEqual({
        id: PAGES.bakery,
        followers_count: 1907,
        link: `https://www.facebook.com/${PAGES.bakery}`,
        category: 'Bakery',
        cover: { id: '104735298799001', source: signed('/media/bakery-cover_1200x450.svg'), offset_x: 0, offset_y: 42 },
      });
    });

    it('when picture is asked plain, with .type(large) and with a nested selection, then {data:{url,width,height,is_silhouette}}', async () => {
      const plain = await get(`/${PAGES.bakery}`, 'picture').expect(200);
      expect(plain.body).toEqual({
        id: PAGES.bakery,
        picture: {
          data: { height: 50, is_silhouette: false, url: signed('/media/bakery-logo_50x50.svg'), width: 50 },
        },
      });
      const large = await get(`/${PAGES.bakery}`, 'picture.type(large){url,width}').expect(200);
      expect(large.body).toEqual({
        id: PAGES.bakery,
        picture: { data: { url: signed('/media/bakery-logo_200x200.svg'), width: 200 } },
      });
    });

    it('when a page has no picture or cover, then a silhouette, and cover is omitted', async () => {
      const sparse = await pageToken(app, tokens.ada, PAGES.sparse);
      const res = await get(`/${PAGES.sparse}`, 'picture{is_silhouette},cover,followers_count', sparse).expect(200);
      expect(res.body).toEqual({ id: PAGES.sparse, picture: { data: { is_silhouette: true } } });
    });

    it('when the app’s page field list is used, then the answer is the seeded fields exactly', async () => {
      const fields = 'name,about,attire,bio,location,parking,hours,emails,website';
      const res = await get(`/${PAGES.bakery}`, fields).expect(200);
      const seed = TEST_SEED.pages.find((p) => p.id === PAGES.bakery)!;
      expect(res.body).toEqual({
        id: PAGES.bakery,
        name: seed.name,
        about: seed.about,
        attire: seed.attire,
        bio: seed.bio,
        location: seed.location,
        parking: seed.parking,
        hours: seed.hours,
        emails: seed.emails,
        website: seed.website,
      });
    });

    it('when /me/accounts and /me use the app’s lists, then the same plain answers; a nested selection on them is refused', async () => {
      const accounts = await get('/me/accounts', 'id,name,category,tasks', tokens.ada).expect(200);
      expect((accounts.body as { data: unknown[] }).data[0]).toEqual({
        id: PAGES.bakery,
        name: 'Lovelace Analytical Bakery',
        category: 'Bakery',
        tasks: expect.any(Array),
      });
      const me = await get('/me', 'id,name', tokens.ada).expect(200);
      expect(me.body).toEqual({ id: expect.any(String), name: 'Ada Lovelace' });
      expect(graphError((await get('/me', 'name{x}', tokens.ada).expect(400)).body).code).toBe(100);
    });

    it('when /me/accounts asks for the picture and followers by field expansion, then each Page carries them in the same call', async () => {
      const fields = 'id,name,followers_count,picture.type(normal){url,is_silhouette}';
      const res = await get('/me/accounts', fields, tokens.ada).expect(200);
      const data = (res.body as { data: Record<string, unknown>[] }).data;
      const bakery = data.find((p) => p.id === PAGES.bakery)!;
      expect(bakery).toEqual({
        id: PAGES.bakery,
        name: 'Lovelace Analytical Bakery',
        followers_count: TEST_SEED.pages.find((p) => p.id === PAGES.bakery)!.followers_count,
        picture: { data: { url: expect.stringMatching(/^http/), is_silhouette: false } },
      });
      // The Page without a picture gets the silhouette; without followers, the field is left out.
      const sparse = data.find((p) => p.id === PAGES.sparse)!;
      expect(sparse).toEqual({
        id: PAGES.sparse,
        name: expect.any(String),
        picture: { data: { url: expect.any(String), is_silhouette: true } },
      });
      expect(graphError((await get('/me/accounts', 'id,no_such_field', tokens.ada).expect(400)).body).code).toBe(100);
    });
  });
});
