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

  /**
   * `maxBytes` bounds the lists kept in all, by the length of their text: a person's list is at most
   * MAX_LISTED_PAGES Pages, but 10,000 such lists would not fit in memory (docs/operations.md#security-notes).
   * The oldest lists go first; a list larger than the bound alone is served and not kept.
   */
  constructor(ttlSec: number, maxEntries = 10_000, maxBytes = 64 * 1024 * 1024) {
    if (ttlSec > 0)
      this.lru = new LRUCache({
        max: maxEntries,
        maxSize: maxBytes,
        sizeCalculation: listBytes,
        ttl: ttlSec * 1000,
        updateAgeOnGet: false,
      });
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
    // lru-cache keeps nothing larger than its whole bound: such a list is served this once.
    if (listBytes(pages) <= this.lru.maxSize) this.lru.set(key, pages);
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

/** A list's size as the length of its text, counted field by field (no JSON made): what it holds in memory, near enough. */
function listBytes(list: PageList): number {
  let bytes = 64;
  for (const p of list.pages) {
    bytes += 64 + p.id.length + p.name.length + (p.category?.length ?? 0) + (p.portfolio?.length ?? 0);
    bytes += p.picture?.data.url.length ?? 0;
    for (const task of p.tasks ?? []) bytes += task.length + 3;
  }
  return Math.max(1, bytes);
}
