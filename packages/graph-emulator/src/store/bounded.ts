/**
 * A Map with a size cap and a time-to-live: the emulator keeps pending dialog
 * requests, codes and tokens in memory, and a long benchmark must not make it
 * grow without bound. Oldest entries are dropped first (insertion order).
 */
export class BoundedMap<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();

  constructor(
    private readonly maxSize: number,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  set(key: string, value: V): void {
    this.prune();
    this.entries.delete(key);
    this.entries.set(key, { value, at: this.now() });
    while (this.entries.size > this.maxSize) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.now() - entry.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Get and remove: single-use entries. */
  take(key: string): V | undefined {
    const value = this.get(key);
    this.entries.delete(key);
    return value;
  }

  values(): V[] {
    this.prune();
    return [...this.entries.values()].map((e) => e.value);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }

  private prune(): void {
    const limit = this.now() - this.ttlMs;
    for (const [key, entry] of this.entries) {
      // Insertion order is age order, so stop at the first live entry.
      if (entry.at >= limit) break;
      this.entries.delete(key);
    }
  }
}
