import { RETIRED_METRICS } from '../src/graph/insights';
import { DEFAULT_SCOPE, graphError, graphGet, makeEmulator, PAGES, pageToken, USERS, userToken } from './helpers';

const INSIGHTS_SCOPE = `${DEFAULT_SCOPE} read_insights`;
const PAGE_METRICS =
  'page_media_view,page_total_media_view_unique,page_post_engagements,page_follows,page_daily_follows_unique';
const DAY_SEC = 24 * 60 * 60;

interface Series {
  name: string;
  period: string;
  values: { value: number; end_time?: string }[];
  title: string;
  description: string;
  id: string;
}

/** docs/reference.md#insights: the Page Insights edge as the provider answers it. */
describe('GET /<page_id>/insights and /<post_id>/insights', () => {
  const { app, controls, clock } = makeEmulator();
  let bakery: string;
  let sparse: string;
  let withoutInsights: string;
  beforeAll(async () => {
    const ada = await userToken(app, {}, { scope: INSIGHTS_SCOPE });
    bakery = await pageToken(app, ada, PAGES.bakery);
    sparse = await pageToken(app, ada, PAGES.sparse);
    withoutInsights = await pageToken(app, await userToken(app), PAGES.bakery);
  });
  afterEach(() => controls.reset());

  const until = () => Math.floor(clock.now() / 1000);
  const insights = (token: string, query: Record<string, string>, path = `/${PAGES.bakery}/insights`) =>
    graphGet(app, `/v26.0${path}`, token).query(query);

  it('when 56 days of the five metrics are asked for by day, then each has 56 daily values, the provider shape and its id', async () => {
    const res = await insights(bakery, {
      metric: PAGE_METRICS,
      period: 'day',
      since: String(until() - 56 * DAY_SEC),
      until: String(until()),
    }).expect(200);
    const data = res.body.data as Series[];
    expect(data.map((s) => s.name)).toEqual(PAGE_METRICS.split(','));
    for (const series of data) {
      expect(series).toMatchObject({ period: 'day', id: `${PAGES.bakery}/insights/${series.name}/day` });
      expect(series.title.length).toBeGreaterThan(0);
      expect(series.values).toHaveLength(56);
      for (const v of series.values) {
        expect(Number.isInteger(v.value) && v.value >= 0).toBe(true);
        expect(v.end_time).toMatch(/^\d{4}-\d{2}-\d{2}T07:00:00\+0000$/);
      }
      const days = series.values.map((v) => Date.parse(v.end_time!.replace('+0000', 'Z')));
      expect(days.every((d, i) => i === 0 || d - days[i - 1]! === DAY_SEC * 1000)).toBe(true);
    }
    // The provider's paging links carry the token: the app must never keep them.
    expect(res.body.paging.next).toContain('access_token=');
  });

  it('when the same range is asked for twice, then the figures are the same (deterministic)', async () => {
    const query = { metric: 'page_media_view', since: String(until() - 7 * DAY_SEC), until: String(until()) };
    const a = await insights(bakery, query).expect(200);
    const b = await insights(bakery, query).expect(200);
    expect(b.body.data).toEqual(a.body.data);
    const views = (a.body.data as Series[])[0]!.values.map((v) => v.value);
    expect(Math.min(...views)).toBeGreaterThan(0);
  });

  it.each(RETIRED_METRICS)(
    'when the retired metric %s is asked for, even with valid ones, then (#100) The value must be a valid insights metric',
    async (metric) => {
      const res = await insights(bakery, { metric: `page_media_view,${metric}` }).expect(400);
      expect(graphError(res.body)).toMatchObject({
        code: 100,
        type: 'OAuthException',
        message: '(#100) The value must be a valid insights metric',
      });
    },
  );

  it('when a metric is refused through the control, then asking for it fails as a retired one, the others still answer', async () => {
    controls.refuseMetric('page_follows');
    const refused = await insights(bakery, { metric: 'page_follows' }).expect(400);
    expect(graphError(refused.body).message).toBe('(#100) The value must be a valid insights metric');
    await insights(bakery, { metric: 'page_media_view' }).expect(200);
  });

  it('when no metric is named, then 3001/1504028 as the reference says', async () => {
    const res = await insights(bakery, {}).expect(400);
    expect(graphError(res.body)).toMatchObject({ code: 3001, error_subcode: 1504028 });
  });

  it('when since and until are more than 90 days apart, then (#100)', async () => {
    const res = await insights(bakery, {
      metric: 'page_media_view',
      since: String(until() - 91 * DAY_SEC),
      until: String(until()),
    }).expect(400);
    expect(graphError(res.body).message).toContain('90 days');
  });

  it('when the Page is below 100 likes (the test seed’s repair shop), then data is empty', async () => {
    const res = await insights(sparse, { metric: PAGE_METRICS }, `/${PAGES.sparse}/insights`).expect(200);
    expect(res.body).toEqual({ data: [] });
  });

  it('when the token lacks read_insights, then (#10) naming the permission', async () => {
    const res = await insights(withoutInsights, { metric: 'page_media_view' }).expect(403);
    expect(graphError(res.body)).toMatchObject({ code: 10, message: expect.stringContaining("'read_insights'") });
  });

  it('when the person cannot perform the ANALYZE task on the Page, then (#10) naming the task', async () => {
    controls.setRole(USERS.ada, PAGES.bakery, ['MODERATE', 'CREATE_CONTENT']);
    const res = await insights(bakery, { metric: 'page_media_view' }).expect(403);
    expect(graphError(res.body)).toMatchObject({ code: 10, message: expect.stringContaining('ANALYZE') });
  });

  it('when a post’s viewers are asked for, then one lifetime value without end_time', async () => {
    const feed = await graphGet(app, `/${PAGES.bakery}/feed`, bakery).query({ limit: '1' }).expect(200);
    const postId = (feed.body.data as { id: string }[])[0]!.id;
    const res = await insights(bakery, { metric: 'post_total_media_view_unique' }, `/${postId}/insights`).expect(200);
    const [series] = res.body.data as Series[];
    expect(series).toMatchObject({
      name: 'post_total_media_view_unique',
      period: 'lifetime',
      id: `${postId}/insights/post_total_media_view_unique/lifetime`,
    });
    expect(series!.values).toEqual([{ value: expect.any(Number) }]);
    const retired = await insights(bakery, { metric: 'post_impressions_unique' }, `/${postId}/insights`).expect(400);
    expect(graphError(retired.body).message).toBe('(#100) The value must be a valid insights metric');
  });
});
