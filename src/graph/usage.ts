/**
 * Reads the provider's rate-limit usage headers and decides when to slow
 * down or hold back, so the app backs off before the provider throttles it.
 *
 * - `X-App-Usage` / `X-Page-Usage`: `{"call_count":N,"total_cputime":N,"total_time":N}`, percent of the budget.
 * - `X-Business-Use-Case-Usage`: `{"<id>":[{"type","call_count","total_cputime","total_time","estimated_time_to_regain_access"}]}`,
 *   the last in minutes.
 *
 * Two separate budgets, as the provider's "Rate Limiting" page describes:
 * calls with a user token count against the platform (app) limit, calls with
 * a page token against the page's Business Use Case limit. A hold or a high
 * reading on one never slows or blocks calls that count against the other
 * (docs/provider-interface.md#usage-headers).
 */

import { parseJson } from '../json';

export interface UsagePolicy {
  /** Below this percentage nothing is slowed. */
  slowFrom: number;
  /** Delay at 100 %, in ms; scaled linearly from `slowFrom`. */
  maxDelayMs: number;
  /** A reading older than this is ignored (usage windows roll). */
  staleAfterMs: number;
}

export const DEFAULT_USAGE_POLICY: UsagePolicy = { slowFrom: 75, maxDelayMs: 1000, staleAfterMs: 60_000 };

/**
 * The longest hold-back the provider's `estimated_time_to_regain_access` may
 * impose, in minutes. The header is the provider's word, but a wrong or
 * hostile value (days, years) would otherwise close every page for that long.
 */
export const MAX_REGAIN_MINUTES = 60;

interface Reading {
  percent: number;
  at: number;
  /** Epoch ms before which the provider said access is closed. */
  blockedUntil: number;
}

const APP = 'app';

/** The latest percentages the provider reported: its app budget, and the highest of any page's. */
export interface UsageReadings {
  app: number | undefined;
  page: number | undefined;
}

export class UsageGovernor {
  private readonly readings = new Map<string, Reading>();

  constructor(
    private readonly policy: UsagePolicy,
    private readonly now: () => number,
  ) {}

  /** Takes the usage headers of one answer; `pageId` is the page the call was about, if any. */
  record(headers: Record<string, unknown>, pageId: string | undefined): void {
    const app = parseObject(headers['x-app-usage']);
    if (app) this.set(APP, percentOf(app), 0);
    const page = parseObject(headers['x-page-usage']);
    if (page && pageId) this.set(pageId, percentOf(page), 0);
    const buc = parseObject(headers['x-business-use-case-usage']);
    if (buc) {
      for (const [id, entries] of Object.entries(buc)) {
        if (!Array.isArray(entries) || !/^\d{1,32}$/.test(id)) continue;
        for (const entry of entries) {
          if (entry && typeof entry === 'object') {
            const minutes = Math.min(
              MAX_REGAIN_MINUTES,
              num((entry as Record<string, unknown>).estimated_time_to_regain_access),
            );
            this.set(id, percentOf(entry as Record<string, unknown>), minutes * 60_000);
          }
        }
      }
    }
    if (this.readings.size > 10_000) this.prune();
  }

  /**
   * Seconds until the provider lets this call in again, when it said it is closed; otherwise undefined.
   * `pageId` names the page budget of a page-token call; undefined is the app budget of a user-token call.
   */
  blockedFor(pageId: string | undefined): number | undefined {
    const now = this.now();
    const until = this.live(pageId ?? APP)?.blockedUntil ?? 0;
    return until > now ? Math.ceil((until - now) / 1000) : undefined;
  }

  /** How long to wait before this call so as to stay under the limit of its own budget. */
  delayFor(pageId: string | undefined): number {
    const percent = this.live(pageId ?? APP)?.percent ?? 0;
    if (percent < this.policy.slowFrom) return 0;
    const share = Math.min(1, (percent - this.policy.slowFrom) / (100 - this.policy.slowFrom));
    return Math.round(share * this.policy.maxDelayMs);
  }

  /** What the provider last reported, readings past their age left out (read when metrics are scraped). */
  report(): UsageReadings {
    let page: number | undefined;
    for (const key of [...this.readings.keys()]) {
      if (key === APP) continue;
      const reading = this.live(key);
      if (reading) page = Math.max(page ?? 0, reading.percent);
    }
    return { app: this.live(APP)?.percent, page };
  }

  private set(key: string, percent: number, blockMs: number): void {
    const now = this.now();
    const previous = this.live(key);
    // Several readings for one key in one answer: keep the highest.
    const merged = previous && previous.at === now ? Math.max(previous.percent, percent) : percent;
    const blockedUntil = Math.max(blockMs > 0 ? now + blockMs : 0, previous?.at === now ? previous.blockedUntil : 0);
    this.readings.set(key, { percent: merged, at: now, blockedUntil });
  }

  private live(key: string): Reading | undefined {
    const reading = this.readings.get(key);
    if (!reading) return undefined;
    const now = this.now();
    if (now - reading.at > this.policy.staleAfterMs && reading.blockedUntil <= now) {
      this.readings.delete(key);
      return undefined;
    }
    return reading;
  }

  private prune(): void {
    for (const key of [...this.readings.keys()]) this.live(key);
  }
}

function parseObject(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'string' || value.length > 10_000) return undefined;
  const parsed = parseJson(value);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

function percentOf(usage: Record<string, unknown>): number {
  return Math.max(num(usage.call_count), num(usage.total_time), num(usage.total_cputime));
}
