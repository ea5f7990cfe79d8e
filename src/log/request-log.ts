import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { Logger } from './logger';
import { routeTemplateOf } from './route-template';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id: the trusted proxy's X-Request-Id, else a UUID; echoed in the response. */
    id: string;
    /** The logger for this request: every line carries `req` (id, method, redacted URL). */
    log: Logger;
  }
}

export interface RequestLogOptions {
  /** Take the id a proxy we trust put in X-Request-Id (1–64 word characters); otherwise always make one. */
  trustRequestId: boolean;
  /** Requests not logged when they complete (e.g. the health check). */
  ignore?: (req: IncomingMessage) => boolean;
  /** The access line (LOG_REQUESTS): `all` logs every request at info (5xx as errors), `errors` only 4xx and 5xx, `off` none. */
  requests: 'all' | 'errors' | 'off';
}

const CHILD = Symbol('request logger');
type WithChild = IncomingMessage & { [CHILD]?: Logger };

/**
 * A request id, `req.log`, and the access line. What pino-http did here, at a fraction of its cost per request:
 * `req.log` is made when a line is first logged (pino-http serialized and redacted the request into a child
 * logger on every request, logged or not), and the access line is built only when its level is enabled
 * (docs/architecture.md#request-path).
 *
 * `req.log` is a getter on Express's request prototype, `app.request`, defined once, as Express's guide extends
 * requests (https://expressjs.com/en/guide/overriding-express-api.html). Defining it on each request object cost
 * 2.5 % of a warm page view's CPU (docs/performance.md#one-getter-for-reqlog).
 */
export function useRequestLogging(app: Express, logger: Logger, options: RequestLogOptions): void {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: WithChild) {
      return (this[CHILD] ??= logger.child({ req: this }));
    },
  });
  app.use((req, res, next) => {
    req.id = requestIdOf(req, options.trustRequestId);
    res.setHeader('X-Request-Id', req.id);
    if (options.ignore?.(req) === true || options.requests === 'off') {
      next();
      return;
    }
    const started = Date.now();
    const { requests } = options;
    // 'close' comes once per response: after it was sent, or when the client went first.
    res.once('close', () => accessLine(logger, req, res, started, requests));
    next();
  });
}

/** The trusted proxy's X-Request-Id (1–64 word characters), else a new UUID. */
export function requestIdOf(req: IncomingMessage, trustRequestId: boolean): string {
  // A client could otherwise choose the id its lines are logged under; only a proxy we trust sets it.
  const given = trustRequestId ? req.headers['x-request-id'] : undefined;
  return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
}

/**
 * One line per request (docs/operations.md#access-logs): method, route template, status, duration, request id and
 * client address (Express's `req.ip`, as TRUST_PROXY decides). No URL, so no query string and no token.
 */
function accessLine(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  started: number,
  requests: 'all' | 'errors',
): void {
  const status = res.statusCode;
  if (requests === 'errors' && status < 400) return;
  const level = status >= 500 ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      requestId: req.id,
      method: req.method,
      route: routeTemplateOf(req),
      status,
      durationMs: Date.now() - started,
      client: (req as IncomingMessage & { ip?: string }).ip,
      // The connection went before the answer was complete.
      ...(res.writableFinished ? {} : { aborted: true }),
    },
    'request',
  );
}
