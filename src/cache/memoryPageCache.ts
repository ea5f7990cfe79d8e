import { LRUCache } from 'lru-cache';
import type { CachedPart, PageCacheStore } from './pageCache';

export interface PageCacheOptions {
  /** Seconds an answer is served from the cache; 0 turns the cache off (PAGE_CACHE_TTL). */
  ttlSec: number;
  /** Most entries kept (two per page). */
  maxEntries?: number;
  /** Most bytes kept, counted as the length of each answer's JSON. */
  maxBytes?: number;
}

export const DEFAULT_MAX_ENTRIES = 2000;
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

interface Entry {
  pageId: string;
  value: unknown;
}

/**
 * Provider answers per page, shared by every session allowed to see that page.
 * It is keyed by page, part and variant (fields, grant, page role), never by
 * token: the caller must have checked that the session holds a page token for
 * the page, and that this token succeeded upstream recently, *before* asking
 * (see pages/load.ts). Bounded in entries and bytes
 * (LRU), entries live `ttlSec`; a page's entries are dropped when the
 * provider refuses a token for it, and those of one grant and role when it
 * refuses a permission to a session holding them.
 */
export class PageCache implements PageCacheStore {
  readonly enabled: boolean;
  /** Answers served from the cache / loaded upstream, for tests and the benchmark. */
  hits = 0;
  misses = 0;
  private readonly lru: LRUCache<string, Entry> | undefined;
  /** Keys per page, so a page can be dropped without scanning the cache. */
  private readonly byPage = new Map<string, Set<string>>();
  /** Bumped by every drop: a load that started before a drop does not store its (possibly stale) answer. */
  private epoch = 0;

  constructor(options: PageCacheOptions) {
    this.enabled = options.ttlSec > 0;
    if (!this.enabled) return;
    this.lru = new LRUCache<string, Entry>({
      max: options.maxEntries ?? DEFAULT_MAX_ENTRIES,
      maxSize: options.maxBytes ?? DEFAULT_MAX_BYTES,
      // Sized once, when stored; an answer bigger than the whole budget is simply not kept.
      sizeCalculation: (entry) => Math.max(1, Buffer.byteLength(JSON.stringify(entry.value) ?? '')),
      ttl: options.ttlSec * 1000,
      updateAgeOnGet: false,
      allowStale: false,
      dispose: (entry, key) => this.unindex(entry.pageId, key),
    });
  }

  /**
   * The cached answer, or `load()`'s (then kept). Call only once the session
   * is known to hold a page token for `pageId`.
   */
  async get<T>(pageId: string, part: CachedPart, variant: string, load: () => Promise<T>): Promise<T> {
    if (!this.lru) return load();
    const key = `${pageId}\u0000${part}\u0000${variant}`;
    const entry = this.lru.get(key);
    if (entry) {
      this.hits++;
      return entry.value as T;
    }
    this.misses++;
    const epoch = this.epoch;
    const value = await load();
    if (epoch === this.epoch) this.store(pageId, key, value);
    return value;
  }

  /**
   * Always `load()`s, then keeps the answer for everyone allowed to share it:
   * for a session whose own token has not proved itself upstream recently
   * (docs/architecture.md#page-cache).
   */
  async refresh<T>(pageId: string, part: CachedPart, variant: string, load: () => Promise<T>): Promise<T> {
    if (!this.lru) return load();
    this.misses++;
    const epoch = this.epoch;
    const value = await load();
    if (epoch === this.epoch) this.store(pageId, `${pageId}\u0000${part}\u0000${variant}`, value);
    return value;
  }

  /** Forgets everything cached for the page (the provider refused a token for it). */
  dropPage(pageId: string): void {
    this.epoch++;
    const keys = this.byPage.get(pageId);
    if (!keys || !this.lru) return;
    for (const key of [...keys]) this.lru.delete(key);
    this.byPage.delete(pageId);
  }

  /**
   * Forgets one part of a page (the provider said its feed, or its details, changed). A load under way may have
   * read the old answer, so, as with a whole drop, it does not store it. Dropping twice is the same as once.
   */
  dropPart(pageId: string, part: CachedPart): void {
    this.epoch++;
    const keys = this.byPage.get(pageId);
    if (!keys || !this.lru) return;
    const prefix = `${pageId}\u0000${part}\u0000`;
    for (const key of [...keys]) if (key.startsWith(prefix)) this.lru.delete(key);
  }

  /**
   * Not counted as a drop (the epoch stays): a refused session drops its entries on every view, and a load of
   * any page under way meanwhile would otherwise not be kept. A load of this very entry may still store it, as
   * in the shared cache; its refused session reads the cache only once its own token succeeds again.
   */
  dropEntry(pageId: string, part: CachedPart, variant: string): void {
    this.lru?.delete(`${pageId}\u0000${part}\u0000${variant}`);
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }

  get bytes(): number {
    return this.lru?.calculatedSize ?? 0;
  }

  private store(pageId: string, key: string, value: unknown): void {
    this.lru!.set(key, { pageId, value });
    if (this.lru!.has(key)) this.index(pageId, key);
  }

  private index(pageId: string, key: string): void {
    let keys = this.byPage.get(pageId);
    if (!keys) this.byPage.set(pageId, (keys = new Set()));
    keys.add(key);
  }

  private unindex(pageId: string, key: string): void {
    const keys = this.byPage.get(pageId);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.byPage.delete(pageId);
  }
}
