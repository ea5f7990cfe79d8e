import session from 'express-session';
import createMemoryStore from 'memorystore';
import type { Config } from '../config';

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
 */
export function createMemorySessionStore(config: Pick<Config, 'sessionIdleSec'>, maxSessions = 500_000): SessionStoreHandle {
  const MemoryStore = createMemoryStore(session);
  const store = new MemoryStore({ checkPeriod: 60_000, max: maxSessions, ttl: config.sessionIdleSec * 1000 });
  return {
    store,
    kind: 'memory',
    healthy: () => true,
    close: async () => store.stopInterval(),
  };
}
