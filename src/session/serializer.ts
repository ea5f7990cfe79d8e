import type { SessionData } from 'express-session';
import { parseJson } from '../json';
import { readStoredSession } from './schema';

/**
 * JSON for stored sessions, read through the session schema: a value which
 * is not a session (corrupted, or written by something else) reads as "no
 * session", and a part of the wrong shape (an older version's, or tampered
 * with) is left out. The person starts afresh instead of meeting an error
 * page on every request until the value expires. For a store others can
 * write to (Redis): every read is checked.
 */
export const tolerantJson = {
  stringify: (sess: SessionData | object): string => JSON.stringify(sess),
  parse: (raw: string): SessionData => readStoredSession(parseJson(raw)) as unknown as SessionData,
};

/**
 * The same check, made when a value is written instead of each time it is
 * read, for a store only this process writes to (memory): what it holds went
 * through the schema on the way in, so a read is a plain JSON.parse. Reads
 * outnumber writes (a view only touches its session), and the schema read was
 * the warm view's largest session cost.
 *
 * Stored as two lines, the cookie and then the rest. memorystore's `touch`
 * (every view) parses the stored value, gives it the new cookie and writes it
 * back: for a value this parse made whose rest still serializes as it was
 * read, the rest went through the schema when first written and is not
 * checked again (docs/performance.md); a changed one is. JSON.stringify
 * never writes a line break. A value that is not a session is stored as
 * `null`, which reads as no session.
 */
/** The stored second line of each session object checkedOnWriteJson.parse made (weak: gone with the object). */
const storedRest = new WeakMap<object, string>();

export const checkedOnWriteJson = {
  stringify: (sess: SessionData | object): string => {
    const stored = storedRest.get(sess);
    if (stored !== undefined) {
      // A value this parse made: when all but its cookie is as it was read, it passed the schema already.
      const { cookie, ...rest } = sess as { cookie?: unknown };
      const restJson = JSON.stringify(rest);
      if (restJson === stored) return `${JSON.stringify(cookie)}\n${restJson}`;
    }
    // Through JSON first: the stored form is what the schema judges (a Cookie writes itself with toJSON).
    const checked = readStoredSession(JSON.parse(JSON.stringify(sess)));
    if (checked === undefined) return 'null';
    const { cookie, ...rest } = checked;
    return `${JSON.stringify(cookie)}\n${JSON.stringify(rest)}`;
  },
  parse: (raw: string): SessionData => {
    const split = raw.indexOf('\n');
    if (split < 0) return parseJson(raw) as SessionData;
    const cookie = parseJson(raw.slice(0, split));
    const rest = parseJson(raw.slice(split + 1));
    if (typeof cookie !== 'object' || cookie === null || typeof rest !== 'object' || rest === null)
      return undefined as unknown as SessionData;
    const session = { cookie, ...rest } as SessionData;
    storedRest.set(session, raw.slice(split + 1));
    return session;
  },
};
