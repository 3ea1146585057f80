/** A stored answer that can be revalidated with `If-None-Match` / `If-Modified-Since`. */
export interface CachedAnswer {
  readonly etag?: string;
  readonly lastModified?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** Size of the body as received, for the cache's byte budget. */
  readonly bytes: number;
}

/**
 * Answers kept for conditional requests, by request identity (URL and credential identity), least
 * recently used first out once the byte budget is spent. An unchanged listing then costs a `304 Not
 * Modified`, which GitHub and Gitea do not count against the rate limit.
 */
export class ConditionalCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  /** The stored answer for `key`, refreshed as most recently used. */
  get(key: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Stores an answer; one larger than a quarter of the budget is not kept. */
  set(key: string, answer: CachedAnswer): void {
    this.delete(key);
    if (answer.bytes > this.maxBytes / 4) return;
    this.entries.set(key, answer);
    this.bytes += answer.bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  /** Forgets one answer. */
  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  /** Number of answers held. */
  get size(): number {
    return this.entries.size;
  }
}
