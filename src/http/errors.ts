import type { ErrorRequestHandler, RequestHandler, Request } from 'express';
import { AppError, NotFoundError, type ErrorCode } from '../errors';
import type { Logger } from '../log/logger';
import { redactText } from '../log/redact';
import type { ConnectionKeeper } from '../session/connection';

interface Action {
  href: string;
  label: string;
}

/** What the person sees for one code; `text` defaults to the error's own message. */
interface PageCopy {
  title: string;
  text?: (err: AppError) => string;
  actions: Action[];
  headers?: (err: AppError) => Record<string, string>;
}

const CONNECT: Action = { href: '/auth/login', label: 'Connect page' };
const HOME: Action = { href: '/', label: 'Back to the start' };

const PROVIDER_DOWN =
  'We could not reach the provider just now. You are still connected; please try again in a moment.';
const PROVIDER_ERROR = 'The provider answered with an error. Please try again in a moment.';

/** Every code and its page: a `Record`, so a code without a page does not compile. */
export const ERROR_PAGES: Readonly<Record<ErrorCode, PageCopy>> = {
  bad_request: { title: 'Bad request', actions: [HOME] },
  not_found: { title: 'Not found', actions: [HOME] },
  csrf: { title: 'Forbidden', actions: [HOME] },
  not_connected: { title: 'Not connected', actions: [CONNECT] },
  page_access: { title: 'Forbidden', actions: [HOME] },
  session_store_unavailable: { title: 'Temporarily unavailable', actions: [HOME] },
  state_mismatch: { title: 'This login request could not be verified', actions: [CONNECT] },
  authorization_error: { title: 'Bad request', actions: [HOME] },
  id_token_invalid: {
    title: 'The login could not be completed',
    text: () => 'We could not confirm with the provider who you are, so you are not connected. Please connect again.',
    actions: [CONNECT],
  },
  pkce_refused: {
    title: 'The login could not be completed',
    text: () =>
      'The provider did not accept how this site asked you to log in, so you are not connected. ' +
      'This is a problem with the site’s setup, not with your account. Please connect again; ' +
      'if the same thing happens, tell the site owner.',
    actions: [CONNECT],
  },
  login_rate_limit: {
    title: 'Too many requests',
    text: (err) =>
      `Too many logins were started from your network just now. Please try again in ${Math.max(1, Math.ceil(retryAfter(err) / 60))} minute(s).`,
    actions: [HOME],
    headers: (err) => ({ 'Retry-After': String(retryAfter(err)) }),
  },
  // Normally not a page at all: the handler drops the tokens and sends the person home.
  graph_token: { title: 'Not connected', text: () => 'Your connection expired — connect again.', actions: [CONNECT] },
  graph_permission: {
    title: 'Permission needed',
    text: (err) =>
      err.permission
        ? `The provider refused because the permission "${err.permission}" was not granted. Ask again and allow it.`
        : `The provider refused this request for lack of permission: ${err.message}`,
    actions: [{ href: '/auth/login?rerequest=1', label: 'Ask for the permission again' }, HOME],
  },
  graph_rate_limit: {
    title: 'Too many requests',
    text: (err) =>
      `The provider is limiting requests for now. Please try again in about ${Math.max(1, Math.ceil(retryAfter(err) / 60))} minute(s).`,
    actions: [HOME],
    headers: (err) => ({ 'Retry-After': String(retryAfter(err)) }),
  },
  graph_policy_block: {
    title: 'Temporarily blocked',
    text: () =>
      'The provider has temporarily blocked this action for your account or page, for a policy reason. Waiting a minute will not help; check your notifications on the provider for details.',
    actions: [HOME],
  },
  graph_not_found: {
    title: 'Page not found',
    text: () => 'The provider has no page with this id, or it cannot be reached with your permissions.',
    actions: [HOME],
  },
  graph_invalid: { title: 'The provider refused the request', actions: [HOME] },
  graph_transient: { title: 'The provider had a problem', text: () => PROVIDER_ERROR, actions: [HOME] },
  graph_other: { title: 'The provider had a problem', text: () => PROVIDER_ERROR, actions: [HOME] },
  token_endpoint: {
    title: 'The login could not be completed',
    text: (err) => `The provider refused the login: ${err.message}`,
    actions: [CONNECT],
  },
  provider_timeout: { title: 'The provider is taking too long', text: () => PROVIDER_DOWN, actions: [HOME] },
  provider_unreachable: { title: 'The provider is not answering', text: () => PROVIDER_DOWN, actions: [HOME] },
  provider_bad_response: { title: 'The provider is not answering', text: () => PROVIDER_DOWN, actions: [HOME] },
  provider_http_error: { title: 'The provider is not answering', text: () => PROVIDER_DOWN, actions: [HOME] },
  too_many_requests: {
    title: 'Too many requests',
    text: (err) =>
      `You are asking for pages faster than we can fetch them. Please wait ${retryAfter(err)} seconds and try again.`,
    actions: [HOME],
    headers: (err) => ({ 'Retry-After': String(retryAfter(err)) }),
  },
};

function retryAfter(err: AppError): number {
  return err.retryAfterSec ?? 60;
}

interface ErrorPage {
  status: number;
  title: string;
  message: string;
  actions: Action[];
  headers: Record<string, string>;
}

// The path is not repeated: whoever wrote the link chose it, and it would read as the site's own words.
export const notFound: RequestHandler = (_req, _res, next) => {
  next(new NotFoundError('There is nothing at this address.'));
};

/**
 * An AppError's own status and page; a stray 4xx (body-parser) keeps its status; anything else is a 500.
 * When the provider wrote words for the person (`error_user_title`/`error_user_msg`), they are shown
 * instead of ours (docs/provider-interface.md#error-responses); the template escapes them.
 */
function describe(err: unknown): ErrorPage {
  if (err instanceof AppError) {
    const copy = ERROR_PAGES[err.code];
    return {
      status: err.status,
      title: err.userTitle ?? copy.title,
      message: err.userMessage ?? (copy.text ? copy.text(err) : err.message),
      actions: copy.actions,
      headers: copy.headers?.(err) ?? {},
    };
  }
  const status =
    (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return {
      status,
      title: titleFor(status),
      message: 'The request could not be understood.',
      actions: [HOME],
      headers: {},
    };
  }
  return {
    status: 500,
    title: 'Something went wrong',
    message: 'An unexpected error happened on our side. It has been logged.',
    actions: [HOME],
    headers: {},
  };
}

function titleFor(status: number): string {
  return (
    { 400: 'Bad request', 401: 'Not connected', 403: 'Forbidden', 404: 'Not found', 413: 'Request too large' }[
      status
    ] ?? 'Request failed'
  );
}

/**
 * The one error handler: logs, then renders a page. A token the provider no
 * longer accepts is not an error for the person: their tokens are dropped
 * and they are sent home to connect again.
 */
export function errorHandler(logger: Logger, keeper: ConnectionKeeper): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof AppError && err.code === 'graph_token' && req.session) {
      keeper.drop(req);
      req.session.flash = 'Your connection expired — connect again.';
      logger.info(
        {
          status: 303,
          code: err.code,
          message: redactText(err.message),
          reqId: req.id,
          path: req.path,
          fbtrace_id: err.fbtraceId,
        },
        'provider refused the token: connection dropped',
      );
      res.redirect(303, '/');
      return;
    }
    const page = describe(err);
    log(logger, req, err, page.status);
    res.status(page.status);
    for (const [name, value] of Object.entries(page.headers)) res.setHeader(name, value);
    res.render('error', { title: page.title, error: { ...page, message: redactText(page.message) } });
  };
}

/** One line per failed request; its `status` is the response's, by construction. */
function log(logger: Logger, req: Request, err: unknown, status: number): void {
  const level = status >= 500 ? (err instanceof AppError ? 'warn' : 'error') : 'info';
  const fbtrace = err instanceof AppError ? err.fbtraceId : undefined;
  logger[level]({ err, status, reqId: req.id, path: req.path, fbtrace_id: fbtrace }, 'request failed');
}
