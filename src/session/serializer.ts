import type { SessionData } from 'express-session';

/**
 * JSON for stored sessions, except that a value which is not a session
 * (corrupted, or written by something else) reads as "no session": the person
 * starts afresh instead of meeting an error page on every request until the
 * value expires. What is inside a session is checked where it is used
 * (see ConnectionKeeper).
 */
export const tolerantJson = {
  stringify: (sess: SessionData | object): string => JSON.stringify(sess),
  parse: (raw: string): SessionData => {
    try {
      const value: unknown = JSON.parse(raw);
      return (value && typeof value === 'object' && !Array.isArray(value) ? value : undefined) as SessionData;
    } catch {
      return undefined as unknown as SessionData;
    }
  },
};
