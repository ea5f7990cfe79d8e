/**
 * What is cached for a page: its details, the first page of its feed, its insights (the Page's and its
 * posts'), and per post (the variant names it) the post and the first page of its comments.
 */
export type CachedPart = 'details' | 'feed' | 'insights' | 'post' | 'comments';

/** Every part: what dropping a whole page drops. */
export const CACHED_PARTS: readonly CachedPart[] = ['details', 'feed', 'insights', 'post', 'comments'];

/** What a read knows about the page: `live` when the provider pushes its changes (webhooks subscribed). */
export interface ReadOptions {
  live?: boolean;
}

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
  /** Forgets one variant of one part: what the cache holds for one grant and role (docs/architecture.md#page-cache). */
  dropEntry(pageId: string, part: CachedPart, variant: string): void;
}
