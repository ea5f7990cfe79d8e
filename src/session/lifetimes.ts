import type { Request } from 'express';
import type { SessionData } from 'express-session';

/**
 * How long a session that holds only logins in progress lives, in the store
 * and in the cookie: a login takes minutes at most. Only a finished login
 * (regenerated, see src/auth/routes.ts) earns the idle and absolute
 * lifetimes.
 */
export const PENDING_SESSION_MS = 10 * 60 * 1000;

/**
 * How long a destroyed session id stays refused: longer than any request
 * may take (provider timeout and retries, the server's request timeout), so
 * a request still in flight at logout cannot write the session back.
 */
export const TOMBSTONE_MS = 5 * 60 * 1000;

/**
 * A session worth the long lifetime holds a sign-in, or something a
 * connected person left in it (a CSRF token, a message for the next page).
 * Everything else — logins in progress, or nothing at all — is short-lived
 * and, in memory, kept apart so it can never push a logged-in person out.
 */
export function isShortLived(sess: Pick<Partial<SessionData>, 'signIn' | 'csrf' | 'flash'>): boolean {
  return sess.signIn === undefined && sess.csrf === undefined && sess.flash === undefined;
}

/** Gives a session that holds only a login in progress the short lifetime (cookie, and so the store's TTL). */
export function shortenIfPendingOnly(req: Request): void {
  if (
    isShortLived(req.session) &&
    req.session.cookie.maxAge !== undefined &&
    req.session.cookie.maxAge > PENDING_SESSION_MS
  ) {
    req.session.cookie.maxAge = PENDING_SESSION_MS;
  }
}
