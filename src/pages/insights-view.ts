import { INSIGHTS_SCOPE, PAGE_INSIGHT_METRICS, type PageInsightMetric } from '../graph/provider';
import type { InsightsAnswer, InsightSeries } from '../graph/schemas';
import type { MessageKey } from '../i18n/catalogs';
import type { Locale } from '../i18n/locale';
import { permissionWords } from '../words';
import { lineChart, type ChartModel } from './chart';
import { INSIGHTS_DAYS, type InsightsBlocked } from './insights-load';
import { providerTime } from './view-text';

/**
 * The insights page's view model: per metric a chart of the last 28 days, its figures as a table, the total
 * and the change against the 28 days before; or, when there is nothing to chart, what the person can do.
 * Words are plain strings here, in the request's language (docs/architecture.md#languages); the template only
 * prints them (docs/architecture.md#views).
 */

export interface InsightChartView {
  /** For ids in the page: the metric's name. */
  id: string;
  title: string;
  explanation: string;
  /** "12,345 views". */
  total: string;
  /** "Up 12% on the 28 days before". */
  change: string;
  trend: 'up' | 'down' | 'flat' | 'none';
  /** A figure beside the total, such as the followers now. */
  aside?: string;
  chart: ChartModel;
  /** "Views per day" — the svg's name, and the table's caption with the days. */
  summary: string;
  caption: string;
  unit: string;
  /** The days as text: not `<time>`, which public/app.js would rewrite into local times of day. */
  rows: { day: string; value: string }[];
}

export interface InsightsView {
  /** What the figures cover: the days, and where they come from. */
  intro: string;
  charts: InsightChartView[];
  /** Which figures the provider refused, in words; absent when it gave all. */
  unavailable?: string;
}

/** Instead of charts: what happened, and what the person can do. */
export interface BlockedView {
  title: string;
  text: string;
  askAgain?: string;
  /** For whoever runs the site, folded away: how to turn the feature on (FB_SCOPES leaves its permission out). */
  operator?: string;
}

/** The charts, in the order shown; `page_follows` is the followers figure beside "New follows". */
const CHARTS = [
  'page_media_view',
  'page_total_media_view_unique',
  'page_post_engagements',
  'page_daily_follows_unique',
] as const satisfies readonly PageInsightMetric[];
type ChartMetric = (typeof CHARTS)[number];

/** Each metric's name, when charted and when refused. */
const TITLES: Readonly<Record<PageInsightMetric, MessageKey>> = {
  page_media_view: 'insights.views.title',
  page_total_media_view_unique: 'insights.viewers.title',
  page_post_engagements: 'insights.engagements.title',
  page_daily_follows_unique: 'insights.follows.title',
  page_follows: 'insights.followers.title',
};

/** Per chart: what it counts, and its total ("12,345 views"). */
const WORDS: Readonly<Record<ChartMetric, { explanation: MessageKey; total: MessageKey }>> = {
  page_media_view: { explanation: 'insights.views.explanation', total: 'insights.views.total' },
  page_total_media_view_unique: { explanation: 'insights.viewers.explanation', total: 'insights.viewers.total' },
  page_post_engagements: { explanation: 'insights.engagements.explanation', total: 'insights.engagements.total' },
  page_daily_follows_unique: { explanation: 'insights.follows.explanation', total: 'insights.follows.total' },
};

const DAY_MS = 24 * 60 * 60 * 1000;

interface Day {
  at: number;
  value: number;
}

export function toInsightsView(answer: InsightsAnswer, locale: Locale): InsightsView {
  const byName = new Map(answer.data.map((s) => [s.name, s]));
  // The series share their days: each `end_time` is read once, not once per series.
  const times = new Map<string, number>();
  const timeOf = (text: string): number => {
    let at = times.get(text);
    if (at === undefined) times.set(text, (at = providerTime(text)));
    return at;
  };
  const charts = CHARTS.flatMap((metric) => {
    const series = byName.get(metric);
    return series === undefined || answer.refused.includes(metric)
      ? []
      : [chartOf(metric, series, byName, locale, timeOf)];
  });
  const refused = PAGE_INSIGHT_METRICS.filter((m) => answer.refused.includes(m)).map((m) => locale.t(TITLES[m]));
  const first = charts[0]?.rows[0]?.day;
  const last = charts[0]?.rows.at(-1)?.day;
  const unavailable = [
    locale.t('insights.unavailable', { count: refused.length, names: locale.list(refused, 'and') }),
    ...(charts.length > 0 ? [locale.t('insights.othersBelow')] : []),
  ].join(' ');
  return {
    intro: first && last ? locale.t('insights.introDays', { first, last }) : locale.t('insights.intro'),
    charts,
    ...(refused.length > 0 ? { unavailable } : {}),
  };
}

function chartOf(
  metric: ChartMetric,
  series: InsightSeries,
  byName: Map<string, InsightSeries>,
  locale: Locale,
  timeOf: (text: string) => number,
): InsightChartView {
  const days = daily(series, timeOf);
  const current = days.slice(-INSIGHTS_DAYS);
  const before = days.slice(-2 * INSIGHTS_DAYS, -INSIGHTS_DAYS);
  const total = sum(current);
  const first = current[0];
  const last = current.at(-1);
  const range =
    first && last
      ? { days: 'some', first: locale.day(first.at, 'long'), last: locale.day(last.at, 'long') }
      : { days: 'none', first: '', last: '' };
  const followers =
    metric === 'page_daily_follows_unique' ? daily(byName.get('page_follows'), timeOf).at(-1) : undefined;
  const title = locale.t(TITLES[metric]);
  const totalText = locale.t(WORDS[metric].total, { count: total });
  return {
    id: metric,
    title,
    explanation: locale.t(WORDS[metric].explanation),
    total: totalText,
    ...changeOf(total, before, locale),
    ...(followers
      ? { aside: locale.t('insights.followersOn', { count: followers.value, day: locale.day(followers.at, 'long') }) }
      : {}),
    chart: lineChart(
      current.map((d) => ({ label: locale.day(d.at, 'short'), value: d.value })),
      (n) => locale.number(n),
      locale.dir,
    ),
    summary: locale.t('insights.summary', { title, total: totalText, ...range }),
    caption: locale.t('insights.caption', { title, ...range }),
    unit: title,
    rows: current.map((d) => ({ day: locale.day(d.at, 'long'), value: locale.number(d.value) })),
  };
}

/**
 * The series by day, oldest first. A daily `end_time` closes the day before it (the Page Insights guide:
 * `since` January 1 → first `end_time` January 2), so each value is dated a day earlier. Values without a
 * time or a count (dropped by the schema) are left out.
 */
function daily(series: InsightSeries | undefined, timeOf: (text: string) => number): Day[] {
  const points: { end: number; value: number }[] = [];
  for (const v of series?.values ?? []) {
    const end = v?.end_time === undefined ? Number.NaN : timeOf(v.end_time);
    if (v !== undefined && !Number.isNaN(end)) points.push({ end, value: v.value });
  }
  return points.sort((a, b) => a.end - b.end).map((p) => ({ at: p.end - DAY_MS, value: p.value }));
}

function sum(days: readonly { value: number }[]): number {
  return days.reduce((total, d) => total + d.value, 0);
}

function changeOf(
  total: number,
  before: readonly { value: number }[],
  locale: Locale,
): Pick<InsightChartView, 'change' | 'trend'> {
  if (before.length < INSIGHTS_DAYS) return { change: locale.t('insights.change.none'), trend: 'none' };
  const previous = sum(before);
  if (previous === 0)
    return total === 0
      ? { change: locale.t('insights.change.same'), trend: 'flat' }
      : { change: locale.t('insights.change.fromNone'), trend: 'up' };
  const percent = Math.round(((total - previous) / previous) * 100);
  if (percent === 0) return { change: locale.t('insights.change.aboutSame'), trend: 'flat' };
  // The message formats the share as a percentage in the language's way ("12 %", "12%").
  return percent > 0
    ? { change: locale.t('insights.change.up', { share: percent / 100 }), trend: 'up' }
    : { change: locale.t('insights.change.down', { share: -percent / 100 }), trend: 'down' };
}

/** The screen for a Page without figures to chart: what happened, and what the person can do. */
export function blockedView(blocked: InsightsBlocked, pageId: string, locale: Locale): BlockedView {
  switch (blocked) {
    case 'not_asked':
      return {
        title: locale.t('insights.notAsked.title'),
        text: locale.t('insights.notAsked.text'),
        operator: locale.t('operator.addScope', { permission: INSIGHTS_SCOPE }),
      };
    case 'not_granted':
      return {
        title: locale.t('insights.notGranted.title'),
        text: locale.t('insights.notGranted.text', { permission: permissionWords(locale, 'read_insights') }),
        askAgain: `/auth/login?rerequest=1&return_to=${encodeURIComponent(`/pages/${pageId}/insights`)}`,
      };
    case 'no_analyze':
      return { title: locale.t('insights.noAnalyze.title'), text: locale.t('insights.noAnalyze.text') };
    case 'no_data':
      return { title: locale.t('insights.noData.title'), text: locale.t('insights.noData.text') };
  }
}
