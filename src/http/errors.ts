import type { ErrorRequestHandler, RequestHandler, Request } from 'express';
import { AppError, NotFoundError, type ErrorCode } from '../errors';
import type { Logger } from '../log/logger';
import { redactText } from '../log/redact';
import type { Connections } from '../session/connection';
import { PROVIDER_NAME as FB, permissionWords, waitWords } from '../words';
import { ownPath } from './return-to';

/**
 * What an error page offers. Resolved per request: "Try again" retries the
 * page the person was on, "Connect" brings them back to it after login
 * (docs/architecture.md#return-to).
 */
type ActionKind = 'retry' | 'connect' | 'ask_again' | 'home';

interface Action {
  href: string;
  label: string;
}

/** What the person sees for one code: a headline that says what happened, a sentence, and actions that help. */
interface PageCopy {
  title: (err: AppError, req: Request) => string;
  text: (err: AppError, req: Request) => string;
  actions: readonly ActionKind[];
  headers?: (err: AppError) => Record<string, string>;
}

const STILL_CONNECTED = 'You are still connected and nothing was lost.';
const copy = (
  title: string | ((err: AppError, req: Request) => string),
  text: string | ((err: AppError, req: Request) => string),
  actions: readonly ActionKind[],
  headers?: PageCopy['headers'],
): PageCopy => ({
  title: typeof title === 'string' ? () => title : title,
  text: typeof text === 'string' ? () => text : text,
  actions,
  ...(headers ? { headers } : {}),
});
const own = (err: AppError): string => err.message;
const retryAfterHeader = (err: AppError) => ({ 'Retry-After': String(retryAfter(err)) });

/** Every code and its page: a `Record`, so a code without a page does not compile. */
export const ERROR_PAGES: Readonly<Record<ErrorCode, PageCopy>> = {
  bad_request: copy("This link doesn't work", own, ['home']),
  not_found: copy("We couldn't find that page", 'There is nothing at this address.', ['home']),
  csrf: copy('This form has expired', own, ['retry', 'home']),
  not_connected: copy(
    (_err, req) => (timedOut(req) ? 'Your session timed out — connect again' : `Connect with ${FB} to see this`),
    (err, req) =>
      timedOut(req)
        ? `You were away for a while, so Pagelight signed you out to keep your Page safe. Connect again and you will be back where you were.`
        : err.message,
    ['connect'],
  ),
  page_access: copy(
    "You can't open this Page",
    `Your ${FB} account doesn't manage this Page, or you didn't choose it when you connected. Ask again and choose it in the ${FB} window.`,
    ['ask_again', 'home'],
  ),
  session_store_unavailable: copy(
    'Pagelight is busy for a moment',
    "We can't reach our own storage just now. Please try again in a moment.",
    ['retry'],
  ),
  state_mismatch: copy("We couldn't finish connecting", own, ['connect']),
  authorization_error: copy(`${FB} couldn't finish connecting`, own, ['connect', 'home']),
  id_token_invalid: copy(
    "We couldn't finish connecting",
    `We could not confirm with ${FB} who you are, so you are not connected. Please connect again.`,
    ['connect'],
  ),
  pkce_refused: copy(
    "We couldn't finish connecting",
    `${FB} did not accept how this site asked you to log in, so you are not connected. This is a problem with the site’s setup, not with your account. Please connect again; if the same thing happens, tell the site owner.`,
    ['connect'],
  ),
  login_rate_limit: copy(
    'Too many logins just now',
    (err) =>
      `Too many logins were started from your network just now. Please try again in ${waitWords(retryAfter(err))}.`,
    ['home'],
    retryAfterHeader,
  ),
  // Normally not a page at all: the handler drops the connection and sends the person home with this sentence.
  graph_token: copy(`${FB} signed you out of Pagelight — connect again`, (err) => signedOutReason(err.subcode), [
    'connect',
  ]),
  graph_permission: copy(
    'Pagelight needs your permission',
    (err) =>
      `${FB} did not let Pagelight do this, because the permission “${permissionWords(err.permission)}” was not granted. ` +
      `Ask again and allow it in the ${FB} window.`,
    ['ask_again', 'home'],
  ),
  graph_rate_limit: copy(
    `${FB} asked Pagelight to slow down`,
    (err) =>
      `${FB} is limiting how often Pagelight may ask for now. Please try again in ${waitWords(retryAfter(err))}.`,
    ['retry', 'home'],
    retryAfterHeader,
  ),
  graph_policy_block: copy(
    `${FB} has paused this for now`,
    `${FB} has temporarily blocked this for your account or Page, for a policy reason. Waiting a minute will not help; check your notifications on ${FB} for details.`,
    ['home'],
  ),
  graph_not_found: copy('Page not found', `${FB} has no Page at this address, or your account can't see it.`, ['home']),
  graph_invalid: copy(
    `${FB} couldn't answer this request`,
    `${STILL_CONNECTED} Please try again; if it keeps happening, tell the site owner.`,
    ['retry', 'home'],
  ),
  graph_transient: copy(
    `${FB} had a problem — Try again`,
    `${FB} had a problem answering just now. ${STILL_CONNECTED}`,
    ['retry', 'home'],
  ),
  graph_other: copy(`${FB} had a problem — Try again`, `${FB} had a problem answering just now. ${STILL_CONNECTED}`, [
    'retry',
    'home',
  ]),
  token_endpoint: copy(
    "We couldn't finish connecting",
    `${FB} did not accept this login: it may have taken too long, or the link was used already. Please connect again.`,
    ['connect'],
  ),
  provider_timeout: copy(
    `${FB} didn't answer in time — Try again`,
    `${FB} is slow to answer just now. ${STILL_CONNECTED}`,
    ['retry', 'home'],
  ),
  provider_unreachable: copy(
    `We couldn't reach ${FB} — Try again`,
    `${FB} isn't answering just now. ${STILL_CONNECTED}`,
    ['retry', 'home'],
  ),
  provider_bad_response: copy(
    `We couldn't reach ${FB} — Try again`,
    `${FB} isn't answering properly just now. ${STILL_CONNECTED}`,
    ['retry', 'home'],
  ),
  provider_http_error: copy(
    `We couldn't reach ${FB} — Try again`,
    `${FB} isn't answering properly just now. ${STILL_CONNECTED}`,
    ['retry', 'home'],
  ),
  too_many_requests: copy(
    'One moment, please',
    (err) =>
      `You are opening pages faster than we can fetch them. Please wait ${waitWords(retryAfter(err))} and try again.`,
    ['retry'],
    retryAfterHeader,
  ),
};

/**
 * Why the provider no longer accepts the person's sign-in, by the 190
 * error's subcode (docs/provider-interface.md#error-codes).
 */
export function signedOutReason(subcode: number | undefined): string {
  switch (subcode) {
    case 463:
      return `Your sign-in had expired, as ${FB} sign-ins do after a while.`;
    case 460:
      return `Your ${FB} password was changed, so ${FB} ended the sign-ins made before.`;
    case 458:
      return `Pagelight was removed from the apps of your ${FB} account.`;
    case 467:
      return `You logged out of ${FB}, which ends Pagelight's sign-in too.`;
    default:
      return `${FB} no longer accepts Pagelight's sign-in for you.`;
  }
}

function retryAfter(err: AppError): number {
  return err.retryAfterSec ?? 60;
}

/**
 * The request came with a session cookie whose session is gone (idle expiry: the store let it lapse), so
 * express-session started a new one under another id. A session that is still there but no longer
 * connected (absolute lifetime, a token no key opens) is not a timeout.
 */
function timedOut(req: Request): boolean {
  const name = req.app.get('session cookie') as string | undefined;
  if (!name || !req.sessionID) return false;
  const cookie = (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${name}=`));
  if (!cookie) return false;
  let value: string;
  try {
    value = decodeURIComponent(cookie.slice(name.length + 1));
  } catch {
    return false;
  }
  // express-session's signed value: "s:<id>.<signature>".
  const id = value.startsWith('s:') ? value.slice(2, value.lastIndexOf('.')) : undefined;
  return id !== undefined && id.length > 0 && id !== req.sessionID;
}

/** Where "Try again" leads: the same page for a GET, the page a form came from for a POST. */
function retryPath(req: Request): string {
  if (req.method === 'GET' || req.method === 'HEAD') return ownPath(req.originalUrl) ?? '/';
  return /^\/pages\/\d+\/connect$/.test(req.path) ? '/pages' : '/';
}

function resolve(kind: ActionKind, req: Request, err?: AppError): Action {
  const back = retryPath(req);
  const returnTo = back === '/' ? '' : `return_to=${encodeURIComponent(back)}`;
  switch (kind) {
    case 'retry':
      return { href: back, label: 'Try again' };
    case 'connect':
      return {
        href: `/auth/login${returnTo ? `?${returnTo}` : ''}`,
        // Someone who never connected in this browser connects; everyone else connects again.
        label: err?.code === 'not_connected' && !timedOut(req) ? 'Connect page' : 'Connect again',
      };
    case 'ask_again':
      return { href: `/auth/login?rerequest=1${returnTo ? `&${returnTo}` : ''}`, label: 'Ask again' };
    case 'home':
      return { href: '/', label: 'Back to the start' };
  }
}

/** For the site's operator, folded away: what people need not read, never a credential. */
interface OperatorDetails {
  status: number;
  code?: string;
  permission?: string;
  subcode?: number;
  fbtraceId?: string;
  message?: string;
}

interface ErrorPage {
  status: number;
  title: string;
  message: string;
  actions: Action[];
  headers: Record<string, string>;
  details: OperatorDetails;
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
function describe(err: unknown, req: Request): ErrorPage {
  if (err instanceof AppError) {
    const page = ERROR_PAGES[err.code];
    // A permission we can name reads best in our words for it; the provider's may carry its identifier.
    const theirs = !(err.code === 'graph_permission' && err.permission !== undefined);
    return {
      status: err.status,
      title: (theirs ? err.userTitle : undefined) ?? page.title(err, req),
      message: (theirs ? err.userMessage : undefined) ?? page.text(err, req),
      actions: page.actions.map((kind) => resolve(kind, req, err)),
      headers: page.headers?.(err) ?? {},
      details: {
        status: err.status,
        code: err.code,
        ...(err.permission !== undefined ? { permission: err.permission } : {}),
        ...(err.subcode !== undefined ? { subcode: err.subcode } : {}),
        ...(err.fbtraceId !== undefined ? { fbtraceId: err.fbtraceId } : {}),
        // The provider's own text helps the operator; our internal ones (how a login was set up) go to the log only.
        ...(err.code.startsWith('graph_') || err.code === 'token_endpoint' ? { message: redactText(err.message) } : {}),
      },
    };
  }
  const status =
    (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return {
      status,
      title: status === 413 ? 'That was too much to send' : "This request didn't work",
      message: 'Pagelight could not understand what your browser sent. Go back and try again.',
      actions: [resolve('home', req)],
      headers: {},
      details: { status },
    };
  }
  return {
    status: 500,
    title: 'Something went wrong on our side',
    message: 'An unexpected error happened in Pagelight. It has been logged; please try again.',
    actions: [resolve('retry', req), resolve('home', req)],
    headers: {},
    details: { status: 500 },
  };
}

/**
 * The one error handler: logs, then renders a page. A token the provider no
 * longer accepts is not an error for the person: their tokens are dropped
 * and they are sent home, with the reason, to connect again.
 */
export function errorHandler(logger: Logger, connections: Connections): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof AppError && err.code === 'graph_token' && req.session) {
      connections.drop(req);
      req.session.flash = `${ERROR_PAGES.graph_token.title(err, req)}. ${signedOutReason(err.subcode)}`;
      logger.info(
        {
          status: 303,
          code: err.code,
          subcode: err.subcode,
          message: redactText(err.message),
          reqId: req.id,
          path: req.path,
          fbtrace_id: err.fbtraceId,
        },
        'provider refused the token: connection dropped',
      );
      // Home offers Connect, which brings the person back to the page they were reading (docs/architecture.md#return-to).
      const back = req.method === 'GET' ? ownPath(req.originalUrl) : undefined;
      res.redirect(303, back ? `/?return_to=${encodeURIComponent(back)}` : '/');
      return;
    }
    const page = describe(err, req);
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
