/**
 * Rate limiting and the usage headers the Graph API sends with every answer
 * (https://developers.facebook.com/docs/graph-api/overview/rate-limiting):
 * `X-App-Usage` for calls made with a user token, `X-Business-Use-Case-Usage`
 * for calls made with a page token. Figures are percentages of the budget.
 */
import type { Response } from 'express';
import { GraphError } from '../errors';
import type { TokenRecord } from '../store/tokens';
import type { RateLimit } from '../types';

/** Large enough never to trigger unless a test lowers it. */
const DEFAULT_LIMIT: RateLimit = { calls: 1_000_000_000, windowMs: 3_600_000 };

interface Window {
  start: number;
  count: number;
}

export interface Usage {
  percent: number;
  exceeded: boolean;
  /** Minutes until the window resets, when exceeded (0 otherwise). */
  regainMinutes: number;
}

export class UsageMeter {
  private limit: RateLimit = DEFAULT_LIMIT;
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number) {}

  setLimit(limit: RateLimit | null): void {
    if (limit !== null && (!(limit.calls >= 1) || !(limit.windowMs >= 1))) {
      throw new Error('setRateLimit: calls and windowMs must be ≥ 1');
    }
    this.limit = limit ?? DEFAULT_LIMIT;
    this.windows.clear();
  }

  reset(): void {
    this.setLimit(null);
  }

  /** Counts one call against `key` (an app or a page) in a fixed window. */
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
      regainMinutes: exceeded ? Math.max(1, Math.ceil((window.start + this.limit.windowMs - now) / 60_000)) : 0,
    };
  }
}

/** Counts the call, sets the usage header, and refuses it when over budget (4 app, 32 page). */
export function meter(meterState: UsageMeter, record: TokenRecord, res: Response): void {
  if (record.kind === 'page' && record.pageId !== undefined) {
    const usage = meterState.hit(`page:${record.pageId}`);
    const entry = {
      type: 'pages',
      call_count: usage.percent,
      total_cputime: usage.percent,
      total_time: usage.percent,
      estimated_time_to_regain_access: usage.regainMinutes,
    };
    res.set('X-Business-Use-Case-Usage', JSON.stringify({ [record.pageId]: [entry] }));
    if (usage.exceeded) throw new GraphError({ code: 32, message: '(#32) Page request limit reached' });
    return;
  }
  const usage = meterState.hit(`app:${record.clientId}`);
  const appUsage = { call_count: usage.percent, total_cputime: usage.percent, total_time: usage.percent };
  // The real X-App-Usage has no regain estimate; adding it only while throttled
  // lets a client show "try again in N minutes" for user-token calls too.
  const extra = usage.exceeded ? { estimated_time_to_regain_access: usage.regainMinutes } : {};
  res.set('X-App-Usage', JSON.stringify({ ...appUsage, ...extra }));
  if (usage.exceeded) throw new GraphError({ code: 4, message: '(#4) Application request limit reached' });
}
