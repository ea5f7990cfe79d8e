import { createClient } from 'redis';
import type { Config } from './config';
import { withinDeadline } from './deadline';
import type { Logger } from './log/logger';

/**
 * What the shared page cache and the events between instances borrow of the Redis client: commands with their
 * own, shorter deadline, and one subscriber made on first use.
 */
export interface SharedRedis {
  /** One command, failing after `deadlineMs` (or at once while Redis is down); never marks the client unhealthy. */
  command(args: string[], deadlineMs: number): Promise<unknown>;
  /** Listens on `channel` (the subscriber resubscribes by itself after a reconnect). */
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
}

/** node-redis's own client, as connect-redis takes it. */
export type NodeRedisClient = ReturnType<typeof newClient>;

export interface RedisOptions {
  /** CLIENT SETNAME, so operators (and tests) can find the app's clients in CLIENT LIST. */
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

/** The client the configuration asks for: one to REDIS_URL with SESSION_STORE=redis, none otherwise. */
export async function redisFor(
  config: Pick<Config, 'sessionStore' | 'redisUrl'>,
  logger: Logger,
  options: RedisOptions = {},
): Promise<Redis | undefined> {
  return config.sessionStore === 'redis' ? Redis.connect(config, logger, options) : undefined;
}

/**
 * The app's one Redis client, owned here and lent to the session store, the login rate limit, the shared page
 * cache and the event bus: not one per feature. It reconnects by itself; while Redis is down, commands fail at
 * once instead of queueing (disableOfflineQueue), so a request gets a 503 page instead of hanging. The client's
 * own command timeout stops counting once a command is written, so one that has stalled (Redis paused, a
 * half-open network) would hold a request forever: {@link bound} fails it after the deadline, and the client
 * reads as unhealthy until a command answers again.
 */
export class Redis implements SharedRedis {
  private stalled = false;
  private closing = false;
  private lastError = 0;
  private pinging = false;
  private readonly heartbeat: NodeJS.Timeout;
  private subscriber: { client: NodeRedisClient; up: Promise<unknown> } | undefined;

  /** Connects to REDIS_URL (the official client); not fatal when Redis is down at start: /healthz says 503 until it is up. */
  static async connect(config: Pick<Config, 'redisUrl'>, logger: Logger, options: RedisOptions = {}): Promise<Redis> {
    const redis = new Redis(newClient(config.redisUrl, options.clientName ?? 'pagelight'), logger, options);
    const connected = redis.client.connect().then(
      () => true,
      (err: unknown) => {
        if (!redis.closing) logger.error({ err }, 'session store (redis) could not connect');
        return false;
      },
    );
    const ready = await withinDeadline(connected, redis.startWaitMs).catch(() => false);
    if (!ready) logger.error('session store (redis) is not reachable at start; serving 503 until it is');
    return redis;
  }

  private readonly deadlineMs: number;
  private readonly startWaitMs: number;

  private constructor(
    /** The client itself, for connect-redis. */
    readonly client: NodeRedisClient,
    private readonly logger: Logger,
    options: RedisOptions,
  ) {
    this.deadlineMs = options.deadlineMs ?? 1000;
    this.startWaitMs = options.startWaitMs ?? 3000;
    client.on('error', (err: Error) => {
      // The client emits an error per failed reconnect; one line every 10 s is enough.
      if (Date.now() - this.lastError > 10_000)
        logger.warn({ err: { name: err.name, message: err.message } }, 'session store (redis) unavailable');
      this.lastError = Date.now();
    });
    client.on('ready', () => {
      this.stalled = false;
      if (this.lastError) logger.info('session store (redis) is back');
    });
    // While nobody asks, a PING now and then notices a stalled client (and its end) for /healthz.
    this.heartbeat = setInterval(() => this.ping(), options.heartbeatMs ?? 2000);
    this.heartbeat.unref();
  }

  /** `work`, or a rejection after the deadline; a miss marks the client stalled until a command answers. */
  bound<T>(work: Promise<T>): Promise<T> {
    return withinDeadline(work, this.deadlineMs, () => this.stall()).then((value) => {
      this.stalled = false;
      return value;
    });
  }

  /** One command under the deadline (the session store's and the login limit's). */
  send(args: string[]): Promise<unknown> {
    return this.bound(this.client.sendCommand(args));
  }

  /** A script under the deadline. */
  eval(script: string, keys: string[], args: string[]): Promise<unknown> {
    return this.bound(this.client.eval(script, { keys, arguments: args }));
  }

  // The shared cache's own, shorter deadline: it falls back to the provider, so a miss marks nothing stalled.
  command(args: string[], deadlineMs: number): Promise<unknown> {
    return withinDeadline(this.client.sendCommand(args), deadlineMs, () => new StoreDeadlineError(deadlineMs));
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    const { client, up } = this.subscriberOf();
    await withinDeadline(up, this.startWaitMs, () => new StoreDeadlineError(this.startWaitMs));
    await withinDeadline(
      client.subscribe(channel, (message: string) => listener(message)),
      this.deadlineMs,
      () => new StoreDeadlineError(this.deadlineMs),
    );
  }

  /** false while Redis is down or stalled: /healthz says 503. */
  healthy(): boolean {
    return this.client.isReady && !this.stalled;
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeat);
    destroyQuietly(this.subscriber?.client);
    if (this.client.isReady && !this.stalled) {
      // QUIT waits for the replies still owed; a stalled server gets no such courtesy.
      await this.bound(this.client.close()).catch(() => destroyQuietly(this.client));
    } else {
      destroyQuietly(this.client);
    }
  }

  private stall(): StoreDeadlineError {
    if (!this.stalled)
      this.logger.warn(`session store (redis) did not answer within ${this.deadlineMs} ms; serving 503 until it does`);
    this.stalled = true;
    return new StoreDeadlineError(this.deadlineMs);
  }

  private ping(): void {
    if (this.pinging || !this.client.isReady) return;
    this.pinging = true;
    this.bound(this.client.ping())
      .catch(() => undefined)
      .finally(() => {
        this.pinging = false;
      });
  }

  /** The subscriber, made on first use: a client in subscribe mode can send nothing else. */
  private subscriberOf(): { client: NodeRedisClient; up: Promise<unknown> } {
    if (!this.subscriber) {
      const client = this.client.duplicate({ name: `${this.client.options?.name ?? 'pagelight'}-sub` });
      client.on('error', () => undefined);
      this.subscriber = { client, up: client.connect() };
    }
    return this.subscriber;
  }
}

function destroyQuietly(target: { isOpen: boolean; destroy(): void } | undefined): void {
  try {
    if (target?.isOpen) target.destroy();
  } catch {
    // already closed
  }
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
