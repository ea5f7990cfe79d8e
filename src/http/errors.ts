import type { ErrorRequestHandler, RequestHandler, Request } from 'express';
import { AppError, NotConnectedError, NotFoundError } from '../errors';
import { GraphApiError, ProviderUnavailableError, TokenEndpointError } from '../graph/errors';
import { StateMismatchError } from '../auth/errors';
import type { Logger } from '../log/logger';
import { redactText } from '../log/redact';
import type { ConnectionKeeper } from '../session/connection';

interface Action {
  href: string;
  label: string;
}

interface ErrorPage {
  status: number;
  title: string;
  message: string;
  actions: Action[];
  headers?: Record<string, string>;
}

const CONNECT: Action = { href: '/auth/login', label: 'Connect page' };
const HOME: Action = { href: '/', label: 'Back to the start' };

export const notFound: RequestHandler = (req, _res, next) => {
  next(new NotFoundError(`There is nothing at ${req.path.slice(0, 200)}.`));
};

/** What each kind of error means for the person: status, words and a way on. */
function describe(err: unknown): ErrorPage {
  if (err instanceof GraphApiError) {
    switch (err.kind) {
      case 'permission':
        return {
          status: 403,
          title: 'Permission needed',
          message: err.permission
            ? `The provider refused because the permission "${err.permission}" was not granted. Ask again and allow it.`
            : `The provider refused this request for lack of permission: ${err.message}`,
          actions: [{ href: '/auth/login?rerequest=1', label: 'Ask for the permission again' }, HOME],
        };
      case 'rate_limit': {
        const seconds = err.retryAfterSec ?? 60;
        return {
          status: 429,
          title: 'Too many requests',
          message: `The provider is limiting requests for now. Please try again in about ${Math.max(1, Math.ceil(seconds / 60))} minute(s).`,
          actions: [HOME],
          headers: { 'Retry-After': String(seconds) },
        };
      }
      case 'invalid':
        if (err.graph.subcode === 33) {
          return {
            status: 404,
            title: 'Page not found',
            message: 'The provider has no page with this id, or it cannot be reached with your permissions.',
            actions: [HOME],
          };
        }
        return { status: 502, title: 'The provider refused the request', message: err.message, actions: [HOME] };
      default:
        return {
          status: 502,
          title: 'The provider had a problem',
          message: 'The provider answered with an error. Please try again in a moment.',
          actions: [HOME],
        };
    }
  }
  if (err instanceof TokenEndpointError) {
    return { status: 400, title: 'The login could not be completed', message: `The provider refused the login: ${err.message}`, actions: [CONNECT] };
  }
  if (err instanceof ProviderUnavailableError) {
    return {
      status: err.status,
      title: err.reason === 'timeout' ? 'The provider is taking too long' : 'The provider is not answering',
      message: 'We could not reach the provider just now. You are still connected; please try again in a moment.',
      actions: [HOME],
    };
  }
  if (err instanceof StateMismatchError) {
    return { status: 403, title: 'This login request could not be verified', message: err.message, actions: [CONNECT] };
  }
  if (err instanceof NotConnectedError) {
    return { status: 401, title: 'Not connected', message: err.message, actions: [CONNECT] };
  }
  if (err instanceof AppError) {
    return { status: err.status, title: titleFor(err.status), message: err.message, actions: [HOME] };
  }
  // body-parser and friends: a 4xx with a status of its own.
  const status = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, title: titleFor(status), message: 'The request could not be understood.', actions: [HOME] };
  }
  return { status: 500, title: 'Something went wrong', message: 'An unexpected error happened on our side. It has been logged.', actions: [HOME] };
}

function titleFor(status: number): string {
  return (
    { 400: 'Bad request', 401: 'Not connected', 403: 'Forbidden', 404: 'Not found', 413: 'Request too large', 503: 'Temporarily unavailable' }[status] ??
    'Request failed'
  );
}

/**
 * The one error handler: logs, then renders a page. A token the provider no
 * longer accepts (190) is not an error for the person: their tokens are
 * dropped and they are sent home to connect again (SPEC §5).
 */
export function errorHandler(logger: Logger, keeper: ConnectionKeeper): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof GraphApiError && err.kind === 'token' && req.session) {
      keeper.drop(req);
      req.session.flash = 'Your connection expired — connect again.';
      log(logger, req, err, 'info');
      res.redirect(303, '/');
      return;
    }
    const page = describe(err);
    log(logger, req, err, page.status >= 500 ? (err instanceof AppError ? 'warn' : 'error') : 'info');
    res.status(page.status);
    for (const [name, value] of Object.entries(page.headers ?? {})) res.setHeader(name, value);
    res.render('error', { title: page.title, error: { ...page, message: redactText(page.message) } });
  };
}

function log(logger: Logger, req: Request, err: unknown, level: 'info' | 'warn' | 'error'): void {
  const fbtrace = err instanceof GraphApiError || err instanceof TokenEndpointError ? err.graph?.fbtraceId : undefined;
  logger[level]({ err, reqId: req.id, path: req.path, fbtrace_id: fbtrace }, 'request failed');
}
