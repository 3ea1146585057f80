/** A sliding-window limiter: at most `max` acquisitions in any `durationMs`; for one process. */
export class SlidingWindowLimiter {
  private readonly starts: number[] = [];

  constructor(
    private readonly max: number,
    private readonly durationMs: number,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`rate limit max must be a positive integer, got ${max}`);
    if (!Number.isFinite(durationMs) || durationMs <= 0) throw new RangeError(`rate limit duration must be > 0 ms, got ${durationMs}`);
  }

  /** Takes a slot and returns 0, or returns how many ms to wait before a slot frees up. */
  tryAcquire(now = performance.now()): number {
    while (this.starts.length > 0 && (this.starts[0] ?? 0) <= now - this.durationMs) this.starts.shift();
    if (this.starts.length < this.max) {
      this.starts.push(now);
      return 0;
    }
    return Math.max(1, (this.starts[0] ?? now) + this.durationMs - now);
  }
}
