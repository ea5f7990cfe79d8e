import session from 'express-session';
import createMemoryStore from 'memorystore';
import type { Config } from '../config';
import { LRUCache } from 'lru-cache';
import { isShortLived, PENDING_SESSION_MS, TOMBSTONE_MS } from './lifetimes';
import { MemoryRecords, type RecordStore } from './records';
import { checkedOnWriteJson } from './serializer';
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
 * The default store: memorystore, an LRU bounded in entries whose expired
 * sessions are pruned every minute, so memory stays flat however many
 * sessions come and go (express-session's own MemoryStore never prunes).
 * A connected person's session costs about 1.5 KB of heap (npm run
 * bench:sessions), so the default bound caps the store near 150 MB; past
 * it the least recently used session goes. More than that wants Redis.
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

export function createMemorySessionStore(
  config: Pick<Config, 'sessionIdleSec'>,
  maxSessions = MEMORY_STORE_MAX_SESSIONS,
  maxPending = MEMORY_STORE_MAX_PENDING,
): SessionStoreHandle {
  const Memory = createMemoryStore(session);
  const index = new MemorySessionIndex();
  const pending = new Memory({
    checkPeriod: 60_000,
    max: maxPending,
    ttl: Math.min(PENDING_SESSION_MS, config.sessionIdleSec * 1000),
    serializer: checkedOnWriteJson,
  });
  const signedOut = new LRUCache<string, true>({ max: MAX_TOMBSTONES, ttl: TOMBSTONE_MS, ttlAutopurge: false });
  const store = new (splitByLifetime(Memory, pending, index, signedOut))({
    checkPeriod: 60_000,
    max: maxSessions,
    ttl: config.sessionIdleSec * 1000,
    serializer: checkedOnWriteJson,
    // Evicted or expired (pruned, or found stale on read): out of the index too. Not on overwrite: set() updates it.
    dispose: (sid: string) => index.remove(sid),
    noDisposeOnSet: true,
  });
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
      store.stopInterval();
      pending.stopInterval();
      return Promise.resolve();
    },
  };
}

type MemoryStoreClass = ReturnType<typeof createMemoryStore>;
type MemoryStore = InstanceType<MemoryStoreClass>;
type Callback = (err?: unknown, value?: unknown) => void;

/**
 * The long-lived store, which hands short-lived sessions (./lifetimes
 * isShortLived) to `pending` and refuses to write a destroyed id back.
 *
 * Routing is by content on every write, so a session moves when its content
 * changes (a sign-in dropped: to `pending`), and reads look in the
 * long-lived store first: a logged-in person's request pays one extra map
 * lookup only when it writes (the copy in the other store is removed).
 *
 * A destroyed id leaves a tombstone for TOMBSTONE_MS: a request that was in
 * flight when the person logged out may finish later and try to save or
 * touch the session it loaded; that write is dropped.
 */
function splitByLifetime(
  Base: MemoryStoreClass,
  pending: MemoryStore,
  index: MemorySessionIndex,
  signedOut: LRUCache<string, true>,
): MemoryStoreClass {
  const gone = new LRUCache<string, true>({ max: MAX_TOMBSTONES, ttl: TOMBSTONE_MS, ttlAutopurge: false });
  return class SplitMemoryStore extends Base {
    override get(sid: string, callback: (err: unknown, sess?: session.SessionData | null) => void): void {
      super.get(sid, (err: unknown, sess?: session.SessionData | null) => {
        if (err || sess) callback(err, sess);
        else pending.get(sid, callback);
      });
    }
    override set(sid: string, sess: session.SessionData, callback?: Callback): void {
      // A signed-out session is written over only by content that knows it (a request that loaded it since).
      if (gone.has(sid) || (signedOut.has(sid) && sess.signedOutAt === undefined)) {
        callback?.();
        return;
      }
      // Indexed before the write: a write that fails leaves a member that reads as stale, never a session unfound.
      index.update(sid, sess);
      if (isShortLived(sess)) {
        super.destroy(sid);
        pending.set(sid, sess, callback);
      } else {
        pending.destroy(sid);
        super.set(sid, sess, callback);
      }
    }
    /**
     * memorystore's touch is done when it returns, but calls back on the next turn (setImmediate); express-session
     * answers a touch that calls back later by writing all of the page but its last byte, then that byte once
     * called back: two writes a view. Called back at once, the page goes out in one. Its one failure, an entry
     * it cannot read back (which this store wrote), leaves that session's expiry as it was.
     */
    override touch(sid: string, sess: session.SessionData, callback?: Callback): void {
      if (!gone.has(sid)) {
        if (isShortLived(sess)) pending.touch(sid, sess);
        else super.touch(sid, sess);
      }
      callback?.();
    }
    override destroy(sid: string, callback?: Callback): void {
      gone.set(sid, true);
      index.remove(sid);
      pending.destroy(sid);
      super.destroy(sid, callback);
    }
    override length(callback: (err: unknown, length?: number) => void): void {
      super.length((err: unknown, main?: number) => {
        if (err) callback(err);
        else pending.length((err2: unknown, short?: number) => callback(err2, (main ?? 0) + (short ?? 0)));
      });
    }
    override all(callback: (err: unknown, all?: Record<string, session.SessionData> | null) => void): void {
      super.all((err: unknown, main?: Record<string, session.SessionData> | null) => {
        if (err) callback(err);
        else
          pending.all((err2: unknown, short?: Record<string, session.SessionData> | null) =>
            callback(err2, { ...short, ...main }),
          );
      });
    }
    override clear(callback?: Callback): void {
      index.clear();
      pending.clear();
      super.clear(callback);
    }
  };
}
