import { RedisStore } from 'connect-redis';
import { createClient } from 'redis';
import type { Config } from '../config';
import type { Logger } from '../log/logger';
import type { SessionStoreHandle } from './store';

/**
 * Sessions in Redis (connect-redis + the official client), shared by every
 * instance. The client reconnects by itself; while it is down, commands fail
 * at once instead of queueing (disableOfflineQueue), so a request gets a 503
 * page instead of hanging.
 */
export async function createRedisSessionStore(config: Pick<Config, 'redisUrl' | 'redisPrefix'>, logger: Logger): Promise<SessionStoreHandle> {
  const client = createClient({
    url: config.redisUrl,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2000,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000),
    },
  });
  let lastError = 0;
  client.on('error', (err: Error) => {
    // The client emits an error per failed reconnect; one line every 10 s is enough.
    if (Date.now() - lastError > 10_000) logger.warn({ err: { name: err.name, message: err.message } }, 'session store (redis) unavailable');
    lastError = Date.now();
  });
  client.on('ready', () => {
    if (lastError) logger.info('session store (redis) is back');
  });
  // Not fatal when Redis is down at start: the client keeps retrying and /healthz says 503 until it is up.
  const connected = client.connect().then(
    () => true,
    (err: unknown) => {
      logger.error({ err }, 'session store (redis) could not connect');
      return false;
    },
  );
  const ready = await Promise.race([connected, new Promise<false>((resolve) => setTimeout(resolve, 3000, false).unref())]);
  if (!ready) logger.error('session store (redis) is not reachable at start; serving 503 until it is');
  const store = new RedisStore({ client, prefix: config.redisPrefix });
  return {
    store,
    kind: 'redis',
    healthy: () => client.isReady,
    close: async () => {
      if (client.isOpen) await client.close();
      else client.destroy();
    },
  };
}
