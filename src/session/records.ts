import { LRUCache } from 'lru-cache';

/**
 * Small records kept beside the sessions, in the same backend and with their
 * own expiry: the data-deletion confirmations.
 * In Redis they are plain keys under REDIS_KEY_PREFIX, so every instance sees them.
 */
export interface RecordStore {
  put(key: string, value: string, ttlSec: number): Promise<void>;
  get(key: string): Promise<string | undefined>;
}

/** Most records the memory store keeps; past it the oldest go (one per deletion request, so far beyond real use). */
export const MEMORY_MAX_RECORDS = 100_000;

export class MemoryRecords implements RecordStore {
  private readonly lru = new LRUCache<string, string>({ max: MEMORY_MAX_RECORDS, ttlAutopurge: false });

  put(key: string, value: string, ttlSec: number): Promise<void> {
    this.lru.set(key, value, { ttl: ttlSec * 1000 });
    return Promise.resolve();
  }

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.lru.get(key));
  }

  close(): void {
    this.lru.clear();
  }
}

/** Records as Redis keys `<prefix><key>` with a TTL, through the session store's own Redis client. */
export function redisRecords(send: (args: string[]) => Promise<unknown>, prefix: string): RecordStore {
  return {
    put: async (key, value, ttlSec) => {
      await send(['SET', prefix + key, value, 'EX', String(ttlSec)]);
    },
    get: async (key) => {
      const value = await send(['GET', prefix + key]);
      return typeof value === 'string' ? value : undefined;
    },
  };
}
