/** Bounds of a {@link WeightedLru}: whichever is reached first evicts the least recently used entries. */
export interface LruLimits {
  /** Sum of the entries' weights (e.g. estimated bytes). */
  readonly maxWeight: number;
  /** Number of entries. */
  readonly maxEntries: number;
}

/** What a {@link WeightedLru} did: hits, misses (gets that found nothing) and evictions. */
export interface LruStats {
  hits: number;
  misses: number;
  evictions: number;
}

/**
 * A map bounded by entry count and total weight that forgets the least recently used entries first.
 * An entry heavier than the whole budget is not kept at all: it would only evict everything else.
 */
export class WeightedLru<V> {
  readonly stats: LruStats = { hits: 0, misses: 0, evictions: 0 };
  /** Map order is use order: the first key is the least recently used. */
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private weight = 0;

  constructor(private readonly limits: LruLimits) {}

  /** The value kept for `key`, marking it as just used. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` under `key` with `weight`, evicting least recently used entries past the limits. */
  set(key: string, value: V, weight: number): void {
    this.delete(key);
    if (weight > this.limits.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.weight += weight;
    while (this.entries.size > this.limits.maxEntries || this.weight > this.limits.maxWeight) {
      const oldest = this.entries.keys().next().value as string;
      this.delete(oldest);
      this.stats.evictions++;
    }
  }

  /** Forgets `key`. */
  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  /** Forgets every key `drop` accepts (e.g. all entries of a repository copy that was evicted). */
  deleteWhere(drop: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (drop(key)) this.delete(key);
  }

  /** Entries kept. */
  get size(): number {
    return this.entries.size;
  }

  /** Sum of the kept entries' weights. */
  get totalWeight(): number {
    return this.weight;
  }
}
