import request from 'supertest';
import { TEST_SEED } from '../src';
import { graphError, makeEmulator, PAGES, useBakeryTokens } from './helpers';

const VIDEO = TEST_SEED.pages.find((p) => p.id === PAGES.bakery)!.feed[7]!.id;

interface Answer {
  code: number;
  headers?: { name: string; value: string }[];
  body: string;
}

/** Synchronous batch requests as the "Batch Requests" guide describes them (README#batch-requests). */
describe('POST / with batch', () => {
  const { app, controls } = makeEmulator();
  const tokens = useBakeryTokens(app);
  afterEach(() => controls.reset());
  const batch = (ops: unknown[], extra: Record<string, string> = {}) =>
    request(app)
      .post('/v27.0/')
      .set('Authorization', `Bearer ${tokens.bakery}`)
      .type('form')
      .send({ batch: JSON.stringify(ops), ...extra });

  it('when a new app batches reads, then a 200 with one answer per operation, in order, each body a JSON string', async () => {
    const res = await batch([
      { method: 'GET', relative_url: `${VIDEO}?fields=id` },
      { method: 'GET', relative_url: `${VIDEO}/reactions?type=LIKE&summary=total_count&limit=0` },
    ]).expect(200);
    const answers = res.body as Answer[];
    expect(answers.map((a) => a.code)).toEqual([200, 200]);
    expect(JSON.parse(answers[0]!.body)).toEqual({ id: VIDEO });
    expect(JSON.parse(answers[1]!.body)).toEqual({ data: [], summary: { total_count: 40 } });
    expect(answers[0]!.headers).toContainEqual({ name: 'Content-Type', value: 'application/json; charset=UTF-8' });
  });

  it('when one operation fails, then its error is inside the 200 and the others are answered', async () => {
    const res = await batch([
      { method: 'GET', relative_url: `${VIDEO}/reactions?type=HUG` },
      { method: 'GET', relative_url: `${VIDEO}?fields=id` },
    ]).expect(200);
    const [failed, read] = res.body as Answer[];
    expect(failed!.code).toBe(400);
    expect(graphError(JSON.parse(failed!.body)).code).toBe(100);
    expect(read!.code).toBe(200);
  });

  it('when an error is scripted for one operation by its query, then only that operation answers it', async () => {
    controls.failNext(1, { match: 'type=LOVE', error: { code: 4 } });
    const res = await batch([
      { method: 'GET', relative_url: `${VIDEO}/reactions?type=LIKE&summary=total_count&limit=0` },
      { method: 'GET', relative_url: `${VIDEO}/reactions?type=LOVE&summary=total_count&limit=0` },
    ]).expect(200);
    const [like, love] = res.body as Answer[];
    expect(like!.code).toBe(200);
    expect(love!.code).toBe(403);
    expect(graphError(JSON.parse(love!.body)).code).toBe(4);
  });

  it('when include_headers=false, then the answers carry no headers', async () => {
    const res = await batch([{ method: 'GET', relative_url: `${VIDEO}?fields=id` }], { include_headers: 'false' });
    expect((res.body as Answer[])[0]).toEqual({ code: 200, body: JSON.stringify({ id: VIDEO }) });
  });

  it('when an operation uses a field alias, then that operation is refused to a new app', async () => {
    const res = await batch([{ method: 'GET', relative_url: `${VIDEO}?fields=id.as(x)` }]).expect(200);
    expect(graphError(JSON.parse((res.body as Answer[])[0]!.body)).code).toBe(12);
  });

  it('when a batch has 51 operations, then 100 and nothing is run', async () => {
    const ops = Array.from({ length: 51 }, () => ({ method: 'GET', relative_url: `${VIDEO}?fields=id` }));
    const res = await batch(ops).expect(400);
    expect(graphError(res.body).code).toBe(100);
  });

  it('when the batch has 8 operations, then each counts against the Page’s budget in the usage header', async () => {
    controls.setRateLimit({ calls: 100, windowMs: 60_000, headersAfter: 0 });
    const ops = Array.from({ length: 8 }, () => ({ method: 'GET', relative_url: `${VIDEO}?fields=id` }));
    const res = await batch(ops).expect(200);
    const usage = JSON.parse(res.headers['x-business-use-case-usage'] as string) as Record<
      string,
      { call_count: number }[]
    >;
    expect(usage[PAGES.bakery]![0]!.call_count).toBe(8);
  });

  it('when relative_url names a path, then it is read at the batch’s version', async () => {
    await batch([{ method: 'GET', relative_url: `${VIDEO}?fields=id` }]).expect(200);
    const res = await request(app)
      .post('/v21.0')
      .set('Authorization', `Bearer ${tokens.bakery}`)
      .type('form')
      .send({ batch: JSON.stringify([{ method: 'GET', relative_url: 'me?fields=id' }]) })
      .expect(200);
    expect(res.headers['facebook-api-version']).toBe('v21.0');
    expect(JSON.parse((res.body as Answer[])[0]!.body)).toEqual({ id: PAGES.bakery });
  });
});
