/**
 * The base of every error this app raises on purpose. Each carries the HTTP
 * status it maps to and a stable `code`; one handler (src/http/errors.ts)
 * turns them into pages. `expose` says whether `message` is safe to show.
 */
export abstract class AppError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  /** Messages of AppErrors are written for people and never hold secrets. */
  readonly expose: boolean = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The request itself is malformed (odd query shapes, non-digit ids…): 400 before any upstream call. */
export class BadRequestError extends AppError {
  readonly status = 400;
  readonly code = 'bad_request';
}

export class NotFoundError extends AppError {
  readonly status = 404;
  readonly code = 'not_found';
}

/** A POST without the session's CSRF token. */
export class CsrfError extends AppError {
  readonly status = 403;
  readonly code = 'csrf';
  constructor() {
    super('This form has expired or did not come from this site. Go back, reload the page and try again.');
  }
}

/** The session is not connected (or no longer): the person has to connect again. */
export class NotConnectedError extends AppError {
  readonly status = 401;
  readonly code = 'not_connected';
}

/** The session store (Redis) cannot answer: a clear 503 rather than a hang. */
export class SessionStoreUnavailableError extends AppError {
  readonly status = 503;
  readonly code = 'session_store_unavailable';
  constructor(options?: { cause?: unknown }) {
    super('Sessions are unavailable for a moment. Please try again shortly.', options);
  }
}
