import type { Config } from '../config';
import type { Logger } from '../log/logger';
import { createMemorySessionStore, type SessionStoreHandle } from './store';

/** The store SESSION_STORE asks for. */
export async function createSessionStore(config: Config, logger: Logger): Promise<SessionStoreHandle> {
  if (config.sessionStore === 'redis') {
    const { createRedisSessionStore } = await import('./redis');
    return createRedisSessionStore(config, logger);
  }
  return createMemorySessionStore(config);
}
