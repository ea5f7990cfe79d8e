import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { PageList } from '../graph/schemas';

/**
 * The pages a person manages (`/me/accounts`), kept per user token for a
 * short time. Reloading the picker, and learning a connected page's role,
 * then cost no provider call: without this, one person reloading /pages
 * spent the app's whole provider budget for everyone. Keyed by a digest of
 * the token, so the cache never holds a usable credential; an answer is only
 * ever given back for the token it was fetched with.
 */
export class AccountsCache {
  private readonly lru: LRUCache<string, PageList> | undefined;
  /** Lists served from the cache / fetched (tests). */
  hits = 0;
  misses = 0;

  constructor(ttlSec: number, maxEntries = 10_000) {
    if (ttlSec > 0) this.lru = new LRUCache({ max: maxEntries, ttl: ttlSec * 1000, updateAgeOnGet: false });
  }

  async get(userToken: string, load: () => Promise<PageList>): Promise<PageList> {
    if (!this.lru) return load();
    const key = digest(userToken);
    const cached = this.lru.get(key);
    if (cached) {
      this.hits++;
      return cached;
    }
    this.misses++;
    const pages = await load();
    this.lru.set(key, pages);
    return pages;
  }

  /**
   * Forgets the list fetched with this token (the person removed the app: it holds their page tokens). Returns
   * the token's digest, the key other instances forget it by ({@link forgetKey}); the digest is no credential.
   */
  forget(userToken: string): string {
    const key = digest(userToken);
    this.lru?.delete(key);
    return key;
  }

  forgetKey(key: string): void {
    this.lru?.delete(key);
  }

  /** Every list kept, with its key, read-only: for tests (the proof that no entry holds a token). */
  entries(): { key: string; pages: PageList }[] {
    return [...(this.lru?.entries() ?? [])].map(([key, pages]) => ({ key, pages }));
  }

  /** The cached list, without fetching (undefined when not cached). */
  peek(userToken: string): PageList | undefined {
    return this.lru?.get(digest(userToken));
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
