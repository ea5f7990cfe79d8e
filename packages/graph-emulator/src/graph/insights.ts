/**
 * `GET /<page_id>/insights` and `GET /<post_id>/insights`
 * (https://developers.facebook.com/docs/graph-api/reference/insights/, Page Insights): the metrics the
 * provider still serves, daily for a Page and lifetime for a post; its invalid-metric error for the names it
 * retired (https://developers.facebook.com/docs/platforminsights/page/deprecated-metrics, the v25.0
 * changelog); no figures at all for a Page below its threshold ("only available on Pages with 100 or more
 * likes": an empty `data`). README#insights.
 */
import { GraphError, badParam, missingPermission } from '../errors';
import type { SeedPost } from '../seed';
import type { PageState } from '../store/data';
import { hasScope } from './auth';
import { edgeLinks, type GraphCall } from './call';
import { dailyValue, dayEnds, postLifetimeValue, providerTime, type SeriesContext } from './insights-series';
import { requirePageAccess } from './page';

const DAY_MS = 24 * 60 * 60 * 1000;
/** "Only 90 days of insights can be viewed at one time when using the since and until parameters." */
const MAX_RANGE_SEC = 90 * 24 * 60 * 60;
/** "Page Insights data is only available on Pages with 100 or more likes." */
export const INSIGHTS_MIN_FANS = 100;

/** The Page metrics the emulator serves, with `period=day`, and the words the provider gives them. */
export const PAGE_METRICS: Readonly<Record<string, { title: string; description: string }>> = {
  page_media_view: {
    title: 'Views',
    description: "Daily: The number of times your Page's content was played or displayed.",
  },
  page_total_media_view_unique: {
    title: 'Viewers',
    description: "Daily: The number of people who saw any of your Page's content at least once.",
  },
  page_post_engagements: {
    title: 'Post engagements',
    description: 'Daily: The number of times people engaged with your posts through reactions, comments and shares.',
  },
  page_follows: { title: 'Followers', description: 'Daily: The number of followers of your Page.' },
  page_daily_follows_unique: {
    title: 'New follows',
    description: 'Daily: The number of people who followed your Page.',
  },
};

/** The post metrics it serves, `period=lifetime`. */
export const POST_METRICS: Readonly<Record<string, { title: string; description: string }>> = {
  post_total_media_view_unique: {
    title: 'Viewers',
    description: 'Lifetime: The number of people who saw your post at least once.',
  },
  post_media_view: { title: 'Views', description: 'Lifetime: The number of times your post was played or displayed.' },
};

/**
 * Names the provider retired (deprecated-metrics page; v25.0 changelog: removed "when v26.0 is released").
 * They get the same error as any name it does not know; listed so the fidelity tests can name them.
 */
export const RETIRED_METRICS: readonly string[] = Object.freeze([
  'page_impressions',
  'page_impressions_unique',
  'page_impressions_paid',
  'page_impressions_paid_unique',
  'page_impressions_viral_unique',
  'page_impressions_nonviral_unique',
  'page_posts_impressions',
  'page_posts_impressions_unique',
  'page_video_views_unique',
  'page_fans',
  'page_fan_adds',
  'page_fan_adds_unique',
  'page_fan_removes',
  'page_engaged_users',
  'post_impressions',
  'post_impressions_unique',
]);

export const invalidMetric = (): GraphError =>
  new GraphError({ code: 100, message: '(#100) The value must be a valid insights metric' });

/** The reference: code 3001, subcode 1504028, when `metric` is missing. */
const noMetric = (): GraphError =>
  new GraphError({
    code: 3001,
    subcode: 1504028,
    message: 'No metric was specified to be fetched. Please specify one or more metrics to be fetched and try again.',
  });

export function pageInsights(call: GraphCall, page: PageState): unknown {
  const metrics = metricList(call, PAGE_METRICS);
  const period = call.params.period ?? 'day';
  if (period !== 'day') throw badParam(`period must be day for ${metrics.join(',')} in this emulator`);
  const { since, until } = range(call);
  requireInsightsAccess(call, page);
  if (fansOf(page) < INSIGHTS_MIN_FANS) return { data: [] };
  const followers = page.fields.get('followers_count');
  const at: SeriesContext = {
    pageId: page.id,
    fans: fansOf(page),
    followers: typeof followers === 'number' ? followers : fansOf(page),
    startedAt: call.ctx.startedAt,
  };
  const ends = dayEnds(since * 1000, until * 1000);
  const links = edgeLinks(call, page.id, 'insights');
  const span = until - since;
  const link = (from: number) =>
    `${links.base}?${new URLSearchParams({ ...links.carry, metric: metrics.join(','), period, since: String(from), until: String(from + span) }).toString()}`;
  return {
    data: metrics.map((name) => ({
      name,
      period,
      values: ends.map((end) => ({ value: dailyValue(name, at, end), end_time: providerTime(end) })),
      ...PAGE_METRICS[name],
      id: `${page.id}/insights/${name}/${period}`,
    })),
    // As the provider's: full URLs of the ranges before and after, with the token in them.
    paging: { previous: link(since - span), next: link(until) },
  };
}

export function postInsights(call: GraphCall, page: PageState, post: SeedPost): unknown {
  const metrics = metricList(call, POST_METRICS);
  const period = call.params.period ?? 'lifetime';
  if (period !== 'lifetime') throw badParam(`period must be lifetime for ${metrics.join(',')} in this emulator`);
  requireInsightsAccess(call, page);
  if (fansOf(page) < INSIGHTS_MIN_FANS) return { data: [] };
  return {
    data: metrics.map((name) => ({
      name,
      period,
      values: [{ value: postLifetimeValue(name, fansOf(page), post.id) }],
      ...POST_METRICS[name],
      id: `${post.id}/insights/${name}/${period}`,
    })),
  };
}

/** Every name asked for must be one served now: one retired or unknown fails the whole call, as the provider's does. */
function metricList(call: GraphCall, known: Readonly<Record<string, unknown>>): string[] {
  const names = (call.params.metric ?? '').split(',').map((m) => m.trim());
  if (names.every((m) => m === '')) throw noMetric();
  if (names.some((m) => !Object.hasOwn(known, m) || call.ctx.refusedMetrics.has(m))) throw invalidMetric();
  return [...new Set(names)];
}

/** `since`/`until`: Unix seconds or a date; by default the last two days. */
function range(call: GraphCall): { since: number; until: number } {
  const now = Math.floor(call.ctx.now() / 1000);
  const until = call.params.until === undefined ? now : timeParam('until', call.params.until);
  const since = call.params.since === undefined ? until - (2 * DAY_MS) / 1000 : timeParam('since', call.params.since);
  if (until - since > MAX_RANGE_SEC) {
    throw badParam('There cannot be more than 90 days (7776000 s) between since and until');
  }
  if (since >= until) throw badParam('since must be before until');
  return { since, until };
}

function timeParam(name: string, value: string): number {
  if (/^\d{1,12}$/.test(value)) return Number(value);
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms)) throw badParam(`${name} must be a Unix time or a date`);
  return Math.floor(ms / 1000);
}

/**
 * A page token of this page with `pages_read_engagement` (the Page's own rule), `read_insights`, and a person
 * who can perform the ANALYZE task on the Page (the reference's "Requirements").
 */
function requireInsightsAccess(call: GraphCall, page: PageState): void {
  requirePageAccess(call, page);
  const { record } = call.caller;
  if (!hasScope(record, 'read_insights')) throw missingPermission('read_insights', 10);
  const tasks = call.ctx.data.role(record.userId, page.id)?.tasks ?? [];
  if (!tasks.includes('ANALYZE')) {
    throw new GraphError({
      code: 10,
      message: '(#10) The person who made this page access token cannot perform the ANALYZE task on this Page.',
    });
  }
}

function fansOf(page: PageState): number {
  const fans = page.fields.get('fan_count');
  return typeof fans === 'number' ? fans : 0;
}
