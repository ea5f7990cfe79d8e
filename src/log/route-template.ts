import type { IncomingMessage } from 'node:http';

/**
 * What this module reads of Express's router (router@2): each layer's matcher (the one Express routes with, so
 * both agree on what a path matches), its declared path, and a route's methods or a mounted router's layers.
 */
interface Layer {
  matchers?: ((path: string) => { path: string } | false)[];
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean | undefined> };
  handle?: { stack?: unknown };
}
type Routed = IncomingMessage & { app?: { router?: { stack?: unknown } }; originalUrl?: string };

const NO_ROUTE = '(no route)';

/**
 * The bounded name of what was asked for: the route as the app declares it (`/pages/:pageId`, whatever the
 * request's letter case or trailing slash), `/public/*` for the static files, or `(no route)`; never the URL,
 * which holds page ids, cursors and codes. Found from the path and method alone, so a request refused before
 * its route ran (a 503 while the session store is down) is named by the route it was for. The one place that
 * names requests, for the access log and the metrics and traces alike (docs/operations.md#metrics).
 */
export function routeTemplateOf(req: IncomingMessage): string {
  // Asked by the access log, the metrics and the trace of one request: the router is walked once.
  const known = named.get(req);
  if (known !== undefined) return known;
  const name = nameOf(req);
  named.set(req, name);
  return name;
}

const named = new WeakMap<IncomingMessage, string>();

function nameOf(r: Routed): string {
  const url = r.originalUrl ?? r.url ?? '';
  const path = url.split('?', 1)[0]!;
  if (path.startsWith('/public/')) return '/public/*';
  const stack = r.app?.router?.stack;
  if (!Array.isArray(stack)) return NO_ROUTE;
  return declaredRoute(stack as Layer[], (r.method ?? 'GET').toLowerCase(), path, '') ?? NO_ROUTE;
}

/** The first route of `layers` (and of the routers mounted in them) that answers `method` on `path`. */
function declaredRoute(layers: readonly Layer[], method: string, path: string, mount: string): string | undefined {
  for (const layer of layers) {
    const matched = matchOf(layer, path);
    if (matched === undefined) continue;
    const route = layer.route;
    if (route !== undefined) {
      if (typeof route.path === 'string' && answers(route.methods, method)) return joined(mount, route.path);
      continue;
    }
    const inner = layer.handle?.stack;
    if (!Array.isArray(inner) || typeof layer.rawPath !== 'string') continue;
    // Inside a mount, Express routes on what follows its path, which starts with a slash.
    const rest = path.slice(matched.length);
    const found = declaredRoute(
      inner as Layer[],
      method,
      rest.startsWith('/') ? rest : `/${rest}`,
      joined(mount, layer.rawPath),
    );
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The part of `path` the layer matched, or undefined; a path Express could not decode matches nothing. */
function matchOf(layer: Layer, path: string): string | undefined {
  // As Express does: a mount at `/` takes every path whole, its matcher is not asked.
  if (layer.rawPath === '/' && layer.route === undefined) return '';
  for (const matcher of layer.matchers ?? []) {
    try {
      const m = matcher(path);
      if (m !== false) return m.path;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function answers(methods: Record<string, boolean | undefined>, method: string): boolean {
  return methods._all === true || methods[method] === true || (method === 'head' && methods.get === true);
}

/** A mount's path and a path declared in it: `/pages` and `/` are `/pages`, `/` and `/privacy` are `/privacy`. */
function joined(mount: string, path: string): string {
  const base = mount === '/' ? '' : mount;
  if (path === '/') return base || '/';
  return `${base}${path}`;
}
