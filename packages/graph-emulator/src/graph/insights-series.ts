/**
 * The daily figures the emulator reports for a Page and a post: deterministic (the same page, metric and
 * day always give the same number) and plausible (a weekly rhythm, a slow rise, a page's size), counted in
 * days back from the emulator's start so that the demo's charts look the same on any calendar date.
 */
import { createHash } from 'node:crypto';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The provider's daily `end_time`: the end of the day in the Pacific time zone, written in UTC — 07:00 or
 * 08:00 (the Page Insights guide's example: `since` January 1 → first `end_time` January 2 at 08:00). The
 * emulator keeps 07:00 all year: one offset, no daylight-saving table.
 */
const DAY_END_HOUR_UTC = 7;

/** A number in [0, 1) from the key: the same key, the same number, on every run. */
function unit(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) / 2 ** 32;
}

/** The day boundaries (`end_time`, epoch ms) after `sinceMs`, up to `untilMs`: whole days only. */
export function dayEnds(sinceMs: number, untilMs: number): number[] {
  const offset = DAY_END_HOUR_UTC * 3_600_000;
  const first = Math.floor((sinceMs - offset) / DAY_MS) * DAY_MS + offset + DAY_MS;
  const ends: number[] = [];
  for (let t = first; t <= untilMs && ends.length < 400; t += DAY_MS) ends.push(t);
  return ends;
}

/** `2026-10-01T07:00:00+0000`, the provider's timestamp format. */
export function providerTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
}

export interface SeriesContext {
  pageId: string;
  /** The page's size: the seed's `fan_count`. */
  fans: number;
  /** The seed's `followers_count` (else `fan_count`): `page_follows` ends on it, as the Page's own field says. */
  followers: number;
  /** The emulator's start (epoch ms): day 0 is the day it started. */
  startedAt: number;
}

/** Views on the page's busiest weekday relative to its quietest; Saturday and Sunday are the busy days. */
const WEEKDAY_SHAPE = [1.25, 0.85, 0.8, 0.9, 0.95, 1.05, 1.3];

/** The value of one daily metric for the day that ends at `endMs`. */
export function dailyValue(metric: string, at: SeriesContext, endMs: number): number {
  // Days back from the start (0 = the start's day, growing into the past): the figures rise towards the start.
  const back = Math.round((at.startedAt - endMs) / DAY_MS);
  const weekday = WEEKDAY_SHAPE[new Date(endMs - DAY_MS).getUTCDay()] ?? 1;
  const trend = 1 + Math.max(-0.2, Math.min(0.4, -back / 200));
  const noise = 0.8 + 0.4 * unit(`${at.pageId} ${metric} ${back}`);
  const views = at.fans * 0.09 * weekday * trend * noise;
  switch (metric) {
    case 'page_media_view':
      return Math.round(views);
    case 'page_total_media_view_unique':
      return Math.round(views * 0.62);
    case 'page_post_engagements':
      return Math.round(views * 0.048);
    case 'page_daily_follows_unique':
      return Math.round(at.fans * 0.0012 * trend * noise);
    case 'page_follows': {
      // The followers on that day: the Page's followers_count less the daily follows since. The last whole day
      // before the start counts as the start's, so the newest figure is the one the Page's card shows.
      const since = Math.max(0, Math.floor((at.startedAt - endMs) / DAY_MS));
      return Math.max(0, Math.round(at.followers * (1 - since * 0.0011)));
    }
    default:
      return 0;
  }
}

/** The lifetime value of a post metric: its viewers, from the page's size and the post's id. */
export function postLifetimeValue(metric: string, pageFans: number, postId: string): number {
  const share = 0.05 + 0.25 * unit(`${postId} ${metric}`);
  const viewers = Math.round(pageFans * share);
  return metric === 'post_media_view' ? Math.round(viewers * 1.6) : viewers;
}
