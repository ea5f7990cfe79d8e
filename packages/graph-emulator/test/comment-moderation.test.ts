import request from 'supertest';
import { DEMO_SEED, MODERATION_IDS, startEmulator, TEST_SEED, type RunningEmulator, type SeedComment } from '../src';
import { loadProviderEnv } from '../src/env';
import { CLIENT, graphError, makeEmulator, PAGES, USERS, type TestEmulator } from './helpers';
import { receiverPerTest, subscribedToFeed } from './webhook-receiver';

const { postId: POST, spam: SPAM, abusive: ABUSIVE, question: QUESTION } = MODERATION_IDS.test;
const bakeryFeed = TEST_SEED.pages.find((p) => p.id === PAGES.bakery)!.feed;
/** "Fresh sourdough": its second comment has two replies, the first of them by the Page. */
const SOURDOUGH = bakeryFeed[0]!;
const RYE = SOURDOUGH.comments![1]!;
const PAGE_REPLY = RYE.replies![0]!;
const READ_ONLY = ['pages_show_list', 'pages_read_engagement', 'pages_read_user_content'];

/**
 * A Page's comment moderation as the provider documents it (docs/reference.md#comment-moderation): replies as
 * the Page, likes, hiding, deleting, the `can_*` fields, the permission and task checks, the `feed` webhook for
 * each change, and refusals or late answers on command.
 */
describe('comment moderation by the Page', () => {
  let emulator: TestEmulator;
  let ada: string;
  beforeEach(() => {
    emulator = makeEmulator();
    ada = emulator.controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
  });
  const write = (method: 'post' | 'delete', path: string, token: string, form: Record<string, string> = {}) =>
    request(emulator.app)
      [method](`/v23.0/${path}`)
      .type('form')
      .send({ access_token: token, ...form });
  const read = (path: string, fields: string, token = ada) =>
    request(emulator.app).get(`/v23.0/${path}`).query({ access_token: token, fields });
  const comments = async (objectId: string): Promise<Record<string, unknown>[]> =>
    (await read(`${objectId}/comments`, 'id,message,from,parent,is_hidden', ada).query({ limit: 100 }).expect(200)).body
      .data as Record<string, unknown>[];
  const bakery = { id: PAGES.bakery, name: 'Lovelace Analytical Bakery' };

  it('when the Page replies to a post, then it answers the new id and the comment is the Page’s, last under the post', async () => {
    const res = await write('post', `${POST}/comments`, ada, { message: 'Thank you, see you soon!' }).expect(200);
    expect(res.body).toEqual({ id: expect.stringMatching(new RegExp(`^${POST.split('_')[1]}_\\d+$`)) });
    const list = await comments(POST);
    expect(list.at(-1)).toEqual({
      id: res.body.id,
      message: 'Thank you, see you soon!',
      from: bakery,
      is_hidden: false,
    });
    const node = await read(res.body.id as string, 'message,from').expect(200);
    expect(node.body).toEqual({ id: res.body.id, message: 'Thank you, see you soon!', from: bakery });
  });

  it('when the Page replies to a comment, or to a reply, then the reply joins that comment’s thread', async () => {
    const first = await write('post', `${QUESTION}/comments`, ada, { message: 'Yes, every Saturday!' }).expect(200);
    const second = await write('post', `${PAGE_REPLY.id}/comments`, ada, { message: 'And the rye too.' }).expect(200);
    expect(await comments(QUESTION)).toEqual([
      { id: first.body.id, message: 'Yes, every Saturday!', from: bakery, parent: { id: QUESTION }, is_hidden: false },
    ]);
    expect((await comments(RYE.id)).at(-1)).toMatchObject({ id: second.body.id, parent: { id: RYE.id } });
  });

  it('when the Page likes a comment, then its like_count grows once and user_likes is true; unliking undoes it', async () => {
    const before = (await read(QUESTION, 'like_count,user_likes').expect(200)).body;
    expect(before).toEqual({ id: QUESTION, like_count: 0, user_likes: false });
    await write('post', `${QUESTION}/likes`, ada).expect(200, { success: true });
    await write('post', `${QUESTION}/likes`, ada).expect(200, { success: true });
    expect((await read(QUESTION, 'like_count,user_likes').expect(200)).body).toEqual({
      id: QUESTION,
      like_count: 1,
      user_likes: true,
    });
    await write('delete', `${QUESTION}/likes`, ada).expect(200, { success: true });
    expect((await read(QUESTION, 'like_count,user_likes').expect(200)).body).toEqual(before);
  });

  it('when a comment is hidden, then the Page’s token still reads it, marked is_hidden, until it is shown again', async () => {
    await write('post', ABUSIVE, ada, { is_hidden: 'true' }).expect(200, { success: true });
    expect((await read(ABUSIVE, 'message,is_hidden').expect(200)).body).toMatchObject({ is_hidden: true });
    expect((await comments(POST)).find((c) => c.id === ABUSIVE)).toMatchObject({ is_hidden: true });
    await write('post', ABUSIVE, ada, { is_hidden: 'false' }).expect(200, { success: true });
    expect((await read(ABUSIVE, 'is_hidden').expect(200)).body).toEqual({ id: ABUSIVE, is_hidden: false });
  });

  it('when a comment is deleted, then it is gone (100/33) with its replies; the Page deletes its own reply the same way', async () => {
    await write('delete', SPAM, ada).expect(200, { success: true });
    expect(graphError((await read(SPAM, 'message').expect(400)).body)).toMatchObject({ code: 100, error_subcode: 33 });
    expect((await comments(POST)).map((c) => c.id)).not.toContain(SPAM);
    await write('delete', PAGE_REPLY.id, ada).expect(200, { success: true });
    expect((await comments(RYE.id)).map((c) => c.id)).not.toContain(PAGE_REPLY.id);
    await write('delete', RYE.id, ada).expect(200);
    expect(graphError((await read(RYE.replies![1]!.id, 'id').expect(400)).body).code).toBe(100);
  });

  it('when the Page’s manager reads a comment, then can_* says what their tasks allow; the Page never hides its own', async () => {
    const fields = 'can_comment,can_hide,can_like,can_remove,can_reply_privately';
    expect((await read(SPAM, fields).expect(200)).body).toEqual({
      id: SPAM,
      can_comment: true,
      can_hide: true,
      can_like: true,
      can_remove: true,
      can_reply_privately: true,
    });
    expect((await read(PAGE_REPLY.id, fields).expect(200)).body).toMatchObject({
      can_hide: false,
      can_remove: true,
      can_reply_privately: false,
    });
    // Grace moderates the bakery without MESSAGING; Joan Clarke only advertises and analyses.
    const grace = emulator.controls.issueToken({ userId: USERS.grace, pageId: PAGES.bakery }).access_token;
    expect((await read(SPAM, fields, grace).expect(200)).body).toMatchObject({
      can_hide: true,
      can_reply_privately: false,
    });
    const clarke = emulator.controls.issueToken({ userId: USERS.clarke, pageId: PAGES.bakery }).access_token;
    expect((await read(SPAM, fields, clarke).expect(200)).body).toEqual({
      id: SPAM,
      can_comment: false,
      can_hide: false,
      can_like: false,
      can_remove: false,
      can_reply_privately: false,
    });
  });

  it('when the app lacks pages_manage_engagement, then every write is refused with 200 naming it, and nothing changes', async () => {
    const narrow = emulator.controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery, scopes: READ_ONLY });
    const attempts = [
      write('post', `${POST}/comments`, narrow.access_token, { message: 'Hi' }),
      write('post', `${QUESTION}/likes`, narrow.access_token),
      write('post', ABUSIVE, narrow.access_token, { is_hidden: 'true' }),
      write('delete', SPAM, narrow.access_token),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(graphError(res.body)).toMatchObject({
        code: 200,
        message: expect.stringContaining('pages_manage_engagement'),
      });
    }
    expect((await comments(POST)).map((c) => c.id)).toEqual(expect.arrayContaining([SPAM, ABUSIVE, QUESTION]));
    expect((await read(ABUSIVE, 'is_hidden').expect(200)).body.is_hidden).toBe(false);
  });

  it('when the person’s role lacks the task, then 200: no MODERATE cannot hide or delete, no task that acts as the Page cannot reply', async () => {
    emulator.controls.setRole(USERS.grace, PAGES.bakery, ['ANALYZE', 'CREATE_CONTENT']);
    const grace = emulator.controls.issueToken({ userId: USERS.grace, pageId: PAGES.bakery }).access_token;
    await write('post', `${QUESTION}/comments`, grace, { message: 'Yes!' }).expect(200);
    for (const res of [
      await write('post', ABUSIVE, grace, { is_hidden: 'true' }),
      await write('delete', SPAM, grace),
    ]) {
      expect(res.status).toBe(403);
      expect(graphError(res.body).code).toBe(200);
    }
    const clarke = emulator.controls.issueToken({ userId: USERS.clarke, pageId: PAGES.bakery }).access_token;
    const refused = await write('post', `${POST}/comments`, clarke, { message: 'Hi' }).expect(403);
    expect(graphError(refused.body)).toMatchObject({ code: 200, message: expect.stringContaining('administrative') });
  });

  it('when the token is a user token or another Page’s, then 210, 200 on another Page’s post, 100/33 for its comment', async () => {
    const user = emulator.controls.issueToken({ userId: USERS.ada }).access_token;
    expect(graphError((await write('post', `${POST}/comments`, user, { message: 'x' }).expect(400)).body).code).toBe(
      210,
    );
    const cafe = emulator.controls.issueToken({ userId: USERS.grace, pageId: PAGES.cafe }).access_token;
    expect(graphError((await write('post', `${POST}/comments`, cafe, { message: 'x' }).expect(403)).body).code).toBe(
      200,
    );
    const res = await write('post', ABUSIVE, cafe, { is_hidden: 'true' }).expect(400);
    expect(graphError(res.body)).toMatchObject({
      code: 100,
      error_subcode: 33,
      message: expect.stringContaining('Unsupported post request'),
    });
  });

  it('when a write is malformed, then 100 and nothing changes: an empty message, is_hidden not a boolean, hiding the Page’s own comment', async () => {
    const bad = [
      await write('post', `${POST}/comments`, ada, { message: '  ' }),
      await write('post', ABUSIVE, ada, { is_hidden: 'maybe' }),
      await write('post', PAGE_REPLY.id, ada, { is_hidden: 'true' }),
      await write('post', ABUSIVE, ada),
    ];
    for (const res of bad) {
      expect(res.status).toBe(400);
      expect(graphError(res.body).code).toBe(100);
    }
    expect((await read(ABUSIVE, 'is_hidden').expect(200)).body.is_hidden).toBe(false);
  });

  describe('webhooks', () => {
    const receiver = receiverPerTest();

    it('when the Page replies, likes, hides, shows and deletes, then its feed webhook tells each change once', async () => {
      const { emulator: e, write: send, feedValues } = await subscribedToFeed(receiver.current);
      const reply = await send('post', `${QUESTION}/comments`, { message: 'Yes!' });
      await send('post', `${QUESTION}/likes`);
      await send('post', ABUSIVE, { is_hidden: 'true' });
      await send('post', ABUSIVE, { is_hidden: 'false' });
      await send('delete', SPAM);
      await e.controls.webhooksIdle();
      const values = feedValues();
      const time = expect.any(Number);
      expect(values).toEqual([
        {
          from: bakery,
          item: 'comment',
          verb: 'add',
          post_id: POST,
          comment_id: reply.body.id,
          parent_id: QUESTION,
          message: 'Yes!',
          created_time: time,
        },
        {
          from: bakery,
          item: 'reaction',
          verb: 'add',
          post_id: POST,
          comment_id: QUESTION,
          parent_id: QUESTION,
          reaction_type: 'like',
          created_time: time,
        },
        expect.objectContaining({ item: 'comment', verb: 'hide', comment_id: ABUSIVE, parent_id: POST }),
        expect.objectContaining({ item: 'comment', verb: 'unhide', comment_id: ABUSIVE, parent_id: POST }),
        expect.objectContaining({ item: 'comment', verb: 'remove', comment_id: SPAM, parent_id: POST }),
      ]);
      expect(values[2]!.from).not.toEqual(bakery);
    });
  });

  describe('refusals and late answers on command', () => {
    it.each([
      [368, 403],
      [200, 403],
      [10, 403],
      [100, 400],
      [80001, 403],
      [190, 400],
    ])(
      'when the next write is scripted to fail with %i, then a read passes, the write answers it (HTTP %i) and makes nothing',
      async (code, status) => {
        emulator.controls.failNext(1, { writes: true, error: { code } });
        await read(POST, 'id').expect(200);
        const res = await write('post', `${POST}/comments`, ada, { message: 'Refused' }).expect(status);
        expect(graphError(res.body).code).toBe(code);
        expect((await comments(POST)).map((c) => c.message)).not.toContain('Refused');
      },
    );

    it('when the next write is scripted late, then it happens at once and its answer comes after the client gave up', async () => {
      emulator.controls.failNext(1, { kind: 'late', ms: 1500, writes: true });
      const started = Date.now();
      await expect(
        write('post', `${QUESTION}/comments`, ada, { message: 'Did this arrive?' }).timeout(200),
      ).rejects.toThrow(/Timeout/);
      expect(Date.now() - started).toBeLessThan(1500);
      expect((await comments(QUESTION)).map((c) => c.message)).toEqual(['Did this arrive?']);
    });

    it('when a batch reads and writes, then a failure scripted for writes passes the read and refuses the write', async () => {
      emulator.controls.failNext(1, { writes: true, match: 'comments', error: { code: 368 } });
      const ops = [
        { method: 'GET', relative_url: `${POST}/comments?fields=id` },
        { method: 'POST', relative_url: `${POST}/comments`, body: 'message=Batched' },
      ];
      const res = await write('post', '', ada, { batch: JSON.stringify(ops) }).expect(200);
      expect((res.body as { code: number }[]).map((a) => a.code)).toEqual([200, 403]);
      expect((await comments(POST)).map((c) => c.message)).not.toContain('Batched');
    });

    it('when the late answer is awaited, then it is the write’s own answer, after the delay', async () => {
      emulator.controls.failNext(1, { kind: 'late', ms: 300, writes: true });
      const started = Date.now();
      const res = await write('post', `${QUESTION}/likes`, ada).expect(200);
      expect(res.body).toEqual({ success: true });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    });
  });
});

describe('comments to moderate in the seeds', () => {
  const texts = (comments: readonly SeedComment[] | undefined, ids: string[]) =>
    ids.map((id) => comments?.find((c) => c.id === id)?.message);

  it.each([
    ['test', TEST_SEED],
    ['demo', DEMO_SEED],
  ] as const)(
    'when the %s seed is loaded, then the bakery has spam with a link, an abusive comment and an unanswered question',
    (name, seed) => {
      const ids = MODERATION_IDS[name];
      const post = seed.pages.find((p) => p.id === PAGES.bakery)!.feed.find((p) => p.id === ids.postId)!;
      const [spam, abusive, question] = texts(post.comments, [ids.spam, ids.abusive, ids.question]);
      expect(spam).toMatch(/https:\/\//);
      expect(abusive).toMatch(/idiots/);
      expect(question).toMatch(/\?/);
      const times = (post.comments ?? []).map((c) => c.created_time);
      expect(times).toEqual([...times].sort());
      expect(post.comments?.find((c) => c.id === ids.question)?.replies).toBeUndefined();
    },
  );
});

describe('refusing writes from the start (option and environment)', () => {
  it('when the emulator is made with failNext, then its first write is refused and reads before it pass', async () => {
    const e = makeEmulator({ failNext: [{ failure: { writes: true, error: { code: 368 } } }] });
    const token = e.controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
    await request(e.app).get(`/${QUESTION}`).query({ access_token: token }).expect(200);
    const res = await request(e.app).post(`/${QUESTION}/likes`).type('form').send({ access_token: token }).expect(403);
    expect(graphError(res.body).code).toBe(368);
    await request(e.app).post(`/${QUESTION}/likes`).type('form').send({ access_token: token }).expect(200);
  });

  it('when EMULATOR_FAIL_NEXT holds fail control bodies, then the stand-alone emulator scripts them; a bad one names the variable', () => {
    const body = [{ n: 2, failure: { kind: 'late', ms: 5000, writes: true } }];
    expect(loadProviderEnv({ EMULATOR_FAIL_NEXT: JSON.stringify(body) }).failNext).toEqual([
      { n: 2, failure: { kind: 'late', ms: 5000, writes: true } },
    ]);
    expect(loadProviderEnv({}).failNext).toEqual([]);
    expect(() => loadProviderEnv({ EMULATOR_FAIL_NEXT: '[{"failure":{"kind":"late"}}]' })).toThrow(
      /EMULATOR_FAIL_NEXT/,
    );
    expect(() => loadProviderEnv({ EMULATOR_FAIL_NEXT: 'refuse' })).toThrow(/EMULATOR_FAIL_NEXT/);
  });
});

describe('refusing and delaying writes over HTTP', () => {
  let running: RunningEmulator;
  beforeAll(async () => {
    running = await startEmulator({ clients: [CLIENT], port: 0, httpControls: true, seed: 'test' });
  });
  afterAll(() => running.close());

  it('when POST /__emulator/fail scripts the next write late and then refused, then reads pass and each write meets its script', async () => {
    const control = (body: unknown) =>
      fetch(`${running.url}/__emulator/fail`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await control({ failure: { kind: 'late', ms: 200, writes: true } })).status).toBe(204);
    expect((await control({ failure: { writes: true, error: { code: 80001 } } })).status).toBe(204);
    const token = running.controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
    const like = () =>
      fetch(`${running.url}/v23.0/${QUESTION}/likes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
    expect(
      (await fetch(`${running.url}/v23.0/${QUESTION}?fields=id`, { headers: { authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(200);
    const started = Date.now();
    expect((await like()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    const refused = await like();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(80001);
    expect(await (await fetch(`${running.url}/__emulator/fail`)).json()).toEqual({ data: [] });
  });
});
