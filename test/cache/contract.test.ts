import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { MemoryPageCache } from '../../src/cache/memory-page-cache';
import { RedisPageCache } from '../../src/cache/redis-page-cache';
import { createLogger } from '../../src/log/logger';
import type { SharedRedis } from '../../src/redis';
import { redisMissing } from '../support/redis';
import { pageCacheContract } from './contract';

pageCacheContract('MemoryPageCache (memory)', {
  make: (options) => new MemoryPageCache(options),
  // Everything is kept before the answer is returned; a background refresh needs the loop to turn.
  written: () => new Promise((resolve) => setImmediate(resolve)),
});

const REDIS_URL = process.env.REDIS_URL;
const available = redisMissing() === undefined;
const PREFIX = `pagelight-test:${process.pid}-${randomBytes(4).toString('hex')}:contract:`;
const client = available ? createClient({ url: REDIS_URL }) : undefined;
const shared: SharedRedis = {
  command: async (args) => client!.sendCommand(args),
  subscribe: () => Promise.resolve(),
};
let caches = 0;

if (client) {
  beforeAll(() => client.connect());
  afterAll(async () => {
    const left: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 1000 })) left.push(...batch);
    if (left.length) await client.del(left);
    await client.close();
  });
}

pageCacheContract(
  'RedisPageCache (shared)',
  {
    // Each cache its own prefix: one test's entries are not another's.
    make: (options) =>
      new RedisPageCache(shared, {
        ...options,
        prefix: `${PREFIX}${++caches}:`,
        logger: createLogger({ level: 'silent' }),
      }),
    // Commands on one connection run in order: a PING answered means every write sent before it is done.
    written: async () => {
      await client!.ping();
    },
  },
  available ? describe : describe.skip,
);
