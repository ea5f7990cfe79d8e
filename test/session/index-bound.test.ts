import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/log/logger';
import { Redis } from '../../src/redis';
import { createRedisSessionStore } from '../../src/session/redis';
import type { SessionStoreHandle } from '../../src/session/store';
import { MAX_SESSIONS_PER_PERSON } from '../../src/session/user-index';
import { storeLoggedInSession } from '../support/instances';
import { keysUnder, redisClient, type RedisClient } from '../support/redis';
import { describeWithRedis } from '../support/redis';

/**
 * The Redis session index stays bounded per person, so what a login does to it is bounded too: a person keeps at
 * most MAX_SESSIONS_PER_PERSON sessions, the least recently used ending first (docs/architecture.md#session-index).
 */
const REDIS_URL = process.env.REDIS_URL;
const describeRedis = describeWithRedis();

const PREFIX = `pagelight-test:${process.pid}-${randomBytes(4).toString('hex')}:`;
const ADA = '100000000000001';
const GRACE = '100000000000002';

describeRedis('the Redis session index, one person signing in many times', () => {
  let admin: RedisClient;
  let redis: Redis;
  let handle: SessionStoreHandle;
  beforeAll(async () => {
    admin = redisClient();
    admin.on('error', () => undefined);
    await admin.connect();
    const quiet = new Writable({ write: (_c, _e, done) => done() });
    redis = await Redis.connect({ redisUrl: REDIS_URL! }, createLogger({ level: 'silent', destination: quiet }));
    handle = createRedisSessionStore(redis, { redisKeyPrefix: PREFIX });
  });
  afterAll(async () => {
    const left = await keysUnder(admin, PREFIX);
    if (left.length) await admin.del(left);
    await redis.close();
    await admin.close();
  });

  /** A login's write: a connected session of `userId` that expires `lifetimeSec` from now. */
  const signIn = (sid: string, userId: string, lifetimeSec: number) =>
    storeLoggedInSession(handle, sid, userId, lifetimeSec);
  const read = (sid: string) =>
    new Promise<unknown>((resolve, reject) =>
      handle.store.get(sid, (err: unknown, sess?: unknown) => (err ? reject(err) : resolve(sess ?? undefined))),
    );

  it('when one person signs in 4 times the bound, then their index never holds more than the bound, the least recently used sessions end, and others are untouched', async () => {
    await signIn('grace-1', GRACE, 3600);
    const logins = 4 * MAX_SESSIONS_PER_PERSON;
    let largest = 0;
    // Each login lives longer than the one before: the first ones are the least recently used.
    for (let i = 0; i < logins; i++) {
      await signIn(`ada-${i}`, ADA, 3600 + i);
      largest = Math.max(largest, await admin.sCard(`${PREFIX}sess:user:${ADA}`));
    }
    expect(largest).toBe(MAX_SESSIONS_PER_PERSON);
    const kept = await handle.index.sessionsOf(ADA);
    expect(kept.sort()).toEqual(
      Array.from({ length: MAX_SESSIONS_PER_PERSON }, (_, i) => `ada-${logins - MAX_SESSIONS_PER_PERSON + i}`).sort(),
    );
    expect(await read('ada-0')).toBeUndefined();
    expect(await read(`ada-${logins - MAX_SESSIONS_PER_PERSON - 1}`)).toBeUndefined();
    expect(await read(`ada-${logins - 1}`)).toBeDefined();
    expect(await handle.index.sessionsOf(GRACE)).toEqual(['grace-1']);
  });
});
