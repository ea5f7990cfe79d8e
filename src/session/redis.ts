import { RedisStore } from 'connect-redis';
import type { SessionData } from 'express-session';
import type { Config } from '../config';
import type { Redis } from '../redis';
import { TOMBSTONE_MS } from './lifetimes';
import { redisRecords } from './records';
import { tolerantJson } from './serializer';
import type { SessionStoreHandle } from './store';
import { MAX_SESSIONS_PER_PERSON, ownerOf } from './user-index';

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
      arguments: [
        JSON.stringify(sess),
        String(ttl),
        TOMBSTONE,
        sid,
        this.keyPrefix,
        String(MAX_SESSIONS_PER_PERSON),
        String(TOMBSTONE_MS),
      ],
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

/** Sessions by provider user id: a set per person, `<prefix>user:<id>`. */
const INDEX_INFIX = 'user:';
export function indexKey(prefix: string, userId: string): string {
  return `${prefix}${INDEX_INFIX}${userId}`;
}

/** A stored session that the provider signed out: only content that carries the same key may replace it. */
const SIGNED_OUT_MARK = '"signedOutAt":';

// KEYS[2], when given, is the owner's index set. When a new id joins, it is pruned of ids whose key is gone, and
// past ARGV[6] live members the ones closest to expiry (the least recently used) end, as a logout would (a
// tombstone for ARGV[7] ms): the set never holds more than ARGV[6] + 1 ids, so this scan is bounded.
// It lives at least as long as its longest-lived member, so it expires with the last of them.
const SET_UNLESS_GONE = `
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[3] then return 0 end
if cur and string.find(cur, '${SIGNED_OUT_MARK}', 1, true) and not string.find(ARGV[1], '${SIGNED_OUT_MARK}', 1, true) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
if KEYS[2] then
  if redis.call('SADD', KEYS[2], ARGV[4]) == 1 then
    local live = {}
    for _, sid in ipairs(redis.call('SMEMBERS', KEYS[2])) do
      local v = redis.call('GET', ARGV[5] .. sid)
      if not v or v == ARGV[3] then redis.call('SREM', KEYS[2], sid)
      else table.insert(live, { sid, redis.call('PTTL', ARGV[5] .. sid) }) end
    end
    local excess = #live - tonumber(ARGV[6])
    if excess > 0 then
      table.sort(live, function(x, y) return x[2] < y[2] end)
      for i = 1, excess do
        if live[i][1] ~= ARGV[4] then
          redis.call('SET', ARGV[5] .. live[i][1], ARGV[3], 'PX', ARGV[7])
          redis.call('SREM', KEYS[2], live[i][1])
        end
      end
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

/**
 * Lua: `owner`, the user id of the decoded session `v` (when `ok`), or false. A session written before the sign-in
 * had its name keeps it under `connection` (./schema.ts `renamed`).
 */
const OWNER = `local s = ok and type(v) == 'table' and (type(v.signIn) == 'table' and v.signIn or v.connection)
local owner = type(s) == 'table' and type(s.userId) == 'string' and s.userId`;

// The owner is read from the value being replaced (cjson ships with Redis): its index set is named from it.
const TOMBSTONE_SET = `
local cur = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if cur then
  local ok, v = pcall(cjson.decode, cur)
  ${OWNER}
  if owner then redis.call('SREM', ARGV[3] .. owner, ARGV[4]) end
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
${OWNER}
if owner then redis.call('SREM', ARGV[3] .. owner, ARGV[4]) end
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

/**
 * Where the session store's keys live: sessions `<prefix><sid>`, the index `<prefix>user:<id>` and the records
 * (deletion codes, `sessions-since`). `sess:` under REDIS_KEY_PREFIX, so the default `pagelight:` keeps the keys
 * that REDIS_PREFIX's default `pagelight:sess:` made (docs/configuration.md#redis-keys).
 */
export function sessionKeyPrefix(config: Pick<Config, 'redisKeyPrefix'>): string {
  return `${config.redisKeyPrefix}sess:`;
}

/**
 * Sessions in Redis (connect-redis over the app's one Redis client, src/redis.ts), shared by every instance. Keys
 * expire with the cookie (connect-redis takes the TTL from `cookie.expires`, and `touch` pushes it back on
 * each request). Closing the client is its owner's part (src/context.ts contextClosers).
 */
export function createRedisSessionStore(redis: Redis, config: Pick<Config, 'redisKeyPrefix'>): SessionStoreHandle {
  const prefix = sessionKeyPrefix(config);
  const store = new BoundedRedisStore(
    { client: redis.client, prefix: prefix, serializer: tolerantJson },
    (work) => redis.bound(work),
    { eval: (script, options) => redis.client.eval(script, options) },
    prefix,
  );
  return {
    store,
    kind: 'redis',
    index: {
      sessionsOf: async (userId) => {
        const sids = await redis.eval(
          SESSIONS_OF,
          [indexKey(prefix, userId)],
          [prefix, `"userId":${JSON.stringify(userId)}`],
        );
        return Array.isArray(sids) ? sids.filter((sid): sid is string => typeof sid === 'string') : [];
      },
    },
    replace: async (sid, sess) => {
      const current = (await store.get(sid)) as SessionData | null | undefined;
      if (!current) return false;
      const done = await redis.eval(
        REPLACE,
        [prefix + sid],
        [JSON.stringify({ ...sess, cookie: current.cookie }), TOMBSTONE, prefix + INDEX_INFIX, sid],
      );
      return done === 1;
    },
    records: redisRecords((args) => redis.send(args), prefix),
    healthy: () => redis.healthy(),
    close: () => Promise.resolve(),
  };
}
