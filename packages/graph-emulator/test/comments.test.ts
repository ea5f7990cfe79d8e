import { TEST_SEED } from '../src';
import { BEFORE_V27, graphError, graphGet, makeEmulator, PAGES, pageToken, userToken } from './helpers';

const ORIGIN = 'http://graph.example.test';
const bakeryFeed = TEST_SEED.pages.find((p) => p.id === PAGES.bakery)!.feed;
/** Three comments, the second with two replies (the first reply by the Page). */
const SOURDOUGH = bakeryFeed[0]!.id;
/** Thirty comments. */
const STORY = bakeryFeed[5]!.id;
/** A video with reactions of every kind. */
const VIDEO = bakeryFeed[7]!.id;
const RYE = SOURDOUGH.split('_')[1] + '_1001';

/**
 * Comments, reactions by kind and videos as the provider answers them (docs/specification.md#comments,
 * docs/specification.md#post-page).
 */
describe('comments, reactions by kind and videos', () => {
  const { app, controls } = makeEmulator({ publicUrl: ORIGIN });
  let ada: string;
  let bakery: string;
  let withoutComments: string;
  beforeAll(async () => {
    ada = await userToken(app);
    bakery = await pageToken(app, ada, PAGES.bakery);
    const narrow = await userToken(app, { perms: ['pages_show_list', 'pages_read_engagement'] });
    withoutComments = await pageToken(app, narrow, PAGES.bakery);
  });
  afterEach(() => controls.reset());
  const get = (path: string, query: Record<string, string>, token = bakery) =>
    graphGet(app, `/v23.0${path}`, token).query(query);

  it('when an app created before 2026-11-04 asks for each reaction kind under an alias, then one answer carries every count under its alias', async () => {
    controls.setAppCreated(BEFORE_V27);
    const fields = ['LIKE', 'LOVE', 'CARE', 'ANGRY']
      .map((t) => `reactions.type(${t}).limit(0).summary(total_count).as(reactions_${t.toLowerCase()})`)
      .join(',');
    const res = await get(`/${VIDEO}`, { fields: `${fields},reactions.summary(total_count).limit(0)` }).expect(200);
    expect(res.body).toEqual({
      id: VIDEO,
      reactions_like: { data: [], summary: { total_count: 40 } },
      reactions_love: { data: [], summary: { total_count: 12 } },
      reactions_care: { data: [], summary: { total_count: 3 } },
      reactions_angry: { data: [], summary: { total_count: 1 } },
      reactions: { data: [], summary: { total_count: 60 } },
    });
  });

  it('when reactions of one type are listed, then only that type', async () => {
    const res = await get(`/${VIDEO}`, { fields: 'reactions.type(CARE).limit(10){type}' }).expect(200);
    expect(res.body.reactions.data).toEqual([{ type: 'CARE' }, { type: 'CARE' }, { type: 'CARE' }]);
  });

  it('when a modifier or an older app’s alias is malformed, then the provider’s syntax error (100)', async () => {
    controls.setAppCreated(BEFORE_V27);
    for (const fields of ['reactions.type(HUG)', 'reactions.as()', 'comments.filter(all)', 'comments.order(random)']) {
      const res = await get(`/${VIDEO}`, { fields }).expect(400);
      expect(graphError(res.body).code).toBe(100);
    }
  });

  it('when a video post asks for its attachment, then media has the poster image and the file as source, both signed', async () => {
    const res = await get(`/${VIDEO}`, { fields: 'attachments{type,media}' }).expect(200);
    expect(res.body.attachments.data[0]).toEqual({
      type: 'video_inline',
      media: {
        image: {
          src: expect.stringMatching(/^http:\/\/graph\.example\.test\/media\/croissants_720x405\.svg\?oh=/),
          width: 720,
          height: 405,
        },
        source: expect.stringMatching(/^http:\/\/graph\.example\.test\/media\/croissants_720x405\.webm\?oh=/),
      },
    });
    const source = new URL(res.body.attachments.data[0].media.source as string);
    const file = await graphGet(app, `${source.pathname}${source.search}`, bakery).expect(200);
    expect(file.headers['content-type']).toBe('video/webm');
  });

  it('when /<post_id>/comments is read, then top-level comments with from, like_count and comment_count, oldest first', async () => {
    const res = await get(`/${SOURDOUGH}/comments`, {
      fields: 'id,from,message,like_count,comment_count',
      summary: 'total_count',
    }).expect(200);
    expect(res.body.data.map((c: { message: string }) => c.message)).toEqual([
      'Saving one for me!',
      'Is the rye back too?',
      '<b>Best</b> loaf in town',
    ]);
    expect(res.body.data[1]).toMatchObject({ id: RYE, like_count: 1, comment_count: 2 });
    expect(res.body.data[1].from).toEqual({ id: expect.stringMatching(/^\d+$/), name: expect.any(String) });
    expect(res.body.summary).toEqual({ total_count: 3 });
  });

  it('when order=reverse_chronological and filter=stream, then newest first with the replies among them', async () => {
    const res = await get(`/${SOURDOUGH}/comments`, {
      fields: 'message',
      filter: 'stream',
      order: 'reverse_chronological',
    }).expect(200);
    expect(res.body.data).toHaveLength(5);
    expect(res.body.data[0].message).toBe('<b>Best</b> loaf in town');
  });

  it('when a comment’s replies are read, then the Page’s own reply names the Page', async () => {
    const res = await get(`/${RYE}/comments`, { fields: 'from,message' }).expect(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0].from).toEqual({ id: PAGES.bakery, name: 'Lovelace Analytical Bakery' });
  });

  it('when there are more comments than the limit, then cursors and a next link that carries the token, and after goes on', async () => {
    const first = await get(`/${STORY}/comments`, { fields: 'message', limit: '25' }).expect(200);
    expect(first.body.data).toHaveLength(25);
    expect(first.body.paging.next).toContain('access_token=');
    const rest = await get(`/${STORY}/comments`, {
      fields: 'message',
      limit: '25',
      after: first.body.paging.cursors.after,
    }).expect(200);
    expect(rest.body.data).toHaveLength(5);
    expect(rest.body.paging.next).toBeUndefined();
  });

  it('when the token lacks pages_read_user_content, then the comments are refused with (#10) and their count still answers', async () => {
    const res = await get(`/${SOURDOUGH}/comments`, {}, withoutComments).expect(403);
    expect(graphError(res.body)).toMatchObject({
      code: 10,
      message: "(#10) This endpoint requires the 'pages_read_user_content' permission",
    });
    const count = await get(`/${SOURDOUGH}`, { fields: 'comments.summary(total_count).limit(0)' }, withoutComments);
    expect(count.status).toBe(200);
    expect(count.body.comments.summary.total_count).toBe(3);
  });

  it('when a user token reads the comments, then the page-token error as for the post', async () => {
    const res = await get(`/${SOURDOUGH}/comments`, {}, ada).expect(400);
    expect(graphError(res.body).code).toBe(210);
  });

  it('when the control adds a comment and a reply, then the edges serve them under their parent; an unknown parent is refused', async () => {
    const { id } = controls.addComment({ postId: SOURDOUGH, message: 'New here' });
    controls.addComment({ postId: SOURDOUGH, message: 'Welcome!', parentId: id, byPage: true });
    const res = await get(`/${SOURDOUGH}/comments`, { fields: 'message,comment_count' }).expect(200);
    expect(res.body.data[3]).toEqual({ id, message: 'New here', comment_count: 1 });
    expect(() => controls.addComment({ postId: SOURDOUGH, message: 'x', parentId: '1_2' })).toThrow('Unknown comment');
  });
});
