import type { Request, RequestHandler } from 'express';
import type { Observer } from './observer';
import type { Tracing } from './tracing';

const TEMPLATE = Symbol('route template');
type Templated = Request & { [TEMPLATE]?: string };

/**
 * Times each request for the metrics and runs it inside its span for the traces. Requests are named by the
 * route Express matched (`/pages/:pageId`), never by their URL: the URL holds page ids, and the callback's a code.
 * Nothing on: a handler that only calls next.
 */
export function observeRequests(observer: Observer | undefined, tracing: Tracing | undefined): RequestHandler {
  if (!observer?.request && !tracing) return (_req, _res, next) => next();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    captureRoute(req);
    if (observer?.request) {
      res.once('close', () =>
        observer.request?.({
          route: routeOf(req),
          method: req.method,
          status: res.statusCode,
          seconds: Number(process.hrtime.bigint() - started) / 1e9,
        }),
      );
    }
    if (tracing) tracing.inSpan(req, res, next, () => routeOf(req));
    else next();
  };
}

/** The matched route's template, from the mount path it was matched under; static files and 404s by kind. */
function routeOf(req: Templated): string {
  if (req[TEMPLATE] !== undefined) return req[TEMPLATE];
  return req.originalUrl.startsWith('/public/') ? '/public/*' : 'unmatched';
}

/**
 * Express sets `req.route` when a route matches, while `req.baseUrl` is still the router's mount path; by the
 * time the answer ends, an error may have left the router and reset `baseUrl`. So the template is taken then.
 */
function captureRoute(req: Templated): void {
  let route: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: unknown) {
      route = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      if (typeof path === 'string') req[TEMPLATE] = `${req.baseUrl}${path}`;
    },
  });
}
