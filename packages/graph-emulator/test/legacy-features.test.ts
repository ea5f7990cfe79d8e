import request from 'supertest';
import { TEST_SEED } from '../src';
import { loadProviderEnv } from '../src/env';
import { graphError, graphGet, makeEmulator, PAGES, useBakeryTokens, userToken } from './helpers';

const VIDEO = TEST_SEED.pages.find((p) => p.id === PAGES.bakery)!.feed[7]!.id;
/** The day before the provider closed the legacy features to new apps ("Introducing Graph API v27.0"). */
const OLD = '2026-11-03';

/** The legacy Graph features, refused to an app created on or after 2026-11-04 (README#legacy-features). */
describe('legacy Graph features by the app’s creation day', () => {
  const { app, controls } = makeEmulator();
  const tokens = useBakeryTokens(app);
  afterEach(() => controls.reset());

  const uses: [string, () => request.Test][] = [
    ['a field alias', () => graphGet(app, `/v27.0/${VIDEO}`, tokens.bakery).query({ fields: 'reactions.as(all)' })],
    [
      'a nested field alias',
      () =>
        graphGet(app, `/v23.0/${PAGES.bakery}`, tokens.bakery).query({
          fields: 'feed.limit(1){id, message . as ( m )}',
        }),
    ],
    [
      'a POST with method=get',
      () => request(app).post('/v27.0/me').type('form').send({ method: 'get', fields: 'id', access_token: tokens.ada }),
    ],
    [
      'a multi-ID read',
      () => graphGet(app, '/v27.0/', tokens.bakery).query({ ids: `${PAGES.bakery},${VIDEO}`, fields: 'id' }),
    ],
    [
      'date_format',
      () => graphGet(app, `/v27.0/${VIDEO}`, tokens.bakery).query({ fields: 'created_time', date_format: 'U' }),
    ],
    ['a JSONP callback', () => graphGet(app, `/v27.0/${VIDEO}`, tokens.bakery).query({ fields: 'id', callback: 'cb' })],
    [
      'an asynchronous batch',
      () =>
        request(app)
          .post('/v27.0/act_1/async_batch_requests')
          .set('Authorization', `Bearer ${tokens.ada}`)
          .type('form')
          .send({ adbatch: '[]', name: 'x' }),
    ],
  ];

  it.each(uses)(
    'when a new app (the default) sends %s, then code 12 in the provider’s error envelope',
    async (_, send) => {
      const res = await send().expect(400);
      expect(res.body.error).toEqual({
        message: expect.stringMatching(/^\(#12\) /) as string,
        type: 'OAuthException',
        code: 12,
        fbtrace_id: expect.stringMatching(/^\w{11}$/) as string,
      });
    },
  );

  it.each(uses)('when an app created before 2026-11-04 sends %s, then it is not refused as legacy', async (_, send) => {
    controls.setAppCreated(OLD);
    const res = await send();
    expect(res.body.error?.code).not.toBe(12);
  });

  it('when an older app reads two ids at once, then each answer under its id', async () => {
    controls.setAppCreated(OLD);
    const res = await graphGet(app, '/v27.0/', tokens.bakery)
      .query({ ids: `${PAGES.bakery},${VIDEO}`, fields: 'id' })
      .expect(200);
    expect(res.body).toEqual({ [PAGES.bakery]: { id: PAGES.bakery }, [VIDEO]: { id: VIDEO } });
  });

  it('when an older app asks for a JSONP callback, then the JSON comes wrapped in a call to it', async () => {
    controls.setAppCreated(OLD);
    const res = await graphGet(app, `/v27.0/${VIDEO}`, tokens.bakery)
      .query({ fields: 'id', callback: 'cb' })
      .expect(200);
    expect(res.type).toBe('text/javascript');
    expect(res.text).toBe(`/**/ cb({"id":"${VIDEO}"});`);
  });

  it('when EMULATOR_APP_CREATED names a day, then the stand-alone emulator’s app has it; unset, the app is new; a bad day stops it', () => {
    expect(loadProviderEnv({ EMULATOR_APP_CREATED: OLD }).client.created).toBe(OLD);
    expect(loadProviderEnv({}).client.created).toBeUndefined();
    expect(() => loadProviderEnv({ EMULATOR_APP_CREATED: '2026-02-30' })).toThrow(/^EMULATOR_APP_CREATED must be/);
  });

  it('when the creation day is set over HTTP controls, then the refusal follows it', async () => {
    const { app: http, controls: c } = makeEmulator({ httpControls: true });
    const user = await userToken(http);
    const alias = () => graphGet(http, '/v27.0/me', user).query({ fields: 'id.as(who)' });
    await alias().expect(400);
    await request(http).put('/__emulator/app-created').send({ day: OLD }).expect(204);
    await alias().expect(200);
    await request(http).put('/__emulator/app-created').send({ day: '2026-13-01' }).expect(400);
    c.reset();
    await alias().expect(400);
  });
});

/** `/{post-id}/reactions` with `type` and `summary=total_count`: a count per kind without aliases, for any app. */
describe('the reactions edge', () => {
  const { app, controls } = makeEmulator();
  const tokens = useBakeryTokens(app);
  afterEach(() => controls.reset());
  const reactions = (query: Record<string, string>) =>
    graphGet(app, `/v27.0/${VIDEO}/reactions`, tokens.bakery).query(query);

  it.each([['2026-11-04'], [OLD]])(
    'when an app created %s reads one kind with summary=total_count&limit=0, then its count alone',
    async (day) => {
      controls.setAppCreated(day);
      const res = await reactions({ type: 'LOVE', summary: 'total_count', limit: '0' }).expect(200);
      expect(res.body).toEqual({ data: [], summary: { total_count: 12 } });
    },
  );

  it('when no type is given, then every kind is counted', async () => {
    const res = await reactions({ summary: 'total_count', limit: '0' }).expect(200);
    expect(res.body.summary).toEqual({ total_count: 60 });
  });

  it('when the type is not a reaction kind, then 100', async () => {
    const res = await reactions({ type: 'HUG', summary: 'total_count' }).expect(400);
    expect(graphError(res.body).code).toBe(100);
  });
});
