import type { AppContext } from '../context';
import type { AdmitRead } from '../graph/client';
import { GraphApiError } from '../graph/errors';
import {
  ANALYZE_TASK,
  INSIGHTS_SCOPE,
  PAGE_INSIGHT_METRICS,
  POST_VIEWERS_METRIC,
  type PageInsightMetric,
} from '../graph/provider';
import type { InsightsAnswer } from '../graph/schemas';
import type { PageAccess, PageChanges } from '../session/access';
import { dropOnRefusal, readThroughCache, roleOf, withChanges } from './cache-policy';
import { admitReads } from './fairness';
import { isPermissionError } from './load';
import { asksFor } from './offered';
import type { Load } from './pipeline';

/**
 * How a Page's insights, and a post's viewers, are loaded: the page view's use-case shape (values in, changes
 * out, no request), through the same cache with the same freshness and revocation rules (./cache-policy.ts), and
 * identical reads coalesced by the graph client. What the person can do about an empty answer is an
 * outcome, never an exception: the permission not granted, a role without the ANALYZE task, a Page the
 * provider gives no figures for, a metric the provider refuses (docs/provider-interface.md#insights).
 */

/** The days a chart shows; the read covers twice as many, for the change against the days before. */
export const INSIGHTS_DAYS = 28;
const DAY_SEC = 24 * 60 * 60;
/** The provider's day ends at midnight Pacific time, 07:00 or 08:00 UTC; its daily `end_time`s are at 07:00 UTC. */
const DAY_END_SEC = 7 * 60 * 60;

/**
 * The range of one read: the 56 whole days up to the last day end before now. The same all day long, so the
 * reads of every session viewing the Page that day share one cache key and one provider call.
 */
export function insightsRange(nowMs: number): { since: number; until: number } {
  const now = Math.floor(nowMs / 1000);
  const until = Math.floor((now - DAY_END_SEC) / DAY_SEC) * DAY_SEC + DAY_END_SEC;
  return { since: until - 2 * INSIGHTS_DAYS * DAY_SEC, until };
}

/** What the person sees instead of figures, when there are none to show. */
/** `not_asked`: FB_SCOPES leaves out read_insights; `not_granted`: the app asks for it and the person declined. */
export type InsightsBlocked = 'not_asked' | 'not_granted' | 'no_analyze' | 'no_data';

export type InsightsOutcome = { answer: InsightsAnswer; blocked?: undefined } | { blocked: InsightsBlocked };

/** The Page's figures for the 56 days of {@link insightsRange}, in one call while the provider serves every metric. */
export function loadPageInsights(ctx: AppContext, access: PageAccess, token: string): Promise<Load<InsightsOutcome>> {
  const range = insightsRange(ctx.now());
  const read = (admit: AdmitRead) => readMetrics(ctx, token, access.pageId, range, admit);
  return loadInsights(ctx, access, 'page', read);
}

/** A post's viewers: a count, or why there is none (`refused`: the provider no longer serves the metric). */
export type ViewersOutcome = { viewers: number; blocked?: undefined } | { blocked: InsightsBlocked | 'refused' };

export async function loadPostViewers(
  ctx: AppContext,
  access: PageAccess,
  token: string,
  postId: string,
): Promise<Load<ViewersOutcome>> {
  const read = async (admit: AdmitRead): Promise<InsightsAnswer> => {
    try {
      return {
        ...(await ctx.graph.postInsights(token, access.pageId, postId, POST_VIEWERS_METRIC, admit)),
        refused: [],
      };
    } catch (err) {
      if (isRefusedMetric(err)) return { data: [], refused: [POST_VIEWERS_METRIC] };
      throw err;
    }
  };
  const { outcome, changes } = await loadInsights(ctx, access, `post ${postId}`, read);
  if ('error' in outcome || outcome.blocked !== undefined) return { outcome, changes };
  if (outcome.answer.refused.length > 0) return { outcome: { blocked: 'refused' }, changes };
  const value = outcome.answer.data.find((s) => s.name === POST_VIEWERS_METRIC)?.values[0]?.value;
  return { outcome: value === undefined ? { blocked: 'no_data' } : { viewers: value }, changes };
}

/**
 * The steps both loads share: what the session already knows rules out a call (no `read_insights`, a role
 * without ANALYZE); else the read, through the cache under `what` and the session's grant and role.
 */
async function loadInsights(
  ctx: AppContext,
  access: PageAccess,
  what: string,
  read: (admit: AdmitRead) => Promise<InsightsAnswer>,
): Promise<Load<InsightsOutcome>> {
  const changes: PageChanges = {};
  if (!asksFor(ctx.config, INSIGHTS_SCOPE)) return { outcome: { blocked: 'not_asked' }, changes };
  if (access.scopes && !access.scopes.includes(INSIGHTS_SCOPE)) return { outcome: { blocked: 'not_granted' }, changes };
  const tasks = await roleOf(ctx, access, changes);
  if (tasks && !tasks.includes(ANALYZE_TASK)) return { outcome: { blocked: 'no_analyze' }, changes };
  const known = withChanges(access, changes);
  const load = () => read(admitReads(ctx, access));
  const cached = await readThroughCache(ctx, known, [{ part: 'insights', variant: what, load }] as const);
  Object.assign(changes, cached.changes);
  const [answer] = cached.answers;
  if (answer.status === 'fulfilled') {
    const empty = answer.value.data.every((s) => s.values.length === 0) && answer.value.refused.length === 0;
    return { outcome: empty ? { blocked: 'no_data' } : { answer: answer.value }, changes };
  }
  const err: unknown = answer.reason;
  dropOnRefusal(ctx, known, err);
  if (!isPermissionError(err)) return { outcome: { error: err }, changes };
  // The provider's word wins over the session's: it refused the permission, or the role changed since.
  const role = /ANALYZE/.test(err.graph.message) ? 'no_analyze' : 'not_granted';
  return { outcome: { blocked: role }, changes };
}

/**
 * Every metric in one call. A name the provider no longer serves fails the whole call (its invalid-metric
 * error), so then each is asked for alone — only then, and the answer is cached like any — to show the others
 * and say which is unavailable.
 */
async function readMetrics(
  ctx: AppContext,
  token: string,
  pageId: string,
  range: { since: number; until: number },
  admit: AdmitRead,
): Promise<InsightsAnswer> {
  try {
    return { ...(await ctx.graph.pageInsights(token, pageId, PAGE_INSIGHT_METRICS, range, admit)), refused: [] };
  } catch (err) {
    if (!isRefusedMetric(err)) throw err;
  }
  const each = await Promise.allSettled(
    PAGE_INSIGHT_METRICS.map((metric) => ctx.graph.pageInsights(token, pageId, [metric], range, admit)),
  );
  const answer: InsightsAnswer = { data: [], refused: [] };
  each.forEach((result, i) => {
    const metric = PAGE_INSIGHT_METRICS[i] as PageInsightMetric;
    if (result.status === 'fulfilled') answer.data.push(...result.value.data);
    else if (isRefusedMetric(result.reason)) answer.refused.push(metric);
    else throw result.reason;
  });
  return answer;
}

/** The provider's "(#100) The value must be a valid insights metric": a metric it retired or does not know. */
function isRefusedMetric(err: unknown): boolean {
  return err instanceof GraphApiError && err.graph.code === 100 && /valid insights metric/i.test(err.graph.message);
}
