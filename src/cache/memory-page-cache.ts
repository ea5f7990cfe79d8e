import { LRUCache } from 'lru-cache';
import { CACHED_PARTS, CachedReads, MAX_SHARE, type CachedPart, type Lookup, type ReadOptions } from './page-cache';

export interface MemoryPageCacheOptions {
  /** Seconds an answer is served from the cache; 0 turns the cache off (PAGE_CACHE_TTL). */
  ttlSec: number;
  /** Most entries kept (two per page viewed, more once its insights are). */
  maxEntries?: number;
  /** Most bytes kept, counted as the length of each answer's JSON. */
  maxBytes?: number;
  /** A live page's answer may be served up to this many TTLs old while one refresh runs (default 10). */
  staleFactor?: number;
  /** Entries one Page or one session may hold (default MAX_SHARE of maxEntries). */
  shareEntries?: number;
  /** Bytes one Page or one session may hold (default MAX_SHARE of maxBytes). */
  shareBytes?: number;
  now?: () => number;
}

export const DEFAULT_MAX_ENTRIES = 2000;
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** Background refreshes (stale-while-revalidate) under way at most, as in the shared cache. */
const MAX_REVALIDATING = 64;

interface Entry {
  pageId: string;
  /** The session whose read stored it, when known: the entry counts against that session's share. */
  session: string | undefined;
  /** Its JSON's length, as the byte bound counts it. */
  bytes: number;
  /** When the answer was stored (the `now` option's clock). */
  storedAt: number;
  answer: unknown;
}

/** Where an entry is kept: its page, its part and its key in the LRU. */
interface Slot {
  pageId: string;
  part: CachedPart;
  key: string;
}

/** Loads under way for one part of one page, and the drops of that part they have seen begin. */
interface InFlight {
  loads: number;
  drops: number;
}

/**
 * Provider answers per page, shared by every session allowed to see that page. It is keyed by page, part
 * and variant (fields, grant, page role), never by token: the caller must have checked that the session
 * holds a page token for the page, and that this token succeeded upstream recently, *before* asking (see
 * pages/cache-policy.ts). Bounded in entries and bytes (LRU); entries are served `ttlSec`, and a live page's (webhooks
 * subscribed) up to `staleFactor` TTLs while one refresh runs, as in the shared cache. A page's entries are
 * dropped when the provider refuses a token for it, and those of one grant and role when it refuses a
 * permission to a session holding them; a load of a part under way when that part is dropped is not kept.
 */
export class MemoryPageCache extends CachedReads<Slot, undefined> {
  readonly enabled: boolean;
  private readonly lru: LRUCache<string, Entry> | undefined;
  /** Keys per page, oldest stored first, so a page can be dropped without scanning the cache and kept to its share. */
  private readonly byPage = new Map<string, Owned>();
  /** Keys per session, oldest stored first: each session kept to its share. */
  private readonly bySession = new Map<string, Owned>();
  private readonly shareEntries: number;
  private readonly shareBytes: number;
  /** By page and part, only while loads are under way: a drop of page A never keeps page B's load out. */
  private readonly inFlight = new Map<string, InFlight>();
  private readonly revalidating = new Set<string>();

  constructor(options: MemoryPageCacheOptions) {
    super(options.ttlSec * 1000, options.staleFactor ?? 10, options.now ?? Date.now);
    this.enabled = options.ttlSec > 0;
    const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.shareEntries = Math.max(1, options.shareEntries ?? Math.floor(maxEntries * MAX_SHARE));
    this.shareBytes = Math.max(1, options.shareBytes ?? Math.floor(maxBytes * MAX_SHARE));
    if (!this.enabled) return;
    this.lru = new LRUCache<string, Entry>({
      max: maxEntries,
      maxSize: maxBytes,
      // Sized once, when stored; an answer bigger than the whole budget is simply not kept.
      sizeCalculation: (entry) => entry.bytes,
      // The longest an entry may serve (a live page's, stale); each read checks its age against the TTL.
      ttl: this.ttlMs * this.staleFactor,
      updateAgeOnGet: false,
      allowStale: false,
      dispose: (entry, key) => this.unindex(entry, key),
    });
  }

  protected slotOf(pageId: string, part: CachedPart, variant: string): Slot {
    return { pageId, part, key: keyOf(pageId, part, variant) };
  }

  protected lookup({ key }: Slot): Lookup<undefined> {
    return { entry: this.lru!.get(key), seen: undefined };
  }

  protected fill<T>(slot: Slot, _seen: undefined, load: () => Promise<T>, options: ReadOptions): Promise<T> {
    return this.loadAndStore(slot, load, options);
  }

  protected reload<T>(slot: Slot, load: () => Promise<T>, options: ReadOptions): Promise<T> {
    return this.loadAndStore(slot, load, options);
  }

  /** Forgets everything cached for the page (the provider refused a token for it). */
  dropPage(pageId: string): void {
    for (const part of CACHED_PARTS) this.dropPart(pageId, part);
  }

  /**
   * Forgets one part of a page (the provider said its feed, or its details, changed). A load of that part
   * under way may have read the old answer, so it does not store it. Dropping twice is the same as once.
   */
  dropPart(pageId: string, part: CachedPart): void {
    const flight = this.inFlight.get(`${pageId}\u0000${part}`);
    if (flight) flight.drops++;
    const keys = this.byPage.get(pageId)?.keys;
    if (!keys || !this.lru) return;
    const prefix = `${pageId}\u0000${part}\u0000`;
    for (const key of [...keys.keys()]) if (key.startsWith(prefix)) this.lru.delete(key);
  }

  /**
   * Not counted as a drop of the part: a refused session drops its entries on every view, and the part's
   * loads for other grants under way meanwhile would otherwise not be kept. A load of this very entry may
   * still store it, as in the shared cache; its refused session reads the cache only once its own token
   * succeeds again.
   */
  dropEntry(pageId: string, part: CachedPart, variant: string): void {
    this.lru?.delete(keyOf(pageId, part, variant));
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }

  get bytes(): number {
    return this.lru?.calculatedSize ?? 0;
  }

  /** Every answer kept, with its key, read-only: for tests (the proof that no entry holds a token). */
  entries(): { key: string; value: unknown }[] {
    return [...(this.lru?.entries() ?? [])].map(([key, entry]) => ({ key, value: entry.answer }));
  }

  private async loadAndStore<T>({ pageId, part, key }: Slot, load: () => Promise<T>, options: ReadOptions): Promise<T> {
    const partKey = `${pageId}\u0000${part}`;
    let flight = this.inFlight.get(partKey);
    if (!flight) this.inFlight.set(partKey, (flight = { loads: 0, drops: 0 }));
    flight.loads++;
    const drops = flight.drops;
    try {
      const value = await load();
      if (flight.drops === drops) this.store(pageId, key, value, options);
      return value;
    } finally {
      if (--flight.loads === 0) this.inFlight.delete(partKey);
    }
  }

  /** One background refresh per entry; a failed one leaves the stale answer, and the next view past it loads. */
  protected revalidate(slot: Slot, _seen: undefined, load: () => Promise<unknown>, session: string | undefined): void {
    const { key } = slot;
    if (this.revalidating.has(key) || this.revalidating.size >= MAX_REVALIDATING) return;
    this.revalidating.add(key);
    this.revalidations++;
    this.loadAndStore(slot, load, { live: true, session })
      .catch(() => undefined)
      .finally(() => this.revalidating.delete(key));
  }

  private store(pageId: string, key: string, value: unknown, { live, session }: ReadOptions): void {
    const bytes = Math.max(1, Buffer.byteLength(JSON.stringify(value) ?? ''));
    // A page that is not live is never served past its TTL: its entry need not be kept longer.
    this.lru!.set(
      key,
      { pageId, session, bytes, storedAt: this.now(), answer: value },
      live ? {} : { ttl: this.ttlMs },
    );
    if (!this.lru!.has(key)) return;
    this.keepShare(this.byPage, pageId, key, bytes);
    if (session !== undefined) this.keepShare(this.bySession, session, key, bytes);
  }

  /** Notes `key` as the owner's newest, then drops the owner's own oldest entries while it holds more than its share. */
  private keepShare(owners: Map<string, Owned>, owner: string, key: string, bytes: number): void {
    let owned = owners.get(owner);
    if (!owned) owners.set(owner, (owned = { keys: new Map(), bytes: 0 }));
    owned.bytes -= owned.keys.get(key) ?? 0;
    owned.keys.delete(key);
    owned.keys.set(key, bytes);
    owned.bytes += bytes;
    while (owned.keys.size > this.shareEntries || owned.bytes > this.shareBytes) {
      const oldest = owned.keys.keys().next().value as string;
      // Deleting from the LRU runs dispose, which takes it out of every owner's list.
      if (this.lru!.has(oldest)) this.lru!.delete(oldest);
      else this.release(owners, owner, oldest);
    }
  }

  private unindex(entry: Entry, key: string): void {
    this.release(this.byPage, entry.pageId, key);
    if (entry.session !== undefined) this.release(this.bySession, entry.session, key);
  }

  private release(owners: Map<string, Owned>, owner: string, key: string): void {
    const owned = owners.get(owner);
    if (!owned) return;
    owned.bytes -= owned.keys.get(key) ?? 0;
    owned.keys.delete(key);
    if (owned.keys.size === 0) owners.delete(owner);
  }
}

/** What one Page or session holds: its keys, oldest stored first, with their bytes. */
interface Owned {
  keys: Map<string, number>;
  bytes: number;
}

function keyOf(pageId: string, part: CachedPart, variant: string): string {
  return `${pageId}\u0000${part}\u0000${variant}`;
}
