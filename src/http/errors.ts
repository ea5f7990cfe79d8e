import type { ErrorRequestHandler, RequestHandler, Request } from 'express';
import { AppError, NotFoundError, type ErrorCode } from '../errors';
import type { Logger } from '../log/logger';
import { redactText } from '../log/redact';
import type { SignIns } from '../session/sign-in';
import type { Locales, MessageKey } from '../i18n/catalogs';
import type { Locale } from '../i18n/locale';
import { permissionWords, waitWords } from '../words';
import { ownPath } from './return-to';

/**
 * What an error page offers. Resolved per request: "Try again" retries the
 * page the person was on, "Connect" brings them back to it after login
 * (docs/architecture.md#return-to).
 */
type ActionKind = 'retry' | 'connect' | 'ask_again' | 'page' | 'home';

interface Action {
  href: string;
  label: string;
}

/**
 * What the person sees for one code, as messages of the catalogs (`error.<code>.title`, `.text`): a headline
 * that says what happened, a sentence, and actions that help. `own` is the error's own words (`AppError.say`).
 */
type Words = (err: AppError, req: Request, locale: Locale) => string;

interface PageCopy {
  title: Words;
  text: Words;
  actions: readonly ActionKind[];
  headers?: (err: AppError) => Record<string, string>;
  /** What a refused write says instead of `text`, where a write's refusal means something else (docs/architecture.md#writes). */
  write?: Words;
}

const words = (key: MessageKey | 'own' | Words): Words =>
  key === 'own'
    ? (err, _req, locale) => ownWords(err, locale)
    : typeof key === 'string'
      ? (_e, _r, l) => l.t(key)
      : key;
const copy = (
  title: MessageKey | Words,
  text: MessageKey | 'own' | Words,
  actions: readonly ActionKind[],
  headers?: PageCopy['headers'],
): PageCopy => ({
  title: words(title),
  text: words(text),
  actions,
  ...(headers ? { headers } : {}),
});
const retryAfterHeader = (err: AppError) => ({ 'Retry-After': String(retryAfter(err)) });
const waiting =
  (key: MessageKey): Words =>
  (err, _req, locale) =>
    locale.t(key, { wait: waitWords(locale, retryAfter(err)) });

/** Every code and its page: a `Record`, so a code without a page does not compile. */
export const ERROR_PAGES: Readonly<Record<ErrorCode, PageCopy>> = {
  bad_request: copy('error.bad_request.title', 'own', ['home']),
  not_found: copy('error.not_found.title', 'error.not_found.text', ['home']),
  csrf: copy('error.csrf.title', 'own', ['retry', 'home']),
  not_connected: copy(
    (_err, req, locale) =>
      locale.t(
        req.sessionLapse === 'lost'
          ? 'error.not_connected.lostTitle'
          : req.sessionLapse === 'idle'
            ? 'error.not_connected.timedOutTitle'
            : 'error.not_connected.title',
      ),
    (err, req, locale) =>
      req.sessionLapse === 'lost'
        ? locale.t('error.not_connected.lost')
        : req.sessionLapse === 'idle'
          ? locale.t('error.not_connected.timedOut')
          : ownWords(err, locale),
    ['connect'],
  ),
  page_access: copy('error.page_access.title', 'error.page_access.text', ['ask_again', 'home']),
  write_forbidden: copy('error.write_forbidden.title', 'own', ['home']),
  write_unsendable: copy('write.title.refused', 'own', ['home']),
  session_store_unavailable: copy('error.session_store_unavailable.title', 'error.session_store_unavailable.text', [
    'retry',
  ]),
  state_mismatch: copy('error.unfinished.title', 'own', ['connect']),
  authorization_error: copy('error.authorization_error.title', 'own', ['connect', 'home']),
  id_token_invalid: copy('error.unfinished.title', 'error.id_token_invalid.text', ['connect']),
  pkce_refused: copy('error.unfinished.title', 'error.pkce_refused.text', ['connect']),
  login_rate_limit: copy(
    'error.login_rate_limit.title',
    waiting('error.login_rate_limit.text'),
    ['home'],
    retryAfterHeader,
  ),
  // Normally not a page at all: the handler drops the sign-in and sends the person home with this sentence.
  graph_token: copy(
    'error.graph_token.title',
    (err, _req, locale) => locale.t('error.signedOut', { reason: signedOutReason(err.subcode) }),
    ['connect'],
  ),
  graph_permission: {
    ...copy(
      'error.graph_permission.title',
      (err, _req, locale) =>
        locale.t('error.graph_permission.text', { permission: permissionWords(locale, err.permission) }),
      ['ask_again', 'home'],
    ),
    // 200 and 10 on a write: the permission, or the person's task on the Page (the provider's code is the same).
    write: (err, _req, locale) => locale.t('write.notAllowed', { permission: permissionWords(locale, err.permission) }),
  },
  graph_rate_limit: copy(
    'error.graph_rate_limit.title',
    waiting('error.graph_rate_limit.text'),
    ['retry', 'home'],
    retryAfterHeader,
  ),
  graph_policy_block: copy('error.graph_policy_block.title', 'error.graph_policy_block.text', ['home']),
  // 100 on a write: the comment or post is no longer there (deleted meanwhile).
  graph_not_found: {
    // Gone from Facebook (a post deleted meanwhile): back to its Page, which is still there.
    ...copy('error.graph_not_found.title', 'error.graph_not_found.text', ['page', 'home']),
    write: words('write.gone'),
  },
  graph_invalid: {
    ...copy('error.graph_invalid.title', 'error.graph_invalid.text', ['retry', 'home']),
    write: words('write.gone'),
  },
  graph_transient: copy('error.graph_problem.title', 'error.graph_problem.text', ['retry', 'home']),
  graph_other: copy('error.graph_problem.title', 'error.graph_problem.text', ['retry', 'home']),
  token_endpoint: copy('error.unfinished.title', 'error.token_endpoint.text', ['connect']),
  provider_timeout: copy('error.provider_timeout.title', 'error.provider_timeout.text', ['retry', 'home']),
  provider_unreachable: copy('error.unreachable.title', 'error.provider_unreachable.text', ['retry', 'home']),
  provider_bad_response: copy('error.unreachable.title', 'error.provider_bad_response.text', ['retry', 'home']),
  provider_http_error: copy('error.unreachable.title', 'error.provider_bad_response.text', ['retry', 'home']),
  too_many_requests: copy(
    'error.too_many_requests.title',
    waiting('error.too_many_requests.text'),
    ['retry'],
    retryAfterHeader,
  ),
};

/**
 * Why a write was refused, in plain words, from the one table above: the provider's own words for the person
 * when it sent some, else the code's (a write's own where it has one). The kept form shows it beside the text.
 */
export function refusalWords(err: AppError, req: Request, locale: Locale): string {
  const page = ERROR_PAGES[err.code];
  const theirs = !(err.code === 'graph_permission' && err.permission !== undefined);
  if (theirs && err.userMessage !== undefined) return err.userMessage;
  return (page.write ?? page.text)(err, req, locale);
}

/** The error's own words; an error raised without any reads as a generic sentence of its code. */
function ownWords(err: AppError, locale: Locale): string {
  return err.say ? locale.t(err.say.key, err.say.values) : locale.t('error.generic.text');
}

/**
 * Why the provider no longer accepts the person's sign-in, by the 190
 * error's subcode (docs/provider-interface.md#error-codes).
 */
export function signedOutReason(subcode: number | undefined): string {
  return subcode === 463
    ? 'expired'
    : subcode === 460
      ? 'password'
      : subcode === 458
        ? 'removed'
        : subcode === 467
          ? 'loggedOut'
          : 'other';
}

function retryAfter(err: AppError): number {
  return err.retryAfterSec ?? 60;
}

/**
 * The request came with a session cookie whose session is gone, so express-session started a new one under
 * another id (src/session/lapse.ts says why). A session that is still there but no longer connected (absolute
 * lifetime, a token no key opens) is neither.
 */
function timedOut(req: Request): boolean {
  return req.sessionLapse !== undefined;
}

/** Where "Try again" leads: the same page for a GET, the page a form came from for a POST. */
function retryPath(req: Request): string {
  if (req.method === 'GET' || req.method === 'HEAD') return ownPath(req.originalUrl) ?? '/';
  return /^\/pages\/\d+\/connect$/.test(req.path) ? '/pages' : '/';
}

/** The way back to the Page whose view failed; none when it was not one of a Page's views. */
function pageAction(req: Request, locale: Locale): Action[] {
  const pageId = /^\/pages\/(\d{1,32})(?:\/|$)/.exec(req.path)?.[1];
  return pageId === undefined ? [] : [{ href: `/pages/${pageId}`, label: locale.t('error.action.page') }];
}

function resolve(kind: Exclude<ActionKind, 'page'>, req: Request, locale: Locale, err?: AppError): Action {
  const back = retryPath(req);
  const returnTo = back === '/' ? '' : `return_to=${encodeURIComponent(back)}`;
  switch (kind) {
    case 'retry':
      return { href: back, label: locale.t('error.action.retry') };
    case 'connect':
      return {
        href: `/auth/login${returnTo ? `?${returnTo}` : ''}`,
        // Someone who never connected in this browser connects; everyone else connects again.
        label: locale.t(
          err?.code === 'not_connected' && !timedOut(req) ? 'error.action.connect' : 'error.action.connectAgain',
        ),
      };
    case 'ask_again':
      return {
        href: `/auth/login?rerequest=1${returnTo ? `&${returnTo}` : ''}`,
        label: locale.t('error.action.askAgain'),
      };
    case 'home':
      return { href: '/', label: locale.t('error.action.home') };
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

export interface ErrorPage {
  status: number;
  title: string;
  message: string;
  /** The title and message are the provider's own words for the person: shown as sent, isolated (`dir="auto"`). */
  theirs: { title: boolean; message: boolean };
  actions: Action[];
  headers: Record<string, string>;
  details: OperatorDetails;
}

// The path is not repeated: whoever wrote the link chose it, and it would read as the site's own words.
export const notFound: RequestHandler = (_req, _res, next) => {
  next(new NotFoundError({ key: 'error.not_found.text' }));
};

/**
 * An AppError's own status and page; a stray 4xx (body-parser) keeps its status; anything else is a 500.
 * When the provider wrote words for the person (`error_user_title`/`error_user_msg`), they are shown
 * instead of ours (docs/provider-interface.md#error-responses); the template escapes them.
 */
function describe(err: unknown, req: Request, locale: Locale): ErrorPage {
  if (err instanceof AppError) {
    const page = ERROR_PAGES[err.code];
    // A permission we can name reads best in our words for it; the provider's may carry its identifier.
    const theirs = !(err.code === 'graph_permission' && err.permission !== undefined);
    const userTitle = theirs ? err.userTitle : undefined;
    const userMessage = theirs ? err.userMessage : undefined;
    return {
      status: err.status,
      title: userTitle ?? page.title(err, req, locale),
      message: userMessage ?? page.text(err, req, locale),
      theirs: { title: userTitle !== undefined, message: userMessage !== undefined },
      actions: page.actions.flatMap((kind) =>
        kind === 'page' ? pageAction(req, locale) : [resolve(kind, req, locale, err)],
      ),
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
      title: locale.t(status === 413 ? 'error.tooLarge.title' : 'error.badInput.title'),
      message: locale.t('error.badInput.text'),
      theirs: { title: false, message: false },
      actions: [resolve('home', req, locale)],
      headers: {},
      details: { status },
    };
  }
  return {
    status: 500,
    title: locale.t('error.internal.title'),
    message: locale.t('error.internal.text'),
    theirs: { title: false, message: false },
    actions: [resolve('retry', req, locale), resolve('home', req, locale)],
    headers: {},
    details: { status: 500 },
  };
}

/**
 * The one error handler: logs, then renders a page. A token the provider no
 * longer accepts is not an error for the person: their tokens are dropped
 * and they are sent home, with the reason, to connect again.
 */
export function errorHandler(logger: Logger, signIns: SignIns, locales: Locales): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof AppError && err.code === 'graph_token' && req.session) {
      signIns.drop(req);
      req.session.flash = { key: 'flash.signedOut', values: { reason: signedOutReason(err.subcode) } };
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
        'provider refused the token: sign-in dropped',
      );
      // Home offers Connect, which brings the person back to the page they were reading (docs/architecture.md#return-to).
      const back = req.method === 'GET' ? ownPath(req.originalUrl) : undefined;
      res.redirect(303, back ? `/?return_to=${encodeURIComponent(back)}` : '/');
      return;
    }
    // Set by src/http/language.ts; an error before it (a static file, a probe) reads in English.
    const locale = (res.locals as Partial<Express.Locals>).locale ?? locales.english;
    const page = describe(err, req, locale);
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
