import type { Request } from 'express';
import { SessionStoreUnavailableError } from '../errors';

/** express-session's callbacks as promises; a store that fails is a 503, never a hang or a 500. */

/** Saves the session now (before a redirect the browser may follow at once). */
export function save(req: Request): Promise<void> {
  return new Promise((resolve, reject) =>
    req.session.save((err) => (err ? reject(new SessionStoreUnavailableError({ cause: err })) : resolve())),
  );
}

/** A new session id with empty data, so an id planted before login is worthless (session fixation). */
export function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) =>
    req.session.regenerate((err) => (err ? reject(new SessionStoreUnavailableError({ cause: err })) : resolve())),
  );
}

/** Removes the session from the store. */
export function destroy(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((err?: Error) => (err ? reject(err) : resolve())));
}
