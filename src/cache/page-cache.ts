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
  get<T>(pageId: string, part: CachedPart, variant: string, load: () => Promise<T>, options?: ReadOptions): Promise<T>;
  refresh<T>(
    pageId: string,
    part: CachedPart,
    variant: string,
    load: () => Promise<T>,
    options?: ReadOptions,
  ): Promise<T>;
  dropPage(pageId: string): void;
  dropPart(pageId: string, part: CachedPart): void;
  /** Forgets one variant of one part: what the cache holds for one grant and role. */
  dropEntry(pageId: string, part: CachedPart, variant: string): void;
}
