/** A token bucket per source: `perMinute` requests, refilled continuously, remembering at most `maxSources`. */
export class SourceRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly maxSources = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one token for `source`; false when its bucket is empty. */
  take(source: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(source) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) / 60_000) * this.perMinute);
    bucket.at = now;
    this.buckets.delete(source); // re-inserted last, so the map's first entry is the least recently seen
    this.buckets.set(source, bucket);
    if (this.buckets.size > this.maxSources) this.buckets.delete(this.buckets.keys().next().value as string);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
