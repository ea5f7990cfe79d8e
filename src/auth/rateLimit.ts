import type { RequestHandler } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Config } from '../config';
import { SessionStoreUnavailableError } from '../errors';
import type { SessionStoreHandle } from '../session/store';
import { LoginRateLimitError } from './errors';

const WINDOW_MS = 60_000;

/**
 * At most LOGIN_RATE_LIMIT login starts per client address per minute. Each
 * start stores a pending login, so this bounds what one address can put in
 * the session store. The address is `req.ip`, which honours TRUST_PROXY.
 * With Redis sessions the counts live in Redis, so the limit holds across
 * instances. See docs/architecture.md#sessions.
 */
export function loginRateLimit(
  config: Pick<Config, 'loginRateLimit' | 'redisPrefix'>,
  sessions: SessionStoreHandle,
): RequestHandler {
  if (config.loginRateLimit === 0) return (_req, _res, next) => next();
  const limiter = rateLimit({
    windowMs: WINDOW_MS,
    limit: config.loginRateLimit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    // The app warns about TRUST_PROXY itself at start (src/config.ts proxyWarning); these checks would only repeat it on stderr.
    validate: { trustProxy: false, xForwardedForHeader: false },
    ...(sessions.sendCommand ? { store: redisStore(sessions.sendCommand, `rl:login:${config.redisPrefix}`) } : {}),
    handler: (req, _res, next) => {
      const reset = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = reset ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000)) : WINDOW_MS / 1000;
      next(new LoginRateLimitError(seconds));
    },
  });
  // A store that cannot count is the session store being down: the same 503 page.
  return (req, res, next) =>
    limiter(req, res, (err?: unknown) =>
      next(err && !(err instanceof LoginRateLimitError) ? new SessionStoreUnavailableError({ cause: err }) : err),
    );
}

/**
 * rate-limit-redis loads its script once, at start; if Redis was away then,
 * every later count would fail. This loads it again after a failure.
 */
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

function redisStore(send: (args: string[]) => Promise<unknown>, prefix: string): Store {
  return new ReloadingRedisStore({ prefix, sendCommand: (...args: string[]) => send(args) as Promise<never> });
}
