import { createHash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { z, type ZodType } from 'zod';
import { GraphApiError } from '../graph/errors';
import {
  commentsPageSchema,
  scheduledPostsSchema,
  feedPageSchema,
  insightsAnswerSchema,
  pageDetailsSchema,
  postDetailsSchema,
} from '../graph/schemas';
import { parseJson } from '../json';
import type { Logger } from '../log/logger';
import type { SharedRedis } from '../redis';
import { DEFAULT_MAX_ENTRIES } from './memory-page-cache';
import {
  CACHED_PARTS,
  freshnessOf,
  MAX_SHARE,
  type CachedPart,
  type PageCacheStore,
  type ReadOptions,
} from './page-cache';

export interface SharedCacheOptions {
  /** PAGE_CACHE_TTL, seconds; 0 turns the cache off. */
  ttlSec: number;
  /** Key prefix (REDIS_KEY_PREFIX + `cache:`). */
  prefix: string;
  logger: Logger;
  now?: () => number;
  /** Longest wait for one Redis operation before the view goes upstream instead (default 200 ms). */
  deadlineMs?: number;
  /** An answer whose JSON is longer is not kept (default 256 KB). */
  maxAnswerBytes?: number;
  /** How long the instance that fetches a missed part holds its lock (default 3000 ms). */
  lockMs?: number;
  /** How often the others look for its answer meanwhile (default 15 ms). */
  pollMs?: number;
  /** A live page's answer may be served up to this many TTLs old while one refresh runs (default 10). */
  staleFactor?: number;
  /** Entries one Page may hold, and one session store per longest entry life (default MAX_SHARE of the memory cache's size). */
  shareEntries?: number;
  /** How each part's answer read back is checked (PROVIDER_ANSWERS); a failing entry is a miss. Default: any JSON. */
  answers?: Readonly<Record<CachedPart, ZodType>>;
}

export const DEFAULT_MAX_ANSWER_BYTES = 256 * 1024;
/** Background refreshes (stale-while-revalidate) under way in one process at most. */
const MAX_REVALIDATING = 64;

/** An entry: the part's version it was stored under, when, a nonce, and the answer (last: see stampOf). */
const Stored = z.object({
  version: z.string(),
  storedAt: z.number(),
  nonce: z.string().optional(),
  answer: z.unknown(),
});
type StoredEntry = z.infer<typeof Stored>;

/**
 * What each part's answer must be when read back: the schemas of what the graph client returns (the provider's
 * answers, checked, with the feed's paging reduced to cursors and `true`). Redis is shared and outlives every
 * instance; an entry not written by this version of the app (or written by someone else) is checked like any
 * answer from outside, and one that fails is a miss. buildContext passes these; a cache made without them (unit
 * tests of the mechanism) takes any JSON.
 */
export const PROVIDER_ANSWERS: Readonly<Record<CachedPart, ZodType>> = {
  details: pageDetailsSchema,
  feed: feedPageSchema,
  insights: insightsAnswerSchema,
  post: postDetailsSchema,
  comments: commentsPageSchema,
  scheduled: scheduledPostsSchema,
};

/**
 * A failed load another session started, which a joiner must not take as its own: the provider refused *that*
 * session's token or permission. The joiner loads with its own token instead.
 */
function refusedTheLoader(err: unknown): boolean {
  return err instanceof GraphApiError && (err.kind === 'token' || err.kind === 'permission');
}

// KEYS: versions hash, entry, lock. The part's version, the entry and whether someone holds the lock, at once.
// ARGV[2]: the stamp of the entry this instance already holds decoded, or ''. When the stored entry still begins
// with it, the answer is `=` instead of the entry: nothing to send or parse.
const READ = `
local entry = redis.call('GET', KEYS[2])
if entry and ARGV[2] ~= '' and string.sub(entry, 1, #ARGV[2]) == ARGV[2] then entry = '=' end
return {redis.call('HGET', KEYS[1], ARGV[1]) or '0', entry or false, redis.call('EXISTS', KEYS[3])}`;
// Stores only when nothing dropped the part since the load began (the version read then is still current).
// KEYS[3]: the Page's entries, oldest stored first (a sorted set scored by a sequence of its own); past ARGV[6]
// entries the Page's own oldest go. All in the page's slot.
const STORE = `
if (redis.call('HGET', KEYS[1], ARGV[1]) or '0') ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
local newest = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
redis.call('ZADD', KEYS[3], (tonumber(newest[2]) or 0) + 1, KEYS[2])
local over = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[6])
if over > 0 then
  local oldest = redis.call('ZPOPMIN', KEYS[3], over)
  for i = 1, #oldest, 2 do redis.call('DEL', oldest[i]) end
end
if redis.call('PTTL', KEYS[3]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[3], ARGV[5]) end
return 1`;
// KEYS[1]: one session's stores within the longest entry life; ARGV[1] that life. The count after this store.
const COUNT_STORE = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;
const DROP = `
for i = 2, #ARGV do redis.call('HINCRBY', KEYS[1], ARGV[i], 1) end
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 1`;
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

interface Keys {
  versions: string;
  /** The Page's entries, oldest stored first: its share. */
  share: string;
  /** The count of what the reading session stored lately, when known: its share. */
  sessionStores: string | undefined;
  entry: string;
  lock: string;
  part: CachedPart;
}

interface Read {
  version: string;
  entry: StoredEntry | undefined;
  locked: boolean;
}

/** An entry as this instance last read or stored it, decoded, with the stamp that names it in Redis. */
interface Decoded {
  stamp: string;
  entry: StoredEntry;
}

/** Entries kept decoded per instance, and their bytes (as JSON) at most: as the memory cache's bounds. */
const DECODED_MAX_ENTRIES = 2000;
const DECODED_MAX_BYTES = 32 * 1024 * 1024;

/**
 * What an entry's JSON begins with, up to its answer: version, time and nonce name one stored answer. Written
 * as the record's first keys, so Redis can compare it with a prefix of the value.
 */
function stampOf(entry: { version: string; storedAt: number; nonce?: string }): string {
  const { version, storedAt, nonce } = entry;
  return `${JSON.stringify({ version, storedAt, ...(nonce === undefined ? {} : { nonce }) }).slice(0, -1)},`;
}

/**
 * The page cache in Redis, shared by every instance: same keying (page, part, variant incl. grant and role),
 * TTL as key expiry, a byte bound per answer. A drop bumps the part's version in a per-page hash; an entry
 * stored under an older version is no longer read, and a load that began before a drop does not store.
 * Several instances missing the same part at once: one takes a short lock (SET NX PX) and fetches, the
 * others poll for its answer until the lock is gone or its deadline passes, then fetch themselves. A live page
 * (webhooks subscribed) may be served past its TTL, up to `staleFactor` TTLs, while one refresh runs. Every
 * Redis operation has a deadline; when Redis fails the view reads upstream, never fails for it.
 * @see docs/architecture.md#shared-cache
 */
export class RedisPageCache implements PageCacheStore {
  readonly enabled: boolean;
  hits = 0;
  misses = 0;
  /** Stale answers served while a refresh ran, and refreshes started (for tests and the benchmark). */
  staleServed = 0;
  revalidations = 0;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly deadlineMs: number;
  private readonly maxAnswerBytes: number;
  private readonly lockMs: number;
  private readonly pollMs: number;
  private readonly staleFactor: number;
  private readonly shareEntries: number;
  /** Loads under way in this process, by entry key: a second view joins instead of polling Redis. */
  private readonly loading = new Map<string, Promise<unknown>>();
  private readonly revalidating = new Set<string>();
  /**
   * The answers this instance last read or stored, decoded, by entry key. A read that finds the same entry in
   * Redis gets `=` instead of it (READ) and returns the same object, so the view model and the rendered
   * fragments made for it are used again, as with the memory cache.
   */
  private readonly decoded = new LRUCache<string, Decoded>({
    max: DECODED_MAX_ENTRIES,
    // Sized by each entry's JSON, given when it is kept.
    maxSize: DECODED_MAX_BYTES,
  });
  private warned = 0;
  /** Entry keys whose malformed entry was already logged. */
  private readonly warnedMalformed = new LRUCache<string, true>({ max: 1000 });

  constructor(
    private readonly redis: SharedRedis,
    private readonly options: SharedCacheOptions,
  ) {
    this.enabled = options.ttlSec > 0;
    this.ttlMs = options.ttlSec * 1000;
    this.now = options.now ?? Date.now;
    this.deadlineMs = options.deadlineMs ?? 200;
    this.maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    this.lockMs = options.lockMs ?? 3000;
    this.pollMs = options.pollMs ?? 15;
    this.staleFactor = options.staleFactor ?? 10;
    this.shareEntries = Math.max(1, options.shareEntries ?? Math.floor(DEFAULT_MAX_ENTRIES * MAX_SHARE));
  }

  async get<T>(
    pageId: string,
    part: CachedPart,
    variant: string,
    load: () => Promise<T>,
    options: ReadOptions = {},
  ): Promise<T> {
    if (!this.enabled) return load();
    const keys = this.keysOf(pageId, part, variant, options.session);
    const joined = this.loading.get(keys.entry) as Promise<T> | undefined;
    if (joined) {
      this.hits++;
      return this.join(joined, load);
    }
    const read = await this.read(keys);
    if (!read) {
      this.misses++;
      return load();
    }
    const entry = read.entry;
    const current = entry?.version === read.version ? entry : undefined;
    const freshness =
      current && freshnessOf(this.now() - current.storedAt, this.ttlMs, this.staleFactor, options.live === true);
    if (current && freshness !== 'expired') {
      this.hits++;
      if (freshness === 'stale') {
        this.staleServed++;
        this.revalidate(keys, read.version, load);
      }
      return current.answer as T;
    }
    this.misses++;
    return this.fill(keys, read.version, read.locked, load, options.live === true);
  }

  async refresh<T>(
    pageId: string,
    part: CachedPart,
    variant: string,
    load: () => Promise<T>,
    options: ReadOptions = {},
  ): Promise<T> {
    if (!this.enabled) return load();
    this.misses++;
    const keys = this.keysOf(pageId, part, variant, options.session);
    // Read before the load starts, so a drop during the load keeps its answer out.
    const version = await this.version(keys);
    const value = await load();
    if (version !== undefined) void this.store(keys, version, value, options.live === true);
    return value;
  }

  dropPage(pageId: string): void {
    this.drop(pageId, [...CACHED_PARTS]);
  }

  dropPart(pageId: string, part: CachedPart): void {
    this.drop(pageId, [part]);
  }

  /**
   * Deletes the entry; its part's version stays, so the other variants stay valid. A load for this variant under
   * way may still store its answer: a session refused a permission is served from the cache only once its own
   * token succeeded again (pages/cache-policy.ts), so that answer reaches no one who was refused.
   */
  dropEntry(pageId: string, part: CachedPart, variant: string): void {
    if (!this.enabled) return;
    this.command(['DEL', this.keysOf(pageId, part, variant).entry]).catch(() => {
      this.options.logger.error({ pageId, part }, 'page cache (redis): a drop failed; the answer expires by TTL');
    });
  }

  private drop(pageId: string, parts: CachedPart[]): void {
    if (!this.enabled) return;
    const versions = this.keysOf(pageId, parts[0]!, '').versions;
    this.command(['EVAL', DROP, '1', versions, String(this.keepVersionsMs()), ...parts]).catch(() => {
      // Entries already in Redis outlive this drop until their TTL (or staleFactor TTLs on a live page).
      this.options.logger.error({ pageId, parts }, 'page cache (redis): a drop failed; cached answers expire by TTL');
    });
  }

  /** Fetches a missed part: this process's load under way, else the instance holding the lock, else ourselves. */
  private fill<T>(keys: Keys, version: string, locked: boolean, load: () => Promise<T>, live: boolean): Promise<T> {
    const existing = this.loading.get(keys.entry) as Promise<T> | undefined;
    if (existing) return this.join(existing, load);
    const work = this.fetchOnce(keys, version, locked, load, live).finally(() => {
      if (this.loading.get(keys.entry) === work) this.loading.delete(keys.entry);
    });
    this.loading.set(keys.entry, work);
    return work;
  }

  /**
   * A load under way in this process, started for another view: possibly another session's, with its token.
   * Its answer is shared (same page, part, grant and role); its refusal is not: the provider refused that
   * session's credential, so this view asks with its own (the graph client joins only identical tokens).
   */
  private join<T>(loading: Promise<T>, load: () => Promise<T>): Promise<T> {
    return loading.catch((err: unknown) => {
      if (!refusedTheLoader(err)) throw err;
      return load();
    });
  }

  private async fetchOnce<T>(
    keys: Keys,
    version: string,
    locked: boolean,
    load: () => Promise<T>,
    live: boolean,
  ): Promise<T> {
    const token = randomBytes(9).toString('base64url');
    const mine = !locked && (await this.lock(keys, token));
    if (mine) return this.loadAndStore(keys, version, token, load, live);
    // Another instance fetches: wait for its answer while it holds the lock, at most its lock's life.
    const deadline = this.now() + this.lockMs;
    while (this.now() < deadline) {
      await sleep(this.pollMs);
      const read = await this.read(keys);
      if (!read) break;
      if (read.entry && read.entry.version === read.version && this.now() - read.entry.storedAt < this.ttlMs) {
        return read.entry.answer as T;
      }
      if (!read.locked) {
        // The holder finished without storing (it failed, or a drop intervened) or died: fetch ourselves.
        if (await this.lock(keys, token)) return this.loadAndStore(keys, read.version, token, load, live);
        version = read.version;
      }
    }
    const value = await load();
    void this.store(keys, version, value, live);
    return value;
  }

  private async loadAndStore<T>(
    keys: Keys,
    version: string,
    token: string,
    load: () => Promise<T>,
    live: boolean,
  ): Promise<T> {
    try {
      const value = await load();
      await this.store(keys, version, value, live);
      return value;
    } finally {
      this.command(['EVAL', UNLOCK, '1', keys.lock, token]).catch(() => undefined);
    }
  }

  /** One background refresh per part: in this process (a set) and across instances (the lock). */
  private revalidate(keys: Keys, version: string, load: () => Promise<unknown>): void {
    if (this.revalidating.has(keys.entry) || this.revalidating.size >= MAX_REVALIDATING) return;
    this.revalidating.add(keys.entry);
    const token = randomBytes(9).toString('base64url');
    void (async () => {
      try {
        if (!(await this.lock(keys, token))) return;
        this.revalidations++;
        await this.loadAndStore(keys, version, token, load, true);
      } catch (err) {
        this.options.logger.debug({ err }, 'page cache: a background refresh failed; the next view reads upstream');
      } finally {
        this.revalidating.delete(keys.entry);
      }
    })();
  }

  private keysOf(pageId: string, part: CachedPart, variant: string, session?: string): Keys {
    // The page id in braces: a page's keys land on one Redis Cluster slot, as the scripts need.
    const page = `${this.options.prefix}{${pageId}}`;
    const id = createHash('sha256').update(variant).digest('base64url').slice(0, 22);
    // A session is named by a hash: its id opens it in the session store, and a key name is no place for it.
    const who = session === undefined ? undefined : createHash('sha256').update(session).digest('base64url');
    return {
      versions: `${page}:v`,
      share: `${page}:share`,
      sessionStores: who === undefined ? undefined : `${this.options.prefix}{session:${who.slice(0, 22)}}:stores`,
      entry: `${page}:${part}:${id}`,
      lock: `${page}:${part}:${id}:lock`,
      part,
    };
  }

  private async read(keys: Keys): Promise<Read | undefined> {
    const known = this.decoded.get(keys.entry);
    try {
      const reply = await this.command([
        'EVAL',
        READ,
        '3',
        keys.versions,
        keys.entry,
        keys.lock,
        keys.part,
        known?.stamp ?? '',
      ]);
      const [version, raw, locked] = Array.isArray(reply) ? (reply as unknown[]) : [];
      let entry: Read['entry'];
      if (raw === '=' && known) entry = known.entry;
      else if (typeof raw === 'string') entry = this.decode(keys, raw);
      return { version: typeof version === 'string' ? version : '0', entry, locked: locked === 1 };
    } catch {
      return undefined;
    }
  }

  private async version(keys: Keys): Promise<string | undefined> {
    try {
      const v = await this.command(['HGET', keys.versions, keys.part]);
      return typeof v === 'string' ? v : '0';
    } catch {
      return undefined;
    }
  }

  private async lock(keys: Keys, token: string): Promise<boolean> {
    try {
      return (await this.command(['SET', keys.lock, token, 'NX', 'PX', String(this.lockMs)])) === 'OK';
    } catch {
      // Redis failing: nobody can wait on anyone; fetch.
      return true;
    }
  }

  /**
   * An entry as Redis sent it, checked — the envelope, and the answer with the part's provider schema — or
   * undefined (a miss). Kept decoded when it begins with its stamp (every entry we write does).
   */
  private decode(keys: Keys, raw: string): StoredEntry | undefined {
    const parsed = Stored.safeParse(parseJson(raw));
    const schema = this.options.answers?.[keys.part];
    const answer = parsed.success && schema ? schema.safeParse(parsed.data.answer) : undefined;
    if (!parsed.success || (answer && !answer.success)) {
      this.malformed(keys);
      return undefined;
    }
    const entry: StoredEntry = answer ? { ...parsed.data, answer: answer.data } : parsed.data;
    const stamp = stampOf(entry);
    if (raw.startsWith(stamp)) this.decoded.set(keys.entry, { stamp, entry }, { size: raw.length });
    return entry;
  }

  /** Said once per entry key (while it is remembered), without the entry's content: it may be anyone's text. */
  private malformed(keys: Keys): void {
    if (this.warnedMalformed.has(keys.entry)) return;
    this.warnedMalformed.set(keys.entry, true);
    this.options.logger.warn(
      { key: keys.entry, part: keys.part },
      'page cache (redis): a malformed entry was read; treated as a miss',
    );
  }

  private async store(keys: Keys, version: string, value: unknown, live: boolean): Promise<void> {
    const entry: StoredEntry = {
      version,
      storedAt: this.now(),
      nonce: randomBytes(6).toString('base64url'),
      answer: value,
    };
    const stamp = stampOf(entry);
    const record = `${stamp}"answer":${JSON.stringify(value) ?? 'null'}}`;
    if (Buffer.byteLength(record) > this.maxAnswerBytes) return;
    this.decoded.set(keys.entry, { stamp, entry }, { size: record.length });
    // A live page's answer is kept staleFactor TTLs, to be served stale; a view of a page that is not live ignores it past the TTL.
    const life = live ? this.ttlMs * this.staleFactor : this.ttlMs;
    try {
      // Past its share within the longest entry life, a session's answers are served to it and not kept: in a
      // Redis Cluster its entries span every slot, so it cannot drop its own oldest as a Page does.
      if (keys.sessionStores !== undefined) {
        const life = String(this.ttlMs * this.staleFactor);
        const stored = await this.command(['EVAL', COUNT_STORE, '1', keys.sessionStores, life]);
        if (Number(stored) > this.shareEntries) return;
      }
      await this.command([
        'EVAL',
        STORE,
        '3',
        keys.versions,
        keys.entry,
        keys.share,
        keys.part,
        version,
        record,
        String(life),
        String(this.keepVersionsMs()),
        String(this.shareEntries),
      ]);
    } catch {
      // Not kept: the next view reads upstream.
    }
  }

  /** The versions hash outlives every entry stored under it, so a version never goes back while an entry lives. */
  private keepVersionsMs(): number {
    return this.ttlMs * this.staleFactor * 2;
  }

  private command(args: string[]): Promise<unknown> {
    return this.redis.command(args, this.deadlineMs).catch((err: unknown) => {
      if (this.now() - this.warned > 10_000) {
        this.options.logger.warn(
          { err: { name: (err as Error).name, message: (err as Error).message } },
          'page cache (redis) unavailable; views read the provider',
        );
      }
      this.warned = this.now();
      throw err;
    });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
