import type { RequestHandler } from 'express';
import { routeTemplateOf } from '../log/route-template';
import type { Observer } from './observer';
import type { Tracing } from './tracing';

/**
 * Times each request for the metrics and runs it inside its span for the traces. Requests are named by the
 * route as the app declares it (`/pages/:pageId`), never by their URL: the URL holds page ids, and the callback's a code.
 * Nothing on: no handler, so that nothing is mounted.
 */
export function observeRequests(
  observer: Observer | undefined,
  tracing: Tracing | undefined,
): RequestHandler | undefined {
  if (!observer?.request && !tracing) return undefined;
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    if (observer?.request) {
      res.once('close', () =>
        observer.request?.({
          route: routeTemplateOf(req),
          method: req.method,
          status: res.statusCode,
          seconds: Number(process.hrtime.bigint() - started) / 1e9,
        }),
      );
    }
    if (tracing) tracing.inSpan(req, res, next, () => routeTemplateOf(req));
    else next();
  };
}
