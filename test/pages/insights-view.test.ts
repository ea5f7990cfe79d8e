import type { InsightsAnswer } from '../../src/graph/schemas';
import { englishLocale } from '../../src/i18n/catalogs';
import { toInsightsView as viewOf } from '../../src/pages/insights-view';

/** The view in English, the words these expectations read. */
const toInsightsView = (answer: Parameters<typeof viewOf>[0]) => viewOf(answer, englishLocale());

const DAY = 24 * 60 * 60 * 1000;
const LAST_END = Date.UTC(2026, 10, 24, 7);

/** `count` daily values ending at LAST_END, as the provider writes them. */
function series(name: string, values: number[]): InsightsAnswer['data'][number] {
  return {
    name,
    period: 'day',
    values: values.map((value, i) => ({
      value,
      end_time: new Date(LAST_END - (values.length - 1 - i) * DAY).toISOString().replace('.000Z', '+0000'),
    })),
  };
}

const flat = (n: number, value: number) => Array.from({ length: n }, () => value);

/** docs/architecture.md#views: the insights' view model. */
describe('toInsightsView', () => {
  it('when 56 days are given, then the chart shows the last 28, dated the day before each end_time, with the change on the 28 before', () => {
    const view = toInsightsView({ data: [series('page_media_view', [...flat(28, 10), ...flat(28, 15)])], refused: [] });
    const [views] = view.charts;
    expect(views!.rows).toHaveLength(28);
    expect(views!.rows.at(-1)).toEqual({ day: '23 Nov 2026', value: '15' });
    expect(views!.total).toBe('420 views');
    expect(views).toMatchObject({ change: 'Up 50% on the 28 days before.', trend: 'up' });
    expect(view.intro).toContain('27 Oct 2026 – 23 Nov 2026');
  });

  it('when fewer than 56 days are given, then no change is claimed', () => {
    const view = toInsightsView({ data: [series('page_media_view', flat(30, 3))], refused: [] });
    expect(view.charts[0]).toMatchObject({ trend: 'none', total: '84 views' });
  });

  it('when the 28 days before were all zero, then "up from none", and both zero is "the same"', () => {
    const up = toInsightsView({
      data: [series('page_post_engagements', [...flat(28, 0), ...flat(28, 1)])],
      refused: [],
    });
    expect(up.charts[0]).toMatchObject({ change: 'Up from none in the 28 days before.', trend: 'up' });
    const none = toInsightsView({ data: [series('page_post_engagements', flat(56, 0))], refused: [] });
    expect(none.charts[0]).toMatchObject({ trend: 'flat', total: '0 engagements' });
  });

  it('when metrics were refused, then their charts are left out and named, and the followers figure goes with page_follows', () => {
    const view = toInsightsView({
      data: [series('page_media_view', flat(56, 1)), series('page_daily_follows_unique', flat(56, 2))],
      refused: ['page_follows', 'page_total_media_view_unique'],
    });
    expect(view.charts.map((c) => c.title)).toEqual(['Views', 'New follows']);
    expect(view.charts[1]!.aside).toBeUndefined();
    expect(view.unavailable).toBe(
      'Facebook no longer gives these figures, so they are missing here: Viewers and Followers. The others are below.',
    );
  });
});
