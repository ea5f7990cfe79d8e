import { RedisPageCache } from '../../src/cache/redis-page-cache';
import { GraphApiError } from '../../src/graph/errors';
import { createLogger } from '../../src/log/logger';
import type { SharedRedis } from '../../src/redis';
import { describeWithRedis, useRedisAdmin, uniqueKeyPrefix } from '../support/redis';

/**
 * Views that join a load already under way in their process (docs/architecture.md#shared-cache): they share its
 * answer, never another session's refusal. Real Redis; skipped without REDIS_URL.
 */
const PREFIX = uniqueKeyPrefix('cache:');

const graphError = (code: number, message: string, status: number) =>
  new GraphApiError({ code, message, type: 'OAuthException', subcode: undefined, fbtraceId: undefined }, status);

/** A load the test finishes when it wants, and whether it ran. */
function heldLoad<T>() {
  let settle!: { resolve: (v: T) => void; reject: (e: unknown) => void };
  const promise = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  const load = jest.fn(() => promise);
  return { load, ...settle };
}

describeWithRedis()('RedisPageCache: views joining a load under way', () => {
  // Connected before the tests; every key under PREFIX deleted after them.
  const admin = useRedisAdmin(PREFIX);
  const shared: SharedRedis = { command: (args) => admin.client.sendCommand(args), subscribe: () => Promise.resolve() };
  let page = 0;
  const cache = () =>
    new RedisPageCache(shared, { ttlSec: 60, prefix: PREFIX, logger: createLogger({ level: 'silent' }) });

  /** Two views of one part: the first's load held, the second started once the first is under way. */
  async function twoViews(c: RedisPageCache) {
    const id = String(++page);
    const first = heldLoad<string>();
    const mine = jest.fn(async () => 'the joiner’s own answer');
    const firstView = c.get(id, 'feed', 'first shared', first.load);
    // The first view's load starts once Redis answered its read and its lock.
    while (first.load.mock.calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const secondView = c.get(id, 'feed', 'first shared', mine);
    return { first, mine, firstView, secondView };
  }

  it.each([
    ['token refused (190)', graphError(190, 'Error validating access token', 400), 'token'],
    ['permission refused', graphError(10, 'Requires pages_read_engagement', 403), 'permission'],
  ])(
    "when the load it joined fails with the loader's %s, then the joiner loads with its own and gets its answer",
    async (_refusal, error, kind) => {
      const { first, mine, firstView, secondView } = await twoViews(cache());
      first.reject(error);
      await expect(firstView).rejects.toMatchObject({ kind });
      await expect(secondView).resolves.toBe('the joiner’s own answer');
      expect(mine).toHaveBeenCalledTimes(1);
    },
  );

  it('when the load it joined fails for everyone (the provider is down), then the joiner shares the failure and asks nothing more', async () => {
    const { first, mine, firstView, secondView } = await twoViews(cache());
    first.reject(graphError(2, 'Service temporarily unavailable', 503));
    await expect(firstView).rejects.toMatchObject({ kind: 'transient' });
    await expect(secondView).rejects.toMatchObject({ kind: 'transient' });
    expect(mine).not.toHaveBeenCalled();
  });

  it('when the load it joined succeeds, then the joiner gets that answer and loads nothing', async () => {
    const { first, mine, firstView, secondView } = await twoViews(cache());
    first.resolve('the first answer');
    await expect(firstView).resolves.toBe('the first answer');
    await expect(secondView).resolves.toBe('the first answer');
    expect(mine).not.toHaveBeenCalled();
  });
});
