import { Router } from 'express';
import type { AppContext } from '../context';

/** The privacy page (docs/architecture.md#privacy-page): what is stored, what is read, how to leave. */
export function privacyRoutes(ctx: AppContext): Router {
  const router = Router();
  const { config } = ctx;
  const placeholder = config.demo ? 'the demo operator (OPERATOR_NAME is not set in demo mode)' : 'not configured';
  const view = {
    title: 'Privacy',
    operatorName: config.operatorName ?? placeholder,
    operatorContact:
      config.operatorContact ?? (config.demo ? 'OPERATOR_CONTACT is not set in demo mode' : 'not configured'),
    storeWhere:
      config.sessionStore === 'redis'
        ? "in the operator's Redis database, shared by the app's servers"
        : "in the app server's memory",
    idleText: duration(config.sessionIdleSec),
    maxText: duration(config.sessionMaxSec),
    pageCacheText: config.pageCacheTtlSec > 0 ? duration(config.pageCacheTtlSec) : 'no time at all (the cache is off)',
    accountsCacheText:
      config.accountsCacheTtlSec > 0 ? duration(config.accountsCacheTtlSec) : 'no time at all (the cache is off)',
    baseUrl: config.baseUrl,
    deauthorizeUrl: `${config.baseUrl}/auth/deauthorize`,
    dataDeletionUrl: `${config.baseUrl}/auth/data-deletion`,
  };
  router.get('/privacy', (_req, res) => res.render('privacy', view));
  return router;
}

/** 7200 → "2 hours", 604800 → "7 days", 60 → "1 minute". */
export function duration(seconds: number): string {
  const units: [number, string][] = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  const [size, name] = units.find(([size]) => seconds % size === 0 && seconds >= size) ?? [1, 'second'];
  const n = seconds / size;
  return `${n} ${name}${n === 1 ? '' : 's'}`;
}
