import type { SessionData } from 'express-session';
import { readStoredSession } from './schema';

/**
 * JSON for stored sessions, read through the session schema: a value which
 * is not a session (corrupted, or written by something else) reads as "no
 * session", and a part of the wrong shape (an older version's, or tampered
 * with) is left out. The person starts afresh instead of meeting an error
 * page on every request until the value expires.
 */
export const tolerantJson = {
  stringify: (sess: SessionData | object): string => JSON.stringify(sess),
  parse: (raw: string): SessionData => {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined as unknown as SessionData;
    }
    return readStoredSession(value) as unknown as SessionData;
  },
};
