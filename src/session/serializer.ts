import type { SessionData } from 'express-session';
import { parseJson } from '../json';
import { readStoredSession } from './schema';

/**
 * JSON for stored sessions, read through the session schema: a value which
 * is not a session (corrupted, or written by something else) reads as "no
 * session", and a part of the wrong shape (an older version's, or tampered
 * with) is left out. The person starts afresh instead of meeting an error
 * page on every request until the value expires. For a store others can
 * write to (Redis): every read is checked. The memory store checks on write
 * instead (./store).
 */
export const tolerantJson = {
  stringify: (sess: SessionData | object): string => JSON.stringify(sess),
  parse: (raw: string): SessionData => readStoredSession(parseJson(raw)) as unknown as SessionData,
};
