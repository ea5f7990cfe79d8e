/**
 * What is cached for a page: its details, the first page of its feed, its insights (the Page's and its
 * posts'), per post (the variant names it) the post and the first page of its comments, and the posts it has
 * scheduled (shown to those who may publish: the page view's count and the scheduled posts' page).
 */
export type CachedPart = 'details' | 'feed' | 'insights' | 'post' | 'comments' | 'scheduled';

/** Every part: what dropping a whole page drops. */
export const CACHED_PARTS: readonly CachedPart[] = ['details', 'feed', 'insights', 'post', 'comments', 'scheduled'];

/**
 * What a read knows: `live` when the provider pushes the page's changes (webhooks subscribed); `session`, whose
 * read it is, so that what it stores counts against that session's share of the cache.
 */
export interface ReadOptions {
  live?: boolean;
  session?: string;
  /**
   * The session's own token has not proved itself upstream recently (pages/cache-policy.ts): always `load()`,
   * whatever is cached, then keep the answer for everyone allowed to share it.
   */
  refresh?: boolean;
}

/**
 * The bounded share (docs/architecture.md#bounded-share): one Page, and one session, may hold at most this
 * fraction of the cache's entries (and, in memory, of its bytes). Storing past it drops the owner's own oldest
 * entries, never anyone else's: a session that views hundreds of posts, or a Page with thousands, pushes out at
 * most this much of what others are served.
 */
export const MAX_SHARE = 1 / 4;

/**
 * How an answer of this age may serve: `fresh` within the TTL; `stale` past it only for a live page (the provider
 * pushes its changes, so a late refresh is safe), up to `staleFactor` TTLs, while one refresh runs; else `expired`.
 */
export function freshnessOf(ageMs: number, ttlMs: number, staleFactor: number, live: boolean): Freshness {
  if (ageMs < ttlMs) return 'fresh';
  return live && ageMs < ttlMs * staleFactor ? 'stale' : 'expired';
}

export type Freshness = 'fresh' | 'stale' | 'expired';

/**
 * The page cache as a page view uses it: this process's (./memory-page-cache) or the one shared by every
 * instance in Redis (./redis-page-cache).
 * @see docs/architecture.md#page-cache
 */
export interface PageCacheStore {
  readonly enabled: boolean;
  /** Answers served from the cache / loaded upstream, for tests and the benchmark. */
  readonly hits: number;
  readonly misses: number;
  /**
   * The cached answer, or `load()`'s (then kept). Call only once the session is known to hold a page token
   * for `pageId`. A live page's answer past its TTL is served while one refresh runs in the background.
   */
  get<T>(pageId: string, part: CachedPart, variant: string, load: () => Promise<T>, options?: ReadOptions): Promise<T>;
  dropPage(pageId: string): void;
  dropPart(pageId: string, part: CachedPart): void;
  /** Forgets one variant of one part: what the cache holds for one grant and role. */
  dropEntry(pageId: string, part: CachedPart, variant: string): void;
}

/** An entry a store found: its answer and when it was stored (the store's clock). */
export interface FoundEntry {
  answer: unknown;
  storedAt: number;
}

/**
 * What a store read for an entry: the entry when it may be served at some age (`undefined`, none), and what else
 * the store read on the way, handed back to its `fill` and `revalidate`.
 */
export interface Lookup<Seen> {
  entry: FoundEntry | undefined;
  seen: Seen;
}

/**
 * How both stores serve a read (`get`): the counts, which entry serves at which age (`freshnessOf`), when a
 * refresh is started in the background and when the store loads. A store says where an entry lives (its slot),
 * how it is looked up, loaded and kept: in this process's memory or in Redis.
 */
export abstract class CachedReads<Slot, Seen> implements PageCacheStore {
  abstract readonly enabled: boolean;
  hits = 0;
  misses = 0;
  /** Stale answers served while a refresh ran, and refreshes started (for tests and the benchmark). */
  staleServed = 0;
  revalidations = 0;

  protected constructor(
    protected readonly ttlMs: number,
    protected readonly staleFactor: number,
    protected readonly now: () => number,
  ) {}

  async get<T>(pageId: string, part: CachedPart, variant: string, load: () => Promise<T>, options: ReadOptions = {}) {
    if (!this.enabled) return load();
    const slot = this.slotOf(pageId, part, variant, options.session);
    if (options.refresh) {
      this.misses++;
      return this.reload(slot, load, options);
    }
    const joined = this.joined(slot, load);
    if (joined) {
      this.hits++;
      return joined;
    }
    // Awaited only when the store reads asynchronously: a memory read and its load start within the call, so a
    // drop right after it keeps that load's answer out.
    const looked = this.lookup(slot);
    const found = looked instanceof Promise ? await looked : looked;
    if (!found) {
      // The store cannot be read now: the view reads upstream.
      this.misses++;
      return load();
    }
    const { entry } = found;
    const freshness =
      entry && freshnessOf(this.now() - entry.storedAt, this.ttlMs, this.staleFactor, options.live === true);
    if (entry && freshness !== 'expired') {
      this.hits++;
      if (freshness === 'stale') {
        this.staleServed++;
        this.revalidate(slot, found.seen, load, options.session);
      }
      return entry.answer as T;
    }
    this.misses++;
    return this.fill(slot, found.seen, load, options);
  }

  abstract dropPage(pageId: string): void;
  abstract dropPart(pageId: string, part: CachedPart): void;
  abstract dropEntry(pageId: string, part: CachedPart, variant: string): void;

  /** Where one variant of one part of a page is kept, read by `session` when known. */
  protected abstract slotOf(pageId: string, part: CachedPart, variant: string, session: string | undefined): Slot;
  /** A load of this very entry under way that the read may share instead, when the store keeps such. */
  protected joined<T>(_slot: Slot, _load: () => Promise<T>): Promise<T> | undefined {
    return undefined;
  }
  /** The entry and what else was read, or undefined when the store cannot be read now. */
  protected abstract lookup(slot: Slot): Promise<Lookup<Seen> | undefined> | Lookup<Seen>;
  /** A missed entry: load it and keep the answer. */
  protected abstract fill<T>(slot: Slot, seen: Seen, load: () => Promise<T>, options: ReadOptions): Promise<T>;
  /** A refresh (`ReadOptions.refresh`): load, whatever is cached, and keep the answer. */
  protected abstract reload<T>(slot: Slot, load: () => Promise<T>, options: ReadOptions): Promise<T>;
  /** A stale entry was served: refresh it in the background, at most once at a time. */
  protected abstract revalidate(
    slot: Slot,
    seen: Seen,
    load: () => Promise<unknown>,
    session: string | undefined,
  ): void;
}
