import { createLogger } from '../../src/log/logger';
import { RedisPageCache } from '../../src/cache/redis-page-cache';
import type { SharedRedis } from '../../src/redis';
import { describeWithRedis, useRedisAdmin, uniqueKeyPrefix } from '../support/redis';

/**
 * Instances keep the answers they last read from the shared cache decoded, and Redis tells them when the
 * entry is still that one (docs/architecture.md#shared-cache). Real Redis; skipped without REDIS_URL.
 */
const describeRedis = describeWithRedis();
const PREFIX = uniqueKeyPrefix('cache:');

describeRedis('the shared page cache, decoded once per instance', () => {
  // Connected before the tests; every key under PREFIX deleted after them.
  const admin = useRedisAdmin(PREFIX);
  /** The reads' replies (the EVALs answering a list), as Redis sent them. */
  const replies: unknown[] = [];
  const shared: SharedRedis = {
    command: async (args) => {
      const reply = await admin.client.sendCommand(args);
      if (args[0] === 'EVAL' && Array.isArray(reply)) replies.push(reply);
      return reply;
    },
    subscribe: () => Promise.resolve(),
  };
  const instance = () =>
    new RedisPageCache(shared, { ttlSec: 60, prefix: PREFIX, logger: createLogger({ level: 'silent' }) });

  it('when an instance reads the answer it stored or read before, then Redis sends "=" and the same object comes back', async () => {
    const one = instance();
    const load = jest.fn(async () => ({ data: [{ id: '1_2', message: 'Rye today' }] }));
    const stored = await one.get('p1', 'feed', 'first a', load);
    replies.length = 0;
    const again = await one.get('p1', 'feed', 'first a', load);
    expect(again).toBe(stored);
    expect(load).toHaveBeenCalledTimes(1);
    expect(replies).toEqual([['0', '=', 0]]);
  });

  it('when another instance reads it, then it gets the whole entry once, the same content, and "=" after', async () => {
    const one = instance();
    const two = instance();
    const value = { id: 'p2', name: 'Bakery "<b>"' };
    await one.get('p2', 'details', 'f a', async () => value);
    replies.length = 0;
    const first = await two.get('p2', 'details', 'f a', () => Promise.reject(new Error('no load expected')));
    expect(first).toEqual(value);
    expect(first).not.toBe(value);
    expect(typeof (replies[0] as unknown[])[1]).toBe('string');
    expect((replies[0] as unknown[])[1]).not.toBe('=');
    expect(await two.get('p2', 'details', 'f a', () => Promise.reject(new Error('no load expected')))).toBe(first);
  });

  it('when the entry changed in Redis (a drop, then another instance stored anew), then the new answer is read, not the one kept', async () => {
    const one = instance();
    const two = instance();
    await one.get('p3', 'feed', 'first a', async () => ({ data: [{ id: 'old' }] }));
    two.dropPart('p3', 'feed');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const fresh = await two.get('p3', 'feed', 'first a', async () => ({ data: [{ id: 'new' }] }));
    expect(fresh).toEqual({ data: [{ id: 'new' }] });
    const seen = await one.get('p3', 'feed', 'first a', () => Promise.reject(new Error('no load expected')));
    expect(seen).toEqual({ data: [{ id: 'new' }] });
  });
});
