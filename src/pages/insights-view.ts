import { englishLocale } from '../i18n/catalogs';
import { PAGE_INSIGHT_METRICS, type PageInsightMetric } from '../graph/provider';
import type { InsightsAnswer, InsightSeries } from '../graph/schemas';
import { PROVIDER_NAME, permissionWords } from '../words';
import { lineChart, type ChartModel } from './chart';
import { INSIGHTS_DAYS, type InsightsBlocked } from './insights-load';
import { formatCount, formatDay, formatWhole } from './view-model';

/**
 * The insights page's view model: per metric a chart of the last 28 days, its figures as a table, the total
 * and the change against the 28 days before; or, when there is nothing to chart, what the person can do.
 * Words are plain strings here, the template only prints them (docs/architecture.md#views).
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
}

interface ChartSpec {
  metric: PageInsightMetric;
  title: string;
  unit: [string, string];
  explanation: string;
}

/** The four charts, in the order shown; `page_follows` is the followers figure beside "New follows". */
const CHARTS: readonly ChartSpec[] = [
  {
    metric: 'page_media_view',
    title: 'Views',
    unit: ['view', 'views'],
    explanation: "How many times your Page's posts, stories and other content were played or displayed.",
  },
  {
    metric: 'page_total_media_view_unique',
    title: 'Viewers',
    unit: ['viewer', 'viewers'],
    explanation:
      "How many people saw your Page's content, counted each day: someone who looked on three days counts three times.",
  },
  {
    metric: 'page_post_engagements',
    title: 'Post engagements',
    unit: ['engagement', 'engagements'],
    explanation: 'How many times people reacted to, commented on or shared your posts.',
  },
  {
    metric: 'page_daily_follows_unique',
    title: 'New follows',
    unit: ['new follow', 'new follows'],
    explanation: 'How many people started following your Page each day.',
  },
];

/** What each metric is called when the provider refuses it. */
const TITLES: Readonly<Record<PageInsightMetric, string>> = {
  ...(Object.fromEntries(CHARTS.map((c) => [c.metric, c.title])) as Record<PageInsightMetric, string>),
  page_follows: 'Followers',
};

const DAY_MS = 24 * 60 * 60 * 1000;

export function toInsightsView(answer: InsightsAnswer): InsightsView {
  const byName = new Map(answer.data.map((s) => [s.name, s]));
  const charts = CHARTS.flatMap((spec) => {
    const series = byName.get(spec.metric);
    return series === undefined || answer.refused.includes(spec.metric) ? [] : [chartOf(spec, series, byName)];
  });
  const refused = PAGE_INSIGHT_METRICS.filter((m) => answer.refused.includes(m)).map((m) => TITLES[m]);
  const first = charts[0]?.rows[0]?.day;
  const last = charts[0]?.rows.at(-1)?.day;
  const days = first && last ? `, ${first} – ${last},` : '';
  return {
    intro: `The last 28 days${days} compared with the 28 days before. The figures come from ${PROVIDER_NAME}, which updates most of them once a day.`,
    charts,
    ...(refused.length > 0
      ? {
          unavailable: `${PROVIDER_NAME} no longer gives ${refused.length === 1 ? 'this figure' : 'these figures'}, so ${refused.length === 1 ? 'it is' : 'they are'} missing here: ${refused.join(', ')}.${charts.length > 0 ? ' The others are below.' : ''}`,
        }
      : {}),
  };
}

function chartOf(spec: ChartSpec, series: InsightSeries, byName: Map<string, InsightSeries>): InsightChartView {
  const days = daily(series);
  const current = days.slice(-INSIGHTS_DAYS);
  const before = days.slice(-2 * INSIGHTS_DAYS, -INSIGHTS_DAYS);
  const total = sum(current);
  const first = current[0]?.day.long;
  const last = current.at(-1)?.day.long;
  const followers = spec.metric === 'page_daily_follows_unique' ? daily(byName.get('page_follows')).at(-1) : undefined;
  return {
    id: spec.metric,
    title: spec.title,
    explanation: spec.explanation,
    total: formatCount(total, ...spec.unit),
    ...changeOf(total, before),
    ...(followers
      ? { aside: `${formatCount(followers.value, 'follower', 'followers')} on ${followers.day.long}` }
      : {}),
    chart: lineChart(
      current.map((d) => ({ label: d.day.short, value: d.value })),
      formatWhole,
    ),
    summary: `${spec.title} per day${first && last ? `, ${first} to ${last}` : ''}: ${formatCount(total, ...spec.unit)} in all.`,
    caption: `${spec.title} per day${first && last ? `, ${first} – ${last}` : ''}`,
    unit: spec.title,
    rows: current.map((d) => ({ day: d.day.long, value: formatWhole(d.value) })),
  };
}

/**
 * The series by day, oldest first. A daily `end_time` closes the day before it (the Page Insights guide:
 * `since` January 1 → first `end_time` January 2), so each value is dated a day earlier. Values without a
 * time or a count (dropped by the schema) are left out.
 */
function daily(series: InsightSeries | undefined): { day: ReturnType<typeof formatDay>; value: number }[] {
  const points = (series?.values ?? []).flatMap((v) => {
    const end = v?.end_time === undefined ? Number.NaN : Date.parse(v.end_time.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
    return v === undefined || Number.isNaN(end) ? [] : [{ end, value: v.value }];
  });
  return points.sort((a, b) => a.end - b.end).map((p) => ({ day: formatDay(p.end - DAY_MS), value: p.value }));
}

function sum(days: readonly { value: number }[]): number {
  return days.reduce((total, d) => total + d.value, 0);
}

function changeOf(total: number, before: readonly { value: number }[]): Pick<InsightChartView, 'change' | 'trend'> {
  if (before.length < INSIGHTS_DAYS)
    return { change: `${PROVIDER_NAME} has no figures for the 28 days before to compare with.`, trend: 'none' };
  const previous = sum(before);
  if (previous === 0)
    return total === 0
      ? { change: 'The same as the 28 days before.', trend: 'flat' }
      : { change: 'Up from none in the 28 days before.', trend: 'up' };
  const percent = Math.round(((total - previous) / previous) * 100);
  if (percent === 0) return { change: 'About the same as the 28 days before.', trend: 'flat' };
  return percent > 0
    ? { change: `Up ${formatWhole(percent)}% on the 28 days before.`, trend: 'up' }
    : { change: `Down ${formatWhole(-percent)}% on the 28 days before.`, trend: 'down' };
}

/** The screen for a Page without figures to chart: what happened, and what the person can do. */
export function blockedView(blocked: InsightsBlocked, pageId: string): BlockedView {
  switch (blocked) {
    case 'not_granted':
      return {
        title: 'Pagelight needs your permission to show insights',
        text:
          `Pagelight can't show this Page's insights, because the permission “${permissionWords(englishLocale(), 'read_insights')}” ` +
          `wasn't granted on ${PROVIDER_NAME}. Ask again and allow it to see them here.`,
        askAgain: `/auth/login?rerequest=1&return_to=${encodeURIComponent(`/pages/${pageId}/insights`)}`,
      };
    case 'no_analyze':
      return {
        title: "Your role on this Page doesn't include insights",
        text:
          `${PROVIDER_NAME} shows a Page's insights only to people whose access to the Page includes insights. ` +
          `Ask a person with full control of the Page to give you access to insights in the Page's settings on ${PROVIDER_NAME}, then open this page again.`,
      };
    case 'no_data':
      return {
        title: 'No insights for this Page yet',
        text:
          `${PROVIDER_NAME} gives insights only for Pages with 100 or more likes, and has none for this Page yet. ` +
          'Its posts and details are on the Page as usual.',
      };
  }
}
