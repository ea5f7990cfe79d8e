import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { RecordStore } from './records';
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

/** The session id in a signed express-session cookie ("s:<id>.<signature>"), if the request carries one. */
export function cookieSessionId(req: IncomingMessage, name: string): string | undefined {
  const cookie = (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${name}=`));
  if (!cookie) return undefined;
  let value: string;
  try {
    value = decodeURIComponent(cookie.slice(name.length + 1));
  } catch {
    return undefined;
  }
  const id = value.startsWith('s:') ? value.slice(2, value.lastIndexOf('.')) : undefined;
  return id !== undefined && id.length > 0 ? id : undefined;
}

/**
 * After the session is read: a cookie whose session is gone (express-session made a new one under another id)
 * gets its {@link Lapse}. One record read, only for such requests.
 */
export function sessionLapses(
  handle: SessionStoreHandle,
  cookieName: string,
  idleSec: number,
  now: () => number,
): RequestHandler {
  // From the start: a process that held sessions for longer than the idle lifetime lost none by starting.
  void markSessionsSince(handle.records, now()).catch(() => undefined);
  return (req, _res, next) => {
    const id = cookieSessionId(req, cookieName);
    if (id === undefined || !req.sessionID || id === req.sessionID || !handle.healthy()) {
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
