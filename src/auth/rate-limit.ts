import type { RequestHandler } from 'express';
import type { Store } from 'express-rate-limit';
import type { Config } from '../config';
import { SessionStoreUnavailableError } from '../errors';
import { perMinuteLimit } from '../http/rate-limit';
import { LoginRateLimitError } from './errors';

/**
 * At most LOGIN_RATE_LIMIT login starts per client address per minute. Each
 * start stores a pending login, so this bounds what one address can put in
 * the session store. The address is `req.ip`, which honours TRUST_PROXY.
 * `counts` is where src/context.ts keeps them: in Redis with Redis sessions,
 * so the limit holds across instances.
 */
export function loginRateLimit(config: Pick<Config, 'loginRateLimit'>, counts?: Store): RequestHandler {
  if (config.loginRateLimit === 0) return (_req, _res, next) => next();
  const limiter = perMinuteLimit({
    limit: config.loginRateLimit,
    ...(counts ? { store: counts } : {}),
    refuse: (_req, _res, next, seconds) => next(new LoginRateLimitError(seconds)),
  });
  // A store that cannot count is the session store being down: the same 503 page.
  return (req, res, next) =>
    limiter(req, res, (err?: unknown) =>
      next(err && !(err instanceof LoginRateLimitError) ? new SessionStoreUnavailableError({ cause: err }) : err),
    );
}
