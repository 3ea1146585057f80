/** Default per-key retry backoff: 5 ms doubling per failure, capped at 1000 s. */
export const DEFAULT_BACKOFF = Object.freeze({ baseMs: 5, maxMs: 1_000_000 });

/** The delay before retry number `failures` (1 for the first failure): base·2^(failures-1), capped. */
export function backoffDelayMs(failures: number, backoff: { baseMs: number; maxMs: number } = DEFAULT_BACKOFF): number {
  if (!Number.isInteger(failures) || failures < 1) throw new RangeError(`failures must be a positive integer, got ${failures}`);
  // 2^60 already exceeds any cap; clamping the exponent avoids Infinity arithmetic.
  const delay = backoff.baseMs * 2 ** Math.min(failures - 1, 60);
  return Math.min(delay, backoff.maxMs);
}
