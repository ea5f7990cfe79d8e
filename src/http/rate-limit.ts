import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { rateLimit, type RateLimitInfo, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';

const WINDOW_MS = 60_000;

export interface PerMinuteLimit {
  /** Requests one key may make per minute. */
  limit: number;
  /** What is counted. Default: the client address, `req.ip`, which honours TRUST_PROXY. */
  key?: (req: Request) => string;
  /** Requests that are not counted at all. */
  skip?: (req: Request) => boolean;
  /** Counts only requests answered with 400 and up (refusals); a success gives its count back. */
  countOnlyRefusals?: boolean;
  /** Where the counts live. Default: this process's memory. */
  store?: Store;
  /** Answers a request over the limit, given the seconds until its key may ask again (at least 1). */
  refuse: (req: Request, res: Response, next: NextFunction, retryAfterSec: number) => void;
}

/**
 * The app's one express-rate-limit set-up: a one-minute window and the IETF draft-8 `RateLimit` and
 * `RateLimit-Policy` headers. The login starts, the uncached page reads and the provider's callbacks each
 * pass their own limit, key and answer.
 */
export function perMinuteLimit(options: PerMinuteLimit): RequestHandler {
  const { limit, key, skip, store, refuse, countOnlyRefusals } = options;
  return rateLimit({
    windowMs: WINDOW_MS,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    ...(key ? { keyGenerator: key } : {}),
    ...(skip ? { skip } : {}),
    ...(store ? { store } : {}),
    ...(countOnlyRefusals ? { skipSuccessfulRequests: true } : {}),
    handler: (req, res, next) => {
      const reset = (req as Request & { rateLimit?: RateLimitInfo }).rateLimit?.resetTime?.getTime();
      refuse(req, res, next, reset ? Math.max(1, Math.ceil((reset - Date.now()) / 1000)) : WINDOW_MS / 1000);
    },
    // The app warns about TRUST_PROXY itself at start (src/config.ts proxyWarning); these checks would only
    // repeat it on stderr. A key other than the address needs no address checks at all.
    validate: { trustProxy: false, xForwardedForHeader: false, keyGeneratorIpFallback: false },
  });
}

/**
 * Counts in Redis under `prefix`, shared by every instance, sent through the app's one Redis client (src/redis.ts).
 * rate-limit-redis loads its script once, at start; if Redis was away then, every later count would fail,
 * so a failed count loads it again.
 */
export function redisCounts(send: (args: string[]) => Promise<unknown>, prefix: string): Store {
  return new ReloadingRedisStore({ prefix, sendCommand: (...args: string[]) => send(args) as Promise<never> });
}

class ReloadingRedisStore extends RedisStore {
  override async increment(key: string) {
    try {
      return await super.increment(key);
    } catch (err) {
      this.incrementScriptSha = this.loadIncrementScript();
      this.incrementScriptSha.catch(() => undefined);
      throw err;
    }
  }
}
