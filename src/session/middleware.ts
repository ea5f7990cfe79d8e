import { parse as parseCookies } from 'cookie';
import { unsign } from 'cookie-signature';
import session from 'express-session';
import type { Request, RequestHandler, Response } from 'express';
import { SessionStoreUnavailableError } from '../errors';
import type { Config } from '../config';
import type { SessionStoreHandle } from './store';
import './types';

/** The attributes the session cookie is set with; clearing it takes the same ones. */
export function sessionCookieAttributes(config: Pick<Config, 'servedOverHttps'>) {
  return { httpOnly: true, sameSite: 'lax', secure: config.servedOverHttps, path: '/' } as const;
}

/** The session cookie: HttpOnly, SameSite=Lax, Secure on https, a name that says nothing of the stack. */
/** The session cookie's name: `__Host-` (Secure, no Domain, Path=/) on https. */
export function sessionCookieName(config: Pick<Config, 'servedOverHttps'>): string {
  return config.servedOverHttps ? '__Host-pagelight' : 'pagelight';
}

/**
 * What a page that needs no store reads while the store is down: an empty session, so it shows the signed-out
 * state. Never saved and no cookie set: without a `req.sessionID`, express-session's end-of-response hook (when
 * it already ran) neither saves, touches nor sets a cookie, and only calls `touch`, a no-op here.
 */
function storelessSession(req: Request): Request['session'] {
  delete (req as { sessionID?: string }).sessionID;
  return { touch: () => undefined } as unknown as Request['session'];
}

/**
 * An empty session for this request; a person whose cookie names a session is told the app cannot tell
 * whether they are signed in, instead of a signed-out page with no hint (docs/operations.md#when-redis-is-down).
 */
function storelessFor(config: Pick<Config, 'servedOverHttps' | 'sessionSecrets'>) {
  return (req: Request, res: Response) => {
    if (sessionIdOf(req.headers.cookie, config) !== undefined) res.locals.sessionUnknown = true;
    req.session = storelessSession(req);
  };
}

export interface SessionMiddlewareOptions {
  /**
   * Requests that can be answered without the store (home, privacy): while it is down they get an empty
   * session instead of the 503 page (docs/operations.md#when-redis-is-down).
   */
  storeOptional?: (req: Request) => boolean;
}

export function sessionMiddleware(
  config: Config,
  handle: SessionStoreHandle,
  options: SessionMiddlewareOptions = {},
): RequestHandler {
  const middleware = session({
    name: sessionCookieName(config),
    secret: [...config.sessionSecrets],
    store: handle.store,
    resave: false,
    saveUninitialized: false,
    // Every answer pushes the idle expiry back; the absolute lifetime is checked in ./sign-in.
    rolling: true,
    proxy: config.trustProxy !== undefined ? undefined : false,
    cookie: { ...sessionCookieAttributes(config), maxAge: config.sessionIdleSec * 1000 },
  });
  // A store that is down answers at once with a 503 page; its errors become the same.
  const optional = options.storeOptional ?? (() => false);
  const storeless = storelessFor(config);
  return (req, res, next) => {
    if (!handle.healthy()) {
      if (optional(req)) {
        storeless(req, res);
        next();
        return;
      }
      next(new SessionStoreUnavailableError());
      return;
    }
    middleware(req, res, (err?: unknown) => {
      if (err && !res.headersSent && optional(req)) {
        // The store failed this read (a stalled Redis): the page is shown signed out, not refused.
        storeless(req, res);
        next();
        return;
      }
      if (err && res.headersSent) {
        // Saving or touching after the answer went out failed: the person has their page and only this
        // change to the session is lost. Passing it on would make Express cut the keep-alive connection.
        req.log?.warn(
          { err: { name: (err as Error).name, message: (err as Error).message } },
          'session could not be saved after the response',
        );
        return;
      }
      next(err ? new SessionStoreUnavailableError({ cause: err }) : undefined);
    });
  };
}

/**
 * The session id a `Cookie` header names, resolved as express-session resolves it: parsed by the same cookie
 * library (so `name =value`, a quoted value and percent-encoding all name the same session), then kept only when
 * one of the session secrets signed it. For what must count a session before the session is read (the
 * per-session limit); undefined when the header names none.
 */
export function sessionIdOf(
  header: string | undefined,
  config: Pick<Config, 'servedOverHttps' | 'sessionSecrets'>,
): string | undefined {
  if (header === undefined) return undefined;
  const raw = parseCookies(header)[sessionCookieName(config)];
  if (raw === undefined || !raw.startsWith('s:')) return undefined;
  for (const secret of config.sessionSecrets) {
    const id = unsign(raw.slice(2), secret);
    if (id !== false) return id;
  }
  return undefined;
}
