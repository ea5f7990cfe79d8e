import type { RequestHandler } from 'express';
import type { RecordStore } from './records';
import type { Config } from '../config';
import { sessionIdOf } from './middleware';
import type { SessionStoreHandle } from './store';

/**
 * Why a request's session cookie names a session the store no longer has: `idle`, it lapsed after
 * SESSION_IDLE_SECONDS; `lost`, the store lost its sessions (a Redis that lost its data, a restarted process
 * holding them in memory). Said in words that fit each (docs/operations.md#when-the-store-loses-sessions).
 */
export type Lapse = 'idle' | 'lost';

declare module 'node:http' {
  interface IncomingMessage {
    /** Set when the session cookie named a session the store no longer has. */
    sessionLapse?: Lapse;
  }
}

/**
 * A record of when the store began holding its current sessions. A store that lost its data lost this record
 * too, so it is missing or newer than the idle lifetime whenever sessions could have been lost rather than lapsed.
 */
export const SESSIONS_SINCE_KEY = 'sessions-since';
const SINCE_RECORD_SEC = 400 * 24 * 3600;

/** Writes the record unless there is one (at start, and after a loss); a store that cannot answer is left alone. */
export async function markSessionsSince(records: RecordStore, now: number): Promise<number> {
  const since = Number(await records.get(SESSIONS_SINCE_KEY));
  if (Number.isSafeInteger(since) && since > 0 && since <= now) return since;
  await records.put(SESSIONS_SINCE_KEY, String(now), SINCE_RECORD_SEC);
  return now;
}

/**
 * After the session is read: a cookie whose session is gone (express-session made a new one under another id)
 * gets its {@link Lapse}. One record read, only for such requests.
 */
export function sessionLapses(
  handle: SessionStoreHandle,
  config: Pick<Config, 'servedOverHttps' | 'sessionSecrets'>,
  idleSec: number,
  now: () => number,
): RequestHandler {
  // From the start: a process that held sessions for longer than the idle lifetime lost none by starting.
  void markSessionsSince(handle.records, now()).catch(() => undefined);
  return (req, _res, next) => {
    // A session the store returned holds data (empty ones are never saved: saveUninitialized is off), so only an
    // empty one can stand where a lapsed cookie's was; the signature is checked only then, not on every view.
    if (!req.sessionID || !isEmpty(req.session)) {
      next();
      return;
    }
    const id = sessionIdOf(req.headers.cookie, config);
    if (id === undefined || id === req.sessionID || !handle.healthy()) {
      next();
      return;
    }
    const at = now();
    markSessionsSince(handle.records, at).then(
      (since) => {
        req.sessionLapse = at - since < idleSec * 1000 ? 'lost' : 'idle';
        next();
      },
      () => next(),
    );
  };
}

/** No data beyond the cookie express-session gives every session. */
function isEmpty(session: object | undefined): boolean {
  return session === undefined || Object.keys(session).every((key) => key === 'cookie');
}
