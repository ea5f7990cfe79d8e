import { RedisStore } from 'connect-redis';
import type { SessionData } from 'express-session';
import { createClient } from 'redis';
import type { Config } from '../config';
import type { Logger } from '../log/logger';
import { TOMBSTONE_MS } from './lifetimes';
import { redisRecords } from './records';
import { tolerantJson } from './serializer';
import type { SessionStoreHandle, SharedRedis } from './store';
import { ownerOf } from './userIndex';

export interface RedisStoreOptions {
  /** CLIENT SETNAME, so operators (and tests) can find the app's connections in CLIENT LIST. */
  clientName?: string;
  /** Longest wait for one store operation before the request gets a 503 (default 1000 ms). */
  deadlineMs?: number;
  /** How often an idle client checks that Redis still answers (default 2000 ms). */
  heartbeatMs?: number;
  /** Longest wait for the first connection at start (default 3000 ms). */
  startWaitMs?: number;
}

/** connect-redis's own callback type (node-style, loosely typed there). */
type Callback = NonNullable<Parameters<RedisStore['get']>[1]>;

/**
 * connect-redis with a deadline on every operation. The client's own command
 * timeout stops counting once a command is written, so a connection that has
 * stalled (Redis paused, a half-open network) would hold the request forever;
 * here it fails after `deadlineMs` and the store reads as unhealthy until a
 * command answers again.
 */
class BoundedRedisStore extends RedisStore {
  constructor(
    opts: ConstructorParameters<typeof RedisStore>[0],
    private readonly bound: <T>(work: Promise<T>) => Promise<T>,
    private readonly redis: ScriptRunner,
    private readonly keyPrefix: string,
  ) {
    super(opts);
  }
  override get(sid: string, cb?: Callback): Promise<unknown> {
    return settle(this.bound(super.get(sid)), cb);
  }
  /**
   * Writes unless the id was destroyed (or signed out by the provider and this is older content): one script,
   * so a logout between the check and the write cannot be missed. A session with an owner joins its index set.
   */
  override set(sid: string, sess: SessionData, cb?: Callback): Promise<unknown> {
    const ttl = ttlOf(sess);
    if (ttl <= 0) return this.destroy(sid, cb);
    const owner = ownerOf(sess);
    const work = this.redis.eval(SET_UNLESS_GONE, {
      keys: [this.keyPrefix + sid, ...(owner ? [indexKey(this.keyPrefix, owner)] : [])],
      arguments: [JSON.stringify(sess), String(ttl), TOMBSTONE, sid, this.keyPrefix],
    });
    return settle(this.bound(work), cb);
  }
  override touch(sid: string, sess: SessionData, cb?: Callback): Promise<unknown> {
    const owner = ownerOf(sess);
    const work = this.redis.eval(TOUCH_UNLESS_GONE, {
      keys: [this.keyPrefix + sid, ...(owner ? [indexKey(this.keyPrefix, owner)] : [])],
      arguments: [String(ttlOf(sess)), TOMBSTONE, sid],
    });
    return settle(this.bound(work), cb);
  }
  /** Leaves a tombstone for TOMBSTONE_MS instead of deleting (see ./lifetimes), and leaves the owner's index. */
  override destroy(sid: string, cb?: Callback): Promise<unknown> {
    const work = this.redis.eval(TOMBSTONE_SET, {
      keys: [this.keyPrefix + sid],
      arguments: [TOMBSTONE, String(TOMBSTONE_MS), this.keyPrefix + INDEX_INFIX, sid],
    });
    return settle(this.bound(work), cb);
  }
}

/**
 * What a destroyed session's key holds until it expires. It is not a
 * session (./schema wants a cookie), so reading it gives "no session".
 */
const TOMBSTONE = '"destroyed"';

/** Sessions by provider user id: a set per person, `<prefix>user:<id>` (docs/architecture.md#session-index). */
const INDEX_INFIX = 'user:';
export function indexKey(prefix: string, userId: string): string {
  return `${prefix}${INDEX_INFIX}${userId}`;
}

/** A stored session that the provider signed out: only content that carries the same key may replace it. */
const SIGNED_OUT_MARK = '"signedOutAt":';

// KEYS[2], when given, is the owner's index set. It is pruned of ids whose key is gone when a new id joins,
// and it lives at least as long as its longest-lived member, so it expires with the last of them.
const SET_UNLESS_GONE = `
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[3] then return 0 end
if cur and string.find(cur, '${SIGNED_OUT_MARK}', 1, true) and not string.find(ARGV[1], '${SIGNED_OUT_MARK}', 1, true) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
if KEYS[2] then
  if redis.call('SADD', KEYS[2], ARGV[4]) == 1 then
    for _, sid in ipairs(redis.call('SMEMBERS', KEYS[2])) do
      local v = redis.call('GET', ARGV[5] .. sid)
      if not v or v == ARGV[3] then redis.call('SREM', KEYS[2], sid) end
    end
  end
  if redis.call('TTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[2], ARGV[2]) end
end
return 1`;

const TOUCH_UNLESS_GONE = `
if redis.call('GET', KEYS[1]) == ARGV[2] then return 0 end
local touched = redis.call('EXPIRE', KEYS[1], ARGV[1])
if KEYS[2] and touched == 1 then
  redis.call('SADD', KEYS[2], ARGV[3])
  if redis.call('TTL', KEYS[2]) < tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[2], ARGV[1]) end
end
return touched`;

// The owner is read from the value being replaced (cjson ships with Redis): its index set is named from it.
const TOMBSTONE_SET = `
local cur = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if cur then
  local ok, v = pcall(cjson.decode, cur)
  if ok and type(v) == 'table' and type(v.connection) == 'table' and type(v.connection.userId) == 'string' then
    redis.call('SREM', ARGV[3] .. v.connection.userId, ARGV[4])
  end
end
return 1`;

// Members whose key is gone, a tombstone, or no longer this person's session are dropped as they are read.
const SESSIONS_OF = `
local out = {}
for _, sid in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local v = redis.call('GET', ARGV[1] .. sid)
  if v and string.find(v, ARGV[2], 1, true) then table.insert(out, sid) else redis.call('SREM', KEYS[1], sid) end
end
return out`;

// The replacement has no owner: the id leaves the index of the one it replaces.
const REPLACE = `
local cur = redis.call('GET', KEYS[1])
if not cur or cur == ARGV[2] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
local ok, v = pcall(cjson.decode, cur)
if ok and type(v) == 'table' and type(v.connection) == 'table' and type(v.connection.userId) == 'string' then
  redis.call('SREM', ARGV[3] .. v.connection.userId, ARGV[4])
end
return 1`;

interface ScriptRunner {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** connect-redis's rule: the cookie's expiry, else a day. */
function ttlOf(sess: SessionData): number {
  const expires = sess.cookie?.expires;
  return expires ? Math.ceil((Number(new Date(expires)) - Date.now()) / 1000) : 86400;
}

function settle(work: Promise<unknown>, cb?: Callback): Promise<unknown> {
  if (!cb) return work;
  return work.then(
    (data: unknown): unknown => cb(null, data),
    (err: unknown): unknown => cb(err),
  );
}

/** `work`, or a rejection after `ms`: the shared cache's own, shorter deadline (it falls back to the provider). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreDeadlineError(ms)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

export class StoreDeadlineError extends Error {
  constructor(ms: number) {
    super(`the session store did not answer within ${ms} ms`);
    this.name = 'StoreDeadlineError';
  }
}

/**
 * Sessions in Redis (connect-redis + the official client), shared by every
 * instance. The client reconnects by itself; while it is down, commands fail
 * at once instead of queueing (disableOfflineQueue), so a request gets a 503
 * page instead of hanging. Keys expire with the cookie (connect-redis takes
 * the TTL from `cookie.expires`, and `touch` pushes it back on each request).
 */
export async function createRedisSessionStore(
  config: Pick<Config, 'redisUrl' | 'redisPrefix'>,
  logger: Logger,
  options: RedisStoreOptions = {},
): Promise<SessionStoreHandle> {
  const { clientName = 'pagelight', deadlineMs = 1000, heartbeatMs = 2000, startWaitMs = 3000 } = options;
  const client = createClient({
    url: config.redisUrl,
    name: clientName,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2000,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000),
    },
  });

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

  const bound = <T>(work: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (!stalled)
          logger.warn(`session store (redis) did not answer within ${deadlineMs} ms; serving 503 until it does`);
        stalled = true;
        reject(new StoreDeadlineError(deadlineMs));
      }, deadlineMs);
      work.then(
        (value) => {
          clearTimeout(timer);
          stalled = false;
          resolve(value);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
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
  let waitTimer: NodeJS.Timeout | undefined;
  const ready = await Promise.race([
    connected,
    new Promise<false>((resolve) => {
      waitTimer = setTimeout(resolve, startWaitMs, false);
    }),
  ]);
  clearTimeout(waitTimer);
  if (!ready) logger.error('session store (redis) is not reachable at start; serving 503 until it is');

  const destroyQuietly = () => {
    try {
      if (client.isOpen) client.destroy();
    } catch {
      // already closed
    }
  };
  const store = new BoundedRedisStore(
    { client, prefix: config.redisPrefix, serializer: tolerantJson },
    bound,
    { eval: (script, options) => client.eval(script, options) },
    config.redisPrefix,
  );
  const evalBound = (script: string, keys: string[], args: string[]) =>
    bound(client.eval(script, { keys, arguments: args }));
  const sendCommand = (args: string[]) => bound(client.sendCommand(args));
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
  const redis: SharedRedis = {
    command: (args, ms) => within(client.sendCommand(args), ms),
    subscribe: async (channel, listener) => {
      const { sub, up } = subscriberOf();
      await within(up, startWaitMs);
      await within(
        sub.subscribe(channel, (message: string) => listener(message)),
        deadlineMs,
      );
    },
  };
  return {
    store,
    kind: 'redis',
    sendCommand,
    redis,
    index: {
      sessionsOf: async (userId) => {
        const sids = await evalBound(
          SESSIONS_OF,
          [indexKey(config.redisPrefix, userId)],
          [config.redisPrefix, `"userId":${JSON.stringify(userId)}`],
        );
        return Array.isArray(sids) ? sids.filter((sid): sid is string => typeof sid === 'string') : [];
      },
    },
    replace: async (sid, sess) => {
      const current = (await store.get(sid)) as SessionData | null | undefined;
      if (!current) return false;
      const done = await evalBound(
        REPLACE,
        [config.redisPrefix + sid],
        [JSON.stringify({ ...sess, cookie: current.cookie }), TOMBSTONE, config.redisPrefix + INDEX_INFIX, sid],
      );
      return done === 1;
    },
    records: redisRecords(sendCommand, config.redisPrefix),
    healthy: () => client.isReady && !stalled,
    close: async () => {
      closing = true;
      clearInterval(heartbeat);
      try {
        if (subscriber?.isOpen) subscriber.destroy();
      } catch {
        // already closed
      }
      if (client.isReady && !stalled) {
        // QUIT waits for the replies still owed; a stalled server gets no such courtesy.
        await bound(client.close()).catch(() => destroyQuietly());
      } else {
        destroyQuietly();
      }
    },
  };
}
