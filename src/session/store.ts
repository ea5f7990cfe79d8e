import session from 'express-session';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config';
import { parseJson } from '../json';
import { isShortLived, PENDING_SESSION_MS, TOMBSTONE_MS } from './lifetimes';
import { MemoryRecords, type RecordStore } from './records';
import { readStoredSession, type StoredSession } from './schema';
import { MemorySessionIndex, type SessionIndex } from './user-index';

/** A session store plus what the app needs to run it: health and shutdown. */
export interface SessionStoreHandle {
  store: session.Store;
  kind: 'memory' | 'redis';
  /** false while the store cannot answer (Redis down): /healthz says 503. */
  healthy(): boolean;
  /** Sessions by provider user id, so a callback that names a person finds each of their sessions. */
  index: SessionIndex;
  /**
   * Writes `sess` over a live session, keeping its expiry; does nothing when the id is gone. `sess` carries
   * `signedOutAt`, and from then on a write of content without it (a request that was in flight) is refused.
   */
  replace(sid: string, sess: session.SessionData): Promise<boolean>;
  /** Small records kept in the store's backend with their own expiry (data-deletion confirmations). */
  records: RecordStore;
  close(): Promise<void>;
}

/**
 * The default store: two LRUs bounded in entries ({@link MemorySessionStore}), whose expired sessions are pruned
 * every minute, so memory stays flat however many sessions come and go (express-session's own MemoryStore never
 * prunes). A connected person's session costs about 1.5 KB of heap (npm run bench:sessions), so the default bound
 * caps the store near 150 MB; past it the least recently used session goes. More than that wants Redis.
 */
export const MEMORY_STORE_MAX_SESSIONS = 100_000;

/**
 * Sessions holding only a login in progress live in a second LRU of their
 * own, so anonymous traffic can fill that one and never evict a logged-in
 * person. With login starts rate-limited per address, this bound is reached
 * only by a flood from many addresses; then the oldest pending login goes.
 */
export const MEMORY_STORE_MAX_PENDING = 20_000;

/** Destroyed ids remembered (see ./lifetimes TOMBSTONE_MS), oldest forgotten first. */
const MAX_TOMBSTONES = 100_000;

/** How often expired sessions are dropped (and so leave the index) when nobody asks for them. */
const PRUNE_EVERY_MS = 60_000;

/**
 * @param clock what the sessions' idle lifetimes are counted on: lru-cache's monotonic `performance.now()` unless a
 *   test gives its own, so that a lifetime is judged by the clock the test moves, not by how fast the machine is.
 */
export function createMemorySessionStore(
  config: Pick<Config, 'sessionIdleSec'>,
  maxSessions = MEMORY_STORE_MAX_SESSIONS,
  maxPending = MEMORY_STORE_MAX_PENDING,
  clock?: { now: () => number },
): SessionStoreHandle {
  const index = new MemorySessionIndex();
  const signedOut = new LRUCache<string, true>({ max: MAX_TOMBSTONES, ttl: TOMBSTONE_MS, ttlAutopurge: false });
  const store = new MemorySessionStore(
    { max: maxSessions, ttlMs: config.sessionIdleSec * 1000 },
    { max: maxPending, ttlMs: Math.min(PENDING_SESSION_MS, config.sessionIdleSec * 1000) },
    index,
    signedOut,
    clock,
  );
  const records = new MemoryRecords();
  return {
    store,
    kind: 'memory',
    healthy: () => true,
    index,
    records,
    replace: (sid, sess) =>
      new Promise((resolve, reject) =>
        store.get(sid, (err: unknown, current?: session.SessionData | null) => {
          if (err) return reject(err instanceof Error ? err : new Error('session store failed', { cause: err }));
          if (!current) return resolve(false);
          signedOut.set(sid, true);
          // The stored expiry stays: the replacement takes the remaining lifetime of the session it replaces.
          store.set(sid, { ...sess, cookie: current.cookie }, (e?: unknown) =>
            e ? reject(e instanceof Error ? e : new Error('session store failed', { cause: e })) : resolve(true),
          );
        }),
      ),
    close: () => {
      records.close();
      store.close();
      return Promise.resolve();
    },
  };
}

type Callback = (err?: unknown) => void;

/**
 * A stored session as two JSON texts: its cookie, and the rest as it passed the session schema on the way in.
 * Each read parses its own copy, so no two requests share a mutable session; a touch replaces the cookie alone.
 */
interface Stored {
  readonly cookie: string;
  readonly rest: string;
}

/**
 * The memory store: sessions in an LRU bounded in entries with the idle lifetime as TTL, and those holding only
 * a login in progress (./lifetimes isShortLived) in a second, smaller and shorter-lived one. Routing is by content
 * on every write, so a session moves when its content changes (a sign-in dropped: to `pending`); reads look in
 * the long-lived LRU first.
 *
 * What it holds went through the session schema when written (./schema), so a read is a plain `JSON.parse`;
 * only this process writes here. A touch (every view) gives the entry the new cookie and restarts its TTL without
 * reading the rest (docs/architecture.md#stores). Every call answers before it returns: there is nothing to
 * wait for; a read answered later costs each view a turn of the event loop, and a touch answered later makes
 * express-session send the page in two writes.
 *
 * A destroyed id leaves a tombstone for TOMBSTONE_MS: a request that was in flight when the person logged out
 * may finish later and try to save or touch the session it loaded; that write is dropped.
 */
export class MemorySessionStore extends session.Store {
  private readonly sessions: LRUCache<string, Stored>;
  private readonly pending: LRUCache<string, Stored>;
  private readonly gone = new LRUCache<string, true>({ max: MAX_TOMBSTONES, ttl: TOMBSTONE_MS, ttlAutopurge: false });
  private readonly pruning: NodeJS.Timeout;

  constructor(
    long: { max: number; ttlMs: number },
    short: { max: number; ttlMs: number },
    private readonly index: MemorySessionIndex,
    private readonly signedOut: LRUCache<string, true>,
    clock?: { now: () => number },
  ) {
    super();
    // A clock of a test's own is read on every check, not once a millisecond (lru-cache's ttlResolution).
    const counted = clock ? { perf: clock, ttlResolution: 0 } : {};
    this.sessions = new LRUCache<string, Stored>({
      max: long.max,
      ttl: long.ttlMs,
      ttlAutopurge: false,
      ...counted,
      // Evicted, expired or deleted: out of the index too. Not on overwrite: set() updates it.
      dispose: (_entry, sid) => index.remove(sid),
      noDisposeOnSet: true,
    });
    this.pending = new LRUCache<string, Stored>({ max: short.max, ttl: short.ttlMs, ttlAutopurge: false, ...counted });
    this.pruning = setInterval(() => this.prune(), PRUNE_EVERY_MS).unref();
  }

  override get(sid: string, callback: (err: unknown, sess?: session.SessionData | null) => void): void {
    const stored = this.sessions.get(sid) ?? this.pending.get(sid);
    callback(null, stored && readStored(stored));
  }

  override set(sid: string, sess: session.SessionData, callback?: Callback): void {
    // A signed-out session is written over only by content that knows it (a request that loaded it since).
    if (this.gone.has(sid) || (this.signedOut.has(sid) && sess.signedOutAt === undefined)) {
      callback?.();
      return;
    }
    const checked = checkedForStore(sess);
    this.index.update(sid, checked ?? {});
    if (checked === undefined) {
      // Not a session: reads as none.
      this.sessions.delete(sid);
      this.pending.delete(sid);
    } else if (isShortLived(checked)) {
      this.sessions.delete(sid);
      this.pending.set(sid, storedOf(checked));
    } else {
      this.pending.delete(sid);
      this.sessions.set(sid, storedOf(checked));
    }
    callback?.();
  }

  /** The new cookie (the stored expiry in step with the one sent) and a new TTL; the rest is kept as it is. */
  override touch(sid: string, sess: session.SessionData, callback?: () => void): void {
    if (!this.gone.has(sid)) {
      const lru = isShortLived(sess) ? this.pending : this.sessions;
      const stored = lru.get(sid);
      if (stored) lru.set(sid, { cookie: JSON.stringify(sess.cookie), rest: stored.rest });
    }
    callback?.();
  }

  override destroy(sid: string, callback?: Callback): void {
    this.gone.set(sid, true);
    this.index.remove(sid);
    this.pending.delete(sid);
    this.sessions.delete(sid);
    callback?.();
  }

  override length(callback: (err: unknown, length?: number) => void): void {
    callback(null, this.sessions.size + this.pending.size);
  }

  override all(callback: (err: unknown, all?: Record<string, session.SessionData> | null) => void): void {
    const all: Record<string, session.SessionData> = {};
    for (const lru of [this.pending, this.sessions])
      for (const [sid, stored] of lru.entries()) {
        const sess = readStored(stored);
        if (sess) all[sid] = sess;
      }
    callback(null, all);
  }

  override clear(callback?: Callback): void {
    this.index.clear();
    this.pending.clear();
    this.sessions.clear();
    callback?.();
  }

  /** Drops every expired session now (done every minute). */
  prune(): void {
    this.sessions.purgeStale();
    this.pending.purgeStale();
  }

  close(): void {
    clearInterval(this.pruning);
  }
}

/** The session as the schema lets the app keep it (a part of the wrong shape left out), or undefined when it is none. */
function checkedForStore(sess: session.SessionData): StoredSession | undefined {
  // Through JSON first: the stored form is what the schema judges (a Cookie writes itself with toJSON).
  return readStoredSession(JSON.parse(JSON.stringify(sess)));
}

function storedOf({ cookie, ...rest }: StoredSession): Stored {
  return { cookie: JSON.stringify(cookie), rest: JSON.stringify(rest) };
}

/** A fresh copy of the stored session for one request. */
function readStored(stored: Stored): session.SessionData | undefined {
  const sess = parseJson(stored.rest);
  const cookie = parseJson(stored.cookie);
  if (typeof sess !== 'object' || sess === null || typeof cookie !== 'object' || cookie === null) return undefined;
  (sess as { cookie: unknown }).cookie = cookie;
  return sess as session.SessionData;
}
