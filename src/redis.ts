import { createClient } from 'redis';
import type { Config } from './config';
import { withinDeadline } from './deadline';
import type { Logger } from './log/logger';

/**
 * What the shared page cache and the events between instances borrow of the connection: commands with their
 * own, shorter deadline, and one subscriber connection made on first use (docs/architecture.md#shared-cache).
 */
export interface SharedRedis {
  /** One command, failing after `deadlineMs` (or at once while Redis is down); never marks the connection unhealthy. */
  command(args: string[], deadlineMs: number): Promise<unknown>;
  /** Listens on `channel` (the subscriber connection resubscribes by itself after a reconnect). */
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
}

export type RedisClient = ReturnType<typeof newClient>;

/**
 * The app's one Redis connection, owned here and lent to the session store, the login rate limit, the shared
 * page cache and the event bus. Not one connection per feature.
 */
export interface RedisConnection extends SharedRedis {
  /** The client itself, for connect-redis. */
  readonly client: RedisClient;
  /** `work`, or a rejection after the deadline; a miss marks the connection stalled until a command answers. */
  bound<T>(work: Promise<T>): Promise<T>;
  /** One command under the deadline (the session store's and the login limit's). */
  send(args: string[]): Promise<unknown>;
  /** A script under the deadline. */
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
  /** false while Redis is down or stalled: /healthz says 503. */
  healthy(): boolean;
  close(): Promise<void>;
}

export interface RedisOptions {
  /** CLIENT SETNAME, so operators (and tests) can find the app's connections in CLIENT LIST. */
  clientName?: string;
  /** Longest wait for one command before the request gets a 503 (default 1000 ms). */
  deadlineMs?: number;
  /** How often an idle client checks that Redis still answers (default 2000 ms). */
  heartbeatMs?: number;
  /** Longest wait for the first connection at start (default 3000 ms). */
  startWaitMs?: number;
}

export class StoreDeadlineError extends Error {
  constructor(ms: number) {
    super(`the session store did not answer within ${ms} ms`);
    this.name = 'StoreDeadlineError';
  }
}

/** The connection the configuration asks for: one to REDIS_URL with SESSION_STORE=redis, none otherwise. */
export async function redisFor(
  config: Pick<Config, 'sessionStore' | 'redisUrl'>,
  logger: Logger,
  options: RedisOptions = {},
): Promise<RedisConnection | undefined> {
  return config.sessionStore === 'redis' ? connectRedis(config, logger, options) : undefined;
}

/**
 * Connects to REDIS_URL (the official client). The client reconnects by itself; while it is down, commands
 * fail at once instead of queueing (disableOfflineQueue), so a request gets a 503 page instead of hanging.
 * The client's own command timeout stops counting once a command is written, so a connection that has
 * stalled (Redis paused, a half-open network) would hold a request forever: `bound` fails it after the
 * deadline, and the connection reads as unhealthy until a command answers again.
 */
export async function connectRedis(
  config: Pick<Config, 'redisUrl'>,
  logger: Logger,
  options: RedisOptions = {},
): Promise<RedisConnection> {
  const { clientName = 'pagelight', deadlineMs = 1000, heartbeatMs = 2000, startWaitMs = 3000 } = options;
  const client = newClient(config.redisUrl, clientName);

  let lastError = 0;
  let stalled = false;
  let closing = false;
  client.on('error', (err: Error) => {
    // The client emits an error per failed reconnect; one line every 10 s is enough.
    if (Date.now() - lastError > 10_000)
      logger.warn({ err: { name: err.name, message: err.message } }, 'session store (redis) unavailable');
    lastError = Date.now();
  });
  client.on('ready', () => {
    stalled = false;
    if (lastError) logger.info('session store (redis) is back');
  });

  const stall = () => {
    if (!stalled)
      logger.warn(`session store (redis) did not answer within ${deadlineMs} ms; serving 503 until it does`);
    stalled = true;
    return new StoreDeadlineError(deadlineMs);
  };
  const bound = <T>(work: Promise<T>): Promise<T> =>
    withinDeadline(work, deadlineMs, stall).then((value) => {
      stalled = false;
      return value;
    });

  // While nobody asks, a PING now and then notices a stalled connection (and its end) for /healthz.
  let pinging = false;
  const heartbeat = setInterval(() => {
    if (pinging || !client.isReady) return;
    pinging = true;
    bound(client.ping())
      .catch(() => undefined)
      .finally(() => {
        pinging = false;
      });
  }, heartbeatMs);
  heartbeat.unref();

  // Not fatal when Redis is down at start: the client keeps retrying and /healthz says 503 until it is up.
  const connected = client.connect().then(
    () => true,
    (err: unknown) => {
      if (!closing) logger.error({ err }, 'session store (redis) could not connect');
      return false;
    },
  );
  const ready = await withinDeadline(connected, startWaitMs).catch(() => false);
  if (!ready) logger.error('session store (redis) is not reachable at start; serving 503 until it is');

  const destroyQuietly = (target: { isOpen: boolean; destroy(): void } | undefined) => {
    try {
      if (target?.isOpen) target.destroy();
    } catch {
      // already closed
    }
  };
  let subscriber: ReturnType<typeof client.duplicate> | undefined;
  let subscriberUp: Promise<unknown> | undefined;
  const subscriberOf = () => {
    if (!subscriber) {
      subscriber = client.duplicate({ name: `${clientName}-sub` });
      subscriber.on('error', () => undefined);
      subscriberUp = subscriber.connect();
    }
    return { sub: subscriber, up: subscriberUp! };
  };
  return {
    client,
    bound,
    send: (args) => bound(client.sendCommand(args)),
    eval: (script, keys, args) => bound(client.eval(script, { keys, arguments: args })),
    // The shared cache's own, shorter deadline: it falls back to the provider, so a miss marks nothing stalled.
    command: (args, ms) => withinDeadline(client.sendCommand(args), ms, () => new StoreDeadlineError(ms)),
    subscribe: async (channel, listener) => {
      const { sub, up } = subscriberOf();
      await withinDeadline(up, startWaitMs, () => new StoreDeadlineError(startWaitMs));
      await withinDeadline(
        sub.subscribe(channel, (message: string) => listener(message)),
        deadlineMs,
        () => new StoreDeadlineError(deadlineMs),
      );
    },
    healthy: () => client.isReady && !stalled,
    close: async () => {
      closing = true;
      clearInterval(heartbeat);
      destroyQuietly(subscriber);
      if (client.isReady && !stalled) {
        // QUIT waits for the replies still owed; a stalled server gets no such courtesy.
        await bound(client.close()).catch(() => destroyQuietly(client));
      } else {
        destroyQuietly(client);
      }
    },
  };
}

function newClient(url: string, name: string) {
  return createClient({
    url,
    name,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2000,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000),
    },
  });
}
