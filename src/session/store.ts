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
  const MemoryStore = createMemoryStore(session);
  const store = new MemoryStore({ checkPeriod: 60_000, max: maxSessions, ttl: config.sessionIdleSec * 1000, serializer: tolerantJson });
  return {
    store,
    kind: 'memory',
    healthy: () => true,
    close: async () => store.stopInterval(),
  };
}
