import request from 'supertest';
import { graphError, makeEmulator, PAGES, USERS, type TestEmulator } from './helpers';
import { receiverPerTest, subscribedToFeed } from './webhook-receiver';

const ORIGIN = 'http://graph.example.test';
const HOUR = 3_600_000;
const READ_ONLY = ['pages_show_list', 'pages_read_engagement', 'pages_read_user_content'];

/** The first bytes of a PNG of `width`×`height`: what the emulator reads to know a picture. */
function png(width: number, height: number, size = 64): Buffer {
  const head = Buffer.alloc(24);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'ascii');
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - 24), 7)]);
}

interface Post {
  id: string;
  message?: string;
  is_published?: boolean;
  scheduled_publish_time?: number;
}

/**
 * Publishing by the Page as the provider documents it (docs/reference.md#publishing): text, link and photo posts,
 * scheduling within the window, the scheduled list, publish now, reschedule, edit, delete, the emulator's clock,
 * the permission and task checks and the `feed` webhook.
 */
describe('publishing by the Page', () => {
  let emulator: TestEmulator;
  let ada: string;
  beforeEach(() => {
    emulator = makeEmulator({ publicUrl: ORIGIN });
    ada = emulator.controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
  });
  const send = (method: 'post' | 'delete', path: string, form: Record<string, string> = {}, token = ada) =>
    request(emulator.app)
      [method](`/v23.0/${path}`)
      .type('form')
      .send({ access_token: token, ...form });
  const get = (path: string, query: Record<string, string> = {}) =>
    request(emulator.app)
      .get(`/v23.0/${path}`)
      .query({ access_token: ada, ...query });
  const feed = async (): Promise<Post[]> =>
    (await get(`${PAGES.bakery}/feed`, { fields: 'id,message,is_published', limit: '5' }).expect(200)).body
      .data as Post[];
  const scheduled = async (): Promise<Post[]> =>
    (
      await get(`${PAGES.bakery}/scheduled_posts`, { fields: 'message,scheduled_publish_time,is_published' }).expect(
        200,
      )
    ).body.data as Post[];
  const inSec = (ms: number) => String(Math.floor((emulator.clock.t + ms) / 1000));

  it('when the Page posts a text, then it answers the id and the post is first in the feed, published', async () => {
    const res = await send('post', `${PAGES.bakery}/feed`, { message: 'Rye is back!' }).expect(200);
    expect(res.body).toEqual({ id: expect.stringMatching(new RegExp(`^${PAGES.bakery}_\\d+$`)) });
    expect((await feed())[0]).toEqual({ id: res.body.id, message: 'Rye is back!', is_published: true });
  });

  it('when the Page posts a link with fields, then the answer is the new post with its link preview (read-after-write)', async () => {
    const res = await send('post', `${PAGES.bakery}/feed`, {
      message: 'Read our story',
      link: 'https://lovelace-bakery.example/story',
      fields: 'id,message,created_time,attachments{type,url,title}',
    }).expect(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      message: 'Read our story',
      created_time: '2026-10-01T12:00:00+0000',
      attachments: {
        data: [{ type: 'share', url: 'https://lovelace-bakery.example/story', title: 'lovelace-bakery.example' }],
      },
    });
  });

  it('when a post is scheduled within the window, then it waits outside the feed, listed in scheduled_posts with its time', async () => {
    const at = inSec(2 * HOUR);
    const res = await send('post', `${PAGES.bakery}/feed`, {
      message: 'Tomorrow: croissants',
      published: 'false',
      scheduled_publish_time: at,
    }).expect(200);
    expect((await feed()).map((p) => p.id)).not.toContain(res.body.id);
    expect(await scheduled()).toEqual([
      { id: res.body.id, message: 'Tomorrow: croissants', scheduled_publish_time: Number(at), is_published: false },
    ]);
    expect((await get(res.body.id as string, { fields: 'is_published' }).expect(200)).body).toEqual({
      id: res.body.id,
      is_published: false,
    });
  });

  it.each([
    ['an ISO 8601 time', new Date(Date.UTC(2026, 9, 2, 9, 0, 0)).toISOString().replace('.000Z', '+0000')],
    ['a relative time', '+2 days'],
  ])('when the time is %s, then it is scheduled as the Posts guide allows', async (_what, at) => {
    await send('post', `${PAGES.bakery}/feed`, {
      message: 'Later',
      published: 'false',
      scheduled_publish_time: at,
    }).expect(200);
    expect(await scheduled()).toHaveLength(1);
  });

  it.each([
    ['5 minutes ahead', { published: 'false', scheduled_publish_time: '+5 minutes' }],
    ['31 days ahead', { published: 'false', scheduled_publish_time: '+31 days' }],
    ['in the past', { published: 'false', scheduled_publish_time: '1500000000' }],
    ['not a time', { published: 'false', scheduled_publish_time: 'next week-ish' }],
    ['on a published post', { scheduled_publish_time: '+2 hours' }],
  ])('when the time is %s, then 100 and nothing is made', async (_what, form) => {
    const res = await send('post', `${PAGES.bakery}/feed`, { message: 'Never', ...form }).expect(400);
    expect(graphError(res.body).code).toBe(100);
    expect(await scheduled()).toEqual([]);
    expect((await feed())[0]?.message).not.toBe('Never');
  });

  it('when a scheduled post is rescheduled, edited and published now, then it leaves the list and is first in the feed', async () => {
    const { body } = await send('post', `${PAGES.bakery}/feed`, {
      message: 'Draft',
      published: 'false',
      scheduled_publish_time: inSec(HOUR),
    }).expect(200);
    const id = body.id as string;
    await send('post', id, { scheduled_publish_time: inSec(3 * HOUR) }).expect(200, { success: true });
    expect((await scheduled())[0]?.scheduled_publish_time).toBe(Number(inSec(3 * HOUR)));
    const tooSoon = await send('post', id, { scheduled_publish_time: '+1 minute' }).expect(400);
    expect(graphError(tooSoon.body).code).toBe(100);
    await send('post', id, { message: 'Final text' }).expect(200, { success: true });
    await send('post', id, { is_published: 'true' }).expect(200, { success: true });
    expect(await scheduled()).toEqual([]);
    expect((await feed())[0]).toEqual({ id, message: 'Final text', is_published: true });
  });

  it('when a published post is edited, then the feed shows the new text; deleted, it is gone and reading it is 100/33', async () => {
    const { body } = await send('post', `${PAGES.bakery}/feed`, { message: 'Typo' }).expect(200);
    await send('post', body.id as string, { message: 'Fixed' }).expect(200, { success: true });
    expect((await feed())[0]?.message).toBe('Fixed');
    await send('delete', body.id as string).expect(200, { success: true });
    expect((await feed()).map((p) => p.id)).not.toContain(body.id);
    expect(graphError((await get(body.id as string).expect(400)).body)).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it('when the emulator’s clock reaches a scheduled time, then the post is published at the next call, first in the feed', async () => {
    const { body } = await send('post', `${PAGES.bakery}/feed`, {
      message: 'Right on time',
      published: 'false',
      scheduled_publish_time: inSec(HOUR),
    }).expect(200);
    emulator.clock.advance(HOUR);
    expect((await feed())[0]).toEqual({ id: body.id, message: 'Right on time', is_published: true });
    expect(await scheduled()).toEqual([]);
  });

  it('when the app lacks pages_manage_posts or the person CREATE_CONTENT, then 200; a user token, 210; nothing is made', async () => {
    const narrow = emulator.controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery, scopes: READ_ONLY });
    const clarke = emulator.controls.issueToken({ userId: USERS.clarke, pageId: PAGES.bakery });
    const user = emulator.controls.issueToken({ userId: USERS.ada });
    const noPermission = await send('post', `${PAGES.bakery}/feed`, { message: 'x' }, narrow.access_token).expect(403);
    expect(graphError(noPermission.body)).toMatchObject({
      code: 200,
      message: expect.stringContaining('pages_manage_posts'),
    });
    expect(
      graphError((await send('post', `${PAGES.bakery}/feed`, { message: 'x' }, clarke.access_token).expect(403)).body)
        .code,
    ).toBe(200);
    expect(
      graphError((await send('post', `${PAGES.bakery}/feed`, { message: 'x' }, user.access_token).expect(400)).body)
        .code,
    ).toBe(210);
    const { body } = await send('post', `${PAGES.bakery}/feed`, { message: 'Mine' }).expect(200);
    expect(graphError((await send('delete', body.id as string, {}, clarke.access_token).expect(403)).body).code).toBe(
      200,
    );
    expect((await feed()).filter((p) => p.message === 'x')).toEqual([]);
  });

  describe('photos', () => {
    const upload = (file: Buffer, name = 'bread.png', fields: Record<string, string> = {}) => {
      let req = request(emulator.app).post(`/v23.0/${PAGES.bakery}/photos`).field('access_token', ada);
      for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
      return req.attach('source', file, name);
    };

    it('when a picture is uploaded as source, then a photo post whose picture the image host serves, as sent', async () => {
      const file = png(640, 480);
      const res = await upload(file, 'bread.png', { message: 'Fresh out' }).expect(200);
      expect(res.body).toEqual({ id: expect.stringMatching(/^\d+$/), post_id: expect.any(String) });
      const post = (
        await get(res.body.post_id as string, { fields: 'message,full_picture,attachments{type,media}' }).expect(200)
      ).body;
      expect(post.message).toBe('Fresh out');
      expect(post.attachments.data[0]).toMatchObject({ type: 'photo', media: { image: { width: 640, height: 480 } } });
      const url = new URL(post.full_picture as string);
      expect(url.origin).toBe(ORIGIN);
      const picture = await request(emulator.app).get(`${url.pathname}${url.search}`).buffer(true).expect(200);
      expect(picture.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(picture.body as Buffer, file)).toBe(0);
      emulator.controls.reset();
      await request(emulator.app).get(`${url.pathname}${url.search}`).expect(404);
    });

    it('when the file is not a picture, is missing or is over 4 MB, then refused before anything is made', async () => {
      expect(graphError((await upload(Buffer.from('%PDF-1.7 not a picture'), 'doc.pdf').expect(400)).body).code).toBe(
        324,
      );
      const none = await request(emulator.app)
        .post(`/v23.0/${PAGES.bakery}/photos`)
        .field('access_token', ada)
        .field('message', 'no file')
        .expect(400);
      expect(graphError(none.body).code).toBe(324);
      const big = await upload(png(4000, 3000, 4 * 1024 * 1024 + 1)).expect(413);
      expect(graphError(big.body).code).toBe(100);
      expect((await feed()).filter((p) => p.message === 'no file')).toEqual([]);
    });
  });

  describe('webhooks', () => {
    const receiver = receiverPerTest();

    it('when the Page publishes, schedules, publishes now, edits and deletes, then its feed webhook tells each', async () => {
      const { emulator: e, write, feedValues } = await subscribedToFeed(receiver.current);
      const now = await write('post', `${PAGES.bakery}/feed`, { message: 'Now' });
      const later = await write('post', `${PAGES.bakery}/feed`, {
        message: 'Later',
        published: 'false',
        scheduled_publish_time: '+1 hour',
      });
      await write('post', later.body.id as string, { is_published: 'true' });
      await write('post', now.body.id as string, { message: 'Now, edited' });
      await write('delete', now.body.id as string);
      await e.controls.webhooksIdle();
      const values = feedValues().map(({ item, verb, post_id, published, message }) => ({
        item,
        verb,
        post_id,
        published,
        message,
      }));
      expect(values).toEqual([
        { item: 'status', verb: 'add', post_id: now.body.id, published: 1, message: 'Now' },
        { item: 'status', verb: 'add', post_id: later.body.id, published: 0, message: 'Later' },
        { item: 'status', verb: 'add', post_id: later.body.id, published: 1, message: 'Later' },
        { item: 'status', verb: 'edited', post_id: now.body.id, published: 1, message: 'Now, edited' },
        { item: 'status', verb: 'remove', post_id: now.body.id, published: undefined, message: undefined },
      ]);
    });
  });
});

describe('the demo seed’s scheduled post', () => {
  it('when the demo bakery is read, then one post waits in scheduled_posts, due after the emulator started', async () => {
    const emulator = makeEmulator({ seed: 'demo' });
    const token = emulator.controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
    const res = await request(emulator.app)
      .get(`/${PAGES.bakery}/scheduled_posts`)
      .query({ access_token: token, fields: 'message,scheduled_publish_time' })
      .expect(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].scheduled_publish_time * 1000).toBeGreaterThan(emulator.clock.t + 10 * 60_000);
  });
});
