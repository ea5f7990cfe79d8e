import type { IncomingMessage } from 'node:http';

const TEMPLATE = Symbol('route template');
const WATCHED = Symbol('route watched');
type Templated = IncomingMessage & { [TEMPLATE]?: string; [WATCHED]?: true; baseUrl?: string; originalUrl?: string };

/**
 * Starts keeping the route template (`/pages/:pageId`) Express matches for this request: Express sets `req.route`
 * when a route's handlers start, while `req.baseUrl` is still its router's mount path (an error passed on later
 * resets it, so the template is taken then). The one place that does it, for the access log and the metrics and
 * traces alike; calling it twice is calling it once.
 */
export function watchRouteTemplate(req: IncomingMessage): void {
  const r = req as Templated;
  if (r[WATCHED]) return;
  r[WATCHED] = true;
  let route: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: { path?: unknown } | undefined) {
      route = value;
      if (value && typeof value.path === 'string') r[TEMPLATE] = `${r.baseUrl ?? ''}${value.path}` || '/';
    },
  });
}

/**
 * The bounded name of what was asked for: the route template, `/public/*` for the static files, or `(no route)`;
 * never the URL, which holds page ids, cursors and codes.
 */
export function routeTemplateOf(req: IncomingMessage): string {
  const r = req as Templated;
  if (r[TEMPLATE] !== undefined) return r[TEMPLATE];
  // Express strips a mount's path from req.url while inside it; originalUrl keeps what was asked.
  return (r.originalUrl ?? r.url ?? '').startsWith('/public/') ? '/public/*' : '(no route)';
}
