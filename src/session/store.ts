import session from 'express-session';
import createMemoryStore from 'memorystore';
import type { Config } from '../config';
import { tolerantJson } from './serializer';

/** A session store plus what the app needs to run it: health and shutdown. */
export interface SessionStoreHandle {
  store: session.Store;
  kind: 'memory' | 'redis';
  /** false while the store cannot answer (Redis down): /healthz says 503. */
  healthy(): boolean;
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

export function createMemorySessionStore(config: Pick<Config, 'sessionIdleSec'>, maxSessions = MEMORY_STORE_MAX_SESSIONS): SessionStoreHandle {
  const store = new (syncTouch(createMemoryStore(session)))({
    checkPeriod: 60_000,
    max: maxSessions,
    ttl: config.sessionIdleSec * 1000,
    serializer: tolerantJson,
  });
  return {
    store,
    kind: 'memory',
    healthy: () => true,
    close: async () => store.stopInterval(),
  };
}

type MemoryStoreClass = ReturnType<typeof createMemoryStore>;

/**
 * memorystore answers `touch` on the next tick, and express-session holds
 * every response until the touch is answered, writing it in two parts. The
 * touch is an in-memory update, so answering at once is correct and lets
 * the response go out in one write (issue 5 profile: the largest cost of a
 * warm view that the bare-Express floor does not pay).
 */
function syncTouch(Base: MemoryStoreClass): MemoryStoreClass {
  return class SyncTouchMemoryStore extends Base {
    override touch(sid: string, sess: session.SessionData, callback?: (err?: unknown) => void): void {
      try {
        super.touch(sid, sess);
      } catch (err) {
        callback?.(err);
        return;
      }
      callback?.();
    }
  };
}
