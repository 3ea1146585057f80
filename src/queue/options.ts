import type { WorkQueueOptions } from './work-queue.js';

/** Throws a clear error naming the bad option, so a misconfigured queue fails at start rather than misbehaving. */
export function validateWorkQueueOptions(options: WorkQueueOptions): void {
  const { concurrency, rateLimit, backoff } = options;
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1))
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  if (rateLimit && (!Number.isInteger(rateLimit.max) || rateLimit.max < 1))
    throw new RangeError(`rateLimit.max must be a positive integer, got ${rateLimit.max}`);
  if (rateLimit && !(rateLimit.durationMs > 0 && Number.isFinite(rateLimit.durationMs)))
    throw new RangeError(`rateLimit.durationMs must be a finite number > 0, got ${rateLimit.durationMs}`);
  if (backoff && !(backoff.baseMs > 0 && backoff.maxMs >= backoff.baseMs && Number.isFinite(backoff.maxMs))) {
    throw new RangeError(`backoff needs 0 < baseMs <= maxMs (finite), got baseMs ${backoff.baseMs}, maxMs ${backoff.maxMs}`);
  }
}
