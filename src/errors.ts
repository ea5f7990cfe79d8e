import { englishText } from './i18n/catalogs';
import type { Say } from './i18n/locale';

/**
 * Every error this app raises on purpose has a stable `code`; the code fixes
 * the HTTP status once, here, and one table in src/http/errors.ts fixes what
 * the person reads. Nothing decides either a second time.
 */
export type ErrorCode =
  | 'bad_request'
  | 'not_found'
  | 'csrf'
  | 'not_connected'
  | 'page_access'
  | 'write_forbidden'
  | 'write_unsendable'
  | 'session_store_unavailable'
  | 'state_mismatch'
  | 'authorization_error'
  | 'id_token_invalid'
  | 'pkce_refused'
  | 'login_rate_limit'
  | 'graph_token'
  | 'graph_permission'
  | 'graph_rate_limit'
  | 'graph_policy_block'
  | 'graph_not_found'
  | 'graph_invalid'
  | 'graph_transient'
  | 'graph_other'
  | 'token_endpoint'
  | 'provider_timeout'
  | 'provider_unreachable'
  | 'provider_bad_response'
  | 'provider_http_error'
  | 'too_many_requests';

/** The response status of each code: a `Record`, so a code without one does not compile. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  bad_request: 400,
  not_found: 404,
  csrf: 403,
  not_connected: 401,
  page_access: 403,
  write_forbidden: 403,
  // The form asks for something the provider would refuse (a time outside its window, a file that is no picture):
  // said before any provider call, the text kept.
  write_unsendable: 422,
  session_store_unavailable: 503,
  state_mismatch: 403,
  authorization_error: 400,
  // The provider's answer could not be trusted: an upstream failure, not the person's request.
  id_token_invalid: 502,
  // The app is set up for a flow the provider does not run (FB_PKCE without openid).
  pkce_refused: 502,
  login_rate_limit: 429,
  graph_token: 401,
  graph_permission: 403,
  graph_rate_limit: 429,
  graph_policy_block: 403,
  graph_not_found: 404,
  // The provider found our request invalid: the person asked nothing wrong, the upstream call failed.
  graph_invalid: 502,
  graph_transient: 502,
  graph_other: 502,
  token_endpoint: 400,
  provider_timeout: 504,
  provider_unreachable: 502,
  provider_bad_response: 502,
  provider_http_error: 502,
  too_many_requests: 429,
};

/**
 * The base of every error this app raises on purpose. Messages are written
 * for people and never hold secrets. The optional fields are what an error
 * page may need beyond the code; the subclass that knows them sets them.
 */
export abstract class AppError extends Error {
  readonly status: number;
  /** The permission the provider named as missing. */
  readonly permission?: string;
  /** Seconds until the provider lets us call again. */
  readonly retryAfterSec?: number;
  /** The provider's trace id, for the log line and the operator's details. */
  readonly fbtraceId?: string;
  /** The provider's `error_subcode`: for an unusable token, why (expired, password changed, app removed…). */
  readonly subcode?: number;
  /** The provider's own title and text for the person (`error_user_title`/`error_user_msg`), shown escaped. */
  readonly userTitle?: string;
  readonly userMessage?: string;
  /** The error's own words for the person, as a message of the catalogs; `message` is them in English, for the log. */
  readonly say?: Say;

  constructor(
    readonly code: ErrorCode,
    message: string | Say,
    options?: { cause?: unknown },
  ) {
    super(typeof message === 'string' ? message : englishText(message), options);
    this.name = new.target.name;
    this.status = ERROR_STATUS[code];
    if (typeof message !== 'string') this.say = message;
  }
}

/** The request itself is malformed (odd query shapes, non-digit ids…): 400 before any upstream call. */
export class BadRequestError extends AppError {
  constructor(message: Say) {
    super('bad_request', message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: Say) {
    super('not_found', message);
  }
}

/** A POST without the session's CSRF token. */
export class CsrfError extends AppError {
  constructor() {
    super('csrf', { key: 'error.csrf.text' });
  }
}

/** The session is not connected (or no longer): the person has to connect again. */
export class NotConnectedError extends AppError {
  constructor(message: Say) {
    super('not_connected', message);
  }
}

/** The person is logged in but does not manage the page they asked for. */
export class PageAccessError extends AppError {
  constructor() {
    super('page_access', 'Your account does not manage this page, or the permission to reach it was not granted.');
  }
}

/**
 * A write this session may not make, found before any provider call (docs/architecture.md#writes): it holds no
 * token for the Page, its tasks there do not allow the action, or the object is not the Page's (a forged form).
 */
export class WriteForbiddenError extends AppError {
  constructor(readonly step: 'token' | 'task' | 'belongs') {
    super('write_forbidden', { key: `error.write_forbidden.${step}` });
  }
}

/**
 * A write whose form asks for something the provider refuses for the form alone (a time outside its window, a
 * file that is no picture), found before any call, or said so by the provider's invalid-parameter answer: the
 * text is kept with these words (docs/architecture.md#publishing).
 */
export class WriteUnsendableError extends AppError {
  constructor(say: Say) {
    super('write_unsendable', say);
  }
}

/** The session store (Redis) cannot answer: a clear 503 rather than a hang. */
export class SessionStoreUnavailableError extends AppError {
  constructor(options?: { cause?: unknown }) {
    super('session_store_unavailable', 'Sessions are unavailable for a moment. Please try again shortly.', options);
  }
}
