/**
 * Rate limiting and the usage headers, as the provider's Rate Limits guide
 * (https://developers.facebook.com/docs/graph-api/overview/rate-limiting/) describes them for the Pages API:
 * calls with a page token count against the Page's Business Use Case (BUC) budget, reported in
 * `X-Business-Use-Case-Usage` with `estimated_time_to_regain_access` (minutes) and refused with code 80001
 * ("There have been too many calls to this Page account"); calls with a user token count against the
 * platform budget, tracked per user, reported in `X-App-Usage` (which carries no regain estimate) and
 * refused with 17 (user level) or, when the call is about a Page, 32 (page level). The headers appear only
 * once enough calls have been made, not on the first one. Figures are percentages of the budget.
 */
import type { Response } from 'express';
import { GraphError } from '../errors';
import type { TokenRecord } from '../store/tokens';
import type { RateLimit } from '../types';

/** Large enough never to trigger unless a test lowers it. */
const DEFAULT_LIMIT: Required<RateLimit> = { calls: 1_000_000_000, windowMs: 3_600_000, headersAfter: 1 };

interface Window {
  start: number;
  count: number;
}

export interface Usage {
  percent: number;
  exceeded: boolean;
  /** The usage headers go with this answer. */
  reported: boolean;
  /** Minutes until the window resets, when exceeded (0 otherwise). */
  regainMinutes: number;
}

export class UsageMeter {
  private limit: Required<RateLimit> = DEFAULT_LIMIT;
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number) {}

  setLimit(limit: RateLimit | null): void {
    if (limit !== null && (!(limit.calls >= 1) || !(limit.windowMs >= 1) || !((limit.headersAfter ?? 1) >= 0))) {
      throw new Error('setRateLimit: calls and windowMs must be ≥ 1, headersAfter ≥ 0');
    }
    this.limit = limit === null ? DEFAULT_LIMIT : { headersAfter: DEFAULT_LIMIT.headersAfter, ...limit };
    this.windows.clear();
  }

  reset(): void {
    this.setLimit(null);
  }

  /** Counts one call against `key` (a page or a user) in a fixed window. */
  hit(key: string): Usage {
    const now = this.now();
    let window = this.windows.get(key);
    if (window === undefined || now - window.start >= this.limit.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    const exceeded = window.count > this.limit.calls;
    return {
      percent: Math.floor((window.count * 100) / this.limit.calls),
      exceeded,
      reported: window.count > this.limit.headersAfter,
      regainMinutes: exceeded ? Math.max(1, Math.ceil((window.start + this.limit.windowMs - now) / 60_000)) : 0,
    };
  }
}

/**
 * Counts the call, sets the usage header once enough calls were made, and refuses it when over budget:
 * 80001 for a page token, 32 for a user token's call about a Page, else 17.
 */
export function meter(meterState: UsageMeter, record: TokenRecord, aboutPage: boolean, res: Response): void {
  if (record.kind === 'page' && record.pageId !== undefined) {
    const usage = meterState.hit(`page:${record.pageId}`);
    const entry = {
      type: 'pages',
      call_count: usage.percent,
      total_cputime: usage.percent,
      total_time: usage.percent,
      estimated_time_to_regain_access: usage.regainMinutes,
    };
    if (usage.reported) res.set('X-Business-Use-Case-Usage', JSON.stringify({ [record.pageId]: [entry] }));
    if (usage.exceeded)
      throw new GraphError({
        code: 80001,
        message:
          'There have been too many calls to this Page account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.',
      });
    return;
  }
  const usage = meterState.hit(`user:${record.userId}`);
  if (usage.reported)
    res.set(
      'X-App-Usage',
      JSON.stringify({ call_count: usage.percent, total_cputime: usage.percent, total_time: usage.percent }),
    );
  if (!usage.exceeded) return;
  throw aboutPage
    ? new GraphError({ code: 32, message: '(#32) Page request limit reached' })
    : new GraphError({ code: 17, message: '(#17) User request limit reached' });
}
